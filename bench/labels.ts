/**
 * `npm run bench:labels`: how many labels each sampling design needs for the
 * same interval width, and whether its 95% intervals cover the truth.
 *
 * For each seeded population (bench/labels-population.ts: known pass rate,
 * judge TPR/TNR and P(yes) confidence) and each estimator (the corrected pass
 * rate by PPI; Cohen's kappa by linearisation), every design draws BENCH_REPS
 * (default 1,000) simulated calibrations at a sample size n, estimates with
 * its weights and strata, and records the mean interval width and the share
 * of intervals holding the population's true value. The labels a design
 * needs are the smallest n whose mean width reaches the target (bisection,
 * the same seeds at every n); coverage is read at that n. `plan` predicts the
 * same n from a pilot of BENCH_PILOT (200) simple random labels with the
 * formulas `ragjudge plan` uses (sample-size.ts), and the ratio is printed.
 *
 * Designs: `srs` (uniform); `proportional` (strata = the judge's verdict x
 * confidence band, n_h ∝ N_h); `neyman` (the same strata, n_h ∝ N_h·S_h with
 * S_h from the pilot, at least 2 per stratum: what `plan --budget` draws).
 * Nothing is asserted: the figures are printed (and BENCH_JSON=file writes them).
 *
 * Environment: BENCH_REPS (1000), BENCH_PILOT (200), BENCH_SIZE (50000),
 * BENCH_WIDTH_PASS (0.05), BENCH_WIDTH_KAPPA (0.2), BENCH_JSON.
 */
import { writeFileSync } from "node:fs";
import { unsafeUniformIntDistribution, type RandomGenerator } from "pure-rand";
import { designKappa, kappaInfluence, kappaMeans, unitKappaVariance, type DesignPair } from "../src/calibration/plan/kappa-linear.js";
import { kappaWidthLabels, ppiLabelsNeeded } from "../src/calibration/plan/sample-size.js";
import { confidenceBand, kappaStratumSd, neymanAllocation } from "../src/calibration/plan/strata.js";
import { seededRng, weightedMeanVariance, zCritical } from "../src/calibration/stats/index.js";
import { makePopulation, truth, type PopulationItem, type PopulationShape } from "./labels-population.js";

const env = (k: string, d: number) => (process.env[k] ? Number(process.env[k]) : d);
const REPS = env("BENCH_REPS", 1000);
const PILOT = env("BENCH_PILOT", 200);
const SIZE = env("BENCH_SIZE", 50000);
const WIDTH = { ppi: env("BENCH_WIDTH_PASS", 0.05), kappa: env("BENCH_WIDTH_KAPPA", 0.2) };
const Z = zCritical(0.95);

const SHAPES: PopulationShape[] = [
  { name: "skewed (pass rate 0.85)", size: SIZE, passRate: 0.85, tpr: 0.92, tnr: 0.75, sureWhenRight: 0.8, sureWhenWrong: 0.3, seed: 85 },
  { name: "balanced (pass rate 0.50)", size: SIZE, passRate: 0.5, tpr: 0.85, tnr: 0.85, sureWhenRight: 0.8, sureWhenWrong: 0.3, seed: 50 },
];

type Estimator = "ppi" | "kappa";
type DesignId = "srs" | "proportional" | "neyman";

/** The judge-defined stratum of an item (verdict x confidence band). */
const stratumOf = (it: PopulationItem) => `${it.judge ? "yes" : "no"} · ${confidenceBand(it.pYes)}`;

/** Per-stratum index arrays, permuted in place by each draw (a partial Fisher-Yates on an already random order stays uniform). */
function strataIndex(pop: readonly PopulationItem[], single: boolean): Map<string, number[]> {
  const m = new Map<string, number[]>();
  pop.forEach((it, i) => {
    const h = single ? "all" : stratumOf(it);
    (m.get(h) ?? m.set(h, []).get(h)!).push(i);
  });
  return m;
}

function drawStratum(idx: number[], k: number, rng: RandomGenerator): number[] {
  for (let i = 0; i < k; i++) {
    const j = unsafeUniformIntDistribution(i, idx.length - 1, rng);
    const t = idx[i]!;
    idx[i] = idx[j]!;
    idx[j] = t;
  }
  return idx.slice(0, k);
}

/** A simple random pilot of `n` labels (what a team has before planning). */
function pilot(pop: readonly PopulationItem[], n: number, seed: number): PopulationItem[] {
  const idx = pop.map((_, i) => i);
  return drawStratum(idx, n, seededRng(seed)).map((i) => pop[i]!);
}

