import { unsafeUniformIntDistribution, type RandomGenerator } from "pure-rand";
import { seededRng } from "../src/calibration/stats/index.js";

/**
 * Seeded populations for `npm run bench:labels`: N judged items with a known
 * true label (the person's answer), the judge's verdict and its P(yes).
 * Exact counts, not Bernoulli draws, so the pass rate and the judge's TPR and
 * TNR are what the shape says; P(yes) is sure (below 0.2 or above 0.8) for
 * most right verdicts and unsure for most wrong ones, as a calibrated judge's
 * confidence would be.
 */

/** What a population looks like. */
export interface PopulationShape {
  name: string;
  size: number;
  passRate: number;
  tpr: number;
  tnr: number;
  /** Share of right verdicts with a sure P(yes), and of wrong ones. */
  sureWhenRight: number;
  sureWhenWrong: number;
  seed: number;
}

/** One item: label and verdict as 1 (yes) / 0 (no), and the judge's P(yes). */
export interface PopulationItem {
  label: 0 | 1;
  judge: 0 | 1;
  pYes: number;
}

/** A uniform number in [0, 1). */
export function uniform(rng: RandomGenerator): number {
  return unsafeUniformIntDistribution(0, 0x3fffffff, rng) / 0x40000000;
}

/** Fisher-Yates in place. */
export function shuffleInPlace<T>(a: T[], rng: RandomGenerator): void {
  for (let i = a.length - 1; i > 0; i--) {
    const j = unsafeUniformIntDistribution(0, i, rng);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
}

/** The population of a shape (deterministic for its seed). */
export function makePopulation(shape: PopulationShape): PopulationItem[] {
  const rng = seededRng(shape.seed);
  const yes = Math.round(shape.size * shape.passRate);
  const no = shape.size - yes;
  const tp = Math.round(yes * shape.tpr);
  const tn = Math.round(no * shape.tnr);
  const cells: [0 | 1, 0 | 1, number][] = [[1, 1, tp], [1, 0, yes - tp], [0, 0, tn], [0, 1, no - tn]];
  const out: PopulationItem[] = [];
  for (const [label, judge, n] of cells) {
    const right = label === judge;
    const sure = Math.round(n * (right ? shape.sureWhenRight : shape.sureWhenWrong));
    for (let k = 0; k < n; k++) {
      const u = uniform(rng);
      // Sure: beyond 0.8 on the verdict's side; unsure: 0.5-0.8 on the verdict's side.
      const conf = k < sure ? 0.8 + 0.2 * u : 0.5 + 0.3 * u;
      out.push({ label, judge, pYes: judge === 1 ? conf : 1 - conf });
    }
  }
  shuffleInPlace(out, rng);
  return out;
}

/** True population figures: pass rate (labels' yes share) and kappa of judge against labels. */
export function truth(pop: readonly PopulationItem[]): { passRate: number; kappa: number } {
  let a = 0, r = 0, c = 0;
  for (const it of pop) {
    if (it.judge === it.label) a++;
    r += it.judge;
    c += it.label;
  }
  const n = pop.length;
  const po = a / n, rr = r / n, cc = c / n;
  const pe = rr * cc + (1 - rr) * (1 - cc);
  return { passRate: cc, kappa: (po - pe) / (1 - pe) };
}
