/**
 * Verdict confidence end to end through the real openai SDK and the local
 * test server: the LLM judge asks for token log-probabilities, records each
 * verdict's P(yes), has a fingerprint of its own, stores pYes in the cache,
 * and detects and remembers servers without log-probabilities per endpoint
 * and model (a 400 naming the parameter, or replies without them).
 */
import Database from "better-sqlite3";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FatalJudgeError } from "../../../src/judge/judges/judge.js";
import { openAIBackend } from "../../../src/judge/judges/llm.js";
import type { LogprobsSetting } from "../../../src/judge/judges/logprobs.js";
import { CACHE_FILE, JudgeCache, cacheKey } from "../../../src/judge/schedule/cache.js";
import { runJudge } from "../../../src/judge/schedule/run.js";
import { JudgeClient } from "../../../src/judge/transport/client.js";
import { requestFingerprint } from "../../../src/judge/transport/request.js";
import { startOpenAIServer, type ServerOptions, type TestServer } from "../../server/openai-server.js";
import { fixtureInputs, SETTINGS, tempDir } from "../helpers.js";

const S = SETTINGS;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const { itemSet } = fixtureInputs(["faithfulness", "correctness"]);
const items = itemSet.items.filter((i) => !i.rule);
/** P(yes) scripted per item: a function of its prompt, so each item has its own. */
const scripted = (user: string) => (user.length % 97) / 100 + 0.01;

function backend(s: TestServer, cache: JudgeCache | undefined, logprobs: LogprobsSetting, log: string[] = []) {
  const client = new JudgeClient({ baseURL: s.baseURL, apiKey: "k", timeoutMs: 2000, policy: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 10 } });
  return openAIBackend({ client, baseURL: s.baseURL, settings: S, cache, logprobs, onLogprobsOff: (c) => log.push(c), breakerLimit: 100 });
}

async function serve(o: ServerOptions = {}) {
  server = await startOpenAIServer({ script: (r) => ({ verdict: r.user.length % 2 ? "yes" : "no", pYes: scripted(r.user) }), ...o });
  return server;
}

