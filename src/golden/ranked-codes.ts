/**
 * Ranked lists sent between threads as numbers. A pipeline output of 50,000
 * questions x 100 retrieved holds 5,000,000 ids but only as many distinct
 * ones as its chunks file has chunks (500,000 in the benchmark): posted as
 * strings, the receiving thread allocates every one of the 5,000,000 again
 * and its young-generation collector copies each of them twice (about 0.8 s
 * of a 50,000-question run was such copying while one block after another
 * arrived). Here the sending thread numbers each id the first time it sends
 * it, and a block carries the ids new since the last block plus one
 * Int32Array of numbers (transferred, not copied); the receiver keeps the
 * table and rebuilds each list from it, so an id seen in many lists is one
 * string there, shared.
 */

/** One block of encoded lists: `fresh` extends the table, `lengths[i]` numbers of `codes` make list i. */
export interface EncodedLists {
  fresh: string[];
  codes: Int32Array<ArrayBuffer>;
  lengths: Int32Array<ArrayBuffer>;
}

/**
 * The sending side: `encode(lists)` numbers the lists' ids (a table kept
 * across calls) and returns what the receiver's {@link listDecoder} needs.
 *
 * @example
 * const encode = listEncoder();
 * const block = encode([["c1", "c2"], ["c2"]]);
 * // block.fresh: ["c1", "c2"]; block.codes: [0, 1, 1]; block.lengths: [2, 1]
 */
export function listEncoder(): (lists: readonly (readonly string[])[]) => EncodedLists {
  const numbers = new Map<string, number>();
  return (lists) => {
    let total = 0;
    for (const l of lists) total += l.length;
    const codes = new Int32Array(total);
    const lengths = new Int32Array(lists.length);
    const fresh: string[] = [];
    let k = 0;
    for (let i = 0; i < lists.length; i++) {
      const l = lists[i]!;
      lengths[i] = l.length;
      for (const id of l) {
        let n = numbers.get(id);
        if (n === undefined) {
          n = numbers.size;
          numbers.set(id, n);
          fresh.push(id);
        }
        codes[k++] = n;
      }
    }
    return { fresh, codes, lengths };
  };
}

/**
 * The receiving side of {@link listEncoder}: each call takes the blocks in
 * the order they were encoded and gives back the lists.
 */
export function listDecoder(): (block: EncodedLists) => string[][] {
  const table: string[] = [];
  return ({ fresh, codes, lengths }) => {
    for (const id of fresh) table.push(id);
    const out: string[][] = new Array(lengths.length);
    let k = 0;
    for (let i = 0; i < lengths.length; i++) {
      const n = lengths[i]!;
      const list: string[] = new Array(n);
      for (let j = 0; j < n; j++) {
        const id = table[codes[k++]!];
        if (id === undefined) throw new Error("ranked-list block out of order: a number not yet in the table");
        list[j] = id;
      }
      out[i] = list;
    }
    return out;
  };
}
