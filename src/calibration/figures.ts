import type { GoldenQuestion } from "../golden/schema/golden.js";
import type { GroupPairing, PairedItem } from "./pairing.js";
import { uninformativeInterval, type UninformativeInterval } from "./uninformative.js";
import { withDesignSe } from "./plan/design-figures.js";
import {
  cohenKappa, cohenKappaBootstrap, confusion, confusionTable, gwetAc1, kappaGofInterval, paradoxFigures, rates,
  type BootstrapInterval, type BootstrapOptions, type CohenKappa, type Confusion, type GwetAc1, type KappaGofInterval, type Pair, type ParadoxFigures, type Rates,
} from "./stats/index.js";

/** Agreement of a judge with people on one set of items. */
export interface AgreementFigures {
  /** Labelled items (skipped ones not included). */
  n: number;
  /** Kish effective n = (Σw)²/Σw² (equal to n when unweighted); the standard errors use it. */
  nEffective: number;
  /**
   * Drawn held-out items with no counting label, counted as disagreements
   * (pairing.ts's UnlabelledDrawnItem): in the confusion and kappa, not in `n`,
   * `labelYes` or `labelNo`.
   */
  skipped: number;
  /** Items people labelled yes / no (counts, not weights: the gate's per-class minimum uses these). */
  labelYes: number;
  labelNo: number;
  /** Items whose verdict was an error: counted as disagreements (the judge's verdict taken as the opposite of the label). */
  judgeErrors: number;
  confusion: Confusion;
  rates: Rates;
  kappa: CohenKappa;
  /**
   * Donner & Eliasziw's goodness-of-fit interval (on the table scaled to the
   * effective n when weighted). The gate checks the union of it and
   * `kappa.ci`, which has zero width when nothing disagrees.
   */
  kappaGof: KappaGofInterval;
  /**
   * Set when kappa's interval (asymptotic and bootstrap) is not informative
   * because the labels or the judge's verdicts are all one answer: kappa is
   * 0 by convention and the interval has zero width by formula, which is not
   * certainty. Null otherwise.
   */
  kappaCiUninformative: UninformativeInterval | null;
  /** Seeded percentile bootstrap interval of kappa (absent when not asked for). */
  bootstrap?: BootstrapInterval;
  paradox: ParadoxFigures;
  ac1: GwetAc1;
}

/** What agreement figures read of an item: a labelled one, or a skipped drawn one with its imputed label. */
export type FigureItem = Pick<PairedItem, "judged" | "label" | "weight"> & { stratum?: string; imputed?: true };

/**
 * The items the gate's figures are computed on: its labelled items and the
 * skipped drawn ones, counted as disagreements.
 *
 * @example
 * agreementFigures(gateFigureItems(pairing)).skipped // drawn held-out items left unlabelled
 */
export function gateFigureItems(pairing: Pick<GroupPairing, "gate" | "skipped">): FigureItem[] {
  return pairing.skipped.length ? [...pairing.gate, ...pairing.skipped] : pairing.gate;
}

/** Turns paired items into judge-versus-label pairs; an error verdict becomes a disagreement (counted as a judge error when labelled). */
export function pairsOf(items: readonly FigureItem[]): { pairs: Pair[]; judgeErrors: number } {
  let judgeErrors = 0;
  const pairs = items.map((p): Pair => {
    let judge = p.judged.verdict;
    if (judge === "error") {
      if (!p.imputed) judgeErrors++;
      judge = p.label === "yes" ? "no" : "yes";
    }
    return { judge, label: p.label, weight: p.weight };
  });
  return { pairs, judgeErrors };
}

/**
 * Every agreement figure of a judge on a set of paired items: n, raw
 * agreement, the 2x2 confusion matrix, TPR/TNR, Cohen's kappa with its
 * asymptotic interval (non-null SE) and test (null SE), optionally its
 * seeded bootstrap interval, the prevalence and bias indices, PABAK and
 * Gwet's AC1. Judge errors and skipped drawn items count as disagreements
 * (conservative). With
 * weights the tables hold weighted counts and the standard errors use
 * Kish's effective n.
 *
 * @example
 * agreementFigures(pairing.gate, { bootstrap: { seed: 1 } }).kappa.ci
 */
