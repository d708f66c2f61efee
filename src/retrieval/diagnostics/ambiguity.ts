import { InputError } from "../../golden/errors.js";
import type { Judgment, Verdict } from "../../golden/schema/items.js";

/** The optional rubric whose verdicts decide anchor-ambiguity (unit `question`, applies to retrieval misses). */
export const ANCHOR_AMBIGUITY_RUBRIC = "anchor-ambiguity";

/**
 * The anchor-ambiguity verdict of each question of one variant, from judge
 * output, for {@link analyseMisses}' `ambiguity` option. "yes" means a top-k
 * chunk without the anchor answers the question (retrieval behaved
 * correctly; the anchor is too narrow).
 *
 * Repeats of one item agree or are unusable: when the non-error verdicts of a
 * question disagree, or all are errors, its verdict is "error", which the
 * classifier ignores. Verdicts of different judge fingerprints never mix: more
 * than one fingerprint among the rows used is an {@link InputError} naming
 * `source`. Rule verdicts are ignored (they never decide a judgment rubric).
 *
 * @example
 * const verdicts = ambiguityVerdicts(loadJsonl("judgments.jsonl", Judgment).map((r) => r.value), "hybrid-rerank", "judgments.jsonl");
 * diagnoseVariant(golden.questions, variant, { k: 10, poolDepth: 50, precisionKs: [10], ambiguity: verdicts });
 */
export function ambiguityVerdicts(judgments: Iterable<Judgment>, variant: string, source: string): Map<string, Verdict> {
  const byQuestion = new Map<string, Verdict[]>();
  const fingerprints = new Set<string>();
  for (const j of judgments) {
    if (j.variant !== variant || j.rubric !== ANCHOR_AMBIGUITY_RUBRIC || j.unit !== "question" || j.judge === "rule") continue;
    fingerprints.add(j.fingerprint);
    let list = byQuestion.get(j.question);
    if (!list) byQuestion.set(j.question, (list = []));
    list.push(j.verdict);
  }
  if (fingerprints.size > 1) {
    throw new InputError(source, undefined, "fingerprint", `${ANCHOR_AMBIGUITY_RUBRIC} verdicts of variant ${JSON.stringify(variant)} come from ${fingerprints.size} judge fingerprints; verdicts of different judges never mix (keep one evaluation's judgments)`);
  }
  const out = new Map<string, Verdict>();
  for (const [question, verdicts] of byQuestion) {
    const decided = new Set(verdicts.filter((v) => v !== "error"));
    out.set(question, decided.size === 1 ? [...decided][0]! : "error");
  }
  return out;
}
