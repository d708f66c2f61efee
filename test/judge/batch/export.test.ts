import { readFileSync, statSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InputError } from "../../../src/golden/errors.js";
import { openAIBackend } from "../../../src/judge/judges/llm.js";
import { exportBatch, planExport, writeExport } from "../../../src/judge/batch/export.js";
import { customIdOf, partName } from "../../../src/judge/batch/format.js";
import { BatchStore } from "../../../src/judge/batch/store.js";
import { cacheKey, JudgeCache } from "../../../src/judge/schedule/cache.js";
import { JudgeClient } from "../../../src/judge/transport/client.js";
import { runJudge } from "../../../src/judge/schedule/run.js";
import { startOpenAIServer, type TestServer } from "../../server/openai-server.js";
import { ALL_RUBRICS, fixtureInputs, SETTINGS, tempDir } from "../helpers.js";

const S = SETTINGS;
const ALL = ALL_RUBRICS;
const { itemSet } = fixtureInputs(ALL);
const items = itemSet.items;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function backend(cache: JudgeCache, baseURL = "http://127.0.0.1:9/v1", settings = S) {
  const client = new JudgeClient({ baseURL, apiKey: "k", timeoutMs: 2000, policy: { maxRetries: 0 } });
  return openAIBackend({ client, baseURL, settings, cache });
}

/** The `body` member of a batch line, as the bytes written. */
function bodyBytes(line: string): string {
  const m = /^\{"custom_id":"[^"]+","method":"POST","url":"\/v1\/chat\/completions","body":(.*)\}$/.exec(line);
  expect(m, line.slice(0, 200)).not.toBeNull();
  return m![1]!;
}

