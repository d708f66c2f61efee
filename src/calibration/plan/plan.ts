import type { Judgment } from "../../golden/schema/items.js";
import { BOUNDS, requireWithin } from "../../golden/bounds.js";
import { labelledVerdicts, ppiLabels } from "../corrected.js";
import { agreementFigures, gateFigureItems } from "../figures.js";
import { gateInterval, thresholdsFor } from "../gate.js";
import { evidenceKey } from "../keys.js";
import { pairGroup, type GroupPairing } from "../pairing.js";
import { ppiMean, type Interval } from "../stats/index.js";
import { gateContext, gateFiguresOf, type TrustInputs } from "../trust.js";
import { groupJudgments, type JudgeGroup, type JudgedItem } from "../verdicts.js";
import { designKappa, type CellShares, type DesignKappa } from "./kappa-linear.js";
import { kappaLabelsNeeded, ppiLabelsNeeded, type KappaNeed, type WidthNeed } from "./sample-size.js";
import { simulatedLabelsNeeded, simulateGate } from "./simulate.js";

/**
 * `ragjudge plan`'s figures for one rubric under one judge (fingerprint and
 * served model): the labels the gate counts today, kappa's gate interval,
 * how many further random held-out labels the formula of sample-size.ts
 * expects to bring its lower bound to the threshold (checked by the
 * simulation of simulate.ts), and the same for the width of the corrected
 * pass rate's (PPI's) interval.
 */

/** One rubric's plan. */
export interface GroupPlan {
  rubric: string;
  fingerprint: string;
  servedModel: string | null;
  /** Held-out items this judge judged: the frame of every draw the gate counts. */
  heldoutItems: number;
  /** Gate labels (random, held-out, drawn by a counting draw) and their answers. */
  labels: number;
  /** Drawn held-out items of counting draws with no counting label: disagreements in the figures until labelled. */
  skipped: number;
  labelYes: number;
  labelNo: number;
  /** Other labels of this judge's items, not counted by the gate. */
  otherLabels: number;
  /** Already labelled held-out items (gate or not), never drawn as new work. */
  labelledHeldout: number;
  weighted: boolean;
  kappa: number | null;
  /** The gate's interval (union of asymptotic and goodness-of-fit). */
  ci: Interval | null;
  /** Kappa by linearisation under the gate's design (its weights and strata). */
  designKappa: DesignKappa;
  kappaLower: number;
  minLabels: number;
  minPerClass: number;
  cells: CellShares | null;
  need: KappaNeed;
  /** The simulation's answer for the interval rule: smallest n whose median simulated lower bound reaches the threshold. */
  simulated: { n: number | null; reps: number; passShareAtFormula: number | null } | null;
  passRate: {
    judged: number;
    estimate: number | null;
    ci: Interval | null;
    width: number | null;
    target: number;
    need: WidthNeed | null;
    unknown?: string;
  };
  /** The group and pairing, for the budget's draw. */
  group: JudgeGroup;
  pairing: GroupPairing;
}

/** Options of {@link planGroups}. */
export interface PlanOptions {
  /** Target full width of the corrected pass rate's 95% interval (default 0.1). */
  width?: number;
  /** Replicates of the simulation check (default 400; 0 skips it). */
  reps?: number;
  seed?: number;
}

/** Whether an item is held out as the gate reads it (the golden set's split). */
export function isHeldout(inputs: Pick<TrustInputs, "splits">, heldout: string, it: JudgedItem): boolean {
  return (inputs.splits?.get(it.key.question) ?? null) === heldout;
}

/**
 * Throws a RangeError for a `reps` or `seed` outside the bounds of `plan
 * --reps` and `--seed` (golden/bounds.ts): a library call's numbers, which
 * no flag parser read; 10^9 replicates would simulate for days.
 */
function requirePlanNumbers(options: PlanOptions): void {
  requireWithin("reps", options.reps, BOUNDS.simulationReps);
  requireWithin("seed", options.seed, BOUNDS.randomSeed);
}

/** Plans one group; its numbers are checked first ({@link requirePlanNumbers}). */
export function planGroup(group: JudgeGroup, inputs: TrustInputs, options: PlanOptions = {}): GroupPlan {
  requirePlanNumbers(options);
  return planChecked(group, inputs, options);
}

