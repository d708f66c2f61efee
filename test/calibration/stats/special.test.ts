import { describe, expect, it } from "vitest";
import {
  binomialHalfCdf, chiSquareSf, erfc, lnGamma, normalCdf, normalQuantile, normalSf, regularizedGammaP, zCritical,
} from "../../../src/calibration/stats/special.js";

// Reference values computed with mpmath 1.3.0 at 40 significant digits
// (mp.erfc, mp.gammainc(a, x, inf, regularized=True), mp.erfinv, exact binomial sums, mp.loggamma).
const rel = (got: number, want: number) => Math.abs(got - want) / Math.abs(want);

describe("erfc", () => {
  const table: [number, number][] = [
    [1e-8, 0.99999998871620832904], [0.001, 0.9988716212090307636], [0.1, 0.8875370839817151016],
    [0.5, 0.47950012218695346232], [1, 0.15729920705028513066], [2, 0.0046777349810472658379],
    [3, 0.000022090496998585441373], [4.5, 1.9661604415428874763e-10], [5, 1.5374597944280348502e-12],
    [8, 1.122429717298292708e-29], [10, 2.088487583762544757e-45], [20, 5.3958656116079009289e-176],
    [26, 5.6631924088561428465e-296],
  ];
  for (const [x, want] of table) {
    it(`erfc(${x}) to 1e-13 relative`, () => expect(rel(erfc(x), want)).toBeLessThan(1e-13));
  }
  it("is 2 - erfc(-x) for negative x", () => expect(rel(erfc(-1.5), 1.9661051464753107271)).toBeLessThan(1e-15));
  it("is 1 at 0 and NaN-free at infinity", () => {
    expect(erfc(0)).toBe(1);
    expect(erfc(Infinity)).toBe(0);
  });
  it("beats simple-statistics' 1e-7 approximation where p-values live", () => {
    // P(|Z| > 5) = erfc(5/√2): the tail a 1e-12 tolerance needs.
    expect(rel(2 * normalSf(5), 5.733031437583878e-7)).toBeLessThan(1e-12);
  });
});

describe("chi-square and normal tails", () => {
  const table: [number, number, number][] = [
    [3.841458820694124, 1, 0.050000000000000057435], [0.5, 1, 0.47950012218695346232], [100, 1, 1.5239706048321052132e-23],
    [10, 3, 0.018566135463043233303], [50, 10, 2.6690834249044956397e-7], [2, 4, 0.73575888234288464319],
    [700, 1, 2.9902269751246203369e-154], [1e-6, 2, 0.99999950000012499998],
  ];
  for (const [x, df, want] of table) {
    it(`chiSquareSf(${x}, ${df})`, () => expect(rel(chiSquareSf(x, df), want)).toBeLessThan(1e-13));
  }
  it("P + Q = 1", () => expect(regularizedGammaP(2.5, 1.3) + chiSquareSf(2.6, 5)).toBeCloseTo(1, 15));
  it("Φ and its upper tail are consistent", () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(Math.abs(normalCdf(1.3) + normalSf(1.3) - 1)).toBeLessThan(1e-15);
  });
});

describe("normalQuantile", () => {
  const table: [number, number][] = [
    [0.975, 1.9599639845400538556], [0.995, 2.5758293035489004539], [1e-6, -4.7534243088228989573],
    [0.9999999, 5.1993375822906610937], [1e-300, -37.047096299361199237],
  ];
  for (const [p, want] of table) {
    it(`Φ⁻¹(${p})`, () => expect(Math.abs(normalQuantile(p) - want)).toBeLessThan(1e-12 * Math.max(1, Math.abs(want))));
  }
  it("is 0 at 1/2 and symmetric", () => {
    expect(normalQuantile(0.5)).toBe(0);
    expect(Math.abs(normalQuantile(0.25) + normalQuantile(0.75))).toBeLessThan(1e-15);
  });
  it("gives the two-sided 95% critical value", () => expect(zCritical(0.95)).toBeCloseTo(1.959963984540054, 14));
  it("rejects p outside [0, 1]", () => expect(() => normalQuantile(1.2)).toThrow(RangeError));
});

describe("binomialHalfCdf", () => {
  const table: [number, number, number][] = [
    [0, 10, 0.0009765625], [3, 20, 0.00128841400146484375], [10, 20, 0.5880985260009765625], [2, 5, 0.5],
    [100, 1000, 6.7017177900062963407e-162], [15, 16, 0.9999847412109375], [600, 1000, 0.99999999990991587294],
  ];
  for (const [k, n, want] of table) {
    it(`P(Bin(${n}, 1/2) <= ${k})`, () => expect(rel(binomialHalfCdf(k, n), want)).toBeLessThan(1e-12));
  }
  it("handles the ends", () => {
    expect(binomialHalfCdf(-1, 5)).toBe(0);
    expect(binomialHalfCdf(5, 5)).toBe(1);
    expect(binomialHalfCdf(0, 0)).toBe(1);
  });
});

describe("lnGamma (simple-statistics' Lanczos)", () => {
  const table: [number, number][] = [[0.5, 0.5723649429247000870717137], [3.7, 1.428072326665388129200498], [100.5, 361.4355404677776215552519], [1001, 5912.128178488163348878131]];
  for (const [x, want] of table) it(`lnΓ(${x})`, () => expect(rel(lnGamma(x), want)).toBeLessThan(1e-14));
  it("rejects x <= 0", () => expect(() => lnGamma(0)).toThrow(RangeError));
});
