import { unsafeUniformIntDistribution, type RandomGenerator } from "pure-rand";
import { GATE_LEVEL, gateInterval } from "../gate.js";
import { cohenKappa, kappaGofInterval, seededRng } from "../stats/index.js";
import type { CellShares } from "./kappa-linear.js";

/**
 * The planner's check by simulation: draw `reps` random samples of n labels
 * from a population with today's cell shares, compute the gate's own
 * interval on each (the union of the asymptotic and the goodness-of-fit
 * interval, see gate.ts), and read the median lower bound. The formula of
 * sample-size.ts says when the *expected* lower bound reaches the
 * threshold; the simulation says when the median one does, with the gate's
 * real interval (the goodness-of-fit half matters near perfect agreement).
 */

/** A uniform number in [0, 1) from a generator. */
function unit(rng: RandomGenerator): number {
  return unsafeUniformIntDistribution(0, 0x3fffffff, rng) / 0x40000000;
}

/** One simulated table of n labels at the cell shares. */
function drawTable(cells: CellShares, n: number, rng: RandomGenerator): number[][] {
  const t = [[0, 0], [0, 0]];
  const c1 = cells.tp, c2 = c1 + cells.fp, c3 = c2 + cells.fn;
  for (let i = 0; i < n; i++) {
    const u = unit(rng);
    if (u < c1) t[0]![0]!++;
    else if (u < c2) t[0]![1]!++;
    else if (u < c3) t[1]![0]!++;
    else t[1]![1]!++;
  }
  return t;
}

/** The gate's lower bound on one table, or null when kappa or its interval is undefined. */
export function gateLowerBound(table: number[][]): number | null {
  const k = cohenKappa(table, { level: GATE_LEVEL });
  if (k.kappa === null || (k.constant.rater1 ?? k.constant.rater2) !== null) return null;
  const ci = gateInterval({ kappa: k.kappa, kappaSe: k.se, kappaCi: k.ci, level: GATE_LEVEL, kappaGofCi: kappaGofInterval(table, GATE_LEVEL).ci });
  return ci?.lo ?? null;
}

/** What one simulated sample size gave. */
export interface SimulatedGate {
  n: number;
  reps: number;
  /** Median lower bound (undefined tables count as -1: they never pass). */
  medianLower: number;
  /** Share of samples whose lower bound reached the threshold. */
  passShare: number;
}

/** Simulates the gate at one sample size. */
export function simulateGate(cells: CellShares, n: number, kappaLower: number, options: { reps?: number; seed?: number } = {}): SimulatedGate {
  const reps = options.reps ?? 400;
  const rng = seededRng(options.seed ?? 1);
  const lows: number[] = [];
  let pass = 0;
  for (let r = 0; r < reps; r++) {
    const lo = gateLowerBound(drawTable(cells, n, rng)) ?? -1;
    lows.push(lo);
    if (lo >= kappaLower) pass++;
  }
  lows.sort((a, b) => a - b);
  const mid = reps % 2 ? lows[(reps - 1) / 2]! : (lows[reps / 2 - 1]! + lows[reps / 2]!) / 2;
  return { n, reps, medianLower: mid, passShare: pass / reps };
}

/**
 * The smallest n (up to `max`) whose simulated median lower bound reaches
 * the threshold, by bisection (the same seed at every n, so the search is
 * monotone enough to bisect); null when even `max` labels do not.
 */
export function simulatedLabelsNeeded(cells: CellShares, kappaLower: number, max: number, options: { reps?: number; seed?: number } = {}): { n: number | null; at: SimulatedGate } {
  const at = (n: number) => simulateGate(cells, n, kappaLower, options);
  let hiRun = at(max);
  if (hiRun.medianLower < kappaLower) return { n: null, at: hiRun };
  let lo = 2, hi = max;
  while (hi - lo > Math.max(1, Math.floor(hi * 0.01))) {
    const mid = Math.floor((lo + hi) / 2);
    const r = at(mid);
    if (r.medianLower >= kappaLower) {
      hi = mid;
      hiRun = r;
    } else lo = mid;
  }
  return { n: hi, at: hiRun };
}

/**
 * The smallest n (up to `max`) at which the gate's own interval, computed on
 * the *expected* table n·cells, reaches the threshold: the asymptotic formula
 * with the goodness-of-fit half included (that half is skewed below a high
 * kappa, so the gate needs more labels than kappa ± z·se alone says). Null
 * when `max` labels do not reach it.
 */
export function expectedGateLabels(cells: CellShares, kappaLower: number, max: number): number | null {
  const lower = (n: number) => gateLowerBound([[n * cells.tp, n * cells.fp], [n * cells.fn, n * cells.tn]]) ?? -1;
  if (lower(max) < kappaLower) return null;
  let lo = 1, hi = max;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (lower(mid) >= kappaLower) hi = mid;
    else lo = mid;
  }
  return hi;
}
