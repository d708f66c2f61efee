import type { JudgedList } from "./measures/types.js";

/**
 * Judges a ranked list of ids against a binary relevant set (golden-set
 * mode: relevance from `relevant` ids and anchors). The list's order is its
 * ranking; every relevant id has gain 1, so nDCG's ideal has min(k, R) terms.
 * An id listed twice is an error (trec_eval refuses duplicates too);
 * `unique: true` says the caller has checked that already (the loaders do),
 * which saves a set per list.
 *
 * @example
 * judgeList(["d3", "d8", "d1", "d6", "d2"], new Set(["d1", "d2", "d5"]))
 * // { numRet: 5, numRel: 3, relRanks: [3, 5], gainRanks: [3, 5], gains: [1, 1], idealGains: [1, 1, 1] }
 */
export function judgeList(ranked: readonly string[], relevant: ReadonlySet<string>, options: { unique?: boolean } = {}): JudgedList {
  const relRanks: number[] = [];
  if (options.unique) {
    for (let i = 0; i < ranked.length; i++) if (relevant.has(ranked[i]!)) relRanks.push(i + 1);
  } else {
    const seen = new Set<string>();
    for (let i = 0; i < ranked.length; i++) {
      const id = ranked[i]!;
      if (seen.has(id)) throw new RangeError(`chunk id ${JSON.stringify(id)} appears twice in one ranked list`);
      seen.add(id);
      if (relevant.has(id)) relRanks.push(i + 1);
    }
  }
  return judgedFromRanks(ranked.length, relevant.size, relRanks);
}

/**
 * {@link judgeList} from what it reads of the list: its length, the size
 * of the relevant set, and the ranks of the relevant ids in it (for a
 * caller that has them already: `relevantRanks`, golden/relevant-ranks.ts).
 *
 * @example
 * judgedFromRanks(5, 3, [3, 5]) // { numRet: 5, numRel: 3, relRanks: [3, 5], gainRanks: [3, 5], gains: [1, 1], idealGains: [1, 1, 1] }
 */
export function judgedFromRanks(numRet: number, numRel: number, relRanks: readonly number[]): JudgedList {
  return {
    numRet,
    numRel,
    relRanks,
    gainRanks: relRanks,
    gains: relRanks.map(() => 1),
    idealGains: new Array<number>(numRel).fill(1),
  };
}
