/**
 * The offline baseline judge: a deterministic lexical judge implementing
 * ragjudge's rubrics without a model (`--judge baseline`, or
 * `"judge": {"kind": "baseline"}` in the config). It is weak by design and
 * labelled as a baseline wherever it appears; it has its own fingerprint, so
 * calibration measures it against human labels like any judge.
 *
 * Pure functions: the same rubric name and evidence always give the same
 * verdict and reason. Text is compared only through `normalise()`.
 */
import { hashJson } from "../../golden/hash.js";
import type { Evidence } from "../../golden/schema/items.js";
import { anchorAmbiguity } from "./rubrics/anchorAmbiguity.js";
import { citationAccuracy } from "./rubrics/citationAccuracy.js";
import { correctness } from "./rubrics/correctness.js";
import { faithfulness } from "./rubrics/faithfulness.js";
import { notFound } from "./rubrics/notFound.js";
import { type BaselineThresholds, DEFAULT_THRESHOLDS } from "./thresholds.js";
import type { BaselineVerdict } from "./types.js";

export { BaselineEvidenceError, type BaselineVerdict } from "./types.js";
export { type BaselineThresholds, DEFAULT_THRESHOLDS } from "./thresholds.js";

/**
 * The baseline's behaviour version. Bump it whenever any verdict or reason
 * could change (tokenisation, stop words, patterns, rules, thresholds): it is
 * part of the baseline's fingerprint, so old verdicts and calibrations stop
 * applying to the new behaviour.
 */
export const BASELINE_VERSION = "1";

/** The judge name that goes into fingerprints and `judge` fields. */
export const BASELINE_JUDGE = "ragjudge-lexical-baseline";

type Rule = (e: Evidence, t: BaselineThresholds) => BaselineVerdict;

const RULES: Readonly<Record<string, Rule>> = {
  "anchor-ambiguity": anchorAmbiguity,
  "citation-accuracy": citationAccuracy,
  correctness,
  faithfulness,
  "not-found": notFound,
};

/** The rubric names the baseline implements (sorted). */
export const BASELINE_RUBRICS: readonly string[] = Object.freeze(Object.keys(RULES).sort());

/** True when the baseline has a rule for this rubric name (check before a run, to fail early). */
export function isBaselineRubric(name: string): boolean {
  return Object.hasOwn(RULES, name);
}

/** Thrown for a rubric name the baseline has no rule for. */
export class UnknownBaselineRubricError extends Error {
  override name = "UnknownBaselineRubricError";
  constructor(readonly rubric: string) {
    super(`the baseline judge has no rule for rubric ${JSON.stringify(rubric)} (it implements ${BASELINE_RUBRICS.join(", ")})`);
  }
}

function checkThresholds(t: BaselineThresholds): void {
  for (const k of ["supportCoverage", "correctnessRecall", "anchorCoverage"] as const) {
    if (!(t[k] >= 0 && t[k] <= 1)) throw new RangeError(`baseline threshold ${k} must be within [0, 1], got ${t[k]}`);
  }
  for (const k of ["minClaimWords", "hedgeMinWords"] as const) {
    if (!(Number.isInteger(t[k]) && t[k] >= 0)) throw new RangeError(`baseline threshold ${k} must be a whole number >= 0, got ${t[k]}`);
  }
}

/**
 * A baseline judge with other thresholds, for tuning and sweeps
 * (`npm run attribution:baseline -- --sweep`). Its verdicts carry a different
 * fingerprint ({@link baselineFingerprint} with the same thresholds); ship
 * only {@link baselineJudge}.
 */
export function createBaselineJudge(thresholds: BaselineThresholds = DEFAULT_THRESHOLDS): (rubricName: string, evidence: Evidence) => BaselineVerdict {
  const t = Object.freeze({ ...thresholds });
  checkThresholds(t);
  return (rubricName, evidence) => {
    const rule = isBaselineRubric(rubricName) ? RULES[rubricName] : undefined;
    if (!rule) throw new UnknownBaselineRubricError(rubricName);
    return rule(evidence, t);
  };
}

/**
 * Judges one item with the baseline. "yes" always means the answer behaved
 * correctly. Throws {@link UnknownBaselineRubricError} for a rubric it has no
 * rule for, and `BaselineEvidenceError` when the evidence lacks a field the
 * rule needs (both are caller bugs, never verdicts).
 *
 * @example
 * baselineJudge("not-found", { question: "Is there a gym?", answer: "Yeh jaankari uplabdh nahi hai.", answerable: false })
 * // { verdict: "yes", reason: "The answer says the information is not available (...)." }
 */
export const baselineJudge: (rubricName: string, evidence: Evidence) => BaselineVerdict = createBaselineJudge();

/**
 * The baseline's fingerprint for one rubric: the hash of its identity,
 * version, rubric and thresholds. Stored with every baseline verdict in place
 * of an LLM judge's request-template hash, so verdicts of another baseline
 * version or other thresholds are never mixed with these.
 */
export function baselineFingerprint(rubricName: string, thresholds: BaselineThresholds = DEFAULT_THRESHOLDS): string {
  if (!isBaselineRubric(rubricName)) throw new UnknownBaselineRubricError(rubricName);
  return hashJson({ judge: BASELINE_JUDGE, version: BASELINE_VERSION, rubric: rubricName, thresholds });
}
