import { ConfigNotFoundError, loadConfig, resolveRubrics, type ResolvedConfig } from "../../golden/config.js";
import { loadGolden } from "../../golden/dataset.js";
import { existsSync } from "node:fs";
import { displayPath, InputError, InputErrors } from "../../golden/errors.js";
import { commandLine, shellArg } from "../../report/next.js";
import { writeOutputFile } from "../../calibration/output.js";
import { itemQueue } from "../../review/item-queue.js";
import { queueReads } from "../../review/queue.js";
import { outputTarget } from "../../golden/paths.js";
import { startReviewServer } from "../../review/server.js";
import { provenanceNote, ReviewSession } from "../../review/session.js";
import { labelsFileOf, readReviewLabels, type ReviewLabels } from "../../review/store.js";
import { reviewProvenance } from "../../review/provenance.js";
import { loadDraws } from "../../calibration/draws.js";
import { runTtyReview } from "../../review/tty.js";
import { DEFAULT_QUEUE, ITEM_QUEUE } from "../commands/review.js";
import { UsageError } from "../errors.js";
import { parseNumber } from "../commands/numbers.js";
import { refuseLookalikeAnnotator } from "./annotator.js";
import { EXAMPLE_LABELS, givenLabelsToWrite, labelsToWrite } from "./example-labels.js";

export interface ReviewFlags {
  annotator: string;
  tty?: boolean;
  provenance?: "human" | "author";
  labels?: string;
  judgments?: string;
  rubricsDir?: string;
  port: string;
  config?: string;
  example?: boolean;
  item?: string;
  order?: "queue" | "uncertain";
}

/**
 * The held-out split's name when the golden set has questions in it (the
 * only labels the trust gate counts come from there); undefined when it has
 * none or the config cannot be read (the hint then leaves --split out).
 */
function heldoutSplitInUse(config: () => ResolvedConfig): string | undefined {
  try {
    const cfg = config();
    const split = cfg.config.trust.heldout;
    return loadGolden(cfg.path(cfg.config.golden)).questions.some((q) => q.split === split) ? split : undefined;
  } catch (e) {
    // Only a config or golden set that cannot be read drops the flag; anything else is a bug to show.
    if (e instanceof InputError || e instanceof InputErrors || e instanceof ConfigNotFoundError) return undefined;
    throw e;
  }
}

