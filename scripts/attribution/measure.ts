/**
 * Agreement of a judge with the imported human labels, and the threshold
 * sweep that chose the baseline's support threshold. The statistics are the
 * calibration library's (src/calibration/stats): the same code that
 * `ragjudge calibrate` uses, so these figures are comparable with its output.
 */
import {
  type BootstrapInterval, type CohenKappa, type Confusion, type Pair,
  bootstrapReplicates, cohenKappa, cohenKappaBootstrap, confusion, confusionTable, rates, resampleIndices,
} from "../../src/calibration/stats/index.js";
import type { Evidence } from "../../src/golden/schema/items.js";

/** A judged item with its human label. */
export interface JudgedItem {
  rubric: string;
  half: string;
  dataset: string;
  verdict: "yes" | "no";
  label: "yes" | "no";
}

/** Agreement figures of one set of judged items. */
export interface Agreement {
  n: number;
  matrix: Confusion;
  accuracy: number | null;
  /** Mean of the F1 of "yes" and the F1 of "no" (each class in turn the positive one). */
  macroF1: number | null;
  tpr: number | null;
  tnr: number | null;
  kappa: CohenKappa;
  bootstrap: BootstrapInterval;
}

/** The figures of {@link Agreement} that need no resampling (what a sweep row needs too). */
function pointFigures(pairs: readonly Pair[]): Omit<Agreement, "n" | "bootstrap"> {
  const matrix = confusion(pairs);
  const r = rates(matrix);
  return { matrix, accuracy: r.agreement, macroF1: macroF1(matrix), tpr: r.tpr, tnr: r.tnr, kappa: cohenKappa(confusionTable(matrix)) };
}

/**
 * Macro-averaged F1: F1("yes") = 2tp / (2tp + fp + fn) and F1("no") =
 * 2tn / (2tn + fn + fp), averaged; null without items. (The figure
 * AttributionBench reports beside accuracy.)
 */
export function macroF1(m: Confusion): number | null {
  if (m.n === 0) return null;
  const f = (hit: number) => (2 * hit + m.fp + m.fn === 0 ? 1 : (2 * hit) / (2 * hit + m.fp + m.fn));
  return (f(m.tp) + f(m.tn)) / 2;
}

/**
 * Kappa of judge A minus kappa of judge B on the same items, with a seeded
 * paired bootstrap interval (each replicate resamples whole items, so both
 * judges are measured on the same resample).
 */
export function kappaDifference(
  a: readonly Pick<JudgedItem, "verdict" | "label">[],
  b: readonly Pick<JudgedItem, "verdict" | "label">[],
  seed?: number,
): { difference: number | null; bootstrap: BootstrapInterval } {
  if (a.length !== b.length) throw new RangeError(`paired judges need the same items: ${a.length} vs ${b.length}`);
  const kappaOf = (items: readonly Pick<JudgedItem, "verdict" | "label">[], idx?: Uint32Array): number | null => {
    const pairs: Pair[] = idx ? [...idx].map((i) => ({ judge: items[i]!.verdict, label: items[i]!.label })) : items.map((i) => ({ judge: i.verdict, label: i.label }));
    return cohenKappa(confusionTable(confusion(pairs))).kappa;
  };
  const ka = kappaOf(a);
  const kb = kappaOf(b);
  const bootstrap = bootstrapReplicates((rng) => {
    const idx = resampleIndices(rng, a.length);
    const x = kappaOf(a, idx);
    const y = kappaOf(b, idx);
    return x === null || y === null ? null : x - y;
  }, seed === undefined ? {} : { seed });
  return { difference: ka === null || kb === null ? null : ka - kb, bootstrap };
}

/** Accuracy, confusion matrix, TPR/TNR, Cohen's kappa with its asymptotic 95% interval and a seeded bootstrap interval. */
export function agreement(items: readonly Pick<JudgedItem, "verdict" | "label">[], seed?: number): Agreement {
  const pairs: Pair[] = items.map((i) => ({ judge: i.verdict, label: i.label }));
  return { n: items.length, ...pointFigures(pairs), bootstrap: cohenKappaBootstrap(pairs, seed === undefined ? {} : { seed }) };
}

const f = (x: number | null, d = 3): string => (x === null ? "n/a" : x.toFixed(d));

/** One block of lines describing an {@link Agreement}. */
export function formatAgreement(title: string, a: Agreement): string[] {
  const k = a.kappa;
  const ci = k.ci ? `[${f(k.ci.lo)}, ${f(k.ci.hi)}]` : `(no interval: ${k.reasons.ci ?? "undefined"})`;
  const boot = a.bootstrap.ci ? `[${f(a.bootstrap.ci.lo)}, ${f(a.bootstrap.ci.hi)}]` : `(${a.bootstrap.reason ?? "undefined"})`;
  const m = a.matrix;
  return [
    `${title}: n = ${a.n}`,
    `  accuracy ${f(a.accuracy)}   macro-F1 ${f(a.macroF1)}   TPR ${f(a.tpr)}   TNR ${f(a.tnr)}`,
    `  Cohen's kappa ${k.kappa === null ? `undefined (${k.reasons.kappa})` : f(k.kappa)}  95% CI ${ci} (asymptotic, Fleiss-Cohen-Everitt SE ${f(k.se)}); bootstrap ${boot}`,
    `  confusion (judge x people):  yes/yes ${m.tp}   yes/no ${m.fp}   no/yes ${m.fn}   no/no ${m.tn}`,
  ];
}

/** One row of a threshold sweep. */
export interface SweepRow {
  threshold: number;
  kappa: number | null;
  tpr: number | null;
  tnr: number | null;
  accuracy: number | null;
}

/**
 * Runs a judge over items at each threshold of a grid and measures kappa,
 * TPR, TNR and accuracy against the labels.
 */
export function sweep(
  items: readonly { evidence: Evidence; label: "yes" | "no"; rubric: string }[],
  grid: readonly number[],
  judgeAt: (threshold: number) => (rubric: string, e: Evidence) => { verdict: "yes" | "no" },
): SweepRow[] {
  return grid.map((threshold) => {
    const judge = judgeAt(threshold);
    const f = pointFigures(items.map((i) => ({ judge: judge(i.rubric, i.evidence).verdict, label: i.label })));
    return { threshold, kappa: f.kappa.kappa, tpr: f.tpr, tnr: f.tnr, accuracy: f.accuracy };
  });
}

/**
 * The tuning rule, fixed before looking at the evaluation half: the highest
 * kappa; among equal kappas (to 1e-9), the smallest |TPR - TNR| (errors
 * balanced between the classes); then the lower threshold.
 */
export function chooseThreshold(rows: readonly SweepRow[]): SweepRow | undefined {
  const defined = rows.filter((r) => r.kappa !== null);
  const gap = (r: SweepRow): number => Math.abs((r.tpr ?? 0) - (r.tnr ?? 0));
  return [...defined].sort((a, b) => {
    const dk = b.kappa! - a.kappa!;
    if (Math.abs(dk) > 1e-9) return dk;
    const dg = gap(a) - gap(b);
    if (Math.abs(dg) > 1e-9) return dg;
    return a.threshold - b.threshold;
  })[0];
}

/** The 0.05 grid from 0.30 to 1.00 the support threshold was chosen on. */
export const SUPPORT_GRID: readonly number[] = Array.from({ length: 15 }, (_, i) => Math.round((0.3 + 0.05 * i) * 100) / 100);
