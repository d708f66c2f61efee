import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BatchStore } from "../../../src/judge/batch/store.js";
import { cacheKey, JudgeCache } from "../../../src/judge/schedule/cache.js";
import { NO_KEY, runCliCaptured, runCliIn } from "../../helpers/cli.js";
import { startOpenAIServer, type TestServer } from "../../server/openai-server.js";
import { tempDir } from "../helpers.js";
import { CONFIG, truth } from "./helpers.js";

const FIXTURE = resolve(import.meta.dirname, "fixtures/vllm-output.jsonl");
const A = "a1".repeat(32);
const B = "b2".repeat(32);

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * What vLLM's batch runner writes for one request line: `{id, custom_id,
 * response: {status_code, request_id, body}, error}`, the body a
 * ChatCompletionResponse with vLLM's extra fields.
 */
function vllmLine(customId: string, n: number, content: string): string {
  return JSON.stringify({
    id: `vllm-${n.toString(16).padStart(32, "0")}`,
    custom_id: customId,
    response: {
      status_code: 200,
      request_id: `vllm-batch-${n.toString(16).padStart(32, "0")}`,
      body: {
        id: `chatcmpl-${n}`,
        object: "chat.completion",
        created: 1733000000,
        model: "Qwen/Qwen2.5-7B-Instruct",
        choices: [{ index: 0, message: { role: "assistant", reasoning_content: null, content, tool_calls: [] }, logprobs: null, finish_reason: "stop", stop_reason: null }],
        usage: { prompt_tokens: 700, total_tokens: 730, completion_tokens: 30, prompt_tokens_details: null },
        prompt_logprobs: null,
        kv_transfer_params: null,
      },
    },
    error: null,
  });
}

describe("ragjudge batch import", () => {
  it("imports a hand-built vLLM output file: verdicts, error verdicts with cause, and a counted warning for an unknown custom_id", async () => {
    const dir = tempDir("ragjudge-import-");
    const cache = JudgeCache.open(dir);
    const rows = [
      { fp: A, ih: "c3", repeat: 0, rubric: "faithfulness" },
      { fp: A, ih: "d4", repeat: 0, rubric: "faithfulness" },
      { fp: B, ih: "e5", repeat: 0, rubric: "correctness" },
      { fp: B, ih: "f6", repeat: 1, rubric: "correctness" },
    ].map((r, i) => ({ customId: `${r.fp}-${r.ih.repeat(32)}-${r.repeat}`, fingerprint: r.fp, inputHash: r.ih.repeat(32), repeat: r.repeat, rubric: r.rubric, model: "Qwen/Qwen2.5-7B-Instruct", items: [{ variant: "v", question: `q${i}`, rubric: r.rubric, unit: "answer" }], exportFile: "in.jsonl" }));
    BatchStore.open(cache).recordExport(rows);
    cache.close();

    const r = await runCliCaptured(["batch", "import", FIXTURE, "--config", CONFIG, "--cache-dir", dir], NO_KEY);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("vllm-output.jsonl: 5 lines; 2 verdicts stored, 2 error verdicts, 0 returned to pending");
    expect(r.out).toContain("  2 x batch: http-400");
    expect(r.out).toMatch(/warning: 1 line with a custom_id this cache never exported, skipped \(e\.g\. request-42 \(test\/judge\/batch\/fixtures\/vllm-output\.jsonl:5\)\)/);

    const c = JudgeCache.open(dir);
    expect(c.getDone(cacheKey(A, "c3".repeat(32), 0))).toMatchObject({ verdict: "yes", reason: "Every claim is stated in source 1.", servedModel: "Qwen/Qwen2.5-7B-Instruct", model: "Qwen/Qwen2.5-7B-Instruct", usage: { prompt: 812, completion: 39 }, rubric: "faithfulness" });
    expect(c.getDone(cacheKey(A, "d4".repeat(32), 0))).toMatchObject({ verdict: "no", reason: "The answer invents an on-site gym." });
    expect(c.get(cacheKey(B, "e5".repeat(32), 0))).toMatchObject({ status: "error", error: "batch: http-400: This model's maximum context length is 8192 tokens. However, you requested 9120 tokens." });
    expect(c.get(cacheKey(B, "f6".repeat(32), 1))).toMatchObject({ status: "error", error: "batch: http-400: Request must not be sent in stream mode" });
    expect(BatchStore.open(c).stateCounts()).toEqual({ exported: 0, submitted: 0, done: 2, error: 2, pending: 0 });
    c.close();
  });

  it("counts a custom_id repeated in one file once, warning with both lines, and refuses an empty file (exit 2, nothing stored)", async () => {
    const dir = tempDir("ragjudge-import-");
    const cache = JudgeCache.open(dir);
    const customId = `${A}-${"c3".repeat(32)}-0`;
    BatchStore.open(cache).recordExport([{ customId, fingerprint: A, inputHash: "c3".repeat(32), repeat: 0, rubric: "faithfulness", model: "m", items: [{ variant: "v", question: "q0", rubric: "faithfulness", unit: "answer" }], exportFile: "in.jsonl" }]);
    cache.close();
    const file = join(dir, "out.jsonl");
    const reply = (verdict: string) => JSON.stringify({ verdict, reason: "r" });
    writeFileSync(file, [vllmLine(customId, 1, reply("yes")), vllmLine(customId, 2, reply("no"))].join("\n") + "\n");
    const r = await runCliCaptured(["batch", "import", file, "--config", CONFIG, "--cache-dir", dir], NO_KEY);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("out.jsonl: 2 lines; 1 verdict stored, 0 error verdicts, 0 returned to pending");
    expect(r.out).toMatch(/warning: 1 line repeating the custom_id of another line, skipped: a yes\/no counts over an error, the first line of equals \(e\.g\. a1a1\S+ \(\S*out\.jsonl:2; the result of line 1 counts\)\)/);
    const c = JudgeCache.open(dir);
    expect(c.getDone(cacheKey(A, "c3".repeat(32), 0))).toMatchObject({ verdict: "yes" });
    c.close();

    // a runner that retried: an error line, then the retry's verdict; the verdict counts (it stored the error)
    const dir2 = tempDir("ragjudge-import-");
    const cache2 = JudgeCache.open(dir2);
    BatchStore.open(cache2).recordExport([{ customId, fingerprint: A, inputHash: "c3".repeat(32), repeat: 0, rubric: "faithfulness", model: "m", items: [{ variant: "v", question: "q0", rubric: "faithfulness", unit: "answer" }], exportFile: "in.jsonl" }]);
    cache2.close();
    const retried = join(dir2, "out.jsonl");
    const failed = JSON.stringify({ id: "x", custom_id: customId, response: { status_code: 500, request_id: "r", body: { error: { message: "overloaded" } } }, error: null });
    writeFileSync(retried, [failed, vllmLine(customId, 2, reply("no"))].join("\n") + "\n");
    const r2 = await runCliCaptured(["batch", "import", retried, "--config", CONFIG, "--cache-dir", dir2], NO_KEY);
    expect(r2.code, r2.err).toBe(0);
    expect(r2.out).toContain("out.jsonl: 2 lines; 1 verdict stored, 0 error verdicts, 0 returned to pending");
    expect(r2.out).toMatch(/\(\S*out\.jsonl:1; the result of line 2 counts\)/);
    const c2 = JudgeCache.open(dir2);
    expect(c2.getDone(cacheKey(A, "c3".repeat(32), 0))).toMatchObject({ verdict: "no" });
    c2.close();

    const empty = join(dir, "empty.jsonl");
    writeFileSync(empty, "");
    const e = await runCliCaptured(["batch", "import", empty, "--config", CONFIG, "--cache-dir", dir], NO_KEY);
    expect(e.code).toBe(2);
    expect(e.err).toMatch(/^ragjudge: error: \S*empty\.jsonl: the file is empty: nothing to import/);
    expect(e.out).toBe("");
  });

  it("refuses a file none of whose lines answers a request exported from this cache, creating and storing nothing", async () => {
    // another cache folder than the export's: it printed "0 verdicts stored", exited 0 and made an empty cache
    const other = join(tempDir("ragjudge-import-"), "other-dir");
    const r = await runCliCaptured(["batch", "import", FIXTURE, "--config", CONFIG, "--cache-dir", other], NO_KEY);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^ragjudge: error: \S*vllm-output\.jsonl: no line answers a request exported from the cache in \S*other-dir \(there is no judge cache there\): give --cache-dir the cache folder the export was written from\n$/);
    expect(r.out).toBe("");
    expect(existsSync(other)).toBe(false);

    // a cache that exported other requests: nothing stored, its states unchanged
    const dir = tempDir("ragjudge-import-");
    const cache = JudgeCache.open(dir);
    BatchStore.open(cache).recordExport([{ customId: `${A}-${"c3".repeat(32)}-9`, fingerprint: A, inputHash: "c3".repeat(32), repeat: 9, rubric: "faithfulness", model: "m", items: [{ variant: "v", question: "q0", rubric: "faithfulness", unit: "answer" }], exportFile: "in.jsonl" }]);
    cache.close();
    const files = readdirSync(dir).sort();
    const again = await runCliCaptured(["batch", "import", FIXTURE, "--config", CONFIG, "--cache-dir", dir], NO_KEY);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/vllm-output\.jsonl: no line answers a request exported from the cache in \S+ \(none of the 5 custom_ids was exported from it\): give --cache-dir the cache folder the export was written from\n$/);
    expect(again.out).toBe("");
    const c = JudgeCache.open(dir);
    expect(c.countDone()).toBe(0);
    expect(BatchStore.open(c).stateCounts()).toEqual({ exported: 1, submitted: 0, done: 0, error: 0, pending: 0 });
    c.close();
    expect(readdirSync(dir).sort()).toEqual(files);
  });

  it("refuses to store into a cache a judge run is using, in one line, storing nothing", async () => {
    const dir = tempDir("ragjudge-import-");
    const cache = JudgeCache.open(dir);
    const lease = cache.acquireLease("ragjudge judge");
    try {
      const r = await runCliCaptured(["batch", "import", FIXTURE, "--config", CONFIG, "--cache-dir", dir], NO_KEY);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/^ragjudge: error: .*judge-cache\.sqlite: in use by another ragjudge run \(ragjudge judge, pid \d+, since [^)]+\): wait for it to finish, or give this run another --cache-dir; if no ragjudge run is alive, the lease expires by itself at \S+ \(120 s after its last heartbeat\)\n$/);
      expect(r.out).toBe("");
      expect(cache.countDone()).toBe(0);
    } finally {
      lease.release();
      cache.close();
    }
  });

  it("refuses a file with a malformed line, naming file and line, and stores nothing", async () => {
    const dir = tempDir("ragjudge-import-");
    const bad = join(dir, "out.jsonl");
    const lines = readFileSync(FIXTURE, "utf8").trimEnd().split("\n");
    writeFileSync(bad, [lines[0], lines[1], '{"id":"x","response":{"status_code":200}}', "{oops", lines[2]].join("\n") + "\n");
    const r = await runCliCaptured(["batch", "import", bad, "--config", CONFIG, "--cache-dir", dir], NO_KEY);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toMatch(/out\.jsonl:3: custom_id: missing \(expected string\)\n/);
    expect(r.err).toMatch(/out\.jsonl:4: not valid JSON/);
    expect(r.err).not.toMatch(/at .*\.ts:\d+/);
    const c = JudgeCache.open(dir);
    expect(c.countDone()).toBe(0);
    c.close();
    const missing = await runCliCaptured(["batch", "import", join(dir, "nope.jsonl"), "--config", CONFIG, "--cache-dir", dir], NO_KEY);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("nope.jsonl: file not found");
  });

  it("the export's printed next commands name the cache it was written from, and import works as printed", async () => {
    const dir = tempDir("ragjudge-vllm-next-");
    const judge = ["judge", "--config", CONFIG, "--cache-dir", "my-cache", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--no-progress"];
    const exp = await runCliIn(dir, [...judge, "--batch-export", "in.jsonl"], NO_KEY);
    expect(exp.code, exp.err).toBe(0);
    const then = /then: ragjudge (batch import results\.jsonl .*)$/m.exec(exp.out)?.[1];
    expect(then).toMatch(/ --config \S+ --cache-dir my-cache$/);
    // submit sends to an endpoint, so it carries the export's --base-url; import reads a file and takes none
    expect(exp.out).toMatch(/^next: ragjudge batch submit in\.jsonl --config \S+ --cache-dir my-cache --base-url http:\/\/127\.0\.0\.1:9\/v1$/m);
    const requests = readFileSync(join(dir, "in.jsonl"), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as { custom_id: string });
    writeFileSync(join(dir, "results.jsonl"), requests.map((q, i) => vllmLine(q.custom_id, i, JSON.stringify({ reason: "ok", verdict: "yes" }))).join("\n") + "\n");
    const imp = await runCliIn(dir, then!.split(" "), NO_KEY);
    expect(imp.code, imp.err).toBe(0);
    expect(imp.out).toContain(`${requests.length} verdicts stored`);
  });

  it("runs the exported file through a vLLM-style runner, imports its output, and the judge then makes zero calls", async () => {
    server = await startOpenAIServer({ script: (r) => ({ verdict: truth(r) }) });
    const dir = tempDir("ragjudge-vllm-");
    const base = ["--config", CONFIG, "--cache-dir", dir];
    const judge = ["judge", ...base, "--base-url", server.baseURL, "--model", "Qwen/Qwen2.5-7B-Instruct", "--no-progress"];
    const input = join(dir, "in.jsonl");
    expect((await runCliCaptured([...judge, "--batch-export", input], NO_KEY)).code).toBe(0);

    // The "GPU machine": answers every line, in its own order, the way run_batch writes them.
    const requests = readFileSync(input, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as { custom_id: string; body: { messages: { role: string; content: string }[] } });
    const output = requests.map((q, i) => {
      const user = q.body.messages.find((m) => m.role === "user")!.content;
      return vllmLine(q.custom_id, i, JSON.stringify({ reason: "Checked against the sources.", verdict: truth({ user } as never) }));
    });
    const outFile = join(dir, "out.jsonl");
    writeFileSync(outFile, output.reverse().join("\n") + "\n");

    const imp = await runCliCaptured(["batch", "import", outFile, ...base], NO_KEY);
    expect(imp.code, imp.err).toBe(0);
    expect(imp.out).toContain(`out.jsonl: ${requests.length} lines; ${requests.length} verdicts stored, 0 error verdicts, 0 returned to pending`);
    expect(imp.out).not.toContain("warning");
    const again = await runCliCaptured(["batch", "import", outFile, ...base], NO_KEY);
    expect(again.code).toBe(0);

    const j = await runCliCaptured(judge, NO_KEY);
    expect(j.code, j.err).toBe(0);
    expect(server.count).toBe(0);
    expect(j.out).toContain("42 verdicts: 38 from cache, 4 by rule, 0 errors");
    expect(j.out).toContain("served Qwen/Qwen2.5-7B-Instruct");
    const exp = await runCliCaptured([...judge, "--batch-export", join(dir, "next.jsonl")], NO_KEY);
    expect(exp.out).toContain("batch export: nothing pending");
  });
});
