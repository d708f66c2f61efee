import type { Evidence } from "../../../golden/schema/items.js";
import { pct } from "../support.js";
import type { BaselineThresholds } from "../thresholds.js";
import { analyse, indexSources } from "../tokens.js";
import { type BaselineVerdict, chunkText, need } from "../types.js";

/**
 * Anchor ambiguity: does a candidate chunk (a top-k chunk without the golden
 * anchor) answer the question anyway? "yes" means the retrieval miss is an
 * ambiguous anchor rather than a search failure.
 *
 * The target is what an answering chunk must say: the question's content
 * words, plus the reference answer's when the evidence has one (the rubric
 * asks whether a passage answers "as the reference answer does"; a chunk
 * merely on the question's topic shares the question's words but not the
 * reference's facts). A candidate answers when it contains at least
 * `anchorCoverage` of the target's distinct content words and every number
 * and code of the question and the reference.
 */
export function anchorAmbiguity(e: Evidence, t: BaselineThresholds): BaselineVerdict {
  const question = need("anchor-ambiguity", e, "question");
  const candidates = need("anchor-ambiguity", e, "candidates");
  const q = analyse(question);
  const r = e.reference === undefined ? undefined : analyse(e.reference);
  const words = [...new Set([...q.words, ...(r?.words ?? [])])];
  const numbers = [...new Set([...q.numbers, ...(r?.numbers ?? [])])];
  const codes = [...new Set([...q.codes, ...(r?.codes ?? [])])];
  const target = r ? "the question's and the reference answer's" : "the question's";
  if (words.length === 0 && numbers.length === 0 && codes.length === 0) {
    return { verdict: "no", reason: `There are no content words in ${target} text to look for in the candidates.` };
  }
  if (candidates.length === 0) return { verdict: "no", reason: "There are no candidate chunks." };
  let best: { id: string; coverage: number; missing: string[] } | undefined;
  for (const c of candidates) {
    const idx = indexSources([chunkText(c)]);
    const found = words.filter((w) => idx.words.has(w)).length;
    const coverage = words.length === 0 ? 1 : found / words.length;
    const missing = [...numbers.filter((n) => !idx.numbers.has(n)), ...codes.filter((x) => !idx.codes.has(x))];
    const better = !best || missing.length < best.missing.length || (missing.length === best.missing.length && coverage > best.coverage);
    if (better) best = { id: c.id, coverage, missing };
  }
  const b = best!;
  if (b.missing.length === 0 && b.coverage >= t.anchorCoverage) {
    return { verdict: "yes", reason: `Chunk ${b.id} contains ${pct(b.coverage)} of ${target} content words and all their numbers and codes, so it may answer the question.` };
  }
  const lacks = b.missing.length > 0 ? ` and lacks ${b.missing.join(", ")}` : "";
  return {
    verdict: "no",
    reason: `No candidate contains enough of ${target} content: the best, ${b.id}, has ${pct(b.coverage)} of the content words (needs ${pct(t.anchorCoverage)})${lacks}.`,
  };
}
