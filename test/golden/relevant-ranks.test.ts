import { describe, expect, it } from "vitest";
import { listDecoder, ListEncoder } from "../../src/golden/ranked-codes.js";
import { codeRanker, knownRelevantRanks, markReadOnly, ranksWithin, relevantRanks } from "../../src/golden/relevant-ranks.js";
import { countInTop } from "../../src/retrieval/diagnostics/stages.js";
import { mulberry32 } from "../helpers/seeded.js";

/** The ranks by their definition: every place of a relevant id, from 1. */
const naive = (list: readonly string[], rel: ReadonlySet<string>) => list.flatMap((id, i) => (rel.has(id) ? [i + 1] : []));

describe("relevantRanks", () => {
  it("gives the 1-based ranks of the relevant ids, an id listed twice at each place, and remembers them per list and set", () => {
    const list = ["d3", "d8", "d1", "d6", "d2", "d1"];
    const rel = new Set(["d1", "d2", "d5"]);
    // as the loader marks its lists and relevantSets its sets
    markReadOnly(list);
    markReadOnly(rel);
    expect(relevantRanks(list, rel)).toEqual([3, 5, 6]);
    expect(knownRelevantRanks(list, rel)).toEqual([3, 5, 6]);
    // another set for the same list is worked out again, not taken from the memo
    const other = new Set(["d8"]);
    markReadOnly(other);
    expect(knownRelevantRanks(list, other)).toBeUndefined();
    expect(relevantRanks(list, other)).toEqual([2]);
    expect(relevantRanks([], rel)).toEqual([]);
  });

  it("reads a list or a set the caller made afresh at every call: changed in place between two calls, it is read as it is now", () => {
    const list = ["d3", "d8", "d1"];
    const rel = new Set(["d1"]);
    expect(relevantRanks(list, rel)).toEqual([3]);
    list.reverse();
    expect(relevantRanks(list, rel)).toEqual([1]);
    rel.add("d8");
    expect(relevantRanks(list, rel)).toEqual([1, 2]);
    list[2] = "d1";
    expect(relevantRanks(list, rel)).toEqual([1, 2, 3]);
    expect(knownRelevantRanks(list, rel)).toBeUndefined();
    // a marked list with the caller's set, and a caller's list with a marked set: neither is remembered
    const loaded = ["d1", "d2"];
    markReadOnly(loaded);
    const mine = new Set(["d2"]);
    expect(relevantRanks(loaded, mine)).toEqual([2]);
    mine.add("d1");
    expect(relevantRanks(loaded, mine)).toEqual([1, 2]);
    const shared = new Set(["d2"]);
    markReadOnly(shared);
    const own = ["d2", "d3"];
    expect(relevantRanks(own, shared)).toEqual([1]);
    own.unshift("d0");
    expect(relevantRanks(own, shared)).toEqual([2]);
  });

  it("ranksWithin counts the ranks in the top n", () => {
    expect(ranksWithin([3, 5, 6], 2)).toBe(0);
    expect(ranksWithin([3, 5, 6], 5)).toBe(2);
    expect(ranksWithin([3, 5, 6], 100)).toBe(3);
    expect(ranksWithin([], 10)).toBe(0);
  });

  it("ranksWithin counts as countInTop does for any cutoff: 2.5 takes three places (i < 2.5), 0, negative, NaN and Infinity", () => {
    const list = ["a", "b", "c", "d", "a"];
    const rel = new Set(["a", "c"]);
    for (const n of [0, 0.5, 1, 2, 2.5, 2.9999, 3, 4.5, 5, 5.5, 6, -1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(ranksWithin(relevantRanks(list, rel), n), `n ${n}`).toBe(countInTop(list, rel, n));
    }
  });
});

describe("codeRanker", () => {
  it("works out from the lists' numbers the ranks the ids give, for blocks before and after the relevant sets are known", () => {
    const next = mulberry32(20261207);
    const pool = Array.from({ length: 400 }, (_, i) => `c${i}`);
    for (let round = 0; round < 20; round++) {
      const enc = new ListEncoder();
      const decode = listDecoder();
      const ranker = codeRanker();
      const relevant = new Map<string, Set<string>>();
      const shared = (ids: Set<string>) => (markReadOnly(ids), ids); // as relevantSets marks its sets
      const seen: [string, string[]][] = [];
      const blocks = 2 + Math.floor(next() * 5);
      const knownAt = Math.floor(next() * (blocks + 1)); // the sets arrive before block knownAt
      // lists with repeats, empty lists, relevant sets of 0 to 4 ids (some never retrieved), questions with no set
      const planned = Array.from({ length: blocks }, (_, b) =>
        Array.from({ length: 1 + Math.floor(next() * 30) }, (_, i) => {
          const id = `q${round}-${b}-${i}`;
          if (next() < 0.9) relevant.set(id, shared(new Set(Array.from({ length: Math.floor(next() * 5) }, () => pool[Math.floor(next() * pool.length)]!))));
          return { id, list: Array.from({ length: Math.floor(next() * 25) }, () => pool[Math.floor(next() * Math.min(pool.length, (b + 1) * 80))]!) };
        }),
      );
      planned.forEach((rows, b) => {
        if (b === knownAt) ranker.against(relevant);
        for (const r of rows) enc.add(r.list);
        const block = enc.take();
        const lists = decode(block);
        for (const list of lists) markReadOnly(list); // as the loader marks them once loaded
        ranker.add(block, lists, rows.map((r) => r.id));
        rows.forEach((r, i) => seen.push([r.id, lists[i]!]));
      });
      if (knownAt === blocks) ranker.against(relevant);
      for (const [id, list] of seen) {
        const rel = relevant.get(id);
        if (rel === undefined) continue;
        expect(knownRelevantRanks(list, rel), `${id}: ${list.join(" ")} against ${[...rel].join(" ")}`).toEqual(naive(list, rel));
      }
    }
  });

  it("leaves to relevantRanks a list whose relevant set holds an id the sets it was given lacked", () => {
    const enc = new ListEncoder();
    const decode = listDecoder();
    const ranker = codeRanker();
    const given = new Map([["q1", new Set(["a"])]]);
    ranker.against(given);
    enc.add(["b", "a"]);
    const block = enc.take();
    const [list] = decode(block);
    markReadOnly(list!);
    given.set("q1", new Set(["a", "b"])); // changed after: the numbers of "b" were never looked for
    markReadOnly(given.get("q1")!);
    ranker.add(block, [list!], ["q1"]);
    expect(knownRelevantRanks(list!, given.get("q1")!)).toBeUndefined();
    expect(relevantRanks(list!, given.get("q1")!)).toEqual([1, 2]);
  });
});
