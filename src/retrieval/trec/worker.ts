/**
 * A worker thread of `scoreTrecFiles` (threads.ts): reads the qrels, scores
 * one byte range of the run and posts the result (or the error as data).
 */
import { parentPort, workerData } from "node:worker_threads";
import { readQrels } from "./qrels.js";
import { scoreRange, transferables, type RangeTask } from "./stream.js";
import { postedError } from "./threads.js";

const { qrelsFile, task } = workerData as { qrelsFile: string; task: RangeTask };
try {
  const result = scoreRange(task, readQrels(qrelsFile));
  parentPort!.postMessage({ result }, transferables(result));
} catch (e) {
  parentPort!.postMessage({ error: postedError(e) });
}
