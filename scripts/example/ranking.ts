/** One entry of a ranked list as written to the pipeline output. */
export interface Scored {
  id: string;
  score: number;
}

/** Depth of every list written: the pool depth of the example config. */
export const DEPTH = 50;

/**
 * Rounds a score to 6 decimals. Scores are rounded before they are sorted
 * and written, so that a last-bit difference in floating point between two
 * machines can neither change the file nor swap two entries.
 */
export function roundScore(x: number): number {
  const r = Math.round(x * 1e6) / 1e6;
  return Object.is(r, -0) ? 0 : r;
}

/**
 * Sorts by rounded score, highest first, ties by chunk id (code-unit
 * order), and keeps the top `depth`: the one deterministic order every
 * retriever here uses.
 *
 * @example
 * rankByScore([{ id: "b", score: 1 }, { id: "a", score: 1 }], 5) // a, b
 */
export function rankByScore(entries: Iterable<Scored>, depth = DEPTH): Scored[] {
  const rounded = [...entries].map((e) => ({ id: e.id, score: roundScore(e.score) }));
  rounded.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  return rounded.slice(0, depth);
}
