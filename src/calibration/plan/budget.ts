import { BOUNDS, requireWithin } from "../../golden/bounds.js";
import { evidenceKey } from "../keys.js";
import { kappaMeans } from "./kappa-linear.js";
import { isHeldout, type GroupPlan } from "./plan.js";
import { chooseStrata, kappaStratumSd, neymanAllocation, SINGLE_STRATUM, stratumOf, type StrataLevel } from "./strata.js";
import { stratifiedDrawBody, type StratifiedItem } from "./stratified-draw.js";
import { settledForDraw } from "../draw-status.js";
import { drawItemKey } from "../draws.js";
import type { TrustInputs } from "../trust.js";
import type { JudgedItem } from "../verdicts.js";

/**
 * `ragjudge plan --budget N`: where N new labels buy the most certainty.
 *
 * 1. Rubrics the formula says can pass get the labels they need, fewest
 *    first, while the budget lasts (a label that makes a rubric trusted is
 *    worth most); a rubric with no estimate yet gets a pilot of `minLabels`
 *    first.
 * 2. What is left goes one label at a time to the rubric whose kappa
 *    variance V/n it lowers most (V/n - V/(n + 1)), never beyond its
 *    unlabelled held-out items.
 *
 * Each rubric's share is then drawn as one stratified random draw over its
 * held-out frame (strata from the judge: verdict, confidence band, variant;
 * Neyman allocation by kappa's linearised spread in each stratum), so every
 * held-out item keeps a known, positive inclusion probability and the gate
 * weights the labels back. A draw covers the whole frame, so some drawn items
 * may already be labelled (their labels count, no new work): each draw is
 * sized up until the items it queues (drawn, not yet labelled) reach the
 * rubric's share, which the draw's fixed seed makes known in advance.
 */

/** One rubric's share of the budget and its draw. */
export interface BudgetShare {
  plan: GroupPlan;
  /** New labels given to this rubric. */
  labels: number;
  /** Why: "to pass", "pilot" or "variance". */
  why: string[];
  /** Items the draw takes (new labels plus already labelled ones drawn again). */
  drawSize: number;
  allocation: Map<string, number>;
  level: StrataLevel;
  frame: StratifiedItem[];
  outside: StratifiedItem[];
}

/**
 * Splits `budget` labels over the plans (see the module comment). A budget
 * outside the bounds of `plan --budget` (a positive whole number) throws a
 * RangeError (golden/bounds.ts): a library call's, which no flag parser read.
 */
export function splitBudget(plans: readonly GroupPlan[], budget: number): Map<GroupPlan, { labels: number; why: Set<string> }> {
  requireWithin("budget", budget, BOUNDS.sampleSize);
  const out = new Map(plans.map((p) => [p, { labels: 0, why: new Set<string>() }]));
  const room = (p: GroupPlan) => Math.max(0, p.heldoutItems - p.labelledHeldout) - out.get(p)!.labels;
  let left = budget;
  const stage1 = plans
    .map((p) => ({ p, want: p.need.unknown ? Math.max(0, Math.min(p.minLabels, p.heldoutItems) - p.labels) : p.need.further, why: p.need.unknown ? "pilot" : "to pass" }))
    .filter((x): x is { p: GroupPlan; want: number; why: string } => x.want !== null && x.want > 0)
    .sort((a, b) => a.want - b.want || (a.p.rubric < b.p.rubric ? -1 : 1));
  for (const { p, want, why } of stage1) {
    const give = Math.min(want, room(p));
    if (give <= 0 || give > left) continue;
    out.get(p)!.labels += give;
    out.get(p)!.why.add(why);
    left -= give;
  }
  // Stage 2: greedy on kappa's variance; a rubric with no variance estimate counts as V = 1.
  while (left > 0) {
    let best: GroupPlan | undefined;
    let gain = 0;
    for (const p of plans) {
      if (room(p) <= 0) continue;
      const v = p.need.unitVariance ?? 1;
      const n = p.labels + out.get(p)!.labels;
      const g = n === 0 ? Infinity : v / n - v / (n + 1);
      if (g > gain || (g === gain && best && p.rubric < best.rubric)) {
        best = p;
        gain = g;
      }
    }
    if (!best) break;
    out.get(best)!.labels++;
    out.get(best)!.why.add("variance");
    left--;
  }
  return out;
}

/** The stratified draw of one rubric's share: strata, allocation and frame. */
export function shareDraw(plan: GroupPlan, labels: number, inputs: Pick<TrustInputs, "splits" | "book">): Omit<BudgetShare, "plan" | "labels" | "why"> {
  const heldout = plan.pairing.heldout;
  const frameItems = plan.group.items.filter((it) => isHeldout(inputs, heldout, it));
  const outside: StratifiedItem[] = plan.group.items.filter((it) => !isHeldout(inputs, heldout, it)).map((it) => {
    const split = inputs.splits?.get(it.key.question);
    return { key: it.key, inputHash: it.inputHash, ...(split ? { split } : {}) };
  });
  const unlabelledShare = frameItems.length ? 1 - plan.labelledHeldout / frameItems.length : 1;
  const guess = Math.min(frameItems.length, Math.ceil(labels / Math.max(1e-9, unlabelledShare)));
  // The strata are chosen once, for the first guess: a finer cut regroups the items, so crossing to it while growing
  // would take other items first in some strata instead of adding to the draw.
  const level = levelFor(frameItems, guess);
  // The draw is fixed by its population's seed, so how many new labels it queues is known before it is recorded. An earlier
  // draw of this frame nests in it (the same seed and strata), so its labelled items are drawn first rather than spread
  // at random as the guess assumes: when the guess falls short, take the smallest larger draw that queues the share (or
  // the whole frame).
  const queues = (n: number) => newLabels(plan.rubric, cutFrame(plan, frameItems, n, level), outside, inputs.book);
  let drawSize = guess;
  if (queues(guess) < labels) {
    let lo = guess;
    let hi = frameItems.length;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (queues(mid) >= labels) hi = mid;
      else lo = mid;
    }
    drawSize = hi;
  }
  return { drawSize, ...cutFrame(plan, frameItems, drawSize, level), outside };
}

