import { describe, expect, it } from "vitest";
import { judgeList } from "../../../src/retrieval/judged.js";
import { measureHelp } from "../../../src/retrieval/measures/help.js";
import { MeasureSpecError, allMeasures, defaultMeasures, headlineMeasures, parseCutoffs, parseMeasure, parseMeasures } from "../../../src/retrieval/measures/parse.js";
import { MEASURES } from "../../../src/retrieval/measures/registry.js";
import type { JudgedList } from "../../../src/retrieval/measures/types.js";

const value = (name: string, j: JudgedList) => {
  const [m] = parseMeasure(name, []);
  return m!.def.compute(j, m!.k);
};

describe("the seed's worked example (seed 000)", () => {
  // ranked d3 d8 d1 d6 d2; relevant d1, d2, d5; k = 5
  const j = judgeList(["d3", "d8", "d1", "d6", "d2"], new Set(["d1", "d2", "d5"]));

  it("recall@5 0.667, P@5 0.400, RR 0.333, nDCG@5 0.4162", () => {
    expect(value("R@5", j).toFixed(3)).toBe("0.667");
    expect(value("P@5", j).toFixed(3)).toBe("0.400");
    expect(value("RR", j).toFixed(3)).toBe("0.333");
    expect(value("nDCG@5", j).toFixed(4)).toBe("0.4162");
  });

  it("uses the ideal over min(k, R) terms, not k (the silent bug gives 0.3008)", () => {
    expect(value("nDCG@5", j)).toBeCloseTo(0.8869 / 2.1309, 4);
    expect(value("nDCG@5", j).toFixed(4)).not.toBe("0.3008");
  });

  it("scores 1.0 for a single relevant chunk at rank 1 at k = 10", () => {
    const one = judgeList(["d1", "x"], new Set(["d1"]));
    expect(value("nDCG@10", one)).toBe(1);
    expect(value("RR", one)).toBe(1);
    expect(value("R@10", one)).toBe(1);
  });
});

describe("trec_eval semantics", () => {
  const short = judgeList(["a", "b"], new Set(["a", "z"]));

  it("P@k divides by k even when fewer were retrieved", () => {
    expect(value("P@10", short)).toBe(0.1);
    expect(value("P@1", short)).toBe(1);
  });

  it("R@k, RR, AP and R-Prec are 0 when nothing relevant exists (R = 0)", () => {
    const none = judgeList(["a", "b"], new Set());
    for (const m of ["R@5", "RR", "AP", "R-Prec", "nDCG@5", "Hit@5", "P@5"]) expect(value(m, none)).toBe(0);
  });

  it("RR looks at the whole list; RR@k cuts at k; Hit@k is any relevant in the top k", () => {
    const late = judgeList(["a", "b", "c", "d"], new Set(["d"]));
    expect(value("RR", late)).toBe(0.25);
    expect(value("RR@3", late)).toBe(0);
    expect(value("RR@4", late)).toBe(0.25);
    expect(value("Hit@3", late)).toBe(0);
    expect(value("Hit@4", late)).toBe(1);
  });

  it("AP divides by R; R-Prec is relevant in the top R over R", () => {
    const j = judgeList(["r1", "x", "r2", "y"], new Set(["r1", "r2", "r3"]));
    expect(value("AP", j)).toBeCloseTo((1 / 1 + 2 / 3) / 3, 15);
    expect(value("R-Prec", j)).toBeCloseTo(2 / 3, 15);
  });

  it("nDCG uses graded gains and the ideal of the best grades", () => {
    const j: JudgedList = { numRet: 3, numRel: 2, relRanks: [1, 3], gainRanks: [1, 3], gains: [1, 2], idealGains: [2, 1] };
    const dcg = 1 + 2 / Math.log2(4);
    const idcg = 2 + 1 / Math.log2(3);
    expect(value("nDCG@3", j)).toBeCloseTo(dcg / idcg, 15);
    expect(value("nDCG@1", j)).toBeCloseTo(1 / 2, 15);
  });

  it("refuses a chunk listed twice in one ranked list", () => {
    expect(() => judgeList(["a", "a"], new Set(["a"]))).toThrow(/appears twice/);
  });
});