/** `ragjudge review`'s action (see commands/review.ts). */
export async function reviewAction(queueArg: string | undefined, flags: ReviewFlags): Promise<void> {
  let cfg: ResolvedConfig | undefined;
  const config = () => (cfg ??= loadConfig(flags.config));
  const cacheFile = (name: string) => config().outPath(`${config().config.cacheDir}/${name}`);
  const port = parseNumber("--port", flags.port, "port");
  const queueFile = queueArg ?? cacheFile(flags.item !== undefined ? ITEM_QUEUE : DEFAULT_QUEUE);
  // Every label goes there: the installed example's folder is refused before anything is read or written.
  const hint = `add --labels ${EXAMPLE_LABELS} to keep your labels in a folder of your own (made when missing)`;
  const labelsDir = flags.labels !== undefined ? givenLabelsToWrite(flags.labels, hint) : labelsToWrite(config(), undefined, hint);
  const judgmentsFile = () => flags.judgments ?? cacheFile("judgments.jsonl");
  // A --judgments path that names no file is a typo: review went on with no verdict to show ("No judge verdict for
  // this item"), and the calibrate and resume commands it printed carried the same path, where calibrate failed.
  if (flags.judgments !== undefined && !existsSync(flags.judgments)) {
    throw new InputError(flags.judgments, undefined, undefined, "judgments file not found: name the judgments.jsonl that `ragjudge run` wrote (in the cache folder or its evaluation folder) or `ragjudge judge --out` wrote, or leave --judgments out");
  }
  // The labels folder, read once: the names checked are those of the labels the session starts from.
  const readLabels = (): ReviewLabels => {
    const labels = readReviewLabels(labelsDir, flags.annotator);
    refuseLookalikeAnnotator(flags.annotator, labels.book, loadDraws(labelsDir));
    return labels;
  };
  let labels: ReviewLabels;
  if (flags.item !== undefined) {
    labels = readLabels();
    // the queue --item writes must replace none of what is read (a queue named as the config replaced it)
    const target = outputTarget(queueFile, queueReads(config(), judgmentsFile(), labelsDir));
    const entries = itemQueue(config(), { item: flags.item, judgmentsFile: judgmentsFile() });
    writeOutputFile(target, entries.map((e) => JSON.stringify(e) + "\n").join(""));
  } else if (!existsSync(queueFile)) {
    const cfgArgs = (flags.example ? " --example" : flags.config ? ` --config ${shellArg(flags.config)}` : "") + (flags.labels !== undefined ? ` --labels ${shellArg(flags.labels)}` : "");
    // The hint must make the queue this command reads: the same path, and the split the trust gate counts when the golden set has one.
    const outArg = queueArg === undefined ? "" : ` --out ${shellArg(queueArg)}`;
    const split = heldoutSplitInUse(config);
    const splitArg = split === undefined ? "" : ` --split ${shellArg(split)}`;
    throw new InputError(queueFile, undefined, undefined, `no review queue: make one with \`ragjudge sample --random 20${splitArg} --annotator ${shellArg(flags.annotator)}${cfgArgs}${outArg}\` (after \`ragjudge run\`), then run this again`);
  } else labels = readLabels();
  const chosen = reviewProvenance(flags.provenance, labels.book, flags.annotator);
  flags = { ...flags, provenance: chosen.provenance };
  const session = new ReviewSession({
    queueFile,
    rubricsDir: flags.rubricsDir ?? resolveRubrics(config()).dir,
    judgmentsFile: judgmentsFile(),
    labelsDir,
    labels,
    annotator: flags.annotator,
    provenance: chosen.provenance,
    order: flags.order ?? "queue",
  });
  const c = session.counts();
  if (c.total === 0) {
    process.stdout.write(`The review queue ${queueFile} is empty: nothing to review (run \`ragjudge sample\` to draw items).\n`);
    return;
  }
  const labelsFile = labelsFileOf(labelsDir, session.annotator, { create: false });
  process.stdout.write(`Reviewing ${c.total} items as ${session.annotator} (${c.labelled} labelled, ${c.skipped} skipped, ${c.open} to go); labels go to ${displayPath(labelsFile)} (${chosen.inherited ? `provenance author, as every earlier label of ${session.annotator}: pass --provenance human if a person labels now; ${provenanceNote("author").replace(/^provenance author: /, "")}` : provenanceNote(session.provenance)})\n`);
  if (flags.order === "uncertain") process.stdout.write(`Serving the least certain verdicts first within each draw (P(yes) nearest 0.5; items without one last); the draw and its labels' inclusion probabilities are unchanged.\n`);
  if (!session.hasJudgments) process.stdout.write("No judge verdicts found for these items: the page cannot reveal them after you answer.\n");

  const resume = resumeCommand(queueArg, flags);
  if (flags.tty) {
    await runTtyReview(session, { input: process.stdin, output: process.stdout, resume });
    writeNext(session, flags);
    return;
  }
  const server = await startReviewServer(session, { port, next: nextCommand(flags), resume }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "EADDRINUSE" || e.code === "EACCES") throw new UsageError(`--port ${flags.port}: cannot listen on 127.0.0.1 (${e.code === "EADDRINUSE" ? "already in use" : "not allowed"}); leave --port out to use a free port`);
    throw e;
  });
  // Stop cleanly on a signal from the moment the address is known: a script may send one as soon as it reads it.
  const stop = () => void server.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  process.stdout.write(`Open ${server.url} in a browser. Ctrl+C (or Finish on the page) stops the server; every label is saved as you go.\n`);
  try {
    await server.closed;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  const d = session.counts();
  process.stdout.write(`Stopped: ${d.labelled} of ${d.total} labelled, ${d.skipped} skipped, ${d.open} to go.\n`);
  if (d.open > 0) process.stdout.write(`To resume, run:\n  ${resume}\n`);
  writeNext(session, flags);
}

/**
 * This review's command as typed (the queue, annotator, mode and files it
 * was given, each quoted for a shell when it needs it), which resumes it at
 * the first item neither labelled nor skipped.
 *
 * @example
 * resumeCommand(undefined, { annotator: "asha", tty: true, ... }) // "ragjudge review --annotator asha --tty"
 */
function resumeCommand(queueArg: string | undefined, flags: ReviewFlags): string {
  return commandLine([
    "review", ...(queueArg !== undefined ? [queueArg] : []), "--annotator", flags.annotator,
    ...(flags.item !== undefined ? ["--item", flags.item] : []),
    ...(flags.tty ? ["--tty"] : []),
    ...(flags.provenance === "author" ? ["--provenance", "author"] : []),
    ...(flags.order === "uncertain" ? ["--order", "uncertain"] : []),
    ...(flags.example ? ["--example"] : flags.config ? ["--config", flags.config] : []),
    ...(flags.labels ? ["--labels", flags.labels] : []),
    ...(flags.judgments ? ["--judgments", flags.judgments] : []),
    ...(flags.rubricsDir ? ["--rubrics-dir", flags.rubricsDir] : []),
  ]).trim();
}

/** The command that measures the judge against this review's labels, with the files this review used. */
function nextCommand(flags: ReviewFlags): string {
  const args = [
    ...(flags.example ? ["--example"] : flags.config ? ["--config", flags.config] : []),
    ...(flags.labels ? ["--labels", flags.labels] : []),
    ...(flags.judgments ? ["--judgments", flags.judgments] : []),
  ];
  return `ragjudge calibrate${args.map((a) => ` ${shellArg(a)}`).join("")}`;
}

/**
 * After a session whose queue is done (no open item left) with labels:
 * {@link nextCommand}. A queue left part-way says how to resume instead
 * (the terminal flow, or the stopped server): calibrating 4 labels of 60
 * is not the next step.
 */
function writeNext(session: ReviewSession, flags: ReviewFlags): void {
  const c = session.counts();
  if (c.labelled === 0 || c.open > 0) return;
  process.stdout.write(`Next: measure the judge against these labels:\n  ${nextCommand(flags)}\n`);
}
