import { statSync } from "node:fs";
import { InputError, InputErrors } from "../../golden/errors.js";
import { streamLines, text } from "./bytes.js";
import { isBlank, isComment, splitFields } from "./fields.js";
import { LineStore, type LineView } from "./lines.js";
import type { Qrels } from "./qrels.js";
import { docnoAt } from "./rank.js";
import { RunScanner } from "./scan.js";

export { NONPOOL, UNJUDGED } from "./scan.js";

/**
 * A parsed TREC run, stored compactly in flat typed arrays ({@link LineView}:
 * per line its score, its grade looked up while parsing, its docno's hash and
 * bytes). Runs of consecutive lines of one query are segments; a file
 * grouped by query has one segment per query.
 */
export interface TrecRun extends LineView {
  file: string;
  /** Query ids by query index, in order of first appearance. */
  qids: string[];
  qidIndex: Map<string, number>;
  /** Segment list per query index: flat [start, end) line-index pairs. */
  segmentsOf: Int32Array[];
  /** Data lines read (comments and blank lines excluded). */
  lines: number;
  /** The run tag of the first line (trec_eval keeps the last one; they are normally all equal). */
  runTag: string;
  /** Lines with fields after the run tag, which trec_eval ignores and so do we (a counted warning). */
  extraFieldLines: number;
  /** The qrels the grades were looked up in (undefined: every grade is NONPOOL). */
  judgedBy: Qrels | undefined;
}

/** The docno of run line `i` as text. */
export function docnoOf(run: TrecRun, i: number): string {
  return docnoAt(run, i);
}

/**
 * Reads a whole TREC run file into memory ({@link RunScanner} parses it):
 * every line is kept, so queries may be split over the file in any order.
 * `ragjudge retrieval` scores runs without keeping them (`scoreTrecFiles`);
 * this is the library's way to look at a run, and the fallback for runs
 * whose queries are not grouped.
 *
 * @example
 * const qrels = readQrels("qrels.txt");
 * const run = readRun("run.txt", qrels); // grades looked up while parsing
 */
export function readRun(file: string, qrels?: Qrels, options: { chunkSize?: number } = {}): TrecRun {
  let fileSize = 0;
  try {
    fileSize = statSync(file).size;
  } catch {
    // streamLines reports a missing or unreadable file properly
  }
  const store = new LineStore(1 << 16);
  const qids: string[] = [];
  const qidIndex = new Map<string, number>();
  const segs: number[][] = [];
  const scanner = new RunScanner(file, qrels, store, (qid, start, end) => {
    let qi = qidIndex.get(qid);
    if (qi === undefined) {
      qidIndex.set(qid, (qi = qids.length));
      qids.push(qid);
      segs.push([]);
    }
    segs[qi]!.push(start, end);
  });
  let bytesSeen = 0;
  const size = streamLines(
    file,
    (buf, start, end) => {
      const first = bytesSeen === 0;
      scanner.feed(buf, start, end);
      bytesSeen += end - start;
      // size the arrays for the whole file from the first chunk, so they are copied once or never
      if (first && store.n >= 1000 && bytesSeen < fileSize) {
        const lines = Math.ceil((fileSize / bytesSeen) * store.n * 1.03) + 1024;
        store.reserve(lines, Math.min(0xffffffff, Math.ceil((store.used / store.n) * lines * 1.03) + 4096));
      }
    },
    options.chunkSize,
  );
  scanner.finish();
  if (scanner.problems.length) throw new InputErrors(scanner.problems);
  const n = store.n;
  if (size === 0 || n === 0) throw new InputError(file, undefined, undefined, "file is empty (expected run lines: qid iter docno rank score run)");
  return {
    file,
    qids,
    qidIndex,
    segmentsOf: segs.map((x) => Int32Array.from(x)),
    scores: store.scores.subarray(0, n),
    grades: store.grades.subarray(0, n),
    hashes: store.hashes.subarray(0, n),
    arena: store.arena.subarray(0, store.used),
    docStart: store.docStart.subarray(0, n),
    docLen: store.docLen.subarray(0, n),
    lines: n,
    runTag: scanner.runTag ?? "",
    extraFieldLines: scanner.extraFieldLines,
    judgedBy: qrels,
  };
}

/**
 * Finds the lines of a query that name a docno, for error messages only
 * (a slow second pass, run when a duplicate has been found).
 */
export function locateDocLines(file: string, qid: string, docno: string): number[] {
  const out: number[] = [];
  const f = new Int32Array(12);
  let lineNo = 0;
  streamLines(file, (buf, start, end) => {
    let s = start;
    while (s < end) {
      const e = buf.indexOf(10, s);
      lineNo++;
      if (!isBlank(buf, s, e) && !isComment(buf, s, e) && splitFields(buf, s, e, f, 3) >= 3) {
        if (text(buf, f[0]!, f[1]!) === qid && text(buf, f[4]!, f[5]!) === docno) out.push(lineNo);
      }
      s = e + 1;
    }
  });
  return out;
}
