import { describe, expect, it } from "vitest";
import { listDecoder, listEncoder } from "../../src/golden/ranked-codes.js";

describe("listEncoder / listDecoder", () => {
  it("gives back the lists of every block, in order, with an id seen in many lists one shared entry of the table", () => {
    const encode = listEncoder();
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
    const encode = listEncoder();
    encode([["a"]]);
    const second = encode([["a", "b"]]);
    expect(() => listDecoder()(second)).toThrow(/out of order/);
  });
});
