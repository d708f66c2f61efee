/**
 * A worker thread of `scoreTrecFiles` (threads.ts): waits for the qrels the
 * main thread read (one parse for every thread), scores one byte range of
 * the run and posts the result (or the error as data).
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Qrels } from "./qrels.js";
import { unpackQrels, type PackedQrels } from "./qrels-pack.js";
import { scoreRange, transferables, type RangeTask } from "./stream.js";
import { postedError } from "../../golden/worker.js";

const { task } = workerData as { task: RangeTask };
parentPort!.once("message", (message: PackedQrels | Qrels) => {
  try {
    const qrels = "at" in message ? unpackQrels(message) : message;
    const result = scoreRange(task, qrels);
    parentPort!.postMessage({ result }, transferables(result));
  } catch (e) {
    parentPort!.postMessage({ error: postedError(e) });
  }
});
