import { BASELINE_JUDGE, BASELINE_VERSION, baselineFingerprint, isBaselineRubric } from "../baseline/index.js";
import type { Rubric } from "../rubric/rubric.js";
import { BaselineThreads, type ThreadOptions } from "./baseline-threads.js";
import type { Judge } from "./judge.js";

/** What the baseline's fingerprint covers ({@link baselineFingerprint}). */
export const BASELINE_COVERS: readonly string[] = [
  "the baseline's name and behaviour version (bumped whenever any verdict or reason could change)",
  "the rubric's name",
  "the thresholds of its rules",
];

/**
 * The offline lexical baseline (src/judge/baseline) as a judge record: no
 * model, no cache, deterministic (so no repeats), with its own fingerprint
 * per rubric. Pure CPU work, so a large run is shared between this thread
 * and worker threads on the other cores (baseline-threads.ts; `threads: 0`
 * keeps it on this one): its `maxConcurrency` is the calls that keeps every
 * thread busy, and a caller that sends one call at a time judges here.
 */
export function baselineBackend(options: ThreadOptions = {}): Judge {
  const threads = new BaselineThreads(options);
  // A fingerprint is a hash, asked for several times per item: computed once per rubric.
  const fps = new Map<string, string>();
  const fingerprintOf = (rubric: Rubric): string => {
    let fp = fps.get(rubric.name);
    if (fp === undefined) fps.set(rubric.name, (fp = baselineFingerprint(rubric.name)));
    return fp;
  };
  return {
    name: BASELINE_JUDGE,
    kind: "baseline",
    label: `baseline (${BASELINE_JUDGE} v${BASELINE_VERSION}: lexical features and a small learned model, no LLM; a floor to beat, not a judge to trust)`,
    covers: BASELINE_COVERS,
    cached: false,
    repeatable: false,
    maxConcurrency: threads.concurrency,
    fingerprint: fingerprintOf,
    template: (rubric) => ({ judge: BASELINE_JUDGE, version: BASELINE_VERSION, rubric: rubric.name }),
    async judge(rubric, evidence) {
      const fingerprint = fingerprintOf(rubric);
      return { ...(await threads.judge(rubric.name, evidence)), fingerprint };
    },
  };
}

/** Rubrics the baseline has no rule for (checked before a run, to fail early). */
export function baselineUnsupported(rubrics: readonly Rubric[]): string[] {
  return rubrics.filter((r) => !isBaselineRubric(r.name)).map((r) => r.name);
}
