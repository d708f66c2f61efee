/**
 * Inclusion probabilities over draws that count together (issue 14's
 * designs; draws of one population share one order since the seed-shopping
 * fix, so they are not independent).
 */
import { describe, expect, it } from "vitest";
import { drawItemKey } from "../../src/calibration/draws.js";
import { inclusionOver } from "../../src/calibration/inclusion.js";
import { honestDraw, stratifiedTestDraw } from "./draw-helpers.js";

const H = (i: number) => i.toString(16).padStart(64, "0");
const q = (i: number) => `q${String(i).padStart(3, "0")}`;
const key = (i: number) => drawItemKey("r", { variant: "v", question: q(i), unit: "answer", inputHash: H(i) });

/** E[max(floor, K)] for K ~ Hypergeometric(population N, K successes, n draws). */
function expectedMax(floor: number, N: number, K: number, n: number): number {
  const logC = (a: number, b: number) => { let s = 0; for (let i = 0; i < b; i++) s += Math.log(a - i) - Math.log(i + 1); return s; };
  let e = 0;
  for (let k = Math.max(0, n - (N - K)); k <= Math.min(n, K); k++) e += Math.max(floor, k) * Math.exp(logC(K, k) + logC(N - K, n - k) - logC(N, n));
  return e;
}

describe("inclusionOver", () => {
  // 300 held-out items: stratum A (items 1-50) and B (51-300).
  const items = Array.from({ length: 300 }, (_, k) => ({ question: q(k + 1), inputHash: H(k + 1), stratum: k < 50 ? "A" : "B" }));
  const uniform = honestDraw("r", items.map(({ question, inputHash }) => ({ question, inputHash })), 30);
  const stratified = stratifiedTestDraw("r", items, { A: 25, B: 10 });

  it("gives one draw's own probabilities, and the largest over draws that hold one another", () => {
    expect(inclusionOver([uniform])(key(7))).toBe(0.1);
    expect(inclusionOver([stratified])(key(7))).toBe(0.5);
    expect(inclusionOver([stratified])(key(70))).toBe(0.04);
    const larger = stratifiedTestDraw("r", items, { A: 30, B: 10 });
    expect(inclusionOver([stratified, larger])(key(7))).toBe(0.6);
  });

  it("gives the union's probability, not 1 - Π(1 - p), for draws that share one order (a uniform and a stratified draw of one population)", () => {
    expect(uniform.draw.seed).toBe(stratified.draw.seed);
    const p = inclusionOver([uniform, stratified]);
    // Within a stratum the union is the first max(n_h, K_h) items of the one order, K_h the uniform draw's count there.
    const a = expectedMax(25, 300, 50, 30) / 50;
    const b = expectedMax(10, 300, 250, 30) / 250;
    expect(p(key(7))).toBeCloseTo(a, 2);
    expect(p(key(70))).toBeCloseTo(b, 2);
    // independence would say 1 - 0.9 x 0.5 = 0.55 and 1 - 0.9 x 0.96 = 0.136
    expect(Math.abs(p(key(70)) - 0.136)).toBeGreaterThan(0.02);
    // every item a stratum holds gets the same chance; seeded, the same draws give the same figures
    expect(p(key(70))).toBe(p(key(299)));
    expect(inclusionOver([stratified, uniform])(key(70))).toBe(p(key(70)));
  });
});
