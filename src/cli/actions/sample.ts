import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { InputError } from "../../golden/errors.js";
import { REPORT_FILE } from "../../report/folder.js";
import { commandLine } from "../../report/next.js";
import { loadConfig } from "../../golden/config.js";
import { queueReads } from "../../review/queue.js";
import { outputTarget } from "../../golden/paths.js";
import { loadDraws, writeDraw } from "../../calibration/draws.js";
import { loadLabels } from "../../calibration/labels.js";
import { heldoutSplit } from "../../calibration/gate.js";
import { sampleFromRun } from "../../review/sample-run.js";
import type { RubricSample } from "../../review/sample.js";
import type { RubricRunNotes } from "../../review/candidates.js";
import { UsageError } from "../errors.js";
import { parseNumber } from "../commands/numbers.js";
import { nameList } from "./lists.js";
import { DEFAULT_QUEUE } from "../commands/review.js";
import { refuseLookalikeAnnotator } from "./annotator.js";
import { nothingToReview, writeQueue } from "./queue-out.js";
import { nothingJudged, whyNothingQueued } from "./sample-why.js";
import { EXAMPLE_LABELS, labelsArgs, labelsToWrite } from "./example-labels.js";
import type { ResolvedConfig } from "../../golden/config.js";

export interface SampleFlags {
  random?: string;
  balanced?: string;
  disagreements?: boolean;
  /** `--panel-splits` (actions/sample-panel.ts). */
  panelSplits?: boolean;
  /** `--draw ID` (actions/sample-draw.ts). */
  draw?: string;
  seed: string;
  annotator: string;
  rubrics?: string;
  variant?: string;
  split?: string;
  servedModel?: string;
  out?: string;
  judgments?: string;
  labels?: string;
  config?: string;
  evaluation?: string;
  example?: boolean;
}

function count(flag: string, v: string | undefined): number | undefined {
  return v === undefined ? undefined : parseNumber(flag, v, "sampleSize");
}

/**
 * Checks the flags every sampling command shares (`--seed`, `--evaluation`
 * against `--judgments`) and names the judgments file they choose: an
 * evaluation folder's, the given file, or the cache's.
 */
export function sampleInputs(flags: SampleFlags, cacheFile: (name: string) => string): { seed: number; judgmentsFile: string } {
  const seed = parseNumber("--seed", flags.seed, "randomSeed");
  if (flags.evaluation !== undefined && flags.judgments !== undefined) throw new UsageError("--evaluation and --judgments do not combine: an evaluation folder has its own judgments.jsonl");
  return { seed, judgmentsFile: flags.evaluation !== undefined ? evaluationJudgments(flags.evaluation) : flags.judgments ?? cacheFile("judgments.jsonl") };
}

/** The judgments file of an evaluation folder; a folder that is not one is bad input. */
function evaluationJudgments(dir: string): string {
  if (!existsSync(join(dir, REPORT_FILE))) throw new InputError(dir, undefined, undefined, `not an evaluation folder (no ${REPORT_FILE}; ragjudge run writes them under evaluations/)`);
  return join(dir, "judgments.jsonl");
}

export function shortPath(p: string): string {
  const r = relative(process.cwd(), p);
  return r && !r.startsWith("..") ? r : p;
}

