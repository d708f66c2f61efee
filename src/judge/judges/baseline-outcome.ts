import type { Evidence } from "../../golden/schema/items.js";
import { BaselineEvidenceError, baselineJudge } from "../baseline/index.js";

/** What the baseline says of one item, before the record adds its fingerprint. */
export interface BaselineOutcome {
  verdict: "yes" | "no" | "error";
  reason: string;
  pYes?: number;
  error?: string;
}

/**
 * Judges one item with the baseline, as the judge record reports it: evidence
 * the rule cannot read is an error verdict; anything else thrown (an unknown
 * rubric, a bug) is thrown. The one function both this thread and the
 * baseline's worker threads (baseline-threads.ts) call, so a verdict never
 * depends on which thread made it.
 */
export function baselineOutcome(rubric: string, evidence: Evidence): BaselineOutcome {
  try {
    const v = baselineJudge(rubric, evidence);
    return v.pYes === undefined ? { verdict: v.verdict, reason: v.reason } : { verdict: v.verdict, reason: v.reason, pYes: v.pYes };
  } catch (e) {
    if (e instanceof BaselineEvidenceError) return { verdict: "error", reason: "", error: `baseline: ${e.message}` };
    throw e;
  }
}
