import { BASELINE_JUDGE, BASELINE_VERSION, BaselineEvidenceError, baselineFingerprint, baselineJudge, isBaselineRubric } from "../baseline/index.js";
import type { Rubric } from "../rubric/rubric.js";
import type { JudgeBackend } from "./judge.js";

/**
 * The offline lexical baseline (src/judge/baseline) as a backend: no model,
 * no cache, deterministic, with its own fingerprint per rubric.
 */
export function baselineBackend(): JudgeBackend {
  // A fingerprint is a hash, asked for several times per item: computed once per rubric.
  const fps = new Map<string, string>();
  const fingerprintOf = (rubric: Rubric): string => {
    let fp = fps.get(rubric.name);
    if (fp === undefined) fps.set(rubric.name, (fp = baselineFingerprint(rubric.name)));
    return fp;
  };
  return {
    kind: "baseline",
    label: `baseline (${BASELINE_JUDGE} v${BASELINE_VERSION}: lexical, no model; a floor to beat, not a judge to trust)`,
    cached: false,
    fingerprint: fingerprintOf,
    template: (rubric) => ({ judge: BASELINE_JUDGE, version: BASELINE_VERSION, rubric: rubric.name }),
    async judge(rubric, evidence) {
      const fingerprint = fingerprintOf(rubric);
      try {
        const v = baselineJudge(rubric.name, evidence);
        return { verdict: v.verdict, reason: v.reason, fingerprint };
      } catch (e) {
        if (e instanceof BaselineEvidenceError) return { verdict: "error", reason: "", error: `baseline: ${e.message}`, fingerprint };
        throw e;
      }
    },
  };
}

/** Rubrics the baseline has no rule for (checked before a run, to fail early). */
export function baselineUnsupported(rubrics: readonly Rubric[]): string[] {
  return rubrics.filter((r) => !isBaselineRubric(r.name)).map((r) => r.name);
}
