import { afterEach, describe, expect, it } from "vitest";
import { Judgment } from "../../../src/golden/schema/items.js";
import { baselineBackend } from "../../../src/judge/judges/baseline.js";
import { FatalJudgeError } from "../../../src/judge/judges/judge.js";
import { openAIBackend } from "../../../src/judge/judges/llm.js";
import { JudgeCache, cacheKey } from "../../../src/judge/schedule/cache.js";
import { JudgeClient } from "../../../src/judge/transport/client.js";
import type { Item } from "../../../src/judge/items/items.js";
import { runJudge } from "../../../src/judge/schedule/run.js";
import { summarise } from "../../../src/judge/summary/summary.js";
import { startOpenAIServer, type Behaviour, type RequestInfo, type TestServer } from "../../server/openai-server.js";
import { ALL_RUBRICS, fixtureInputs, SETTINGS, tempDir } from "../helpers.js";

const S = SETTINGS;
const ALL = ALL_RUBRICS;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The verdict the scripted judge gives: "no" when the prompt mentions the invented gym or the 10-day hotel rule. */
function truth(r: RequestInfo): "yes" | "no" {
  return /gym|10 days ahead/.test(r.user) ? "no" : "yes";
}

function backendFor(s: TestServer, cache: JudgeCache, maxRetries = 2) {
  const client = new JudgeClient({ baseURL: s.baseURL, apiKey: "k", timeoutMs: 2000, policy: { maxRetries, baseDelayMs: 5, maxDelayMs: 10 } });
  return openAIBackend({ client, baseURL: s.baseURL, settings: S, cache });
}

