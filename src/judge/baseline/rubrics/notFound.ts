import type { Evidence } from "../../../golden/schema/items.js";
import { detectRefusal } from "../refusal.js";
import { quote } from "../support.js";
import type { BaselineThresholds } from "../thresholds.js";
import { type BaselineVerdict, need } from "../types.js";

/**
 * Not found. `evidence.answerable` (from the golden set) decides what correct
 * means: for an unanswerable question, yes iff the answer says the
 * information is not available; for an answerable one, yes iff it does not
 * refuse (a refusal there is a false "not found"). An empty answer is "no"
 * either way: it neither says "not available" nor answers.
 */
export function notFound(e: Evidence, t: BaselineThresholds): BaselineVerdict {
  const answerable = need("not-found", e, "answerable");
  const answer = (e.answer ?? "").trim();
  if (!answer) {
    return { verdict: "no", reason: answerable ? "The answer is empty although the documents hold an answer." : "The answer is empty; it does not say that the information is not available." };
  }
  const r = detectRefusal(answer, t.hedgeMinWords);
  if (answerable) {
    return r.refused
      ? { verdict: "no", reason: `False "not found": the answer refuses (${quote(r.phrase!, 80)}) although the documents hold an answer.` }
      : { verdict: "yes", reason: r.hedged ? `The answer hedges but then answers (${quote(r.hedged, 80)}).` : "The answer does not refuse." };
  }
  if (r.refused) return { verdict: "yes", reason: `The answer says the information is not available (${quote(r.phrase!, 80)}).` };
  return {
    verdict: "no",
    reason: r.hedged
      ? `The answer says the information is missing but then answers anyway (${quote(r.hedged, 80)}).`
      : "The answer gives an answer although the documents hold none; it never says the information is not available.",
  };
}
