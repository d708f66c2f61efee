/**
 * The worker thread of {@link startOutputLoad} (load-parallel.ts): streams
 * one pipeline output file's checked lines to the main thread in blocks as
 * it parses them (so this thread never holds the whole file's lines: the
 * main thread is building its own copy meanwhile), then posts the end: the
 * problems, or none.
 */
import { parentPort, workerData } from "node:worker_threads";
import { streamPipelineOutput } from "./dataset.js";
import { InputErrors } from "./errors.js";
import type { Located } from "./jsonl.js";
import type { OutputRows, OutputTask } from "./load-parallel.js";
import { ListEncoder } from "./ranked-codes.js";
import type { PipelineOutput } from "./schema/pipeline.js";
import { postedError } from "./worker.js";

/** Lines per message: a few dozen messages for a 50,000-line file, each small enough to leave the heap young. */
const BLOCK_ROWS = 1000;

const { file, golden } = workerData as OutputTask;
let block: Located<PipelineOutput>[] = [];
const encoder = new ListEncoder();
const send = () => {
  // the ranked lists go as numbers (ranked-codes.ts), numbered as the duplicate check saw them; the rest of each line as it is
  const retrieved = encoder.take();
  if (retrieved.lengths.length !== block.length) throw new Error(`output worker: ${retrieved.lengths.length} ranked lists numbered for ${block.length} lines`);
  for (const r of block) r.value.retrieved = [];
  const message: OutputRows = { rows: block, retrieved };
  parentPort!.postMessage(message, [retrieved.codes.buffer, retrieved.lengths.buffer]);
  block = [];
};
try {
  const problems = streamPipelineOutput(
    file,
    { file: golden.file, byId: new Set(golden.ids) },
    (rows) => {
      for (const r of rows) block.push(r);
      if (block.length >= BLOCK_ROWS) send();
    },
    (list) => encoder.add(list),
  );
  if (problems.length) parentPort!.postMessage({ error: postedError(new InputErrors(problems)) });
  else {
    if (block.length) send();
    parentPort!.postMessage({ done: true });
  }
} catch (e) {
  parentPort!.postMessage({ error: postedError(e) });
}