/** {@link planGroup} with numbers already checked (once per plan, not per group). */
function planChecked(group: JudgeGroup, inputs: TrustInputs, options: PlanOptions): GroupPlan {
  const pairing = pairGroup(group, inputs.book, gateContext(inputs, group.rubric));
  const t = thresholdsFor(inputs.trust, group.rubric);
  // The gate's own figures: a counting draw's skipped items count as disagreements until they are labelled.
  const f = agreementFigures(gateFigureItems(pairing));
  const ci = gateInterval(gateFiguresOf(f));
  const heldoutItems = group.items.filter((it) => isHeldout(inputs, pairing.heldout, it)).length;
  const labelledHeldout = group.items.filter((it) => isHeldout(inputs, pairing.heldout, it) && inputs.book.items.get(evidenceKey(it.key, it.inputHash))?.label != null).length;
  const m = f.confusion;
  const cells: CellShares | null = m.n > 0 ? { tp: m.tp / m.n, fp: m.fp / m.n, fn: m.fn / m.n, tn: m.tn / m.n } : null;
  const need = kappaLabelsNeeded({
    cells: cells ?? { tp: 0, fp: 0, fn: 0, tn: 0 }, n: pairing.gate.length + pairing.skipped.length, kappaLower: t.kappaLower, minLabels: t.minLabels, minPerClass: t.minPerClass, population: heldoutItems,
  });
  const reps = options.reps ?? 400;
  let simulated: GroupPlan["simulated"] = null;
  if (reps > 0 && cells && need.nInterval !== undefined) {
    const sim = simulatedLabelsNeeded(cells, t.kappaLower, Math.max(60, 3 * need.nInterval), { reps, seed: options.seed ?? 1 });
    simulated = { n: sim.n, reps, passShareAtFormula: simulateGate(cells, Math.max(2, need.nInterval), t.kappaLower, { reps, seed: options.seed ?? 1 }).passShare };
  }
  const pairs = [...pairing.gate, ...pairing.skipped].filter((p) => p.judged.verdict !== "error").map((p) => ({
    judge: (p.judged.verdict === "yes" ? 1 : 0) as 0 | 1, label: (p.label === "yes" ? 1 : 0) as 0 | 1, weight: p.weight, ...(pairing.weighted && p.stratum !== undefined ? { stratum: p.stratum } : {}),
  }));
  const target = options.width ?? 0.1;
  const verdicts = group.items.filter((it) => it.verdict === "yes" || it.verdict === "no").map((it) => (it.verdict === "yes" ? 1 : 0));
  const labelled = labelledVerdicts(pairing.gate, pairing.weighted);
  const ppi = ppiMean(verdicts, ppiLabels(labelled));
  const passRate: GroupPlan["passRate"] = { judged: verdicts.length, estimate: ppi.estimate, ci: ppi.ci, width: ppi.ci ? ppi.ci.hi - ppi.ci.lo : null, target, need: null };
  if (labelled.length < 2) passRate.unknown = "fewer than 2 gate labels: no estimate of the judge-minus-label variance yet";
  else {
    const r = verdicts.reduce<number>((s, v) => s + v, 0) / Math.max(1, verdicts.length);
    let sw = 0, sd = 0, sd2 = 0;
    for (const l of labelled) {
      const w = l.weight ?? 1;
      sw += w;
      sd += w * (l.judge - l.label);
      sd2 += w * (l.judge - l.label) ** 2;
    }
    const mean = sd / sw;
    // With no disagreement yet the variance estimate is 0: use one pseudo-disagreement so the plan is not "0 labels".
    const unit = Math.max(sd2 / sw - mean * mean, 1 / (labelled.length + 1));
    passRate.need = ppiLabelsNeeded({ verdictVariance: r * (1 - r), judged: verdicts.length, unitVariance: unit, width: target, n: labelled.length, population: heldoutItems });
  }
  return {
    rubric: group.rubric, fingerprint: group.fingerprint, servedModel: group.servedModel, heldoutItems,
    labels: pairing.gate.length, skipped: pairing.skipped.length, labelYes: f.labelYes, labelNo: f.labelNo, otherLabels: pairing.other.length, labelledHeldout, weighted: pairing.weighted,
    kappa: f.kappa.kappa, ci, designKappa: designKappa(pairs), kappaLower: t.kappaLower, minLabels: t.minLabels, minPerClass: t.minPerClass,
    cells, need, simulated, passRate, group, pairing,
  };
}

/**
 * Plans every group of the judgments (rule verdicts left out), in the order
 * calibrate reports them. Its numbers are checked once, first
 * ({@link requirePlanNumbers}).
 *
 * @example
 * planGroups(judgments, { book, draws, records: [], splits }).map((p) => p.need.further)
 */
export function planGroups(judgments: readonly Judgment[], inputs: TrustInputs, options: PlanOptions = {}): GroupPlan[] {
  requirePlanNumbers(options);
  return groupJudgments(judgments).groups.map((g) => planChecked(g, inputs, options));
}