describe("runJudge with the LLM judge", () => {
  const { itemSet, golden, rubrics } = fixtureInputs(ALL);
  const items = itemSet.items;
  const judged = items.filter((i) => !i.rule);

  it("judges every item once, commits each reply, and a second run makes zero calls", async () => {
    server = await startOpenAIServer({ latencyMs: 5, script: (r) => ({ verdict: truth(r) }) });
    const dir = tempDir();
    let cache = JudgeCache.open(dir);
    const first = await runJudge({ items, backend: backendFor(server, cache), cache, repeats: 1, concurrency: 4 });
    cache.close();
    expect(first.judgments).toHaveLength(items.length);
    for (const j of first.judgments) expect(Judgment.safeParse(j).success).toBe(true);
    const unique = new Set(judged.map((i) => `${i.rubric.name}/${i.inputHash}`)).size;
    expect(server.count).toBe(unique);
    expect(server.maxInFlight).toBeLessThanOrEqual(4);
    expect(first.progress).toMatchObject({ total: items.length, done: items.length, calls: unique, errors: 0 });

    server.resetCount();
    cache = JudgeCache.open(dir);
    const second = await runJudge({ items, backend: backendFor(server, cache), cache, repeats: 1, concurrency: 4 });
    cache.close();
    expect(server.count).toBe(0);
    expect(second.judgments.filter((j) => j.judge === "llm").every((j) => j.cached)).toBe(true);
    const strip = (js: typeof first.judgments) => js.map(({ cached: _c, time: _t, ...rest }) => rest);
    expect(strip(second.judgments)).toEqual(strip(first.judgments));
  });

  it("gives each item its own key, rule verdicts their own fingerprint, and never loses an item", async () => {
    server = await startOpenAIServer({ script: (r) => ({ verdict: truth(r) }) });
    const cache = JudgeCache.open(tempDir());
    const { judgments } = await runJudge({ items, backend: backendFor(server, cache), cache, repeats: 1, concurrency: 8 });
    cache.close();
    expect(judgments.map((j) => `${j.variant}/${j.question}/${j.rubric}/${j.unit}`)).toEqual(items.map((i) => `${i.key.variant}/${i.key.question}/${i.key.rubric}/${i.key.unit}`));
    const rule = judgments.filter((j) => j.judge === "rule");
    expect(rule.map((j) => j.rule).sort()).toEqual(["no-answer", "outside-context", "uncited", "unknown-chunk"]);
    expect(new Set(rule.map((j) => j.fingerprint))).toEqual(new Set(["rule:1"]));
    const gym = judgments.find((j) => j.variant === "bm25" && j.question === "q3" && j.rubric === "not-found")!;
    expect(gym).toMatchObject({ verdict: "no", judge: "llm", model: "judge-model", servedModel: "served-judge-model" });
  });

  it("stores errors but retries them on the next run, never counting them as verdicts", async () => {
    let failing = true;
    server = await startOpenAIServer({ script: (r): Behaviour => (failing && /Casual leave/.test(r.user) ? { status: 500 } : { verdict: truth(r) }) });
    const dir = tempDir();
    let cache = JudgeCache.open(dir);
    const first = await runJudge({ items, backend: backendFor(server, cache, 0), cache, repeats: 1, concurrency: 4 });
    cache.close();
    const errors = first.judgments.filter((j) => j.verdict === "error");
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((j) => /^http-500/.test(j.error!) && j.reason === "")).toBe(true);
    const errorCalls = new Set(errors.map((j) => `${j.rubric}/${j.inputHash}`)).size;

    failing = false;
    server.resetCount();
    cache = JudgeCache.open(dir);
    const second = await runJudge({ items, backend: backendFor(server, cache), cache, repeats: 1, concurrency: 4 });
    cache.close();
    expect(server.count).toBe(errorCalls);
    expect(second.judgments.filter((j) => j.verdict === "error")).toEqual([]);
  });

  it("judges each item n times with --repeats and reports self-disagreement", async () => {
    const seen = new Map<string, number>();
    server = await startOpenAIServer({
      script: (r) => {
        const n = (seen.get(r.user) ?? 0) + 1;
        seen.set(r.user, n);
        // Faithfulness flips on its second repeat; everything else is stable.
        const flip = r.user.includes("Question to decide: Is every claim") && n === 2;
        return { verdict: flip ? (truth(r) === "yes" ? "no" : "yes") : truth(r) };
      },
    });
    const only = items.filter((i) => i.key.rubric === "faithfulness" || i.key.rubric === "correctness");
    const cache = JudgeCache.open(tempDir());
    const { judgments } = await runJudge({ items: only, backend: backendFor(server, cache), cache, repeats: 3, concurrency: 4 });
    cache.close();
    expect(judgments).toHaveLength(only.filter((i) => !i.rule).length * 3 + only.filter((i) => i.rule).length);
    expect(new Set(judgments.map((j) => j.repeat))).toEqual(new Set([0, 1, 2]));
    const summary = summarise({ judgments, golden, rubrics, requireCitations: false });
    const faith = summary.figures.find((f) => f.rubric === "faithfulness")!;
    const corr = summary.figures.find((f) => f.rubric === "correctness")!;
    expect(faith.selfDisagreement).toEqual({ items: 9, disagreeing: 9, rate: 1 });
    expect(corr.selfDisagreement).toMatchObject({ disagreeing: 0, rate: 0 });
  });

  it("reports the verdict another run committed first, never its own different reply", async () => {
    const dir = tempDir();
    const other = JudgeCache.open(dir);
    const cache = JudgeCache.open(dir);
    const backend = backendFor(server = await startOpenAIServer({ latencyMs: 5, script: () => ({ verdict: "yes" }) }), cache);
    const unique = [...new Map(judged.map((i) => [`${i.rubric.name}/${i.inputHash}`, i])).values()];
    // Another run (another connection) commits "no" for every item while this run's calls are in flight.
    server.setScript((r) => {
      if (r.index === 0) {
        for (const i of unique) other.put(cacheKey(backend.fingerprint(i.rubric), i.inputHash, 0), { status: "done", verdict: "no", reason: "other run", judge: "llm", rubric: i.rubric.name, time: "2026-01-01T00:00:00.000Z" });
      }
      return { verdict: "yes" };
    });
    const { judgments, progress } = await runJudge({ items, backend, cache, repeats: 1, concurrency: 4, lease: false });
    const llm = judgments.filter((j) => j.judge === "llm");
    expect(llm.length).toBeGreaterThan(0);
    for (const j of llm) {
      expect(j).toMatchObject({ verdict: "no", reason: "other run", cached: true });
      expect(cache.getDone(cacheKey(j.fingerprint, j.inputHash, j.repeat))!.verdict).toBe(j.verdict);
    }
    expect(progress.calls).toBeGreaterThan(0);
    other.close();
    cache.close();
  });

  it("holds the cache's lease: a second run on the same cache is refused before it sends anything", async () => {
    server = await startOpenAIServer({ latencyMs: 20, script: (r) => ({ verdict: truth(r) }) });
    const dir = tempDir();
    const a = JudgeCache.open(dir);
    const b = JudgeCache.open(dir);
    const first = runJudge({ items, backend: backendFor(server, a), cache: a, repeats: 1, concurrency: 2 });
    const second = runJudge({ items, backend: backendFor(server, b), cache: b, repeats: 1, concurrency: 2, holder: "second" });
    await expect(second).rejects.toThrow(/in use by another ragjudge run \(ragjudge judge, pid \d+, since/);
    const { judgments } = await first;
    expect(server.count).toBe(new Set(judged.map((i) => `${i.rubric.name}/${i.inputHash}`)).size);
    expect(judgments).toHaveLength(items.length);
    // Released at the end: the next run takes it and makes no calls.
    server.resetCount();
    await runJudge({ items, backend: backendFor(server, b), cache: b, repeats: 1, concurrency: 2 });
    expect(server.count).toBe(0);
    a.close();
    b.close();
  });

  it("stops on a fatal error after letting calls in flight commit", async () => {
    server = await startOpenAIServer({ script: (r) => (r.index < 3 ? { verdict: "yes" } : { status: 401, message: "key revoked" }) });
    const dir = tempDir();
    const cache = JudgeCache.open(dir);
    await expect(runJudge({ items, backend: backendFor(server, cache), cache, repeats: 1, concurrency: 1 })).rejects.toThrow(FatalJudgeError);
    expect(cache.countDone()).toBe(3);
    cache.close();
    expect(server.count).toBe(4);
  });
});

