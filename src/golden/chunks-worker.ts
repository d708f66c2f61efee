/**
 * The worker thread of {@link loadChunksOnTwoThreads} (chunks-parallel.ts):
 * parses its part of a chunks file as loadChunks parses a whole one, and
 * posts what the index keeps of each chunk as columns ({@link ChunkColumns}),
 * or that the part has a problem.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { ChunkColumns, ChunksReply, ChunksTask } from "./chunks-parallel.js";
import { keepTextOf } from "./dataset.js";
import { streamJsonl } from "./jsonl.js";
import { Chunk } from "./schema/golden.js";
import { fastChunk } from "./schema/golden.fast.js";

const { file, range, wanted } = workerData as ChunksTask;
const post = (reply: ChunksReply, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(reply, transfer);

try {
  const keep = keepTextOf(wanted);
  const kinds: number[] = [];
  const lines: number[] = [];
  const ids: string[] = [];
  const docs: string[] = [];
  const docRuns: number[] = [];
  const headed: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const kept: Chunk[] = [];
  // A chunk that reads its text back is written to the columns as it is placed; the row carries this mark.
  const READ_BACK = { id: "", doc: "", text: "" } as Chunk;
  const problems = streamJsonl(file, Chunk, fastChunk, (rows) => {
    for (const r of rows) {
      lines.push(r.line);
      if (r.value === READ_BACK) kinds.push(0);
      else {
        kinds.push(1);
        kept.push(r.value);
      }
    }
  }, {
    range,
    place: (c, _line, bytes) => {
      if (!bytes || c.meta !== undefined || keep(c)) return c;
      ids.push(c.id);
      if (docs.length > 0 && docs[docs.length - 1] === c.doc) docRuns[docRuns.length - 1]!++;
      else {
        docs.push(c.doc);
        docRuns.push(1);
      }
      headed.push(c.heading !== undefined ? 1 : 0);
      starts.push(bytes.start);
      ends.push(bytes.end);
      return READ_BACK;
    },
  });
  if (problems.length) post({ problems: true });
  else {
    const columns: ChunkColumns = {
      kinds: Uint8Array.from(kinds),
      lines: Int32Array.from(lines),
      ids,
      docs,
      docRuns: Int32Array.from(docRuns),
      headed: Uint8Array.from(headed),
      starts: Float64Array.from(starts),
      ends: Float64Array.from(ends),
      kept,
    };
    post({ columns }, [columns.kinds.buffer, columns.lines.buffer, columns.docRuns.buffer, columns.headed.buffer, columns.starts.buffer, columns.ends.buffer] as ArrayBuffer[]);
  }
} catch (e) {
  post({ failed: (e as Error)?.message ?? String(e) });
}
