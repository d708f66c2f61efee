import { fixed, interval } from "../format.js";
import type { BudgetShare } from "./budget.js";
import type { GroupPlan } from "./plan.js";

/**
 * `ragjudge plan`'s text: per rubric and judge, what the gate counts, the
 * labels the formula expects it to need and the simulation's check, the
 * pass rate's width, then the method in two lines.
 */

/** "10 labels of each answer", "1 label of each answer" (a small project's minPerClass may be 1). */
const perAnswer = (n: number) => `${n} label${n === 1 ? "" : "s"} of each answer`;

function kappaLine(p: GroupPlan): string {
  const need = p.need;
  const kappa = p.kappa === null ? "n/a" : need.unknown ? `${fixed(p.kappa)} (not informative yet)` : fixed(p.kappa);
  const head = `kappa ${kappa}, gate interval ${interval(p.ci)} (lower bound must reach ${fixed(p.kappaLower)})`;
  if (need.unknown) {
    // fewer held-out items than minLabels: no pilot can help, as the closing "Next:" says too
    if (p.heldoutItems < p.minLabels) return `${head}\n    cannot: the gate needs ${p.minLabels} labels (minLabels) but only ${p.heldoutItems} held-out item${p.heldoutItems === 1 ? "" : "s"} exist${p.heldoutItems === 1 ? "s" : ""}: put more questions in the held-out split`;
    const pilot = Math.max(0, p.minLabels - p.labels);
    if (pilot > 0) return `${head}\n    next: ${need.unknown}; label a random pilot of ${pilot} more held-out item${pilot === 1 ? "" : "s"} first`;
    // the pilot is labelled and still one-sided: a pilot "of 0 more" would read as done
    const left = p.heldoutItems - p.labels;
    if (left <= 0) return `${head}\n    cannot: every held-out item is labelled and ${need.unknown.replace(/ so far: .*$/, "")}, so kappa is not defined; the gate also needs ${perAnswer(p.minPerClass)}: put questions whose answers should be judged the other way in the held-out split`;
    return `${head}\n    next: ${need.unknown}; label more random held-out items (${left} left) until both answers appear among the labels and the verdicts (the gate needs ${perAnswer(p.minPerClass)})`;
  }
  if (need.cannot) {
    const maybe = p.kappa !== null && p.kappa <= p.kappaLower && p.ci && p.ci.hi > p.kappaLower ? `; today's kappa rests on ${p.labels} labels and its interval reaches ${fixed(p.ci.hi)}, so the judge may yet be better than it looks` : "";
    return `${head}\n    ${need.cannot.reason}${maybe}`;
  }
  const sim = p.simulated
    ? `; simulation (${p.simulated.reps} draws at today's estimates): ${p.simulated.n === null ? "not reached" : `${p.simulated.n} labels`} for the median lower bound to reach it${p.simulated.passShareAtFormula !== null ? `, ${Math.round(100 * p.simulated.passShareAtFormula)}% pass at the formula's ${need.nInterval}` : ""}`
    : "";
  const bound = need.bound === "interval" ? "" : `; set by ${need.bound === "minLabels" ? `minLabels ${p.minLabels}` : perAnswer(p.minPerClass)}`;
  const formula = `formula ${need.nFormula}${need.nInterval !== need.nFormula ? `, ${need.nInterval} with the gate's goodness-of-fit half` : ""}`;
  return `${head}\n    next: ${need.further} more random held-out label${need.further === 1 ? "" : "s"} (${need.total} in all: ${formula}${bound})${sim}`;
}

function widthLine(p: GroupPlan): string {
  const r = p.passRate;
  const now = r.estimate === null
    ? `corrected pass rate (PPI) n/a (target width ${fixed(r.target, 3)})`
    : `corrected pass rate (PPI) ${fixed(r.estimate, 3)} ${interval(r.ci, 3)}, width ${r.width === null ? "n/a" : fixed(r.width, 3)} (target ${fixed(r.target, 3)})`;
  if (r.unknown) return `${now}\n    next: ${r.unknown}`;
  const n = r.need!;
  if (n.cannot) return `${now}\n    ${n.cannot}`;
  return `${now}\n    next: ${n.further} more random held-out label${n.further === 1 ? "" : "s"} (${n.total} in all)`;
}