export function agreementFigures(items: readonly FigureItem[], options: { bootstrap?: BootstrapOptions; level?: number } = {}): AgreementFigures {
  const { pairs, judgeErrors } = pairsOf(items);
  const m = confusion(pairs);
  const skipped = items.filter((p) => p.imputed).length;
  let sw = 0;
  let sw2 = 0;
  for (const p of pairs) {
    sw += p.weight ?? 1;
    sw2 += (p.weight ?? 1) ** 2;
  }
  const nEffective = sw2 > 0 ? (sw * sw) / sw2 : 0;
  const table = confusionTable(m);
  const level = options.level ?? 0.95;
  const out: AgreementFigures = {
    n: pairs.length - skipped,
    nEffective,
    skipped,
    labelYes: pairs.filter((p, i) => p.label === "yes" && !items[i]!.imputed).length,
    labelNo: pairs.filter((p, i) => p.label === "no" && !items[i]!.imputed).length,
    judgeErrors,
    confusion: m,
    rates: rates(m),
    kappa: cohenKappa(table, { n: nEffective, level }),
    kappaGof: kappaGofInterval(sw > 0 ? table.map((row) => row.map((v) => (v * nEffective) / sw)) : table, level),
    kappaCiUninformative: uninformativeInterval(m),
    paradox: paradoxFigures(table),
    ac1: gwetAc1(table, { n: nEffective, level }),
  };
  // A stratified design: kappa's standard error by linearisation, and no i.i.d. bootstrap (plan/designs.ts).
  const design = withDesignSe(out.kappa, pairs, items, level);
  out.kappa = design.kappa;
  if (options.bootstrap) out.bootstrap = design.refuseBootstrap ? { ...design.refuseBootstrap, level, reps: options.bootstrap.reps ?? 0, seed: options.bootstrap.seed ?? 0 } : cohenKappaBootstrap(pairs, { level, ...options.bootstrap });
  return out;
}

/** Agreement figures of one subgroup (a kind or a tag). */
export interface Breakdown {
  by: "kind" | "tag";
  value: string;
  figures: AgreementFigures;
}

/**
 * The gate's figures split by the golden set's question kind and by tag
 * (an item with several tags counts under each), with n shown so a kappa on
 * five items is read as such. Items whose question has no kind go under
 * "(none)"; tags only list tagged items.
 */
export function breakdowns(items: readonly PairedItem[], questions: ReadonlyMap<string, GoldenQuestion>): Breakdown[] {
  const byKind = new Map<string, PairedItem[]>();
  const byTag = new Map<string, PairedItem[]>();
  for (const p of items) {
    const q = questions.get(p.judged.key.question);
    const kind = q?.kind ?? "(none)";
    (byKind.get(kind) ?? byKind.set(kind, []).get(kind)!).push(p);
    for (const t of q?.tags ?? []) (byTag.get(t) ?? byTag.set(t, []).get(t)!).push(p);
  }
  const out: Breakdown[] = [];
  for (const [value, ps] of [...byKind].sort(([a], [b]) => (a < b ? -1 : 1))) out.push({ by: "kind", value, figures: agreementFigures(ps) });
  for (const [value, ps] of [...byTag].sort(([a], [b]) => (a < b ? -1 : 1))) out.push({ by: "tag", value, figures: agreementFigures(ps) });
  return out;
}

/** The judge against one annotator's own (effective) labels on the gate's items. */
export interface AnnotatorFigures {
  annotator: string;
  figures: AgreementFigures;
}

/**
 * The judge against each annotator separately, on the gate's items that
 * annotator labelled, so one lenient or strict labeller shows up.
 */
export function perAnnotator(items: readonly PairedItem[]): AnnotatorFigures[] {
  const by = new Map<string, PairedItem[]>();
  for (const p of items) {
    for (const l of (p.people ?? p.labelled).byAnnotator) {
      const a = l.value.annotator;
      (by.get(a) ?? by.set(a, []).get(a)!).push({ ...p, label: l.value.label });
    }
  }
  return [...by].sort(([a], [b]) => (a < b ? -1 : 1)).map(([annotator, ps]) => ({ annotator, figures: agreementFigures(ps) }));
}
