/**
 * A worker thread of the baseline judge (baseline-threads.ts): takes batches
 * of `[rubric, evidence]` calls and answers each with the same
 * {@link baselineOutcome} the main thread would give, or with what it threw,
 * as data (the main thread then fails that call with the same error, see
 * golden/worker.ts sameError).
 */
import { parentPort } from "node:worker_threads";
import type { Evidence } from "../../golden/schema/items.js";
import { postedError, type PostedError } from "../../golden/worker.js";
import { baselineOutcome, type BaselineOutcome } from "./baseline-outcome.js";

/** A batch of calls, sent by the main thread. */
export interface BatchMessage {
  id: number;
  calls: [rubric: string, evidence: Evidence][];
}

/** The answers to one batch, in its order: an outcome, or what judging threw. */
export interface ReplyMessage {
  id: number;
  out: ({ ok: BaselineOutcome } | { thrown: PostedError })[];
}

const port = parentPort;
if (port) {
  port.on("message", (m: BatchMessage) => {
    const out: ReplyMessage["out"] = m.calls.map(([rubric, evidence]) => {
      try {
        return { ok: baselineOutcome(rubric, evidence) };
      } catch (e) {
        return { thrown: postedError(e) };
      }
    });
    port.postMessage({ id: m.id, out } satisfies ReplyMessage);
  });
  port.postMessage("ready");
}