/** One summary line per rubric: what was in the run, what was left out and why, what was drawn. */
function describe(n: RubricRunNotes | undefined, s: RubricSample | undefined, rubric: string, asked?: number): string {
  const parts: string[] = [];
  const left: string[] = [];
  if (n) {
    if (n.rules) left.push(`${n.rules} decided by rule`);
    if (n.stale) left.push(`${n.stale} judgments not matching the current data`);
    if (n.unjudged) left.push(`${n.unjudged} not judged`);
  }
  const errors = n?.errors ? `, ${n.errors} with an error verdict (random frame only)` : "";
  parts.push(`${s?.population ?? 0} judged items${errors}${left.length ? ` (left out: ${left.join(", ")})` : ""}`);
  if (s) {
    parts.push(`${s.labelledByAnnotator} already labelled by you`);
    if (s.random) {
      const own = s.random.alreadyLabelled ? `, ${s.random.alreadyLabelled} of them already labelled by you (counted, not queued again)` : "";
      // a draw of more than there are takes every item: say so, or "random 12 of 12" reads as 12 of the 20 asked
      const all = asked !== undefined && asked > s.random.drawn ? `, all of them: fewer than the ${asked} asked` : "";
      parts.push(`random ${s.random.drawn} of ${s.population}${s.random.drawn ? ` (inclusion probability ${s.random.inclusionProbability.toPrecision(3)}${own}${all}; draw ${s.random.draw})` : ""}`);
    }
    if (s.balanced) parts.push(`balanced judge-yes ${s.balanced.yes.drawn} of ${s.balanced.yes.of}, judge-no ${s.balanced.no.drawn} of ${s.balanced.no.of}`);
    if (s.disagreements) parts.push(`disagreements ${s.disagreements.queued} of ${s.disagreements.found}${s.disagreements.labelledByAnnotator ? ` (${s.disagreements.labelledByAnnotator} are your own labels: someone else should look)` : ""}`);
    if (s.duplicates) parts.push(`${s.duplicates} drawn twice, kept once`);
  }
  return `  ${rubric}: ${parts.join("; ")} → ${s?.queued ?? 0} queued`;
}

/** Which served model a rubric's frame holds, the items left to the others, and how to get one judge for every item. */
function servedNote(n: RubricRunNotes, flags: SampleFlags): string {
  const name = (m: string) => (m ? JSON.stringify(m) : "no model name");
  const others = n.otherServedModels!.map((o) => `${o.items} by ${name(o.model)}`).join(", ");
  const how = flags.servedModel === undefined ? "the latest" : "--served-model";
  return `  note: the endpoint served ${n.rubric}'s verdicts under ${n.otherServedModels!.length + 1} model names (an alias that moved during the run?): sampled the ${n.judged} items served by ${name(n.servedModel!)} (${how}); left out ${others}. The trust gate calibrates each served model apart; to have one judge for every item, set judge.model to a dated snapshot and run the judge again.`;
}

