import { describe, expect, it } from "vitest";
import { BASELINE_JUDGE, baselineFingerprint, DEFAULT_THRESHOLDS } from "../../../src/judge/baseline/index.js";
import { baselineBackend } from "../../../src/judge/judges/baseline.js";
import { threadsConcurrency } from "../../../src/judge/judges/baseline-threads.js";
import type { Judge } from "../../../src/judge/judges/judge.js";
import { openAIBackend } from "../../../src/judge/judges/llm.js";
import type { Rubric } from "../../../src/judge/rubric/rubric.js";
import { JudgeCache } from "../../../src/judge/schedule/cache.js";
import { runJudge } from "../../../src/judge/schedule/run.js";
import { JudgeClient } from "../../../src/judge/transport/client.js";
import type { RequestSettings } from "../../../src/judge/transport/request.js";
import { fixtureInputs, rubric, SETTINGS, tempDir } from "../helpers.js";

const S = SETTINGS;
const llm = (settings: RequestSettings = S) =>
  openAIBackend({ client: new JudgeClient({ baseURL: "http://127.0.0.1:9/v1", apiKey: "x", timeoutMs: 1000 }), baseURL: "http://127.0.0.1:9/v1", settings });

describe("the judge records", () => {
  it("say who they are, what their fingerprint covers and how a run schedules them", () => {
    const faith = rubric("faithfulness");
    const l = llm();
    expect(l).toMatchObject({ name: "openai-chat", kind: "llm", model: "judge-model", cached: true, repeatable: true, maxConcurrency: Infinity });
    expect((l.template(faith) as { judge: string }).judge).toBe(l.name);
    const b = baselineBackend({ threads: 1 });
    // enough calls in flight for this thread and one worker thread (baseline-threads.ts)
    expect(b).toMatchObject({ name: BASELINE_JUDGE, kind: "baseline", cached: false, repeatable: false, maxConcurrency: threadsConcurrency(1) });
    expect((b.template(faith) as { judge: string }).judge).toBe(b.name);
    for (const j of [l, b]) expect(j.covers.length).toBeGreaterThan(0);
  });

  it("the LLM judge's fingerprint changes with everything it says it covers", () => {
    const faith = rubric("faithfulness");
    const base = llm().fingerprint(faith);
    const changed: [string, string][] = [
      ["model", llm({ ...S, model: "other" }).fingerprint(faith)],
      ["temperature", llm({ ...S, temperature: 0.5 }).fingerprint(faith)],
      ["seed", llm({ ...S, seed: null }).fingerprint(faith)],
      ["max_tokens", llm({ ...S, maxTokens: 100 }).fingerprint(faith)],
      ["response mode", llm({ ...S, responseMode: "text" }).fingerprint(faith)],
      ["rubric version", llm().fingerprint({ ...faith, version: faith.version + "-next" })],
      ["rubric prompt", llm().fingerprint({ ...faith, system: faith.system + " Be strict." })],
      ["rubric name", llm().fingerprint({ ...faith, name: "faithfulness-2" })],
    ];
    for (const [what, fp] of changed) expect({ what, same: fp === base }).toEqual({ what, same: false });
    const text = llm().covers.join(" ");
    for (const word of ["model", "temperature", "seed", "max_tokens", "response mode", "version", "prompts"]) expect(text).toContain(word);
  });

  it("the baseline's fingerprint changes with the rubric and the thresholds it says it covers", () => {
    const b = baselineBackend();
    expect(b.fingerprint(rubric("faithfulness"))).not.toBe(b.fingerprint(rubric("correctness")));
    expect(b.fingerprint(rubric("faithfulness"))).toBe(baselineFingerprint("faithfulness"));
    expect(baselineFingerprint("faithfulness", { ...DEFAULT_THRESHOLDS, supportCoverage: 0.1 })).not.toBe(baselineFingerprint("faithfulness"));
    expect(b.covers.join(" ")).toMatch(/version.*rubric.*thresholds/s);
  });
});

/** A judge record that says yes at once, counting how many of its calls overlap; `kind` is only a label. */
function fake(over: Partial<Judge>): Judge & { peak: number } {
  let inFlight = 0;
  const j = {
    name: "fake",
    kind: "llm" as const,
    label: "fake judge",
    covers: ["nothing"],
    cached: false,
    repeatable: false,
    maxConcurrency: Infinity,
    peak: 0,
    fingerprint: (r: Rubric) => `fake:${r.name}`,
    template: (r: Rubric) => ({ judge: "fake", rubric: r.name }),
    async judge(r: Rubric) {
      j.peak = Math.max(j.peak, ++inFlight);
      await new Promise((done) => setTimeout(done, 2));
      inFlight--;
      return { verdict: "yes" as const, reason: "ok", fingerprint: `fake:${r.name}` };
    },
    ...over,
  };
  return j;
}

describe("runJudge reads the record's properties, never which judge it is", () => {
  const { itemSet } = fixtureInputs(["faithfulness"]);
  const items = itemSet.items.filter((i) => !i.rule);

  it("repeats only a repeatable judge, whatever its kind says", async () => {
    const once = await runJudge({ items, backend: fake({ kind: "llm", repeatable: false }), repeats: 3, concurrency: 4 });
    expect(once.judgments.map((j) => j.repeat)).toEqual(items.map(() => 0));
    const thrice = await runJudge({ items, backend: fake({ kind: "baseline", repeatable: true }), repeats: 3, concurrency: 4 });
    expect(thrice.judgments).toHaveLength(3 * items.length);
    expect(thrice.judgments.every((j) => j.judge === "baseline")).toBe(true);
  });

  it("keeps no more calls in flight than the judge's maxConcurrency or the run's concurrency", async () => {
    const capped = fake({ maxConcurrency: 2 });
    await runJudge({ items, backend: capped, repeats: 1, concurrency: 8 });
    expect(capped.peak).toBe(2);
    const wide = fake({});
    await runJudge({ items, backend: wide, repeats: 1, concurrency: 3 });
    expect(wide.peak).toBe(3);
  });

  it("uses the cache only for a judge whose verdicts are cached", async () => {
    await expect(runJudge({ items, backend: fake({ cached: true }), repeats: 1, concurrency: 2 })).rejects.toThrow(/needs a cache/);
    const cache = JudgeCache.open(tempDir());
    await runJudge({ items, backend: fake({ cached: false }), cache, repeats: 1, concurrency: 2 });
    expect(cache.countDone()).toBe(0);
    const second = await runJudge({ items, backend: fake({ cached: true }), cache, repeats: 1, concurrency: 2 });
    expect(cache.countDone()).toBe(new Set(items.map((i) => i.inputHash)).size);
    expect(second.judgments.every((j) => !j.cached)).toBe(true);
    const third = await runJudge({ items, backend: fake({ cached: true }), cache, repeats: 1, concurrency: 2 });
    expect(third.judgments.every((j) => j.cached)).toBe(true);
    cache.close();
  });
});
