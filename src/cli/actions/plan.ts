import { existsSync } from "node:fs";
import { relative } from "node:path";
import { wordingsOf } from "../../calibration/context.js";
import { currentWording } from "../../calibration/wording.js";
import { drawIdOf, loadDraws, writeDraw } from "../../calibration/draws.js";
import { heldoutSplit } from "../../calibration/gate.js";
import { evidenceKey } from "../../calibration/keys.js";
import { loadLabels, type LabelBook } from "../../calibration/labels.js";
import { nothingToReview, writeQueue } from "./queue-out.js";
import { budgetShares } from "../../calibration/plan/budget.js";
import { planGroups, type GroupPlan } from "../../calibration/plan/plan.js";
import { renderBudget, renderPlan } from "../../calibration/plan/render.js";
import { stratifiedDrawBody } from "../../calibration/plan/stratified-draw.js";
import { splitsOf, type TrustInputs } from "../../calibration/trust.js";
import { newestJudges } from "../../calibration/verdicts.js";
import { loadConfig } from "../../golden/config.js";
import { loadGolden } from "../../golden/dataset.js";
import { InputError } from "../../golden/errors.js";
import { loadJsonl } from "../../golden/jsonl.js";
import { Judgment } from "../../golden/schema/items.js";
import { openDraws, type OpenDraw } from "../../review/open-draws.js";
import { activeQueue, planQueue } from "../../review/plan-queue.js";
import { queueReads } from "../../review/queue.js";
import { outputTarget } from "../../golden/paths.js";
import { checkAnnotator } from "../../review/store.js";
import { DEFAULT_QUEUE } from "../commands/review.js";
import { commandLine, suggestedAnnotator } from "../../report/next.js";
import { UsageError } from "../errors.js";
import { parseNumber } from "../commands/numbers.js";
import { refuseLookalikeAnnotator } from "./annotator.js";
import { EXAMPLE_LABELS, labelsToWrite } from "./example-labels.js";
import { judgeFirst } from "../../golden/project-args.js";

export interface PlanFlags {
  width: string;
  budget?: string;
  active?: string;
  annotator?: string;
  seed: string;
  reps: string;
  out?: string;
  judgments?: string;
  labels?: string;
  config?: string;
  format: "text" | "json";
  example?: boolean;
}

function shortPath(p: string): string {
  const r = relative(process.cwd(), p);
  return r && !r.startsWith("..") ? r : p;
}

/**
 * The verdicts to plan from: the judgments file, or, when there is none yet
 * and the config's judge is the offline baseline (the shipped example), the
 * baseline's verdicts computed now (about a second, nothing written), so
 * `npx ragjudge plan` works on a fresh clone.
 */
async function verdicts(cfg: ReturnType<typeof loadConfig>, file: string, named: boolean): Promise<Judgment[]> {
  if (existsSync(file)) return loadJsonl(file, Judgment).map((r) => r.value);
  if (named || cfg.config.judge?.kind !== "baseline") throw new InputError(file, undefined, undefined, `judgments file not found: ${judgeFirst(cfg)}${named ? "" : ", or pass --judgments FILE"}`);
  const { loadJudgeInputs } = await import("../../judge/items/inputs.js");
  const { judgeItems } = await import("../../report/run-judge.js");
  const { BASELINE_CONCURRENCY } = await import("../../judge/judges/baseline-threads.js");
  const { rubrics, itemSet } = loadJudgeInputs(cfg);
  const { result } = await judgeItems({ settings: { kind: "baseline", repeats: 1, concurrency: BASELINE_CONCURRENCY }, items: itemSet.items, rubrics, cacheDir: cfg.outPath(cfg.config.cacheDir), log: () => {} });
  process.stderr.write(`plan: no ${shortPath(file)} yet: judged ${itemSet.items.length} items with the offline baseline now (ragjudge run writes them)\n`);
  return result.judgments;
}

/**
 * The verdicts of items the config builds today (same key and input hash, as
 * `ragjudge sample` joins them): a judgments file written under another
 * config sharing the cache (`faithfulnessUnit` answer vs claim) or before
 * the data changed would otherwise be planned and drawn, and its draws
 * queue nothing. Says on stderr how many were left out; none left is an
 * input error.
 */
