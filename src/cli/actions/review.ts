import { DEFAULT_QUEUE } from "../commands/review.js";
import { loadConfig, type ResolvedConfig } from "../../golden/config.js";
import { displayPath } from "../../golden/errors.js";
import { startReviewServer } from "../../review/server.js";
import { provenanceNote, ReviewSession } from "../../review/session.js";
import { labelsFileOf } from "../../review/store.js";
import { runTtyReview } from "../../review/tty.js";
import { UsageError } from "../errors.js";

export interface ReviewFlags {
  annotator: string;
  tty?: boolean;
  provenance: "human" | "author";
  labels?: string;
  judgments?: string;
  rubricsDir?: string;
  port: string;
  config?: string;
}

/** `ragjudge review`'s action (see commands/review.ts). */
export async function reviewAction(queueArg: string | undefined, flags: ReviewFlags): Promise<void> {
  let cfg: ResolvedConfig | undefined;
  const config = () => (cfg ??= loadConfig(flags.config));
  const cacheFile = (name: string) => config().path(`${config().config.cacheDir}/${name}`);
  if (!/^\d{1,5}$/.test(flags.port) || Number(flags.port) > 65535) throw new UsageError(`--port: expected a port number, got ${JSON.stringify(flags.port)}`);
  const queueFile = queueArg ?? cacheFile(DEFAULT_QUEUE);
  const labelsDir = flags.labels ?? config().path(config().config.labels);
  const session = new ReviewSession({
    queueFile,
    rubricsDir: flags.rubricsDir ?? config().path(config().config.rubricsDir),
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
  process.stdout.write(`Open ${server.url} in a browser. Ctrl+C (or Finish on the page) stops the server; every label is saved as you go.\n`);
  const stop = () => void server.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await server.closed;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  const d = session.counts();
  process.stdout.write(`Stopped: ${d.labelled} of ${d.total} labelled, ${d.skipped} skipped, ${d.open} to go.\n`);
}
