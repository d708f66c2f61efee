/**
 * The honest labelling loop, as a person runs it, for tests that need
 * labels the trust gate counts: `ragjudge sample --random` records a draw,
 * and every queue entry is answered through the review session (the code
 * behind the review page and `review --tty`), so each label carries its
 * draw's id and the exact evidence shown.
 */
import { join } from "node:path";
import { expect } from "vitest";
import { evidenceKey } from "../../src/calibration/keys.js";
import { loadJsonl } from "../../src/golden/jsonl.js";
import { Judgment, type QueueEntry } from "../../src/golden/schema/items.js";
import { ReviewSession } from "../../src/review/session.js";
import { runCliCaptured } from "./cli.js";

/** What to sample and how to answer. */
export interface LabelLoop {
  config: string;
  dir: string;
  judgments: string;
  labels: string;
  rubrics: string;
  annotator?: string;
  random?: number;
  split?: string;
  seed?: number;
  /** The label for an entry, given the judge's verdict on it (default: agree with the judge). */
  answer?: (entry: QueueEntry, verdict: "yes" | "no" | "error" | undefined, index: number) => "yes" | "no" | "skip";
  /**
   * The labels' provenance (default `human`: these tests stand in for a person
   * answering the review page, whose labels the page writes as human; none of
   * them is shipped or reported as evidence). Pass `author` for the project's
   * own labels, which the gate never trusts.
   */
  provenance?: "human" | "author";
}

/**
 * Samples and labels; returns the queue, the review's output and how many were answered.
 *
 * @example
 * await labelRandomDraw({ config, dir, judgments, labels, rubrics: "correctness", split: "heldout" });
 */
export async function labelRandomDraw(o: LabelLoop): Promise<{ entries: QueueEntry[]; sampleOut: string; answered: number }> {
  const queue = join(o.dir, `queue-${o.rubrics.replace(/,/g, "-")}-${o.seed ?? 1}.jsonl`);
  const annotator = o.annotator ?? "test-author";
  const args = ["sample", "--config", o.config, "--judgments", o.judgments, "--labels", o.labels, "--annotator", annotator, "--random", String(o.random ?? 1000), "--rubrics", o.rubrics, "--seed", String(o.seed ?? 1), "--out", queue];
  if (o.split) args.push("--split", o.split);
  const s = await runCliCaptured(args);
  expect(s.code, s.err).toBe(0);
  const session = new ReviewSession({ queueFile: queue, rubricsDir: join(o.dir, "rubrics"), judgmentsFile: o.judgments, labelsDir: o.labels, annotator, provenance: o.provenance ?? "human" });
  const verdicts = new Map(loadJsonl(o.judgments, Judgment).filter((r) => r.value.repeat === 0).map((r) => [evidenceKey(r.value, r.value.inputHash), r.value.verdict]));
  let answered = 0;
  session.entries.forEach((e, i) => {
    const verdict = verdicts.get(evidenceKey(e.value, e.value.inputHash));
    const a = o.answer ? o.answer(e.value, verdict, i) : verdict === "no" ? "no" : "yes";
    if (a === "skip") session.skip(i, e.value.inputHash);
    else {
      session.answer(i, e.value.inputHash, a);
      answered++;
    }
  });
  return { entries: session.entries.map((e) => e.value), sampleOut: s.out, answered };
}
