/**
 * A chunks file read by two threads: this one parses the first half of its
 * lines while a worker (chunks-worker.ts) parses the second, and the worker
 * sends back what the index keeps of each chunk (its id, document, heading
 * flag and line's place: a chunk reading its text back, chunk-text.ts),
 * columns of numbers and strings that cost little to copy. Texts the load
 * keeps ({@link WantedTexts}) come as chunks.
 *
 * Why: in golden-set mode with a small pipeline output, reading the chunks
 * file is the whole cost (100 questions over 500,000 chunks), and the second
 * core had nothing to do. Parsed chunks with their texts cost about what
 * parsing them does to copy between threads; the columns do not.
 *
 * The index is the one loadChunks builds: the same chunks in the same order,
 * the same duplicate check. A file with any problem in either half is read
 * again on this thread alone, so its messages are loadChunks' own.
 */
import { closeSync, readSync } from "node:fs";
import type { Worker } from "node:worker_threads";
import { ChunkReadingBack, ChunkTextSource } from "./chunk-text.js";
import { keepTextOf, loadChunks, readingBack, READ_BACK_MIN_BYTES, type WantedTexts } from "./dataset.js";
import { openRegular, type ByteRange } from "./files.js";
import { isKeptForNextLoad, streamJsonl, type Place } from "./jsonl.js";
import { chunkIndexer, type ChunkIndex } from "./relevance.js";
import { Chunk } from "./schema/golden.js";
import { fastChunk } from "./schema/golden.fast.js";
import { startWorker } from "./worker.js";

/** Chunks files below this size load on one thread: a worker costs about 0.1 s to start and load its code. */
export const CHUNKS_THREAD_MIN_BYTES = 32 << 20;

/** What the chunks worker is given. */
export interface ChunksTask {
  file: string;
  range: ByteRange;
  wanted: WantedTexts;
}

/**
 * The chunks of a worker's part, in file order: `kinds[i]` is 0 for a chunk
 * reading its text back (the next entry of the columns) and 1 for a kept
 * chunk (the next of `kept`); `lines[i]` its line, counted from the part's
 * start. Documents come as runs: `docs[j]` names the next `docRuns[j]`
 * chunks that read back.
 */
export interface ChunkColumns {
  kinds: Uint8Array;
  lines: Int32Array;
  ids: string[];
  docs: string[];
  docRuns: Int32Array;
  headed: Uint8Array;
  starts: Float64Array;
  ends: Float64Array;
  kept: Chunk[];
}

/** What the worker posts: its part's columns, or that its part has a problem (then this thread reads the whole file). */
export type ChunksReply = { columns: ChunkColumns } | { problems: true } | { failed: string };

/**
 * Loads a chunks file as {@link loadChunks} does, its second half parsed on
 * a worker thread when the file is large enough; the texts `wanted` names
 * are kept, the others read back when asked (a file below
 * READ_BACK_MIN_BYTES keeps every text, on one thread).
 *
 * @example
 * const index = await loadChunksOnTwoThreads("chunks.jsonl", wantedTexts(golden));
 */
export async function loadChunksOnTwoThreads(file: string, wanted: WantedTexts, minBytes = CHUNKS_THREAD_MIN_BYTES): Promise<ChunkIndex> {
  const keepText = keepTextOf(wanted);
  const here = () => loadChunks(file, { keepText });
  if (wanted.all || isKeptForNextLoad(file)) return here();
  const source = ChunkTextSource.before(file);
  const split = lineStartNear(file, minBytes);
  if (split === undefined) return here();
  let worker: Worker;
  try {
    const task: ChunksTask = { file, range: { from: split.at, to: split.size }, wanted };
    worker = startWorker(import.meta.url, "chunks-worker", task);
  } catch {
    return here();
  }
  const reply = new Promise<ChunksReply>((resolve) => {
    worker.once("message", resolve);
    worker.once("messageerror", () => resolve({ failed: "message" }));
    worker.once("error", (e) => resolve({ failed: e.message }));
    worker.once("exit", () => resolve({ failed: "exit" }));
  });
  try {
    const place = readingBack(file, Math.min(READ_BACK_MIN_BYTES, minBytes), keepText, source);
    const first = loadChunkRange(file, { from: 0, to: split.at }, place);
    if (!first) return here();
    const r = await reply;
    if (!("columns" in r)) return here();
    const index = joinColumns(first.indexer, r.columns, first.lines, source);
    // duplicates, or a file changed while the two read it: one thread's load words it
    if (index.byId.size < first.indexer.count || !source.unchanged()) return here();
    return index;
  } finally {
    void worker.terminate();
  }
}

/** The first part's chunks, indexed, and its line count; undefined when it has a problem (one thread's load words it). */
function loadChunkRange(file: string, range: ByteRange, place: Place<Chunk> | undefined): { indexer: ReturnType<typeof chunkIndexer>; lines: number } | undefined {
  const indexer = chunkIndexer();
  const counted = { lines: 0 };
  const problems = streamJsonl(file, Chunk, fastChunk, (rows) => {
    for (const r of rows) indexer.add(r.value);
  }, { ...(place ? { place } : {}), range, counted });
  return problems.length ? undefined : { indexer, lines: counted.lines };
}

/** Adds a worker's chunks to the index of the first part, their lines counted on from its `lines`. */
function joinColumns(indexer: ReturnType<typeof chunkIndexer>, c: ChunkColumns, lines: number, source: ChunkTextSource): ChunkIndex {
  let back = 0;
  let kept = 0;
  let run = 0;
  let left = c.docRuns[0] ?? 0;
  for (let i = 0; i < c.kinds.length; i++) {
    if (c.kinds[i] === 1) {
      indexer.add(c.kept[kept++]!);
      continue;
    }
    while (left === 0) left = c.docRuns[++run]!;
    left--;
    indexer.add(new ChunkReadingBack(c.ids[back]!, c.docs[run]!, c.headed[back] === 1, undefined, source, lines + c.lines[i]!, c.starts[back]!, c.ends[back]!) as Chunk);
    back++;
  }
  return indexer.index;
}

/** Where the two parts meet: the start of the first line at or after the middle of the file; undefined for a file too small, or one line. */
function lineStartNear(file: string, minBytes: number): { at: number; size: number } | undefined {
  let fd: number;
  let size: number;
  try {
    ({ fd, size } = openRegular(file));
  } catch {
    return undefined;
  }
  try {
    if (size < minBytes) return undefined;
    const buf = Buffer.allocUnsafe(64 << 10);
    for (let pos = Math.floor(size / 2); pos < size; pos += buf.length) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) return undefined;
      const nl = buf.subarray(0, n).indexOf(10);
      if (nl >= 0) return pos + nl + 1 < size ? { at: pos + nl + 1, size } : undefined;
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}