describe("the LLM judge with token log-probabilities", () => {
  it("asks for them, reads each verdict's P(yes) from the verdict token, and has its own fingerprint", async () => {
    const s = await serve();
    const b = backend(s, undefined, "auto");
    const item = items[0]!;
    const o = await b.judge(item.rubric, item.evidence);
    const req = s.requests[0]!.info;
    expect(req.body).toMatchObject({ logprobs: true, top_logprobs: 5 });
    expect(o.pYes).toBeCloseTo(scripted(req.user), 10);
    expect(o.fingerprint).toBe(requestFingerprint(item.rubric, { ...S, logprobs: true }));
    expect(o.fingerprint).not.toBe(requestFingerprint(item.rubric, S));
    // Off: the request and fingerprint of a judge without them, as before.
    const off = await backend(s, undefined, false).judge(item.rubric, item.evidence);
    expect(s.requests[1]!.info.body.logprobs).toBeUndefined();
    expect(off.pYes).toBeUndefined();
    expect(off.fingerprint).toBe(requestFingerprint(item.rubric, S));
  });

  it("in text mode reads the embedded JSON's verdict token; the seeded P(yes) lies on the verdict's side", async () => {
    const s = await startOpenAIServer({ script: (r) => ({ verdict: r.user.length % 2 ? "yes" : "no" }), logprobSeed: 7 });
    server = s;
    const client = new JudgeClient({ baseURL: s.baseURL, apiKey: "k", timeoutMs: 2000 });
    const b = openAIBackend({ client, baseURL: s.baseURL, settings: { ...S, responseMode: "text" }, logprobs: true });
    for (const item of items.slice(0, 6)) {
      const o = await b.judge(item.rubric, item.evidence);
      expect(o.pYes).toBeDefined();
      expect(o.verdict === "yes" ? o.pYes! > 0.5 : o.pYes! < 0.5).toBe(true);
    }
  });

  it("stores pYes in the cache: a second run reads every verdict's pYes back without a call", async () => {
    const s = await serve({ latencyMs: 1 });
    const dir = tempDir();
    let cache = JudgeCache.open(dir);
    const first = await runJudge({ items, backend: backend(s, cache, "auto"), cache, repeats: 1, concurrency: 4 });
    cache.close();
    expect(first.judgments.every((j) => typeof j.pYes === "number")).toBe(true);
    s.resetCount();
    cache = JudgeCache.open(dir);
    const second = await runJudge({ items, backend: backend(s, cache, "auto"), cache, repeats: 1, concurrency: 4 });
    cache.close();
    expect(s.count).toBe(0);
    expect(second.judgments.map((j) => [j.cached, j.pYes])).toEqual(first.judgments.map((j) => [true, j.pYes]));
  });

  for (const mode of ["reject", "ignore"] as const) {
    it(`auto: a server that ${mode === "reject" ? "rejects the parameter (400)" : "replies without them"} is detected, asked again without them, and remembered per endpoint and model`, async () => {
      const s = await serve({ logprobs: mode });
      const dir = tempDir();
      let cache = JudgeCache.open(dir);
      const log: string[] = [];
      const b = backend(s, cache, "auto", log);
      const some = items.slice(0, 5);
      const run = await runJudge({ items: some, backend: b, cache, repeats: 1, concurrency: 1 });
      cache.close();
      expect(log).toHaveLength(1);
      expect(log[0]).toMatch(mode === "reject" ? /http-400: logprobs is not supported/ : /without log-probabilities/);
      // One wasted call, then every verdict without pYes under the fingerprint of the request it was made with.
      expect(s.count).toBe(some.length + 1);
      expect(run.judgments.every((j) => j.verdict !== "error" && j.pYes === undefined)).toBe(true);
      expect(new Set(run.judgments.map((j) => j.fingerprint))).toEqual(new Set(some.map((i) => requestFingerprint(i.rubric, S))));
      s.resetCount();
      cache = JudgeCache.open(dir);
      expect(cache.logprobsSupport(s.baseURL, S.model)).toBe(false);
      expect(cache.logprobsSupport(s.baseURL, "other-model")).toBeUndefined();
      const again = backend(s, cache, "auto");
      await again.judge(items[7]!.rubric, items[7]!.evidence);
      cache.close();
      // The next run starts without them: no wasted call.
      expect(s.count).toBe(1);
      expect(s.requests[0]!.info.body.logprobs).toBeUndefined();
    });
  }

  it("true: a server rejecting the parameter stops the run (a setup error); one replying without them gives verdicts without pYes", async () => {
    let s = await serve({ logprobs: "reject" });
    await expect(backend(s, undefined, true).judge(items[0]!.rubric, items[0]!.evidence)).rejects.toSatisfy((e) => e instanceof FatalJudgeError && e.kind === "setup" && /set judge\.logprobs to "auto" or false/.test(e.message));
    await s.close();
    s = server = await serve({ logprobs: "ignore" });
    const o = await backend(s, undefined, true).judge(items[0]!.rubric, items[0]!.evidence);
    expect(o.verdict).not.toBe("error");
    expect(o.pYes).toBeUndefined();
    expect(s.count).toBe(1);
    expect(s.requests[0]!.info.body.logprobs).toBe(true);
  });

  it("true asks even when the endpoint is remembered without them; false never asks", async () => {
    const s = await serve();
    const cache = JudgeCache.open(tempDir());
    cache.rememberLogprobs(s.baseURL, S.model, false, "earlier");
    await backend(s, cache, "auto").judge(items[0]!.rubric, items[0]!.evidence);
    await backend(s, cache, true).judge(items[0]!.rubric, items[0]!.evidence);
    await backend(s, cache, false).judge(items[0]!.rubric, items[0]!.evidence);
    cache.close();
    expect(s.requests.map((r) => r.info.body.logprobs ?? false)).toEqual([false, true, false]);
  });

  it("a cache file made before pYes existed gains the column and the memory table on its first writable open", () => {
    const dir = tempDir();
    const db = new Database(join(dir, CACHE_FILE));
    db.exec(`CREATE TABLE verdicts (fingerprint TEXT NOT NULL, input_hash TEXT NOT NULL, repeat INTEGER NOT NULL, status TEXT NOT NULL, verdict TEXT NOT NULL, reason TEXT NOT NULL,
      error TEXT, judge TEXT NOT NULL, rubric TEXT NOT NULL, model TEXT, served_model TEXT, prompt_tokens INTEGER, completion_tokens INTEGER, attempts INTEGER, raw TEXT, time TEXT NOT NULL,
      PRIMARY KEY (fingerprint, input_hash, repeat)) WITHOUT ROWID;
      CREATE TABLE fingerprints (fingerprint TEXT PRIMARY KEY, rubric TEXT NOT NULL, template TEXT NOT NULL, created TEXT NOT NULL);
      CREATE TABLE endpoints (base_url TEXT NOT NULL, model TEXT NOT NULL, response_mode TEXT NOT NULL, cause TEXT, time TEXT NOT NULL, PRIMARY KEY (base_url, model));
      INSERT INTO verdicts VALUES ('${"a".repeat(64)}', '${"b".repeat(64)}', 0, 'done', 'yes', 'old', NULL, 'llm', 'faithfulness', 'm', NULL, NULL, NULL, 1, NULL, '2026-01-01T00:00:00.000Z');`);
    db.pragma("user_version = 1");
    db.close();
    const ro = JudgeCache.openReadOnly(dir)!;
    expect(ro.getDone(cacheKey("a".repeat(64), "b".repeat(64)))).toMatchObject({ verdict: "yes", reason: "old" });
    expect(ro.logprobsSupport("http://x/v1", "m")).toBeUndefined();
    ro.close();
    const c = JudgeCache.open(dir);
    expect(c.getDone(cacheKey("a".repeat(64), "b".repeat(64)))!.pYes).toBeUndefined();
    c.put(cacheKey("a".repeat(64), "c".repeat(64)), { status: "done", verdict: "no", reason: "new", judge: "llm", rubric: "faithfulness", pYes: 0.125, time: "2026-01-02T00:00:00.000Z" });
    c.rememberLogprobs("http://x/v1", "m", false, "400");
    c.close();
    const again = JudgeCache.open(dir);
    expect(again.getDone(cacheKey("a".repeat(64), "c".repeat(64)))!.pYes).toBe(0.125);
    expect(again.logprobsSupport("http://x/v1", "m")).toBe(false);
    again.close();
  });
});

describe("judge.logprobs in the config", () => {
  it("defaults to false (fingerprints and caches of existing configs unchanged) and takes auto, true or false", async () => {
    const { resolveJudge } = await import("../../../src/judge/judges/settings.js");
    const { RagjudgeConfig } = await import("../../../src/golden/schema/config.js");
    const cfg = (judge: Record<string, unknown>) => RagjudgeConfig.parse({ golden: "g.jsonl", variants: [{ name: "v", output: "o.jsonl" }], judge });
    const env = { OPENAI_API_KEY: "k" };
    expect(resolveJudge(cfg({ kind: "openai", model: "m" }), {}, env)).toMatchObject({ logprobs: false });
    for (const v of ["auto", true, false] as const) expect(resolveJudge(cfg({ kind: "openai", model: "m", logprobs: v }), {}, env)).toMatchObject({ logprobs: v });
    expect(() => cfg({ kind: "openai", model: "m", logprobs: "yes" })).toThrow();
  });
});