describe("judge --batch-export (library)", () => {
  it("exports exactly the calls the online run makes, byte for byte, under their cache keys", async () => {
    // The online run, against the test server, records the bytes of every request.
    server = await startOpenAIServer({ script: () => ({ verdict: "yes" }) });
    const online = JudgeCache.open(tempDir());
    const { judgments } = await runJudge({ items, backend: backend(online, server.baseURL), cache: online, repeats: 1, concurrency: 4 });
    online.close();

    const dir = tempDir();
    const cache = JudgeCache.open(dir);
    const file = join(dir, "judge.jsonl");
    const { plan, result } = exportBatch({ items, backend: backend(cache), cache, repeats: 1, file });
    expect(result.parts).toHaveLength(1);
    expect(plan.byRule).toBe(items.filter((i) => i.rule).length);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(server.count);
    expect(plan.requests).toHaveLength(server.count);
    // Same request bytes either way.
    expect(lines.map(bodyBytes).sort()).toEqual(server.requests.map((r) => r.raw).sort());
    // custom_id = the cache key the online verdict was stored under.
    const keys = new Set(judgments.filter((j) => j.judge === "llm").map((j) => customIdOf(cacheKey(j.fingerprint, j.inputHash, j.repeat))));
    expect(new Set(lines.map((l) => (JSON.parse(l) as { custom_id: string }).custom_id))).toEqual(keys);

    // The mapping back to the items is in the store.
    const store = BatchStore.open(cache);
    const judged = items.filter((i) => !i.rule);
    let mapped = 0;
    for (const r of plan.requests) {
      const row = store.request(r.customId)!;
      expect(row).toMatchObject({ fingerprint: r.key.fingerprint, inputHash: r.key.inputHash, repeat: 0, rubric: r.rubric, model: "judge-model", state: "exported", exportFile: file });
      for (const k of row.items) {
        const item = judged.find((i) => i.key.variant === k.variant && i.key.question === k.question && i.key.rubric === k.rubric && i.key.unit === k.unit)!;
        expect(item.inputHash).toBe(row.inputHash);
        mapped++;
      }
    }
    expect(mapped).toBe(judged.length);
    cache.close();
  });

  it("splits at the request and byte limits into file, name.2.jsonl, ..., keeping every line once and in order", () => {
    const dir = tempDir();
    const cache = JudgeCache.open(dir);
    const all = exportBatch({ items, backend: backend(cache), cache, repeats: 1, file: join(dir, "all.jsonl") });
    const whole = readFileSync(join(dir, "all.jsonl"), "utf8");
    const n = all.plan.requests.length;

    const byCount = exportBatch({ items, backend: backend(cache), cache, repeats: 1, file: join(dir, "c.jsonl"), limits: { maxRequests: 10, maxBytes: 1e9 } });
    expect(byCount.result.parts.map((p) => p.requests)).toEqual([10, 10, 10, n - 30]);
    expect(byCount.result.parts.map((p) => p.file)).toEqual([1, 2, 3, 4].map((i) => partName(join(dir, "c.jsonl"), i)));
    expect(byCount.result.parts.map((p) => readFileSync(p.file, "utf8")).join("")).toBe(whole);

    const longest = Math.max(...whole.trimEnd().split("\n").map((l) => Buffer.byteLength(l) + 1));
    const maxBytes = longest * 3;
    const byBytes = exportBatch({ items, backend: backend(cache), cache, repeats: 1, file: join(dir, "b.jsonl"), limits: { maxRequests: 50_000, maxBytes } });
    expect(byBytes.result.parts.length).toBeGreaterThan(n / 3 - 1);
    for (const p of byBytes.result.parts) {
      expect(statSync(p.file).size).toBe(p.bytes);
      expect(p.bytes).toBeLessThanOrEqual(maxBytes);
    }
    expect(byBytes.result.parts.map((p) => readFileSync(p.file, "utf8")).join("")).toBe(whole);

    // A shorter export later names the parts it did not rewrite.
    const again = exportBatch({ items, backend: backend(cache), cache, repeats: 1, file: join(dir, "c.jsonl"), limits: { maxRequests: 20, maxBytes: 1e9 } });
    expect(again.result.parts).toHaveLength(2);
    expect(again.result.stale).toEqual([partName(join(dir, "c.jsonl"), 3), partName(join(dir, "c.jsonl"), 4)]);
    cache.close();
  });

  it("leaves out calls already cached and calls in a batch not collected yet", () => {
    const cache = JudgeCache.open(tempDir());
    const store = BatchStore.open(cache);
    const full = planExport({ items, backend: backend(cache), cache, store, repeats: 1 });
    const [a, b] = full.requests;
    cache.put(a!.key, { status: "done", verdict: "yes", reason: "r", judge: "llm", rubric: a!.rubric, time: new Date().toISOString() });
    writeExport(join(tempDir(), "x.jsonl"), [b!], store);
    store.recordBatch("sha", "http://x/v1", { id: "batch_1", fileId: "file-1", status: "in_progress" }, [b!.customId]);
    const plan = planExport({ items, backend: backend(cache), cache, store, repeats: 1 });
    expect(plan.requests).toHaveLength(full.requests.length - 2);
    expect(plan).toMatchObject({ cached: 1, inFlight: 1 });
    expect(plan.requests.map((r) => r.customId)).not.toContain(a!.customId);
    expect(plan.requests.map((r) => r.customId)).not.toContain(b!.customId);
    cache.close();
  });

  it("exports each repeat under its own key, and writes an empty file when nothing is pending", () => {
    const dir = tempDir();
    const cache = JudgeCache.open(dir);
    const faith = items.filter((i) => i.key.rubric === "faithfulness" && !i.rule);
    const { plan } = exportBatch({ items: faith, backend: backend(cache), cache, repeats: 2, file: join(dir, "r.jsonl") });
    expect(plan.requests.map((r) => r.key.repeat).sort()).toEqual([...Array(faith.length).fill(0), ...Array(faith.length).fill(1)]);
    expect(plan.requests.filter((r) => r.key.repeat === 1).every((r) => r.customId.endsWith("-1"))).toBe(true);
    for (const r of plan.requests) cache.put(r.key, { status: "done", verdict: "no", reason: "r", judge: "llm", rubric: r.rubric, time: "t" });
    const empty = exportBatch({ items: faith, backend: backend(cache), cache, repeats: 2, file: join(dir, "r.jsonl") });
    expect(empty.plan).toMatchObject({ requests: [], cached: faith.length * 2 });
    expect(readFileSync(join(dir, "r.jsonl"), "utf8")).toBe("");
    cache.close();
  });

  it("refuses a request larger than the byte limit, naming it, before writing anything", () => {
    const dir = tempDir();
    const cache = JudgeCache.open(dir);
    const file = join(dir, "big.jsonl");
    writeFileSync(file, "old\n");
    let err: unknown;
    try {
      exportBatch({ items, backend: backend(cache), cache, repeats: 1, file, limits: { maxRequests: 10, maxBytes: 500 } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/big\.jsonl: custom_id [0-9a-f]{64}-[0-9a-f]{64}-0: this request is \d+ bytes, over the per-file limit of 500 bytes/);
    expect(readFileSync(file, "utf8")).toBe("old\n");
    expect(existsSync(partName(file, 2))).toBe(false);
    expect(BatchStore.open(cache).stateCounts().exported).toBe(0);
    cache.close();
  });
});