/** S_h of an estimator in each stratum, from the pilot (shrunk toward the pilot's overall share with two pseudo-labels). */
function stratumSds(estimator: Estimator, strata: Map<string, number[]>, pop: readonly PopulationItem[], pilotItems: readonly PopulationItem[]): Map<string, number> {
  const at = kappaMeans(pilotItems.map((p) => ({ judge: p.judge, label: p.label })))!;
  const out = new Map<string, number>();
  for (const h of strata.keys()) {
    const inH = pilotItems.filter((p) => stratumOf(p) === h);
    const verdict = pop[strata.get(h)![0]!]!.judge;
    if (estimator === "ppi") {
      // f is constant within a verdict stratum, so sd(f - y) = sd(y).
      const q = (inH.filter((p) => p.label === 1).length + 2 * at.c) / (inH.length + 2);
      out.set(h, Math.sqrt(q * (1 - q)));
    } else {
      out.set(h, kappaStratumSd(verdict ? "yes" : "no", { agree: inH.filter((p) => p.label === p.judge).length, n: inH.length }, at));
    }
  }
  return out;
}

interface Design {
  id: DesignId;
  strata: Map<string, number[]>;
  allocate: (n: number) => Map<string, number>;
  /** What plan predicts: the per-label variance of the estimator under this design. */
  unitVariance: number;
}

function designsFor(estimator: Estimator, pop: readonly PopulationItem[], pilotItems: readonly PopulationItem[]): Design[] {
  const N = pop.length;
  const single = strataIndex(pop, true);
  const strata = strataIndex(pop, false);
  const sds = stratumSds(estimator, strata, pop, pilotItems);
  const specs = (sd: (h: string) => number) => [...strata].map(([name, idx]) => ({ name, size: idx.length, sd: sd(name) }));
  // plan's unit variances from the pilot: SRS from the pilot's own variance; stratified from the S_h.
  let srsUnit: number;
  if (estimator === "ppi") {
    const d = pilotItems.map((p) => p.judge - p.label);
    const m = d.reduce((a, b) => a + b, 0) / d.length;
    srsUnit = d.reduce((a, b) => a + (b - m) ** 2, 0) / (d.length - 1);
  } else {
    let tp = 0, fp = 0, fn = 0, tn = 0;
    for (const p of pilotItems) {
      if (p.judge && p.label) tp++;
      else if (p.judge) fp++;
      else if (p.label) fn++;
      else tn++;
    }
    const n = pilotItems.length;
    srsUnit = unitKappaVariance({ tp: tp / n, fp: fp / n, fn: fn / n, tn: tn / n })!;
  }
  const W = (h: string) => strata.get(h)!.length / N;
  const prop = [...strata.keys()].reduce((s, h) => s + W(h) * sds.get(h)! ** 2, 0);
  const ney = [...strata.keys()].reduce((s, h) => s + W(h) * sds.get(h)!, 0) ** 2;
  return [
    { id: "srs", strata: single, allocate: (n) => new Map([["all", n]]), unitVariance: srsUnit },
    { id: "proportional", strata, allocate: (n) => neymanAllocation(specs(() => 1), n), unitVariance: prop },
    { id: "neyman", strata, allocate: (n) => neymanAllocation(specs((h) => sds.get(h)!), n), unitVariance: ney },
  ];
}

/** BENCH_REPS calibrations of one design at n: mean width and coverage. */
function simulate(estimator: Estimator, design: Design, pop: readonly PopulationItem[], n: number, seed: number): { width: number; coverage: number } {
  const rng = seededRng(seed);
  const t = truth(pop);
  const alloc = design.allocate(n);
  // The verdicts of all N items: PPI's first term, the same in every replicate.
  const N = pop.length;
  const r = pop.reduce((s, it) => s + it.judge, 0) / N;
  const varF = (r * (1 - r)) / (N - 1);
  let width = 0, covered = 0;
  for (let rep = 0; rep < REPS; rep++) {
    const pairs: DesignPair[] = [];
    for (const [h, idx] of design.strata) {
      const k = alloc.get(h) ?? 0;
      const w = idx.length / Math.max(1, k);
      for (const i of drawStratum(idx, k, rng)) pairs.push({ judge: pop[i]!.judge, label: pop[i]!.label, weight: w, stratum: h });
    }
    let lo: number, hi: number;
    if (estimator === "ppi") {
      const d = weightedMeanVariance(pairs.map((p) => p.judge - p.label), pairs.map((p) => p.weight!), pairs.map((p) => p.stratum));
      const est = r - d.mean;
      const se = Math.sqrt(varF + (d.varianceOfMean ?? 0));
      lo = est - Z * se;
      hi = est + Z * se;
      if (lo <= t.passRate && t.passRate <= hi) covered++;
    } else {
      const k = designKappa(pairs);
      if (!k.ci) {
        rep--;
        continue;
      }
      lo = k.ci.lo;
      hi = k.ci.hi;
      if (lo <= t.kappa && t.kappa <= hi) covered++;
    }
    width += hi - lo;
  }
  return { width: width / REPS, coverage: covered / REPS };
}

