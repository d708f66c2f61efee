import type { KeyTable } from "./keytable.js";
import type { Qrels, QrelsQuery } from "./qrels.js";

/**
 * Qrels posted to worker threads (threads.ts, worker.ts): read once on the
 * main thread, packed into a few flat arrays, rebuilt as views on the other
 * side.
 */

/**
 * Qrels as a few flat arrays (what {@link readQrels} builds them from) and
 * the queries' places in them: cheap to post to a worker thread, where
 * posting the {@link Qrels} objects themselves (thousands of small objects
 * and views) costs more than parsing the file again.
 */
export interface PackedQrels {
  file: string;
  lines: number;
  positiveLines: number;
  qids: string[];
  /** Per query, in `qids` order: first entry, entry count, first slot, slot count, first ideal gain, ideal gain count. */
  at: Int32Array;
  /** Every query's ideal gains, one after the other. */
  ideal: Float64Array;
  arena: Uint8Array;
  starts: Uint32Array;
  lens: Uint32Array;
  hashes: Int32Array;
  grades: Int32Array;
  slots: Int32Array;
}

/** Whole-buffer views of the typed array `a` is a view of. */
const whole = <T extends Int32Array | Uint32Array>(a: T): T => new (a.constructor as new (b: ArrayBufferLike) => T)(a.buffer);

/** {@link PackedQrels} of qrels read by {@link readQrels} (their tables share arrays), or undefined for qrels made otherwise. */
export function packQrels(q: Qrels): PackedQrels | undefined {
  const first = q.queries[0];
  if (!first) return undefined;
  const d0 = first.docs;
  const shared = (x: QrelsQuery) => x.docs.arena === d0.arena && x.docs.starts.buffer === d0.starts.buffer && x.docs.lens.buffer === d0.lens.buffer && x.docs.hashes.buffer === d0.hashes.buffer && x.grades.buffer === first.grades.buffer && x.docs.slots.buffer === d0.slots.buffer;
  if (!q.queries.every(shared)) return undefined;
  const at = new Int32Array(q.queries.length * 6);
  let gains = 0;
  for (const x of q.queries) gains += x.idealGains.length;
  const ideal = new Float64Array(gains);
  gains = 0;
  q.queries.forEach((x, i) => {
    at[i * 6] = x.docs.starts.byteOffset >> 2;
    at[i * 6 + 1] = x.docs.count;
    at[i * 6 + 2] = x.docs.slots.byteOffset >> 2;
    at[i * 6 + 3] = x.docs.slots.length;
    at[i * 6 + 4] = gains;
    at[i * 6 + 5] = x.idealGains.length;
    ideal.set(x.idealGains, gains);
    gains += x.idealGains.length;
  });
  return { file: q.file, lines: q.lines, positiveLines: q.positiveLines, qids: q.queries.map((x) => x.qid), at, ideal, arena: d0.arena, starts: whole(d0.starts), lens: whole(d0.lens), hashes: whole(d0.hashes), grades: whole(first.grades), slots: whole(d0.slots) };
}

/** The {@link Qrels} a {@link PackedQrels} holds (views of its arrays, in its query order). */
export function unpackQrels(p: PackedQrels): Qrels {
  const { arena, starts, lens, hashes, grades, slots, at, ideal } = p;
  const queries: QrelsQuery[] = p.qids.map((qid, i) => {
    const b = at[i * 6]!;
    const e = b + at[i * 6 + 1]!;
    const s0 = at[i * 6 + 2]!;
    const sn = at[i * 6 + 3]!;
    const g0 = at[i * 6 + 4]!;
    const docs: KeyTable = { arena, starts: starts.subarray(b, e), lens: lens.subarray(b, e), hashes: hashes.subarray(b, e), slots: slots.subarray(s0, s0 + sn), mask: sn - 1, count: e - b };
    return { qid, docs, grades: grades.subarray(b, e), idealGains: ideal.subarray(g0, g0 + at[i * 6 + 5]!) };
  });
  return { file: p.file, queries, byQid: new Map(queries.map((q) => [q.qid, q])), positiveLines: p.positiveLines, lines: p.lines };
}
