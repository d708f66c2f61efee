import { relative } from "node:path";
import { loadConfig } from "../../golden/config.js";
import { writeOutputFile } from "../../calibration/output.js";
import { sampleFromRun } from "../../review/sample-run.js";
import type { RubricSample } from "../../review/sample.js";
import type { RubricRunNotes } from "../../review/candidates.js";
import { UsageError } from "../errors.js";
import { DEFAULT_QUEUE } from "../commands/review.js";

export interface SampleFlags {
  random?: string;
  balanced?: string;
  disagreements?: boolean;
  seed: string;
  annotator: string;
  rubrics?: string;
  variant?: string;
  split?: string;
  out?: string;
  judgments?: string;
  labels?: string;
  config?: string;
}

function count(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`${flag}: expected a positive whole number, got ${JSON.stringify(v)}`);
  return Number(v);
}

function list(v: string | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  const names = v.split(",").map((s) => s.trim()).filter(Boolean);
  return names.length ? names : undefined;
}

function shortPath(p: string): string {
  const r = relative(process.cwd(), p);
  return r && !r.startsWith("..") ? r : p;
}

/** One summary line per rubric: what was in the run, what was left out and why, what was drawn. */
function describe(n: RubricRunNotes | undefined, s: RubricSample | undefined, rubric: string): string {
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
    if (s.random) parts.push(`random ${s.random.drawn} of ${s.eligible}${s.random.drawn ? ` (inclusion probability ${s.random.inclusionProbability.toPrecision(3)})` : ""}`);
    if (s.balanced) parts.push(`balanced judge-yes ${s.balanced.yes.drawn} of ${s.balanced.yes.of}, judge-no ${s.balanced.no.drawn} of ${s.balanced.no.of}`);
    if (s.disagreements) parts.push(`disagreements ${s.disagreements.queued} of ${s.disagreements.found}${s.disagreements.labelledByAnnotator ? ` (${s.disagreements.labelledByAnnotator} are your own labels: someone else should look)` : ""}`);
    if (s.duplicates) parts.push(`${s.duplicates} drawn twice, kept once`);
  }
  return `  ${rubric}: ${parts.join("; ")} -> ${s?.queued ?? 0} queued`;
}

/** `ragjudge sample`'s action (see commands/sample.ts). */
export function sampleAction(flags: SampleFlags): void {
  const random = count("--random", flags.random);
  const balanced = count("--balanced", flags.balanced);
  if (random === undefined && balanced === undefined && !flags.disagreements) {
    throw new UsageError("choose what to sample: --random N, --balanced N and/or --disagreements");
  }
  if (!/^\d{1,15}$/.test(flags.seed)) throw new UsageError(`--seed: expected a non-negative whole number, got ${JSON.stringify(flags.seed)}`);
  const cfg = loadConfig(flags.config);
  const cacheFile = (name: string) => cfg.path(`${cfg.config.cacheDir}/${name}`);
  const out = flags.out ?? cacheFile(DEFAULT_QUEUE);
  const rubrics = list(flags.rubrics);
  const variants = list(flags.variant);
  const splits = list(flags.split);
  const result = sampleFromRun(cfg, {
    annotator: flags.annotator,
    seed: Number(flags.seed),
    ...(random !== undefined ? { random } : {}),
    ...(balanced !== undefined ? { balanced } : {}),
    ...(flags.disagreements ? { disagreements: true } : {}),
    judgmentsFile: flags.judgments ?? cacheFile("judgments.jsonl"),
    labelsDir: flags.labels ?? cfg.path(cfg.config.labels),
    ...(rubrics ? { rubrics } : {}),
    ...(variants ? { variants } : {}),
    ...(splits ? { splits } : {}),
  });
  writeOutputFile(out, result.entries.map((e) => JSON.stringify(e) + "\n").join(""));

  const names = [...new Set([...result.notes.map((n) => n.rubric), ...result.rubrics.map((r) => r.rubric)])].sort();
  const lines = [`Review queue for ${flags.annotator} (seed ${flags.seed}${splits ? `, split ${splits.join(", ")}` : ""}):`];
  for (const name of names) lines.push(describe(result.notes.find((n) => n.rubric === name), result.rubrics.find((r) => r.rubric === name), name));
  for (const n of result.notes) {
    if (n.otherFingerprints.length) lines.push(`  note: ${n.rubric} has verdicts of ${n.otherFingerprints.length + 1} judge fingerprints; sampled the latest (${n.fingerprint!.slice(0, 12)}…)`);
  }
  if (result.notes.some((n) => n.errors)) lines.push("  note: items with an error verdict stay in the random frame (the trust gate counts a judge error as a disagreement); re-run `ragjudge judge` to retry them, and their labels pair with the new verdict.");
  if (random !== undefined) {
    for (const [rubric, k] of result.nonRandomOwn) {
      lines.push(`  note: ${rubric}: ${k} item(s) you labelled in disagreement, balanced or manual frames are outside your random draws (never relabelled), so your random sample is not uniform over them; let another annotator draw the random sample if they are many`);
    }
  }
  const labelsOpt = (flags.config ? ` --config ${flags.config}` : "") + (flags.labels ? ` --labels ${flags.labels}` : "");
  if (result.entries.length === 0) lines.push(`Nothing to review: wrote an empty queue to ${shortPath(out)}.`);
  else lines.push(`Wrote ${result.entries.length} entries to ${shortPath(out)}. Next: ragjudge review ${flags.out ? shortPath(out) + " " : ""}--annotator ${flags.annotator}${labelsOpt}`);
  process.stdout.write(lines.join("\n") + "\n");
}
