import OpenAI, { toFile } from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIServer, type TestServer } from "./openai-server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function line(id: string, user: string, model = "m"): string {
  return JSON.stringify({ custom_id: id, method: "POST", url: "/v1/chat/completions", body: { model, messages: [{ role: "user", content: user }] } });
}

async function upload(sdk: OpenAI, name: string, lines: string[]) {
  return sdk.files.create({ file: await toFile(Buffer.from(lines.join("\n") + "\n"), name), purpose: "batch" });
}

async function lines(sdk: OpenAI, fileId: string | null | undefined): Promise<Record<string, unknown>[]> {
  if (!fileId) return [];
  const text = await (await sdk.files.content(fileId)).text();
  return text.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("the test server's Files and Batches endpoints", () => {
  it("uploads multipart, lists with purpose and cursor pages, retrieves, downloads", async () => {
    server = await startOpenAIServer();
    const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: "k", maxRetries: 0 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await upload(sdk, `f${i}.jsonl`, [line(`r${i}`, "q")])).id);
    await sdk.files.create({ file: await toFile(Buffer.from("x"), "other.txt"), purpose: "user_data" });
    const listed: string[] = [];
    for await (const f of sdk.files.list({ purpose: "batch", limit: 2 })) listed.push(f.filename);
    expect(listed).toEqual(["f4.jsonl", "f3.jsonl", "f2.jsonl", "f1.jsonl", "f0.jsonl"]);
    const f = await sdk.files.retrieve(ids[1]!);
    expect(f).toMatchObject({ filename: "f1.jsonl", purpose: "batch", bytes: line("r1", "q").length + 1 });
    expect(await (await sdk.files.content(ids[1]!)).text()).toBe(line("r1", "q") + "\n");
    await expect(sdk.files.retrieve("file-nope")).rejects.toMatchObject({ status: 404 });
    expect(server.batch.uploads).toBe(6);
    expect(server.count).toBe(0);
  });

  it("runs a batch through validating, in_progress and completed, answering lines with the chat script, uncounted", async () => {
    server = await startOpenAIServer({ script: (r) => (r.user === "bad" ? { status: 500 } : { verdict: r.user === "no" ? "no" : "yes", reason: "r" }) });
    const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: "k", maxRetries: 0 });
    const file = await upload(sdk, "in.jsonl", [line("a", "yes"), line("b", "no"), line("c", "bad")]);
    const created = await sdk.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h", metadata: { tag: "t1" } });
    expect(created.status).toBe("validating");
    expect((await sdk.batches.retrieve(created.id)).status).toBe("in_progress");
    const done = await sdk.batches.retrieve(created.id);
    expect(done.status).toBe("completed");
    expect(done.request_counts).toEqual({ total: 3, completed: 2, failed: 1 });
    const out = await lines(sdk, done.output_file_id);
    expect(out.map((l) => l.custom_id).sort()).toEqual(["a", "b"]);
    const b = out.find((l) => l.custom_id === "b") as { response: { status_code: number; body: { choices: { message: { content: string } }[] } } };
    expect(b.response.status_code).toBe(200);
    expect(JSON.parse(b.response.body.choices[0]!.message.content)).toEqual({ reason: "r", verdict: "no" });
    const errs = await lines(sdk, done.error_file_id);
    expect(errs).toEqual([expect.objectContaining({ custom_id: "c", response: expect.objectContaining({ status_code: 500 }), error: null })]);
    const listed = [];
    for await (const x of sdk.batches.list()) listed.push(x);
    expect(listed.map((x) => [x.id, x.metadata])).toEqual([[created.id, { tag: "t1" }]]);
    expect(server.count).toBe(0);
    expect(server.batch.lines).toBe(3);
  });

  it("expires or cancels part-way (the rest in the error file), and fails invalid input with line errors", async () => {
    server = await startOpenAIServer({ batchPlan: (b) => (b.metadata?.end === "expired" ? { outcome: "expired", polls: 0, processed: 1 } : { outcome: "cancelled", polls: 2, processed: 2 }) });
    const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: "k", maxRetries: 0 });
    const file = await upload(sdk, "in.jsonl", [line("a", "1"), line("b", "2"), line("c", "3")]);
    const exp = await sdk.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h", metadata: { end: "expired" } });
    const e = await sdk.batches.retrieve(exp.id);
    expect(e.status).toBe("expired");
    expect((await lines(sdk, e.output_file_id)).map((l) => l.custom_id)).toEqual(["a"]);
    expect((await lines(sdk, e.error_file_id)).map((l) => [l.custom_id, (l.error as { code: string }).code])).toEqual([["c", "batch_expired"], ["b", "batch_expired"]]);

    const can = await sdk.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
    expect((await sdk.batches.retrieve(can.id)).status).toBe("in_progress");
    expect((await sdk.batches.retrieve(can.id)).status).toBe("in_progress");
    const c = await sdk.batches.retrieve(can.id);
    expect(c.status).toBe("cancelled");
    expect((await lines(sdk, c.error_file_id)).map((l) => (l.error as { code: string }).code)).toEqual(["batch_cancelled"]);

    const bad = await upload(sdk, "bad.jsonl", [line("a", "1"), "{not json", line("a", "2"), line("d", "3", "other-model")]);
    const f = await sdk.batches.create({ input_file_id: bad.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
    const failed = await sdk.batches.retrieve(f.id);
    expect(failed.status).toBe("failed");
    expect(failed.errors!.data!.map((x) => [x.line, x.code])).toEqual([[2, "invalid_json_line"], [3, "duplicate_custom_id"], [4, "mismatched_model"]]);
    expect(failed.output_file_id).toBeNull();
  });

  it("refuses batches on unknown files, bad windows and oversized metadata", async () => {
    server = await startOpenAIServer();
    const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: "k", maxRetries: 0 });
    await expect(sdk.batches.create({ input_file_id: "file-x", endpoint: "/v1/chat/completions", completion_window: "24h" })).rejects.toMatchObject({ status: 404 });
    const file = await upload(sdk, "in.jsonl", [line("a", "1")]);
    await expect(sdk.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "48h" as "24h" })).rejects.toMatchObject({ status: 400 });
    await expect(sdk.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h", metadata: { ["k".repeat(65)]: "v" } })).rejects.toMatchObject({ status: 400 });
    await expect(sdk.batches.retrieve("batch_nope")).rejects.toMatchObject({ status: 404 });
    expect(server.batch.batches).toHaveLength(0);
  });
});