/** The items of a held-out frame as the strata see them: variant, verdict and the judged item's own P(yes). */
function stratifiable(frameItems: readonly JudgedItem[]) {
  // the judged item's own P(yes), the mean over its repeats in repeat order: the figure the gate cuts strata with (a
  // mean in file order can land on the other side of a band's edge by a rounding)
  return frameItems.map((it) => ({ it, s: { variant: it.key.variant, verdict: it.verdict, ...(it.pYes !== undefined ? { pYes: it.pYes } : {}) } }));
}

/** The finest strata a draw of `drawSize` affords (at least two items each), or one stratum when it affords none. */
function levelFor(frameItems: readonly JudgedItem[], drawSize: number): StrataLevel {
  const maxStrata = Math.max(1, Math.floor(drawSize / 2));
  const chosen = chooseStrata(stratifiable(frameItems).map((x) => x.s), maxStrata);
  // Too small a draw for even one stratum per verdict: one stratum, so no item is left with probability 0.
  return chosen.names.length > maxStrata ? SINGLE_STRATUM : chosen.level;
}

/** A held-out frame cut into strata at `level` for a draw of `drawSize`, with its Neyman allocation. */
function cutFrame(plan: GroupPlan, frameItems: readonly JudgedItem[], drawSize: number, level: StrataLevel): Pick<BudgetShare, "allocation" | "level" | "frame"> {
  const strat = stratifiable(frameItems);
  const names = [...new Set(strat.map((x) => stratumOf(x.s, level)))].sort();
  const at = kappaMeans([...plan.pairing.gate, ...plan.pairing.skipped].map((g) => ({ judge: g.judged.verdict === "yes" ? 1 : 0, label: g.label === "yes" ? 1 : 0, weight: g.weight })));
  const usable = at && at.pe < 1 - 1e-9 && at.r > 0 && at.r < 1 && at.c > 0 && at.c < 1 ? at : null;
  const gateByKey = new Map(plan.pairing.gate.map((g) => [evidenceKey(g.judged.key, g.judged.inputHash), g]));
  const specs = names.map((name) => {
    const members = strat.filter((x) => stratumOf(x.s, level) === name);
    const verdict = members[0]!.s.verdict;
    let agree = 0, n = 0;
    for (const m of members) {
      const g = gateByKey.get(evidenceKey(m.it.key, m.it.inputHash));
      if (!g) continue;
      n++;
      if (g.label === verdict) agree++;
    }
    // Without usable estimates (no labels of one answer yet) allocate in proportion to size.
    const sd = usable ? kappaStratumSd(verdict, { agree, n }, usable) : 1;
    return { name, size: members.length, sd };
  });
  const allocation = neymanAllocation(specs, drawSize);
  const frame: StratifiedItem[] = strat.map(({ it, s }) => ({ key: it.key, inputHash: it.inputHash, split: plan.pairing.heldout, stratum: stratumOf(s, level) }));
  return { allocation, level, frame };
}

/**
 * The items a draw of this cut would queue: those drawn with no label that
 * counts (as the budget's queue, review/plan-queue.ts, leaves out labelled
 * items). The draw is replayed as it would be recorded: its drawn items
 * depend only on the rubric, the population (frame and outside) and the
 * allocation.
 */
function newLabels(rubric: string, cut: Pick<BudgetShare, "allocation" | "frame">, outside: readonly StratifiedItem[], book: TrustInputs["book"]): number {
  const body = stratifiedDrawBody({ rubric, annotator: "", fingerprint: "", servedModels: [], scope: { variants: [], splits: null }, frame: cut.frame, outside, allocation: cut.allocation });
  let fresh = 0;
  for (const i of body.drawn) {
    if (!settledForDraw(book.items.get(drawItemKey(rubric, body.population.items[i]!)))) fresh++;
  }
  return fresh;
}

/** The budget's shares with their draws (rubrics given no labels are left out); the budget is checked as {@link splitBudget} checks it. */
export function budgetShares(plans: readonly GroupPlan[], budget: number, inputs: Pick<TrustInputs, "splits" | "book">): BudgetShare[] {
  const split = splitBudget(plans, budget);
  const out: BudgetShare[] = [];
  for (const p of plans) {
    const s = split.get(p)!;
    if (s.labels <= 0) continue;
    out.push({ plan: p, labels: s.labels, why: [...s.why], ...shareDraw(p, s.labels, inputs) });
  }
  return out;
}
