import type { Chunk } from "../../src/golden/schema/golden.js";
import { DEPTH, roundScore, type Scored } from "./ranking.js";
import { contentTokens, crudeStem, indexTerms } from "./text.js";

/** How many of the fused list's top entries the reranker reorders. */
export const RERANK_TOP = 20;

/** Weights of the reranker's three features; they sum to 1. */
export const RERANK_WEIGHTS = { coverage: 0.6, proximity: 0.25, heading: 0.15 } as const;

/** Stemmed terms at each token position of a text (a compound token gives several). */
function positions(text: string): string[][] {
  return contentTokens(text).map((t) => indexTerms(t).map(crudeStem));
}

/**
 * Length in tokens of the shortest window of `pos` that contains every term
 * of `terms` found in it, or 0 when fewer than two distinct terms occur.
 */
export function minimalWindow(pos: readonly string[][], terms: ReadonlySet<string>): { distinct: number; window: number } {
  const present = new Set<string>();
  for (const p of pos) for (const t of p) if (terms.has(t)) present.add(t);
  if (present.size < 2) return { distinct: present.size, window: 0 };
  const count = new Map<string, number>();
  let covered = 0;
  let best = Infinity;
  let left = 0;
  for (let right = 0; right < pos.length; right++) {
    for (const t of new Set(pos[right])) {
      if (!present.has(t)) continue;
      const c = (count.get(t) ?? 0) + 1;
      count.set(t, c);
      if (c === 1) covered++;
    }
    while (covered === present.size) {
      best = Math.min(best, right - left + 1);
      for (const t of new Set(pos[left])) {
        if (!present.has(t)) continue;
        const c = count.get(t)! - 1;
        count.set(t, c);
        if (c === 0) covered--;
      }
      left++;
    }
  }
  return { distinct: present.size, window: best };
}

/** A deterministic lexical reranker over the top of a fused list. */
export interface Reranker {
  rerank(query: string, fused: readonly Scored[], depth?: number): Scored[];
}

/**
 * Builds the reranker for one variant's chunks. For each of the top
 * {@link RERANK_TOP} fused chunks it scores, over stemmed content words:
 *
 * - coverage: the IDF-weighted share of query terms found in heading or text;
 * - proximity: (m - 1) / (w - 1), at most 1, for the shortest window of w
 *   tokens of the text holding all m distinct query terms it contains (0 when
 *   m < 2), so terms close together beat terms scattered over the chunk;
 * - heading: the IDF-weighted share of query terms found in the heading.
 *
 * The reordered head scores 1 + the weighted sum (ties keep the fused
 * order); entries below the head keep their fused order and RRF score, which
 * is always below 1, so the list's scores fall monotonically.
 */
export function buildReranker(chunks: readonly Chunk[]): Reranker {
  const byId = new Map(chunks.map((c) => [c.id, c]));
  const df = new Map<string, number>();
  const textPos = new Map<string, string[][]>();
  const headTerms = new Map<string, Set<string>>();
  for (const c of chunks) {
    const pos = positions(c.text);
    textPos.set(c.id, pos);
    const head = new Set(positions(c.heading ?? "").flat());
    headTerms.set(c.id, head);
    for (const t of new Set([...pos.flat(), ...head])) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const n = chunks.length;
  const idf = (t: string) => Math.log(1 + n / ((df.get(t) ?? 0) + 0.5));
  return {
    rerank(query: string, fused: readonly Scored[], depth = DEPTH): Scored[] {
      const q = new Set(positions(query).flat());
      const total = [...q].reduce((s, t) => s + idf(t), 0);
      const head = fused.slice(0, RERANK_TOP).map((e, i) => {
        const chunk = byId.get(e.id);
        if (!chunk) throw new Error(`reranker: unknown chunk ${e.id}`);
        const pos = textPos.get(e.id)!;
        const inText = new Set(pos.flat());
        const inHead = headTerms.get(e.id)!;
        let cov = 0;
        let hd = 0;
        for (const t of q) {
          if (inText.has(t) || inHead.has(t)) cov += idf(t);
          if (inHead.has(t)) hd += idf(t);
        }
        const { distinct, window } = minimalWindow(pos, q);
        const prox = distinct >= 2 ? Math.min(1, (distinct - 1) / Math.max(1, window - 1)) : 0;
        const s = total > 0
          ? RERANK_WEIGHTS.coverage * (cov / total) + RERANK_WEIGHTS.proximity * prox + RERANK_WEIGHTS.heading * (hd / total)
          : 0;
        return { id: e.id, score: roundScore(1 + s), fusedRank: i };
      });
      head.sort((a, b) => b.score - a.score || a.fusedRank - b.fusedRank);
      const tail = fused.slice(RERANK_TOP).map((e) => ({ id: e.id, score: roundScore(e.score) }));
      return [...head.map(({ id, score }) => ({ id, score })), ...tail].slice(0, depth);
    },
  };
}
