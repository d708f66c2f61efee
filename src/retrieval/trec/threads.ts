import { closeSync, openSync, readSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { rebuiltError, startWorker, type PostedError } from "../../golden/worker.js";
import { packQrels } from "./qrels-pack.js";
import type { Qrels } from "./qrels.js";
import type { RangeResult, RangeTask } from "./stream.js";

/**
 * Runs below this size are scored on one thread: a worker thread takes
 * about 40 ms and 12 MiB to start, which pays off only for runs of some
 * million lines (at about 33 bytes a line).
 */
export const PARALLEL_MIN_BYTES = 48 << 20;
/** At most this many threads, however many cores there are (the read, not the CPU, limits beyond). */
const MAX_THREADS = 8;

/** Threads worth using for a run of `bytes`: one per core for a large run, one for a small one. */
export function threadsFor(bytes: number): number {
  if (bytes < PARALLEL_MIN_BYTES) return 1;
  return Math.max(1, Math.min(MAX_THREADS, availableParallelism(), Math.floor(bytes / (PARALLEL_MIN_BYTES / 2))));
}

/**
 * Cuts a file of `size` bytes into about `parts` ranges [from, to) of equal
 * size, each starting at the beginning of a line and ending just after a
 * newline (the last one at the end of the file). Fewer ranges come back
 * when a line is longer than a range.
 */
export function lineRanges(file: string, size: number, parts: number): [number, number][] {
  const cuts = [0];
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.allocUnsafe(64 << 10);
    for (let k = 1; k < parts; k++) {
      let pos = Math.max(cuts.at(-1)!, Math.floor((size * k) / parts));
      let cut = -1;
      while (pos < size) {
        const n = readSync(fd, buf, 0, buf.length, pos);
        if (n <= 0) break;
        const nl = buf.subarray(0, n).indexOf(10);
        if (nl >= 0) {
          cut = pos + nl + 1;
          break;
        }
        pos += n;
      }
      if (cut < 0 || cut >= size) break;
      if (cut > cuts.at(-1)!) cuts.push(cut);
    }
  } finally {
    closeSync(fd);
  }
  return cuts.map((from, i) => [from, i + 1 < cuts.length ? cuts[i + 1]! : Infinity]);
}

/**
 * Scores each range in a worker thread of its own (worker.ts: it
 * {@link scoreRange}s its range once `start` has handed it the qrels). The
 * workers are started at once, so that they boot while this thread reads
 * the qrels: one parse serves every thread (a copy is posted to each),
 * where each thread reading the file itself would parse it once per core.
 * `results` resolves in the tasks' order; a worker's input problem rejects
 * it as the same input error. `cancel` stops every worker.
 */
export function scoreRangesInWorkers(tasks: RangeTask[]): { start: (qrels: Qrels) => void; results: Promise<RangeResult[]>; cancel: () => void } {
  const workers = tasks.map((task) => startWorker(import.meta.url, "worker", { task }));
  const one = (w: Worker) =>
    new Promise<RangeResult>((resolve, reject) => {
      w.once("message", (m: { result?: RangeResult; error?: PostedError }) => (m.error ? reject(rebuiltError(m.error)) : resolve(m.result!)));
      w.once("error", reject);
      w.once("exit", (code) => reject(new Error(`worker thread exited (${code}) before it answered`)));
    });
  const results = Promise.all(workers.map(one));
  results.catch(() => workers.forEach((w) => void w.terminate()));
  const start = (qrels: Qrels) => {
    const message = packQrels(qrels) ?? qrels;
    for (const w of workers) w.postMessage(message);
  };
  return { start, results, cancel: () => workers.forEach((w) => void w.terminate()) };
}