async function currentVerdicts(cfg: ReturnType<typeof loadConfig>, file: string, judgments: Judgment[]): Promise<Judgment[]> {
  const { loadJudgeInputs } = await import("../../judge/items/inputs.js");
  const { cachedClaimsFrom } = await import("../../judge/claims/prepare.js");
  const { itemSet } = loadJudgeInputs(cfg, { claimsFrom: cachedClaimsFrom(cfg.outPath(cfg.config.cacheDir)) });
  const current = new Set(itemSet.items.map((i) => evidenceKey(i.key, i.inputHash)));
  // An answer verdict derived from its claims is never planned on (its claims are), so it is kept as is.
  const kept = judgments.filter((j) => j.derived || current.has(evidenceKey(j, j.inputHash)));
  const stale = judgments.length - kept.length;
  if (stale && !kept.some((j) => !j.derived)) throw new InputError(file, undefined, undefined, `none of its ${judgments.length} verdicts is of an item the config builds today (the golden set, outputs or config, e.g. faithfulnessUnit, changed since they were judged): run \`ragjudge run\` again with this config`);
  if (stale) process.stderr.write(`plan: left out ${stale} verdict${stale === 1 ? "" : "s"} of ${shortPath(file)} that match no item the config builds today (the data or config changed since they were judged; \`ragjudge run\` judges them again)\n`);
  return kept;
}

/** The flags that name this project's inputs, as the user typed them, for a printed next command. */
function inputFlags(flags: PlanFlags): string[] {
  const cfg = flags.example ? ["--example"] : flags.config ? ["--config", flags.config] : [];
  return [...cfg, ...(flags.labels ? ["--labels", flags.labels] : []), ...(flags.judgments ? ["--judgments", flags.judgments] : [])];
}

/**
 * The command that draws the labels the plan says are needed: `plan --budget`
 * with their sum (a pilot for a rubric with no estimate yet, the further
 * labels otherwise; none for a rubric labelling cannot help), so the plan's
 * "next" lines end in something that runs as printed. Null when no label is
 * needed.
 */
function budgetCommand(flags: PlanFlags, plans: readonly GroupPlan[], annotator: string, labelsDir: string, book: LabelBook): string | null {
  // Drawn items still unlabelled come first: drawing more would only add another draw to finish (run says so too).
  const { open } = openDraws(plans, labelsDir, book);
  if (open.length) {
    const lines = [`Next: label what is drawn before drawing more: ${describeOpen(open)}:`];
    for (const { d } of open) lines.push(commandLine(["sample", "--draw", d.id, "--annotator", d.annotator, ...inputFlags(flags)]), commandLine(["review", "--annotator", d.annotator, ...inputFlags(flags)]));
    return lines.join("\n") + "\n";
  }
  // A rubric whose held-out split is smaller than minLabels cannot be made trusted by labelling (run says so too).
  const small = plans.filter((p) => p.heldoutItems < p.minLabels);
  const n = plans.filter((p) => !small.includes(p)).reduce((sum, p) => sum + (p.need.unknown ? Math.max(0, p.minLabels - p.labels) : p.need.cannot ? 0 : p.need.further ?? 0), 0);
  const out: string[] = [];
  if (small.length) {
    const names = [...new Set(small.map((p) => p.rubric))];
    out.push(`Next: labelling cannot make ${names.join(", ")} trusted: ${small.map((p) => `${p.rubric} has ${p.heldoutItems} held-out judged item${p.heldoutItems === 1 ? "" : "s"} and the gate needs ${p.minLabels} labels`).filter((x, i, a) => a.indexOf(x) === i).join("; ")}. Put more questions in the held-out split, then run and plan again.`);
  }
  if (n > 0) out.push(`Next: draw the ${n} label${n === 1 ? "" : "s"} these lines ask for${small.length ? ` for ${[...new Set(plans.filter((p) => !small.includes(p)).map((p) => p.rubric))].join(", ")}` : ""} (a stratified draw per rubric, each label spent where it is worth most) and label them; it prints the review command:\n${commandLine(["plan", "--budget", String(n), "--annotator", annotator, ...inputFlags(flags)])}`);
  return out.length ? out.join("\n") + "\n" : null;
}

