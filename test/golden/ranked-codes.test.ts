import { describe, expect, it } from "vitest";
import { idNumbersOf, ListEncoder, listDecoder, type EncodedLists } from "../../src/golden/ranked-codes.js";
import { mulberry32 } from "../helpers/seeded.js";

/** An encoder that takes a block of lists at a time, as the output worker sends them. */
function blockEncoder(): (lists: readonly (readonly string[])[]) => EncodedLists {
  const encoder = new ListEncoder();
  return (lists) => {
    for (const l of lists) encoder.add(l);
    return encoder.take();
  };
}

describe("ListEncoder / listDecoder", () => {
  it("gives back the lists of every block, in order, with an id seen in many lists one shared entry of the table", () => {
    const encode = blockEncoder();
    const decode = listDecoder();
    const blocks = [
      [["c1", "c2", "c3"], [], ["c2", "é#1", "c1"]],
      [["c4"], ["c1", "c4", "\u{1F600}"]],
      [[]],
    ];
    const encoded = blocks.map(encode);
    expect(encoded[0]!.fresh).toEqual(["c1", "c2", "c3", "é#1"]);
    expect([...encoded[0]!.codes]).toEqual([0, 1, 2, 1, 3, 0]);
    expect([...encoded[0]!.lengths]).toEqual([3, 0, 3]);
    expect(encoded[1]!.fresh).toEqual(["c4", "\u{1F600}"]); // only the ids new since the block before
    expect(encoded.map(decode)).toEqual(blocks);
  });

  it("refuses a block decoded before the one that numbered its ids", () => {
    const encode = blockEncoder();
    encode([["a"]]);
    const second = encode([["a", "b"]]);
    expect(() => listDecoder()(second)).toThrow(/out of order/);
  });

  it("tells, list by list, whether an id is in it twice, as a Set of the list does, and numbers every list it saw", () => {
    const rand = mulberry32(11);
    // a pool large enough that the table grows many times, with ids that share prefixes, differ in case or only past the BMP
    const pool = Array.from({ length: 30_000 }, (_, i) => [`doc-${i}#${i % 7}`, `DOC-${i}#${i % 7}`, `é${i}`, `${i}\u{1F600}`][i % 4]!);
    const encoder = new ListEncoder();
    const decode = listDecoder();
    const lists: string[][] = [];
    for (let n = 0; n < 3_000; n++) {
      const list = Array.from({ length: Math.floor(rand() * 60) }, () => pool[Math.floor(rand() * (n % 3 === 0 ? 40 : pool.length))]!);
      lists.push(list);
      expect(encoder.add(list), JSON.stringify(list)).toBe(new Set(list).size === list.length);
    }
    expect(lists.some((l) => new Set(l).size < l.length)).toBe(true);
    expect(lists.some((l) => l.length > 1 && new Set(l).size === l.length)).toBe(true);
    const block = encoder.take();
    expect(decode(block)).toEqual(lists);
    expect(new Set(block.fresh).size).toBe(block.fresh.length); // each id numbered once
    // the next block carries only what is new
    expect(encoder.add([pool[0]!, "brand-new"])).toBe(true);
    const next = encoder.take();
    expect(next.fresh).toEqual(lists.flat().includes(pool[0]!) ? ["brand-new"] : [pool[0]!, "brand-new"]);
    expect(decode(next)).toEqual([[pool[0]!, "brand-new"]]);
  });

  it("tells apart ids whose hashes are equal (FNV-1a collisions), whichever comes first and whether in one list or across lists", () => {
    // pairs with the same 32-bit FNV-1a hash of their code units, found by search
    const pairs = [["c65229", "c503230"], ["c65228", "c503231"], ["c65221", "c503238"]];
    const encoder = new ListEncoder();
    const decode = listDecoder();
    const lists = [["c65229", "c503230"], ["c503230"], ["c65229", "x", "c65229"], ["c503231", "c65228", "c503238"], ["c65221"], ["c65228", "c503231"]];
    expect(lists.map((l) => encoder.add(l))).toEqual([true, true, false, true, true, true]);
    const block = encoder.take();
    expect(decode(block)).toEqual(lists);
    expect(block.fresh).toEqual(["c65229", "c503230", "x", "c503231", "c65228", "c503238", "c65221"]);
    expect(pairs.flat().every((id) => block.fresh.includes(id))).toBe(true);
  });
});

describe("idNumbersOf / IdNumbers.hasAll", () => {
  it("answers as a Set of the ids does, for lists of known, unknown and hash-sharing ids, without adding any", () => {
    const next = mulberry32(20261207);
    const known = Array.from({ length: 20_000 }, (_, i) => `doc-${i % 4_000}#${i}`);
    const set = new Set(known);
    const table = idNumbersOf(known, known.length);
    for (let round = 0; round < 300; round++) {
      const list = Array.from({ length: Math.floor(next() * 50) }, () => (next() < 0.98 ? known[Math.floor(next() * known.length)]! : `other-${Math.floor(next() * 1e6)}`));
      expect(table.hasAll(list), list.join(" ")).toBe(list.every((id) => set.has(id)));
    }
    expect(table.hasAll(["other-1"])).toBe(false);
    expect(table.hasAll(["other-1"])).toBe(false); // asked twice: asking added nothing
    expect(table.hasAll([])).toBe(true);
    // FNV-1a collisions: each id of a pair has the other's hash, so only the full comparison tells them apart
    const one = idNumbersOf(["c65229", "c503231", "x"]);
    expect(one.hasAll(["c65229", "c503231"])).toBe(true);
    expect(one.hasAll(["c503230"])).toBe(false);
    expect(one.hasAll(["x", "c65228"])).toBe(false);
    expect(idNumbersOf(["c503230"]).hasAll(["c503230", "c65229"])).toBe(false);
  });
});

