import { splitSentences, stripMarkers } from "../../../golden/citations.js";
import type { Evidence } from "../../../golden/schema/items.js";
import { hasRefusalPhrase } from "../refusal.js";
import { type SupportScore, describeGap, pct, quote, scoreSupport } from "../support.js";
import type { BaselineThresholds } from "../thresholds.js";
import { indexSources } from "../tokens.js";
import { type BaselineVerdict, chunkText, need } from "../types.js";

/** At most this many unsupported sentences are spelled out in a reason. */
const LISTED = 5;

/**
 * Faithfulness: is every claim of the answer supported by the context chunks?
 * Each sentence (citation markers removed) is a claim unless it is a refusal
 * or has too few content words; a claim is supported when enough of its
 * content words, and all its numbers and codes, occur somewhere in the
 * context. The reason lists the unsupported sentences by number (`s2`,
 * counted from 1 as citations count them) with what is missing.
 */
export function faithfulness(e: Evidence, t: BaselineThresholds): BaselineVerdict {
  const answer = need("faithfulness", e, "answer");
  const context = need("faithfulness", e, "context");
  const sources = indexSources(context.map(chunkText));
  const claims: { n: number; sentence: string; score: SupportScore }[] = [];
  splitSentences(answer).forEach((raw, i) => {
    const sentence = stripMarkers(raw);
    if (!sentence || hasRefusalPhrase(sentence)) return;
    const score = scoreSupport(sentence, sources, t.supportCoverage, t.minClaimWords);
    if (score.isClaim) claims.push({ n: i + 1, sentence, score });
  });
  if (claims.length === 0) {
    return { verdict: "yes", reason: "The answer makes no checkable claim (no sentence with enough content words, a number or a code)." };
  }
  const bad = claims.filter((c) => !c.score.supported);
  if (bad.length === 0) {
    const low = Math.min(...claims.map((c) => c.score.coverage));
    const what = claims.length === 1 ? "Its one claim is" : `All ${claims.length} claims are`;
    return { verdict: "yes", reason: `${what} supported by the context (lowest content-word coverage ${pct(low)}; numbers and codes all found).` };
  }
  const listed = bad.slice(0, LISTED).map((c) => `s${c.n} ${quote(c.sentence)}: ${describeGap(c.score, t.supportCoverage)}`);
  const more = bad.length > LISTED ? `; and ${bad.length - LISTED} more` : "";
  return { verdict: "no", reason: `${bad.length} of ${claims.length} claims unsupported by the context: ${listed.join("; ")}${more}.` };
}