/** The smallest n whose mean width reaches the target (bisection with the same seed at every n). */
function labelsNeeded(estimator: Estimator, design: Design, pop: readonly PopulationItem[], guess: number, seed: number): { n: number; width: number; coverage: number } {
  let lo = Math.max(10, Math.floor(guess / 2)), hi = Math.max(lo + 1, guess * 2);
  while (simulate(estimator, design, pop, hi, seed).width > WIDTH[estimator]) hi *= 2;
  while (hi - lo > Math.max(2, Math.floor(hi * 0.005))) {
    const mid = Math.floor((lo + hi) / 2);
    if (simulate(estimator, design, pop, mid, seed).width <= WIDTH[estimator]) hi = mid;
    else lo = mid;
  }
  return { n: hi, ...simulate(estimator, design, pop, hi, seed) };
}

/** What plan's formula predicts for a per-label variance. */
function predicted(estimator: Estimator, unitVariance: number, pop: readonly PopulationItem[]): number {
  if (estimator === "kappa") return kappaWidthLabels(unitVariance, WIDTH.kappa);
  const r = pop.reduce((s, it) => s + it.judge, 0) / pop.length;
  return ppiLabelsNeeded({ verdictVariance: r * (1 - r), judged: pop.length, unitVariance, width: WIDTH.ppi, n: 0, population: pop.length }).total!;
}

/**
 * The same formula at the population's true values, for the design's own
 * allocation shares a_h = n_h/n: n·var = Σ W_h² S_h² / a_h, with S_h the
 * population's standard deviation of the linearised value (kappa) or of
 * f - y (PPI) in stratum h. It separates the formula's error from the
 * pilot's sampling error.
 */
function trueUnitVariance(estimator: Estimator, design: Design, pop: readonly PopulationItem[], n: number): number {
  const N = pop.length;
  const at = kappaMeans(pop.map((p) => ({ judge: p.judge, label: p.label })))!;
  const value = (it: PopulationItem) => (estimator === "ppi" ? it.judge - it.label : kappaInfluence(it.judge, it.label, at));
  const alloc = design.allocate(n);
  let v = 0;
  for (const [h, idx] of design.strata) {
    const xs = idx.map((i) => value(pop[i]!));
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    const s2 = xs.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, xs.length - 1);
    const W = idx.length / N;
    v += (W * W * s2) / ((alloc.get(h) ?? 1) / n);
  }
  return v;
}

const results: Record<string, unknown>[] = [];
const started = Date.now();
for (const shape of SHAPES) {
  const pop = makePopulation(shape);
  const t = truth(pop);
  const pilotItems = pilot(pop, PILOT, shape.seed + 1);
  process.stdout.write(`\n${shape.name}: N = ${pop.length}, true pass rate ${t.passRate.toFixed(3)}, true kappa ${t.kappa.toFixed(3)}, judge TPR ${shape.tpr} TNR ${shape.tnr}; pilot ${PILOT} random labels; ${REPS} calibrations per design and n\n`);
  process.stdout.write("  estimator (target width)   design       simulated  plan (pilot)  ratio  plan (truth)  ratio  coverage  mean width  vs srs\n");
  for (const estimator of ["ppi", "kappa"] as const) {
    let srsN = 0;
    for (const design of designsFor(estimator, pop, pilotItems)) {
      const pred = predicted(estimator, design.unitVariance, pop);
      const sim = labelsNeeded(estimator, design, pop, pred, shape.seed * 7 + 3);
      const oracle = predicted(estimator, trueUnitVariance(estimator, design, pop, sim.n), pop);
      if (design.id === "srs") srsN = sim.n;
      const saving = design.id === "srs" ? "" : `${(100 * (1 - sim.n / srsN)).toFixed(1)}% fewer`;
      const label = `${estimator === "ppi" ? "pass rate (PPI)" : "kappa"} (${WIDTH[estimator]})`;
      process.stdout.write(`  ${label.padEnd(26)} ${design.id.padEnd(12)} ${String(sim.n).padStart(9)} ${String(pred).padStart(13)} ${(pred / sim.n).toFixed(2).padStart(6)} ${String(oracle).padStart(13)} ${(oracle / sim.n).toFixed(2).padStart(6)} ${(100 * sim.coverage).toFixed(1).padStart(8)}% ${sim.width.toFixed(4).padStart(11)}  ${saving}\n`);
      results.push({ population: shape.name, estimator, design: design.id, labels: sim.n, predictedFromPilot: pred, ratioPilot: pred / sim.n, predictedAtTruth: oracle, ratioTruth: oracle / sim.n, coverage: sim.coverage, width: sim.width, savingVsSrs: design.id === "srs" ? 0 : 1 - sim.n / srsN });
    }
  }
}
process.stdout.write(`\n${((Date.now() - started) / 1000).toFixed(1)} s\n`);
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(results, null, 2) + "\n");
