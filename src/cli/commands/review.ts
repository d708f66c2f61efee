import type { Command } from "commander";
import { Option } from "commander";
import { loadConfig, resolveRubrics, type ResolvedConfig } from "../../golden/config.js";
import { existsSync } from "node:fs";
import { displayPath, InputError } from "../../golden/errors.js";
import { shellArg } from "../../report/next.js";
import { writeOutputFile } from "../../calibration/output.js";
import { itemQueue } from "../../review/item-queue.js";
import { startReviewServer } from "../../review/server.js";
import { provenanceNote, ReviewSession } from "../../review/session.js";
import { labelsFileOf } from "../../review/store.js";
import { runTtyReview } from "../../review/tty.js";
import { UsageError } from "../errors.js";

/** Default queue file, shared with `ragjudge sample --out`. */
export const DEFAULT_QUEUE = "review-queue.jsonl";

/** Where `--item` draws its one-item queue when no queue file is named. */
export const ITEM_QUEUE = "review-item-queue.jsonl";

interface ReviewFlags {
  annotator: string;
  tty?: boolean;
  provenance: "human" | "author";
  labels?: string;
  judgments?: string;
  rubricsDir?: string;
  port: string;
  config?: string;
  example?: boolean;
  item?: string;
}

/**
 * `ragjudge review [queue]`: label a review queue in a local web page (or,
 * with `--tty`, in the terminal). Paths default from the config; the config
 * is read only when a default is needed.
 */
export function registerReview(program: Command): void {
  program
    .command("review")
    .description("Label a review queue by hand: a local web page on 127.0.0.1 (or --tty in the terminal). Each label is saved to labels/<annotator>.jsonl before the next item shows; restarting resumes where you stopped.")
    .argument("[queue]", `review queue JSONL written by \`ragjudge sample\` (default: <cacheDir>/${DEFAULT_QUEUE}; with --item, where its queue is written, default <cacheDir>/${ITEM_QUEUE})`)
    .option("--item <variant/question[/rubric[/unit]]>", "review one item (every judged rubric and unit of that question, or the one named): drawn into a queue of its own in the manual frame, which the trust gate never counts; the HTML report's explorer shows this command for each item")
    .requiredOption("--annotator <name>", "who is labelling; labels go to <labels>/<name>.jsonl")
    .option("--tty", "review in the terminal instead of a web page (for remote shells)")
    .addOption(new Option("--provenance <kind>", "human, or author for the project's own example labels").choices(["human", "author"]).default("human"))
    .option("--labels <dir>", "labels folder (default: the config's labels)")
    .option("--judgments <file>", "judgments JSONL, to reveal the judge's verdict after you answer (default: <cacheDir>/judgments.jsonl)")
    .option("--rubrics-dir <dir>", "rubrics folder, for each rubric's yes/no question (default: the config's rubricsDir)")
    .option("--port <n>", "port on 127.0.0.1 (default: a free one)", "0")
    .option("--config <file>", "config file (default: ./ragjudge.config.json)")
    .action(async (queueArg: string | undefined, flags: ReviewFlags) => {
      let cfg: ResolvedConfig | undefined;
      const config = () => (cfg ??= loadConfig(flags.config));
      const cacheFile = (name: string) => config().outPath(`${config().config.cacheDir}/${name}`);
      if (!/^\d{1,5}$/.test(flags.port) || Number(flags.port) > 65535) throw new UsageError(`--port: expected a port number, got ${JSON.stringify(flags.port)}`);
      const queueFile = queueArg ?? cacheFile(flags.item !== undefined ? ITEM_QUEUE : DEFAULT_QUEUE);
      if (flags.item !== undefined) {
        const entries = itemQueue(config(), { item: flags.item, judgmentsFile: flags.judgments ?? cacheFile("judgments.jsonl") });
        writeOutputFile(queueFile, entries.map((e) => JSON.stringify(e) + "\n").join(""));
      } else if (!existsSync(queueFile)) {
        const cfgArgs = flags.example ? " --example" : flags.config ? ` --config ${shellArg(flags.config)}` : "";
        throw new InputError(queueFile, undefined, undefined, `no review queue: make one with \`ragjudge sample --random 20 --annotator ${shellArg(flags.annotator)}${cfgArgs}\` (after \`ragjudge run\`), then run this again`);
      }
      const labelsDir = flags.labels ?? config().path(config().config.labels);
      const session = new ReviewSession({
        queueFile,
        rubricsDir: flags.rubricsDir ?? resolveRubrics(config()).dir,
        judgmentsFile: flags.judgments ?? cacheFile("judgments.jsonl"),
        labelsDir,
        annotator: flags.annotator,
        provenance: flags.provenance,
      });
      const c = session.counts();
      if (c.total === 0) {
        process.stdout.write(`The review queue ${queueFile} is empty: nothing to review (run \`ragjudge sample\` to draw items).\n`);
        return;
      }
      const labelsFile = labelsFileOf(labelsDir, session.annotator, { create: false });
      process.stdout.write(`Reviewing ${c.total} items as ${session.annotator} (${c.labelled} labelled, ${c.skipped} skipped, ${c.open} to go); labels go to ${displayPath(labelsFile)} (${provenanceNote(session.provenance)})\n`);
      if (!session.hasJudgments) process.stdout.write("No judge verdicts found for these items: the page cannot reveal them after you answer.\n");

      if (flags.tty) {
        await runTtyReview(session, { input: process.stdin, output: process.stdout });
        return;
      }
      const server = await startReviewServer(session, { port: Number(flags.port) }).catch((e: NodeJS.ErrnoException) => {
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
    });
}