describe("runJudge with the baseline", () => {
  it("judges without a cache or calls, labelled baseline, deterministically", async () => {
    const { itemSet } = fixtureInputs(ALL);
    const a = await runJudge({ items: itemSet.items, backend: baselineBackend(), repeats: 3, concurrency: 4 });
    const b = await runJudge({ items: itemSet.items, backend: baselineBackend(), repeats: 1, concurrency: 1 });
    expect(a.judgments).toHaveLength(itemSet.items.length);
    const judged = a.judgments.filter((j) => j.judge !== "rule");
    expect(judged.every((j) => j.judge === "baseline" && j.model === undefined && j.repeat === 0)).toBe(true);
    expect(a.judgments.map((j) => [j.verdict, j.reason])).toEqual(b.judgments.map((j) => [j.verdict, j.reason]));
    expect(new Set(judged.filter((j) => j.rubric === "faithfulness").map((j) => j.fingerprint)).size).toBe(1);
  });

  it("turns evidence the baseline cannot use into an error verdict, never yes or no", async () => {
    const { itemSet } = fixtureInputs(["correctness"]);
    const broken: Item[] = itemSet.items.slice(0, 1).map((i) => ({ ...i, evidence: { question: i.evidence.question, answer: "x" } }));
    const { judgments } = await runJudge({ items: broken, backend: baselineBackend(), repeats: 1, concurrency: 1 });
    expect(judgments[0]).toMatchObject({ verdict: "error", error: expect.stringMatching(/^baseline: .*reference/) });
  });
});
