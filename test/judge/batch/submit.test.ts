import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InputErrors } from "../../../src/golden/errors.js";
import { sha256 } from "../../../src/golden/hash.js";
import { findBatch, readExportFile, type SubmitStep } from "../../../src/judge/batch/submit.js";
import { startOpenAIServer, type TestServer } from "../../server/openai-server.js";
import { setup, submitFile } from "./helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

class Crash extends Error {}
const crashAt = (at: SubmitStep) => (step: SubmitStep) => {
  if (step === at) throw new Crash(`crash after ${step}`);
};

/** A fresh server (also kept in `server`, so afterEach closes it) and export whose first file's submit crashed right after `step`. */
async function crashedSubmit(step: SubmitStep) {
  const srv = (server = await startOpenAIServer());
  const t = setup(srv.baseURL);
  const file = t.files[0]!;
  await expect(submitFile(t, file, { onStep: crashAt(step) })).rejects.toThrow(Crash);
  return { server: srv, t, file };
}

describe("batch submit (library, through the real SDK)", () => {
  it("records the intent, uploads, creates one batch with metadata naming the export, and never sends a file twice", async () => {
    server = await startOpenAIServer();
    const t = setup(server.baseURL, { limits: { maxRequests: 20, maxBytes: 1e9 } });
    const [first, second] = t.files;
    const r = await submitFile(t, first!);
    const hash = sha256(readFileSync(first!));
    expect(r).toMatchObject({ action: "created", requests: 20, alreadyJudged: 0, sha256: hash, status: "validating" });
    expect(server.batch.uploads).toBe(1);
    expect(server.batch.files[0]).toMatchObject({ filename: `ragjudge-${hash.slice(0, 16)}-judge.jsonl`, purpose: "batch" });
    expect(server.batch.files[0]!.content.equals(readFileSync(first!))).toBe(true);
    expect(server.batch.batches).toHaveLength(1);
    expect(server.batch.batches[0]!.object).toMatchObject({ id: r.batchId, endpoint: "/v1/chat/completions", completion_window: "24h", metadata: { ragjudge_sha256: hash, ragjudge_export: "judge.jsonl", ragjudge_requests: "20" } });
    expect(t.store.submission(hash, server.baseURL)).toMatchObject({ batchId: r.batchId, fileId: server.batch.files[0]!.id, requests: 20 });
    expect(t.store.stateCounts()).toMatchObject({ submitted: 20, exported: t.plan.requests.length - 20 });

    const again = await submitFile(t, first!);
    expect(again).toMatchObject({ action: "already", batchId: r.batchId });
    const other = await submitFile(t, second!);
    expect(other.action).toBe("created");
    expect(server.batch.uploads).toBe(2);
    expect(server.batch.batches).toHaveLength(2);
    expect(server.count).toBe(0);
    t.cache.close();
  });

  it("after a crash between creating the batch and recording its id, finds the batch by its metadata instead of creating a second", async () => {
    const { server, t, file } = await crashedSubmit("created");
    const hash = sha256(readFileSync(file));
    expect(t.store.submission(hash, server.baseURL)).toMatchObject({ fileId: server.batch.files[0]!.id });
    expect(t.store.submission(hash, server.baseURL)!.batchId).toBeUndefined();
    expect(t.store.stateCounts().submitted).toBe(0);
    const r = await submitFile(t, file);
    expect(r).toMatchObject({ action: "found", batchId: server.batch.batches[0]!.object.id });
    expect(server.batch.batches).toHaveLength(1);
    expect(server.batch.uploads).toBe(1);
    expect(t.store.stateCounts().submitted).toBe(t.plan.requests.length);
    t.cache.close();
  });

  it("after a crash between uploading and recording the file id, finds the upload by name instead of uploading again", async () => {
    const { server, t, file } = await crashedSubmit("uploaded");
    expect(server.batch.uploads).toBe(1);
    expect(server.batch.batches).toHaveLength(0);
    const r = await submitFile(t, file);
    expect(r).toMatchObject({ action: "created", reusedFile: true });
    expect(server.batch.uploads).toBe(1);
    expect(server.batch.batches).toHaveLength(1);
    t.cache.close();
  });

  it("after a crash right after recording the intent, uploads once and creates once", async () => {
    const { server, t, file } = await crashedSubmit("intent");
    expect(server.batch.uploads + server.batch.batches.length).toBe(0);
    expect((await submitFile(t, file)).action).toBe("created");
    expect([server.batch.uploads, server.batch.batches.length]).toEqual([1, 1]);
    t.cache.close();
  });

  it("uploads again when the recorded file is gone from the server", async () => {
    const { server, t, file } = await crashedSubmit("created");
    server.batch.batches.length = 0; // the batch never got created after all
    server.batch.files.length = 0; // and the upload expired
    const r = await submitFile(t, file);
    expect(r).toMatchObject({ action: "created", reusedFile: false });
    expect(server.batch.uploads).toBe(2);
    t.cache.close();
  });

  it("finds a batch through several list pages, and stops a newest-first list at objects older than the intent", async () => {
    server = await startOpenAIServer();
    const t = setup(server.baseURL, { limits: { maxRequests: 1, maxBytes: 1e9 } });
    const ours = await submitFile(t, t.files[0]!);
    // 120 newer batches of someone else on the same account: ours is on the second page of 100.
    for (let i = 0; i < 120; i++) await t.sdk.batches.create({ input_file_id: server.batch.files[0]!.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
    const hash = (i: number) => sha256(readFileSync(t.files[i]!));
    const now = Math.floor(Date.now() / 1000);
    expect((await findBatch(t.sdk, t.endpoint, hash(0), now - 10))?.id).toBe(ours.batchId);
    expect(await findBatch(t.sdk, t.endpoint, "f".repeat(64), now - 10)).toBeUndefined();
    // The newest batch listed first is older than the cut-off: the search stops before reaching ours.
    server.batch.batches[server.batch.batches.length - 1]!.object.created_at = now - 100_000;
    expect(await findBatch(t.sdk, t.endpoint, hash(0), now - 10)).toBeUndefined();
    t.cache.close();
  });

  it("checks a file before any upload: unknown or duplicate custom_ids, mixed models, limits, each with file and line", async () => {
    server = await startOpenAIServer();
    const t = setup(server.baseURL);
    const lines = readFileSync(t.files[0]!, "utf8").trimEnd().split("\n");
    const foreign = JSON.parse(lines[0]!) as { custom_id: string; body: { model: string } };
    foreign.custom_id = "request-1";
    const otherModel = JSON.parse(lines[2]!) as { body: { model: string } };
    otherModel.body.model = "other-model";
    const bad = join(t.dir, "bad.jsonl");
    writeFileSync(bad, [JSON.stringify(foreign), lines[1], lines[1], JSON.stringify(otherModel), '{"custom_id":"x","method":"GET"}'].join("\n") + "\n");
    let err: unknown;
    try {
      await submitFile(t, bad, { limits: { maxRequests: 3, maxBytes: 1000 } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputErrors);
    const msgs = (err as InputErrors).problems.map((p) => p.message.replace(t.dir, "DIR"));
    expect(msgs).toEqual([
      expect.stringMatching(/bad\.jsonl:5: method: /),
      expect.stringMatching(/bad\.jsonl:5: url: missing \(expected "\/v1\/chat\/completions"\)/),
      expect.stringMatching(/bad\.jsonl:5: body: missing/),
      expect.stringMatching(/bad\.jsonl:1: custom_id: not exported from this cache \(.*judge-cache\.sqlite\): export with {2}ragjudge judge --batch-export FILE/),
      expect.stringMatching(/bad\.jsonl:3: custom_id: duplicate of line 2$/),
      expect.stringMatching(/bad\.jsonl:4: body\.model: "other-model" differs from "judge-model" on line 1 \(a batch holds one model\)/),
      expect.stringMatching(/bad\.jsonl: 4 requests, over the per-file limit of 3/),
      expect.stringMatching(/bad\.jsonl: \d+ bytes, over the per-file limit of 1000/),
    ]);
    expect(server.batch.uploads).toBe(0);
    expect(t.store.submissions()).toEqual([]);
    expect(readExportFile(t.files[0]!, t.store).customIds).toHaveLength(t.plan.requests.length);
    t.cache.close();
  });

  it("sends nothing for an empty file or one whose requests are all judged", async () => {
    server = await startOpenAIServer();
    const t = setup(server.baseURL);
    const empty = join(t.dir, "empty.jsonl");
    writeFileSync(empty, "");
    expect((await submitFile(t, empty)).action).toBe("empty");
    for (const r of t.plan.requests) t.cache.put(r.key, { status: "done", verdict: "yes", reason: "r", judge: "llm", rubric: r.rubric, time: "t" });
    const r = await submitFile(t, t.files[0]!);
    expect(r).toMatchObject({ action: "cached", alreadyJudged: t.plan.requests.length });
    expect(server.batch.uploads).toBe(0);
    expect(basename(r.file)).toBe("judge.jsonl");
    t.cache.close();
  });
});