/** `ragjudge sample`'s action (see commands/sample.ts). */
export function sampleAction(flags: SampleFlags): void {
  const random = count("--random", flags.random);
  const balanced = count("--balanced", flags.balanced);
  if (random === undefined && balanced === undefined && !flags.disagreements) {
    throw new UsageError("choose what to sample: --random N, --balanced N and/or --disagreements (or --panel-splits)");
  }
  const cfg = loadConfig(flags.config);
  const cacheFile = (name: string) => cfg.outPath(`${cfg.config.cacheDir}/${name}`);
  const { seed, judgmentsFile } = sampleInputs(flags, cacheFile);
  const rubrics = flags.rubrics === undefined ? undefined : nameList("--rubrics", flags.rubrics, "rubric");
  const variants = flags.variant === undefined ? undefined : nameList("--variant", flags.variant, "variant");
  const splits = flags.split === undefined ? undefined : nameList("--split", flags.split, "split");
  // A random sample records its draw in the labels folder; the other frames only read it.
  const labelsDir = random === undefined ? flags.labels ?? cfg.path(cfg.config.labels)
    : labelsToWrite(cfg, flags.labels, `add --labels ${EXAMPLE_LABELS} to record the draw in a folder of your own (made when missing); review and calibrate then take the same --labels`);
  // read once: the names checked are those of the labels sampled against
  const book = loadLabels(labelsDir);
  refuseLookalikeAnnotator(flags.annotator, book, loadDraws(labelsDir));
  // Where the queue goes, checked before a draw is recorded: a draw left without its queue holds the trust gate back.
  const out = outputTarget(flags.out ?? cacheFile(DEFAULT_QUEUE), queueReads(cfg, judgmentsFile, labelsDir));
  const result = sampleFromRun(cfg, {
    annotator: flags.annotator,
    seed,
    ...(random !== undefined ? { random } : {}),
    ...(balanced !== undefined ? { balanced } : {}),
    ...(flags.disagreements ? { disagreements: true } : {}),
    judgmentsFile,
    labelsDir,
    book,
    ...(rubrics ? { rubrics } : {}),
    ...(variants ? { variants } : {}),
    ...(splits ? { splits } : {}),
    ...(flags.servedModel !== undefined ? { servedModel: flags.servedModel } : {}),
  });
  // Nothing judged to draw from is bad input, refused before anything is written (a queue or a draw).
  const refusal = nothingJudged(result.notes, result.rubrics, { judgmentsFile, cfg, ...(splits ? { splits } : {}) });
  if (refusal) throw refusal;
  // Manifests first: a queue entry never names a draw that is not recorded.
  const time = new Date().toISOString();
  const written = result.draws.map((d) => writeDraw(labelsDir, d, time));
  writeQueue(out, result.entries);

  const names = [...new Set([...result.notes.map((n) => n.rubric), ...result.rubrics.map((r) => r.rubric)])].sort();
  const lines = [`Review queue for ${flags.annotator} (seed ${seed}${splits ? `, split ${splits.join(", ")}` : ""}):`];
  for (const name of names) lines.push(describe(result.notes.find((n) => n.rubric === name), result.rubrics.find((r) => r.rubric === name), name, random));
  for (const n of result.notes) {
    if (n.otherFingerprints.length) lines.push(`  note: ${n.rubric} has verdicts of ${n.otherFingerprints.length + 1} judge fingerprints; sampled the latest (${n.fingerprint!.slice(0, 12)}…)`);
    if (n.otherServedModels?.length) lines.push(servedNote(n, flags));
  }
  if (result.notes.some((n) => n.errors)) lines.push("  note: items with an error verdict stay in the random frame (the trust gate counts a judge error as a disagreement); re-run `ragjudge judge` to retry them, and their labels pair with the new verdict.");
  for (const w of written) lines.push(`  draw ${w.id}: ${w.status === "written" ? "recorded" : "already recorded (the same draw)"} in ${shortPath(w.file)}`);
  const heldout = heldoutSplit(cfg.config.trust);
  const notHeldout = result.entries.filter((e) => e.frame === "random" && e.split !== heldout).length;
  if (notHeldout) lines.push(`  note: ${notHeldout} drawn item(s) are not in the held-out split "${heldout}" (or have no split, which counts as dev): the trust gate does not count their labels; use --split ${heldout} to draw only what it counts`);
  // The judgments that reveal the judge's verdict after each answer: the ones sampled from.
  const judgments = flags.evaluation !== undefined ? join(flags.evaluation, "judgments.jsonl") : flags.judgments;
  if (result.entries.length === 0) lines.push(nothingToReview(out, whyNothingQueued(result.rubrics)));
  else lines.push(`Wrote ${result.entries.length} entries to ${shortPath(out)}. Next: ${reviewNext(flags, out, judgments, cfg)}`);
  process.stdout.write(lines.join("\n") + "\n");
}

/**
 * The `ragjudge review` command that serves a queue `sample` just wrote, with
 * the inputs it was sampled from (and, for the installed example, whose
 * labels folder is never written, a folder of one's own: `labelsArgs`).
 */
export function reviewNext(flags: Pick<SampleFlags, "out" | "annotator" | "example" | "config" | "labels">, out: string, judgments: string | undefined, cfg: Pick<ResolvedConfig, "isShippedExample" | "path" | "config">): string {
  return commandLine([
    "review", ...(flags.out ? [shortPath(out)] : []), "--annotator", flags.annotator,
    ...(flags.example ? ["--example"] : flags.config ? ["--config", flags.config] : []), ...labelsArgs(cfg, flags.labels),
    ...(judgments !== undefined ? ["--judgments", judgments] : []),
  ]).trim();
}
