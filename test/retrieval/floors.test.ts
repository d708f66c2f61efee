import { describe, expect, it } from "vitest";
import { InputError, InputErrors } from "../../src/golden/errors.js";
import { checkConfigFloors, checkFloors, formatMissedValue, parseFloors } from "../../src/retrieval/floors.js";
import { MeasureSpecError } from "../../src/retrieval/measures/parse.js";

describe("floors (--fail-under and the config's floors)", () => {
  it("parses --fail-under, lets the flag override the config, and names misses", () => {
    const floors = parseFloors("R@10=0.70, RR=0.5", { "R@10": 0.9, "nDCG@5": 0.2 });
    expect(floors.map((f) => [f.measure.label, f.min])).toEqual([["R@10", 0.7], ["nDCG@5", 0.2], ["RR", 0.5]]);
    const values: Record<string, number> = { "R@10": 0.65, RR: 0.5, "nDCG@5": 0.3 };
    expect(checkFloors(floors, (l) => values[l])).toEqual([{ label: "R@10", value: 0.65, min: 0.7 }]);
  });

  it("accepts trec_eval names for the measure", () => {
    expect(parseFloors("recall_10=0.7,recip_rank=0.5").map((f) => f.measure.label)).toEqual(["R@10", "RR"]);
  });

  it("refuses malformed floors", () => {
    expect(() => parseFloors("R@10")).toThrow(/MEASURE=NUMBER/);
    expect(() => parseFloors("R@10=high")).toThrow(/MEASURE=NUMBER/);
    expect(() => parseFloors("R@10=0.7=0.8")).toThrow(/MEASURE=NUMBER/);
    expect(() => parseFloors("P=0.5")).toThrow(/one measure/);
    expect(() => parseFloors("F1@3=0.5")).toThrow(/unknown measure/);
  });

  it("refuses an empty flag instead of turning every floor off (a CI variable left unset)", () => {
    expect(() => parseFloors("")).toThrow("--fail-under names no floor: expected MEASURE=NUMBER[,MEASURE=NUMBER...], such as R@10=0.70; leave the flag out for no floors");
    expect(() => parseFloors(" , ")).toThrow('--fail-under names no floor (" , ")');
    expect(() => parseFloors("", { "R@10": 0.5 })).toThrow(MeasureSpecError);
    expect(parseFloors("R@10=0.7,").map((f) => f.measure.label)).toEqual(["R@10"]); // a trailing comma is fine
    expect(parseFloors(undefined)).toEqual([]);
  });

  it("refuses a floor its measure can never reach, instead of failing every run", () => {
    expect(() => parseFloors("R@10=70")).toThrow('bad floor "R@10=70": R@10 lies between 0 and 1, so its floor must too (write 0.70, not 70)');
    expect(() => parseFloors("RR=-0.1")).toThrow(/between 0 and 1/);
    expect(parseFloors("num_rel_ret=40")[0]!.min).toBe(40); // counts are not fractions
    expect(() => parseFloors("num_ret=-1")).toThrow(/count; its floor must be 0 or more/);
  });

  it("a bad floor in the config names the config file and key", () => {
    let err: unknown;
    try {
      parseFloors(undefined, { "R@100x": 0.5 }, { file: "ragjudge.config.json" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toMatch(/^ragjudge\.config\.json: floors\.R@100x: bad cutoff "100x"/);
    expect(() => parseFloors(undefined, { "R@10": 7 })).toThrow(MeasureSpecError);
  });

  it("names the config line of every bad floor (the check validate shares with run)", () => {
    const lines: Record<string, number> = { "floors.R@11": 40, "floors.recall": 41, "floors.RR": 42 };
    const source = { file: "ragjudge.config.json", lineOf: (p: readonly (string | number)[]) => lines[p.join(".")] };
    const { floors, problems } = checkConfigFloors({ "R@11": 0.9, recall: 2, RR: 50 }, source);
    expect(floors.map((f) => f.measure.label)).toEqual(["R@11"]);
    expect(problems.map((p) => p.message)).toEqual([
      'ragjudge.config.json:41: floors.recall: bad floor "recall=2": name one measure with its cutoff, such as R@10',
      'ragjudge.config.json:42: floors.RR: bad floor "RR=50": RR lies between 0 and 1, so its floor must too (write 0.70, not 70)',
    ]);
    expect(() => parseFloors(undefined, { recall: 2, RR: 50 }, source)).toThrow(InputErrors);
  });

  it("a mean that equals its floor but carries rounding error meets it", () => {
    // eight questions: seven find 1 of 7 relevant chunks, one finds all; the true mean is exactly 0.25
    let sum = 0;
    for (const v of [1 / 7, 1 / 7, 1 / 7, 1 / 7, 1 / 7, 1 / 7, 1 / 7, 1]) sum += v;
    const mean = sum / 8;
    expect(mean).toBeLessThan(0.25); // 0.24999999999999997
    expect(checkFloors(parseFloors("R@10=0.25"), () => mean)).toEqual([]);
    expect(checkFloors(parseFloors("R@10=0.25"), () => 0.2499)).toHaveLength(1);
  });

  it("shows a missed value with enough decimals to be visibly below its floor", () => {
    expect(formatMissedValue({ label: "R@10", value: 0.65, min: 0.7 })).toBe("0.6500");
    expect(formatMissedValue({ label: "R@10", value: 0.69996, min: 0.7 })).toBe("0.69996");
  });
});