describe("measure names", () => {
  it("accepts IR names, aliases, trec_eval names and its -m form, ordered as trec_eval prints", () => {
    const labels = parseMeasures(["nDCG@10,RR", "map", "P.1,5", "recall_10", "success.1", "Rprec", "MRR@10", "num_q"], [5]).map((m) => m.label);
    expect(labels).toEqual(["num_q", "AP", "R-Prec", "RR", "RR@10", "P@1", "P@5", "R@10", "nDCG@10", "Hit@1"]);
    expect(parseMeasures(["ndcg_cut.5,10"], []).map((m) => m.trecLabel)).toEqual(["ndcg_cut_5", "ndcg_cut_10"]);
  });

  it("expands a cutoff family without its cutoff over -k, and dedupes", () => {
    expect(parseMeasures(["R", "R@5", "recall"], [1, 5]).map((m) => m.label)).toEqual(["R@1", "R@5"]);
  });

  it("names unknown measures and bad cutoffs", () => {
    expect(() => parseMeasures(["F1@5"], [])).toThrow(MeasureSpecError);
    expect(() => parseMeasures(["P@0"], [])).toThrow(/expected a positive whole number/);
    expect(() => parseMeasures(["map.5"], [])).toThrow(/NAME.CUTOFFS/);
    expect(() => parseCutoffs("1,x")).toThrow(/expected a positive whole number/);
    // the message names the -k option, not a measure, and the bad cutoff itself
    expect(() => parseCutoffs("0")).toThrow('bad cutoff "0" in -k "0": expected a positive whole number');
    expect(() => parseCutoffs("5,99999999999999999999")).toThrow(/bad cutoff "99999999999999999999" in -k/);
    expect(() => parseMeasures(["P@0"], [])).toThrow('bad cutoff "0" in measure "P@0"');
    expect(parseCutoffs("10, 1,5,5")).toEqual([1, 5, 10]);
  });

  it("refuses a -m that names no measure (an unset variable) instead of printing an empty table", () => {
    expect(() => parseMeasures([""], [10])).toThrow('-m "" names no measure');
    expect(() => parseMeasures(["R@10", " , "], [10])).toThrow(MeasureSpecError);
    expect(parseMeasures(["R@10,"], [10]).map((m) => m.label)).toEqual(["R@10"]);
  });

  it("headline measures for people: RR, R@k at every k, nDCG and Hit at the largest k", () => {
    expect(headlineMeasures([10, 1, 5]).map((m) => m.label)).toEqual(["RR", "R@1", "R@5", "R@10", "nDCG@10", "Hit@10"]);
  });

  it("-m all is every registered measure, RR@k included, at every k", () => {
    const labels = parseMeasures(["all"], [1, 3]).map((m) => m.label);
    expect(labels).toEqual(["num_q", "num_ret", "num_rel", "num_rel_ret", "AP", "R-Prec", "RR", "RR@1", "RR@3", "P@1", "P@3", "R@1", "R@3", "nDCG@1", "nDCG@3", "Hit@1", "Hit@3"]);
    expect(allMeasures([5]).length).toBe(MEASURES.length);
  });

  it("defaults to every measure with a trec_eval name at every k", () => {
    expect(defaultMeasures([5], false).map((m) => m.trecLabel)).toEqual(["map", "Rprec", "recip_rank", "P_5", "recall_5", "ndcg_cut_5", "success_5"]);
    expect(defaultMeasures([5], true).slice(0, 4).map((m) => m.label)).toEqual(["num_q", "num_ret", "num_rel", "num_rel_ret"]);
  });

  it("help text is generated from the registry: every measure with its source", () => {
    const help = measureHelp().replace(/\s+/g, " ");
    for (const m of MEASURES) {
      expect(help).toContain(m.name);
      expect(help).toContain(m.source.split(" ")[0]!);
    }
    expect(help).toContain("Järvelin & Kekäläinen 2002");
  });
});
