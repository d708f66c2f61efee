/**
 * The offline baseline judge: a deterministic lexical judge implementing
 * ragjudge's rubrics without a language model (`--judge baseline`, or
 * `"judge": {"kind": "baseline"}` in the config). Faithfulness and citation
 * accuracy are decided by a small learned support model (a logistic
 * regression over alignment features, support-model.ts); not found,
 * correctness and anchor ambiguity by rules. It is weak by design and
 * labelled as a baseline wherever it appears; it has its own fingerprint
 * (which holds the model's weights), so calibration measures it against human
 * labels like any judge.
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
import { learnedCitationAccuracy, learnedFaithfulness } from "./rubrics/learnedSupport.js";
import { notFound } from "./rubrics/notFound.js";
import { type SupportModel, checkModel, modelIdentity } from "./model.js";
import { SUPPORT_MODEL } from "./support-model.js";
import { type BaselineThresholds, DEFAULT_THRESHOLDS } from "./thresholds.js";
import type { BaselineVerdict } from "./types.js";

export { BaselineEvidenceError, type BaselineVerdict } from "./types.js";
export { type BaselineThresholds, DEFAULT_THRESHOLDS } from "./thresholds.js";
export { type SupportModel, supportProbability } from "./model.js";
export { SUPPORT_MODEL } from "./support-model.js";

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

/**
 * The rubrics' rules. Faithfulness and citation accuracy here are the
 * previous word-coverage rules (`support: "rule"`), kept so that
 * `npm run attribution:baseline` measures them beside the learned model;
 * the default judge replaces them with {@link SUPPORT_RUBRICS}.
 */
const RULES: Readonly<Record<string, Rule>> = {
  "anchor-ambiguity": anchorAmbiguity,
  "citation-accuracy": citationAccuracy,
  correctness,
  faithfulness,
  "not-found": notFound,
};

/** The rubrics the learned support model decides (unless `support: "rule"`). */
const SUPPORT_RUBRICS: Readonly<Record<string, (e: Evidence, t: BaselineThresholds, m: SupportModel) => BaselineVerdict>> = {
  "citation-accuracy": learnedCitationAccuracy,
  faithfulness: learnedFaithfulness,
};

/** How faithfulness and citation accuracy are decided: the learned model (default, with its weights) or the previous coverage rule. */
export type BaselineSupport = { support: "learned"; model: SupportModel } | { support: "rule" };

/** The shipped choice: the learned model with the shipped weights. */
export const DEFAULT_SUPPORT: BaselineSupport = Object.freeze({ support: "learned", model: SUPPORT_MODEL });

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
 * A baseline judge with other thresholds or another support decision, for
 * measurement, cross-validation and sweeps (`npm run attribution:baseline`).
 * Its verdicts carry a different fingerprint ({@link baselineFingerprint}
 * with the same arguments); ship only {@link baselineJudge}.
 */
export function createBaselineJudge(
  thresholds: BaselineThresholds = DEFAULT_THRESHOLDS,
  support: BaselineSupport = DEFAULT_SUPPORT,
): (rubricName: string, evidence: Evidence) => BaselineVerdict {
  const t = Object.freeze({ ...thresholds });
  checkThresholds(t);
  const model = support.support === "learned" ? support.model : undefined;
  if (model) checkModel(model);
  return (rubricName, evidence) => {
    const rule = isBaselineRubric(rubricName) ? RULES[rubricName] : undefined;
    if (!rule) throw new UnknownBaselineRubricError(rubricName);
    const learned = model && Object.hasOwn(SUPPORT_RUBRICS, rubricName) ? SUPPORT_RUBRICS[rubricName] : undefined;
    return learned && model ? learned(evidence, t, model) : rule(evidence, t);
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
 * version, rubric and thresholds, and for the rubrics the support model
 * decides, of the model's name, version, feature list, weights, intercept and
 * threshold. Stored with every baseline verdict in place of an LLM judge's
 * request-template hash, so verdicts of another baseline version, other
 * thresholds or other weights are never mixed with these, and a calibration
 * of old weights does not apply to new ones. (`support: "rule"` gives the
 * fingerprint the coverage rule always had.)
 */
export function baselineFingerprint(
  rubricName: string,
  thresholds: BaselineThresholds = DEFAULT_THRESHOLDS,
  support: BaselineSupport = DEFAULT_SUPPORT,
): string {
  if (!isBaselineRubric(rubricName)) throw new UnknownBaselineRubricError(rubricName);
  const base = { judge: BASELINE_JUDGE, version: BASELINE_VERSION, rubric: rubricName, thresholds };
  const learned = support.support === "learned" && Object.hasOwn(SUPPORT_RUBRICS, rubricName);
  return hashJson(learned ? { ...base, support: modelIdentity(support.model) } : base);
}
