import type { Evidence } from "../../../golden/schema/items.js";
import { detectRefusal } from "../refusal.js";
import { pct, quote } from "../support.js";
import type { BaselineThresholds } from "../thresholds.js";
import { analyse, indexSources, tokenise } from "../tokens.js";
import { type BaselineVerdict, need } from "../types.js";

const YES_WORDS = new Set(["yes", "yeah", "yep", "yup", "haan", "han", "haa", "हाँ", "हां"].map((w) => w.normalize("NFKC")));
const NO_WORDS = new Set(["no", "nope", "nahi", "nahin", "nhi", "नहीं"].map((w) => w.normalize("NFKC")));

/** "yes" or "no" when the text opens with one (a direct answer to a yes/no question). */
function leadingYesNo(text: string): "yes" | "no" | undefined {
  const first = tokenise(text)[0];
  if (first === undefined) return undefined;
  if (YES_WORDS.has(first)) return "yes";
  if (NO_WORDS.has(first)) return "no";
  return undefined;
}

/**
 * Correctness: does the answer state the reference answer's facts without
 * contradicting it? In order:
 * 1. no answer, or a refusal, is not correct;
 * 2. every number and code of the reference must occur in the answer;
 * 3. a contradiction fails: the two open with opposite yes/no, or one is
 *    negated and the other not ("can be carried forward" against "cannot be
 *    carried forward" share every content word). This is crude: an answer
 *    that adds a negated side remark to a positive reference fails too;
 * 4. at least `correctnessRecall` of the reference's content words occur in
 *    the answer.
 */
export function correctness(e: Evidence, t: BaselineThresholds): BaselineVerdict {
  const reference = need("correctness", e, "reference");
  const answer = e.answer ?? "";
  if (tokenise(answer).length === 0) {
    return { verdict: "no", reason: "There is no answer to compare with the reference." };
  }
  const refusal = detectRefusal(answer, t.hedgeMinWords);
  if (refusal.refused) return { verdict: "no", reason: `The answer refuses (${quote(refusal.phrase ?? answer, 80)}) while the reference gives an answer.` };

  const ref = analyse(reference);
  const ans = indexSources([answer]);
  const missingNumbers = ref.numbers.filter((n) => !ans.numbers.has(n));
  const missingCodes = ref.codes.filter((c) => !ans.codes.has(c));
  if (missingNumbers.length + missingCodes.length > 0) {
    const what = [...missingNumbers, ...missingCodes].join(", ");
    return { verdict: "no", reason: `The answer does not state the reference's ${what}.` };
  }
  const refLead = leadingYesNo(reference);
  const ansLead = leadingYesNo(answer);
  if (refLead && ansLead && refLead !== ansLead) {
    return { verdict: "no", reason: `The answer says "${ansLead}" where the reference says "${refLead}".` };
  }
  const ansNegated = analyse(answer).negated;
  if (ref.negated !== ansNegated) {
    return { verdict: "no", reason: `The answer contradicts the reference: ${ref.negated ? "the reference is negated and the answer is not" : "the answer is negated and the reference is not"}.` };
  }
  const missing = ref.words.filter((w) => !ans.words.has(w));
  const recall = ref.words.length === 0 ? 1 : (ref.words.length - missing.length) / ref.words.length;
  if (recall < t.correctnessRecall) {
    return { verdict: "no", reason: `The answer contains ${pct(recall)} of the reference's content words, below ${pct(t.correctnessRecall)} (missing: ${missing.slice(0, 8).join(", ")}).` };
  }
  return { verdict: "yes", reason: `The answer contains ${pct(recall)} of the reference's content words and all its numbers and codes, with the same polarity.` };
}