function describeOpen(open: readonly OpenDraw[]): string {
  return open.map(({ p, d }) => `${p.rubric}: draw ${d.id} for ${d.annotator}, ${d.labelled} of ${d.drawn} drawn held-out items labelled`).join("; ");
}

/** What a budget drawn beside draws whose rest was skipped should know: those items still count against the judge. */
function settledNote(settled: readonly OpenDraw[], flags: PlanFlags): string {
  return settled.map(({ p, d }) => `note: ${p.rubric}: draw ${d.id} counts with ${d.drawn - d.labelled} drawn item${d.drawn - d.labelled === 1 ? "" : "s"} ${d.annotator} skipped; until labelled they count as disagreements with the judge. To queue them again: ${commandLine(["sample", "--draw", d.id, "--annotator", d.annotator, ...inputFlags(flags)]).trim()}\n`).join("");
}

/** The `ragjudge review` command that serves the queue just written, as typed from the same folder. */
function reviewCommand(flags: PlanFlags, out: string): string {
  return commandLine(["review", ...(flags.out ? [shortPath(out)] : []), "--annotator", flags.annotator!, ...inputFlags(flags)]).trim();
}

/** `ragjudge plan`'s action (see commands/plan.ts). */
export async function planAction(flags: PlanFlags): Promise<void> {
  const width = Number(flags.width);
  if (!(width > 0 && width < 1)) throw new UsageError(`--width: expected a number between 0 and 1, got ${JSON.stringify(flags.width)}`);
  const budget = flags.budget === undefined ? undefined : parseNumber("--budget", flags.budget, "sampleSize");
  const active = flags.active === undefined ? undefined : parseNumber("--active", flags.active, "sampleSize");
  if (active !== undefined && budget !== undefined) throw new UsageError("--active and --budget do not combine: an active frame is for error analysis, a budget's draws are for the gate");
  if ((budget !== undefined || active !== undefined) && flags.annotator === undefined) throw new UsageError(`${budget !== undefined ? "--budget" : "--active"} needs --annotator NAME (who will label the queue)`);
  if (flags.annotator !== undefined) checkAnnotator(flags.annotator);
  const seed = parseNumber("--seed", flags.seed, "randomSeed");
  const reps = parseNumber("--reps", flags.reps, "simulationReps");
  const cfg = loadConfig(flags.config);
  const { config } = cfg;
  const judgmentsFile = flags.judgments ?? cfg.outPath(`${config.cacheDir}/judgments.jsonl`);
  // A budget records its draws in the labels folder: never the installed example's (a folder of one's own must exist, as below).
  const labelsDir = budget === undefined ? flags.labels ?? cfg.path(config.labels)
    : labelsToWrite(cfg, flags.labels, `mkdir ${EXAMPLE_LABELS}, then add --labels ${EXAMPLE_LABELS} to record the draws in a folder of your own`);
  // Where a budget's or active frame's queue goes, checked before any work: a budget records its draws before the
  // queue, and draws left without their queue hold the trust gate back.
  const out = budget !== undefined || active !== undefined ? outputTarget(flags.out ?? cfg.outPath(`${config.cacheDir}/${DEFAULT_QUEUE}`), queueReads(cfg, judgmentsFile, labelsDir)) : "";
  if (flags.labels !== undefined && !existsSync(labelsDir)) throw new InputError(labelsDir, undefined, undefined, "labels folder not found");
  const book = loadLabels(labelsDir);
  // Before the baseline may judge into the cache and a budget writes draws and a queue; a plan alone prints commands with the name.
  const draws = loadDraws(labelsDir);
  if (flags.annotator !== undefined) refuseLookalikeAnnotator(flags.annotator, book, draws);
  const judgments = await currentVerdicts(cfg, judgmentsFile, await verdicts(cfg, judgmentsFile, flags.judgments !== undefined));
  const golden = loadGolden(cfg.path(config.golden));
  const wordings = wordingsOf(cfg);
  const inputs: TrustInputs = { book, draws, records: [], splits: splitsOf(golden.questions), wordings, ...(config.trust ? { trust: config.trust } : {}) };
  // What is left to label, as the gate counts labels: an item labelled only under an earlier wording of its question is unlabelled.
  const counted = currentWording(book, wordings).book;
  if (active !== undefined) {
    const { entries, without } = activeQueue(cfg, judgments, counted, active);
    writeQueue(out, entries);
    const lines = [`Active frame (error analysis only: the trust gate never counts these labels): the ${active} unlabelled items per rubric whose P(yes) is nearest 0.5.`];
    if (without.length) lines.push(`  no P(yes) from the judge for ${without.join(", ")}: nothing to rank`);
    lines.push(entries.length ? `Wrote ${entries.length} entries to ${shortPath(out)}. Next: ${reviewCommand(flags, out)}` : nothingToReview(out, without.length ? "no unlabelled item has a P(yes) from the judge to rank" : "every item with a P(yes) is labelled by you already"));
    process.stdout.write(lines.join("\n") + "\n");
    return;
  }
  const plans = planGroups(judgments, inputs, { width, reps, seed });
  if (budget === undefined) {
    if (flags.format === "json") process.stdout.write(JSON.stringify(plans.map(({ group: _g, pairing: _p, ...rest }) => rest), null, 2) + "\n");
    else process.stdout.write(renderPlan(plans) + (budgetCommand(flags, plans, flags.annotator ?? suggestedAnnotator(book.history), labelsDir, counted) ?? ""));
    return;
  }
  // A new budget over a frame with a draw still open would record another draw to finish beside it (and, nested in the
  // open one, buy fewer new labels than asked): the open one first.
  const { open, settled } = openDraws(plans, labelsDir, counted);
  if (open.length) {
    const commands = open.map(({ d }) => commandLine(["sample", "--draw", d.id, "--annotator", d.annotator, ...inputFlags(flags)]).trim()).join(", then ");
    throw new UsageError(`--budget: label what is drawn before drawing more (${describeOpen(open)}); queue their unlabelled items with ${commands}, and review them`);
  }
  // One draw per rubric, for the judge whose verdicts are newest (as sample does): its fingerprint and served model. Its
  // strata are that judge's verdicts, so the draw counts for that judge only (strataMismatch); a label still counts for
  // every judge of its item.
  const newest = newestJudges(judgments);
  const shares = budgetShares(plans.filter((p) => newest.get(p.rubric)?.fingerprint === p.fingerprint && newest.get(p.rubric)?.servedModel === (p.servedModel ?? "")), budget, inputs);
  const bodies = shares.map((s) => stratifiedDrawBody({
    rubric: s.plan.rubric, annotator: flags.annotator!, fingerprint: s.plan.fingerprint, servedModels: s.plan.group.servedModels,
    scope: { variants: [...new Set(s.plan.group.items.map((i) => i.key.variant))].sort(), splits: [heldoutSplit(config.trust)] },
    frame: s.frame, outside: s.outside, allocation: s.allocation,
  }));
  const entries = bodies.length ? planQueue(cfg, judgments, counted, bodies.map((b) => ({ ...b, id: drawIdOf(b) })), seed) : [];
  // Manifests first: a queue entry never names a draw that is not recorded.
  const time = new Date().toISOString();
  const written = bodies.map((b) => {
    const w = writeDraw(labelsDir, b, time);
    return { ...w, file: shortPath(w.file), queued: entries.filter((e) => e.draw === w.id).length };
  });
  const wrote = writeQueue(out, entries);
  if (flags.format === "json") {
    process.stdout.write(JSON.stringify({ budget, shares: shares.map((s, k) => ({ rubric: s.plan.rubric, fingerprint: s.plan.fingerprint, labels: s.labels, why: s.why, drawSize: s.drawSize, allocation: Object.fromEntries(s.allocation), draw: written[k] })), queue: wrote ? shortPath(out) : null }, null, 2) + "\n");
    return;
  }
  process.stdout.write(renderPlan(plans) + "\n" + renderBudget(shares, budget, written) + settledNote(settled, flags));
  process.stdout.write(entries.length ? `Wrote ${entries.length} entries to ${shortPath(out)}. Next: ${reviewCommand(flags, out)}\n` : `${nothingToReview(out, "the budget buys no new label (the shares above say why)")}\n`);
}
