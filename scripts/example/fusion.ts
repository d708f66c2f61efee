import { DEPTH, rankByScore, type Scored } from "./ranking.js";

/** The RRF constant of Cormack, Clarke and Büttcher (SIGIR 2009); 60 is the usual choice. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: each chunk scores the sum over the input lists of
 * 1 / (k + rank), rank counted from 1; a list that lacks the chunk adds
 * nothing. Only ranks matter, so lists with incomparable scores (BM25 and
 * cosine) fuse without calibration.
 *
 * @example
 * fuseRrf([[{id:"a",score:9},{id:"b",score:1}], [{id:"b",score:0.8}]]) // b (2/61.5...), a
 */
export function fuseRrf(lists: ReadonlyArray<readonly Scored[]>, k = RRF_K, depth = DEPTH): Scored[] {
  const scores = new Map<string, number>();
  for (const list of lists) {
    list.forEach((e, i) => scores.set(e.id, (scores.get(e.id) ?? 0) + 1 / (k + i + 1)));
  }
  return rankByScore([...scores].map(([id, score]) => ({ id, score })), depth);
}
