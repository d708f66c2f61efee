import { describe, expect, it } from "vitest";
import { parseMeasures } from "../../../src/retrieval/measures/parse.js";
import { REFERENCE_MEASURES, REFERENCE_MEASURES_FULL, parseTrecEvalOutput } from "../../../src/retrieval/trec/reference.js";

describe("parseTrecEvalOutput", () => {
  it("keys values by measure (padding dropped) and query", () => {
    const out = parseTrecEvalOutput("P_5                   \t12\t0.2000\nrecip_rank            \tall\t0.33333333333333331\n\n");
    expect([...out]).toEqual([["P_5\t12", 0.2], ["recip_rank\tall", 0.33333333333333331]]);
  });

  it("names a line without three fields instead of reading it as NaN", () => {
    expect(() => parseTrecEvalOutput("map\tall\t0.5\nmap all 0.5\n")).toThrow(/^trec_eval output line 2: expected/);
  });
});

describe("the reference measure lists", () => {
  it("name only measures ragjudge knows, the full list adding R-Prec and the counts", () => {
    const stock = parseMeasures(REFERENCE_MEASURES, []).map((m) => m.trecLabel);
    const full = parseMeasures(REFERENCE_MEASURES_FULL, []).map((m) => m.trecLabel);
    expect(stock).toHaveLength(14);
    expect(full.filter((l) => !stock.includes(l))).toEqual(["num_q", "num_ret", "num_rel", "num_rel_ret", "Rprec"]);
  });
});