/** The plan of every rubric as text. */
export function renderPlan(plans: readonly GroupPlan[]): string {
  const lines: string[] = [];
  for (const p of plans) {
    lines.push(`${p.rubric} · fingerprint ${p.fingerprint.slice(0, 12)}${p.servedModel ? ` · served ${p.servedModel}` : ""} · ${p.heldoutItems} held-out item${p.heldoutItems === 1 ? "" : "s"} judged`);
    lines.push(`  labels the gate counts: ${p.labels} (${p.labelYes} yes / ${p.labelNo} no; random, held-out, drawn by a recorded draw)${p.otherLabels ? `; ${p.otherLabels} other labels not counted` : ""}${p.weighted ? "; weighted by inverse inclusion probability" : ""}`);
    if (p.skipped) lines.push(`  first: label the ${p.skipped} drawn held-out item${p.skipped === 1 ? "" : "s"} left without a counting label: until then the gate counts ${p.skipped === 1 ? "it as a disagreement" : "them as disagreements"}, and the figures below already count ${p.skipped === 1 ? "it" : "them"} that way (ragjudge sample --draw ID queues a draw's unlabelled items)`);
    if (p.weighted && p.designKappa.se !== null) lines.push(`  design-based kappa (linearised, stratified): ${fixed(p.designKappa.kappa!)} ${interval(p.designKappa.ci)}`);
    lines.push(`  ${kappaLine(p)}`);
    lines.push(`  ${widthLine(p)}`);
    lines.push("");
  }
  lines.push("Method: n = z²·V/(kappa - threshold)² with V = n·var(kappa), Fleiss, Cohen & Everitt's asymptotic variance at today's cell shares, never below the gate's minLabels and minPerClass;");
  lines.push("checked by simulating the gate's own interval (asymptotic ∪ goodness-of-fit) on random samples at those shares. Pass rate: n = var(f - y)/((width/2z)² - var(f)/N) from PPI's variance.");
  return lines.join("\n") + "\n";
}

/** The budget's split and draws as text. */
export function renderBudget(shares: readonly BudgetShare[], budget: number, written: readonly { id: string; file: string; status: string; queued: number }[]): string {
  const lines = [`Budget of ${budget} labels:`];
  const total = shares.reduce((s, x) => s + x.labels, 0);
  shares.forEach((s, k) => {
    const w = written[k];
    const strata = [...s.allocation].map(([h, n]) => `${h} ${n}/${s.frame.filter((f) => f.stratum === h).length}`).join(", ");
    lines.push(`  ${s.plan.rubric}: ${s.labels} label${s.labels === 1 ? "" : "s"} (${s.why.join(", ")}); stratified draw of ${s.drawSize} of ${s.frame.length} held-out items (Neyman: ${strata})${w ? `; draw ${w.id} ${w.status} in ${w.file}; ${w.queued} queued` : ""}`);
  });
  if (total < budget) lines.push(`  ${budget - total} labels left unspent: every rubric's held-out items are labelled or allotted`);
  const queued = written.reduce((n, w) => n + w.queued, 0);
  // A draw grows until it queues its share (budget.ts): more when a stratum's floor or the last step overshoots, fewer only
  // when an item is drawn that no verdict of today's judgments backs, or a label lands between the plan and the queue.
  if (written.length && queued !== total) lines.push(`  ${queued} queued in all, not ${total}: each draw is grown until the items it draws that are not yet labelled reach its share, and a draw's strata each take at least 2 items, so it can queue a few more`);
  return lines.join("\n") + "\n";
}
