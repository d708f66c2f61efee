import { InputError } from "../../golden/errors.js";
import type { JudgedList } from "../measures/types.js";
import { streamRange } from "./bytes.js";
import { LineStore, concatLines, type LineView } from "./lines.js";
import type { Qrels } from "./qrels.js";
import { DuplicateDocError, RankScratch, judgeLines } from "./rank.js";
import { RunScanner } from "./scan.js";

/** A part of a run file to score: bytes [from, to), starting and ending at line boundaries. */
export interface RangeTask {
  runFile: string;
  from: number;
  to: number;
  /** Minimum grade that counts as relevant (trec_eval -l). */
  level: number;
  chunkSize?: number;
}

/** The lines of one query segment, kept to be joined with the next range's first segment. */
export interface RawSegment {
  qid: string;
  lines: LineView;
}

/** An input problem of a range, its line counted from the range's first line. */
export interface RangeProblem {
  line: number | undefined;
  field: string | undefined;
  detail: string;
}

/** What scoring one range found (plain data, so a worker thread can post it). */
export interface RangeResult {
  bytes: number;
  /** Lines of any kind in the range (to number the next range's lines). */
  lines: number;
  dataLines: number;
  extraFieldLines: number;
  problems: RangeProblem[];
  /**
   * Every segment in file order. Inner segments of queries in the qrels
   * come judged; the first and the last may continue in the neighbouring
   * ranges, so they come as `head` and `tail` lines instead.
   */
  segments: { qid: string; judged?: JudgedList }[];
  head?: RawSegment;
  tail?: RawSegment;
  /** Documents listed twice for a query (trec_eval refuses such runs). */
  duplicates: { qid: string; docno: string }[];
  /** A query's lines were not contiguous: the range was given up, the caller reads the run whole instead. */
  regrouped: boolean;
}

/** Thrown inside {@link scoreRange} to stop reading once the run proves not grouped by query. */
class NotGrouped extends Error {}

/**
 * Scores the queries of one byte range of a run as it streams past, keeping
 * only the lines of the query being read: each query's lines are ranked and
 * judged when the next query begins, then dropped. Runs are written query
 * by query, so memory stays at one query's lines whatever the file size.
 * When a query's lines turn out to be split over the range, reading stops
 * with `regrouped` set (see {@link readRun} for such runs).
 */
export function scoreRange(task: RangeTask, qrels: Qrels): RangeResult {
  const store = new LineStore(4096);
  const scratch = new RankScratch();
  const segs = new Int32Array(2); // one segment, [start, end): the same array type as readRun's, so judgeLines sees one shape
  const result: RangeResult = { bytes: 0, lines: 0, dataLines: 0, extraFieldLines: 0, problems: [], segments: [], duplicates: [], regrouped: false };
  const seen = new Set<string>();
  let finishing = false;
  const scanner = new RunScanner(task.runFile, qrels, store, (qid, start, end) => {
    if (seen.has(qid)) {
      result.regrouped = true;
      throw new NotGrouped();
    }
    seen.add(qid);
    if (result.segments.length === 0 || finishing) {
      const raw = { qid, lines: store.slice(start, end) };
      if (result.segments.length === 0) result.head = raw;
      if (finishing) result.tail = raw;
      result.segments.push({ qid });
    } else {
      const q = qrels.byQid.get(qid);
      let judged: JudgedList | undefined;
      if (q) {
        try {
          segs[0] = start;
          segs[1] = end;
          judged = judgeLines(store, segs, q, task.level, scratch);
        } catch (e) {
          if (!(e instanceof DuplicateDocError)) throw e;
          result.duplicates.push({ qid: e.qid, docno: e.docno });
        }
      }
      result.segments.push({ qid, judged });
    }
    store.clear();
  });
  try {
    result.bytes = streamRange(task.runFile, task.from, task.to, (buf, start, end) => scanner.feed(buf, start, end), task.chunkSize);
    finishing = true;
    scanner.finish();
  } catch (e) {
    if (!(e instanceof NotGrouped)) throw e;
  }
  result.lines = scanner.lineNo;
  result.dataLines = scanner.dataLines;
  result.extraFieldLines = scanner.extraFieldLines;
  result.problems = scanner.problems.map((p) => ({ line: p.line, field: p.field, detail: p.detail }));
  return result;
}

/** The typed arrays a range result holds (to transfer rather than copy them to another thread). */
export function transferables(r: RangeResult): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const s of [r.head, r.tail]) {
    if (!s) continue;
    for (const a of Object.values(s.lines)) out.add((a as Uint8Array).buffer as ArrayBuffer);
  }
  return [...out];
}

/** A run read range by range: every query judged, and what the ranges counted. */
export interface JoinedRun {
  /** Judged lists of the run's queries that are in the qrels. */
  judged: Map<string, JudgedList>;
  /** Query ids in order of first appearance. */
  qids: string[];
  extraFieldLines: number;
  dataLines: number;
  bytes: number;
  problems: InputError[];
  duplicates: { qid: string; docno: string }[];
  /** The run is not grouped by query: read it whole instead. */
  regrouped: boolean;
}

/**
 * Joins the results of consecutive ranges of one run: a query cut by a range
 * boundary (the last segment of one range, the first of the next) is joined
 * and judged here; every other query was judged by its range. Problems get
 * their line numbers in the whole file (at most `maxProblems` are kept).
 */
export function joinRanges(file: string, results: RangeResult[], qrels: Qrels, level: number, maxProblems: number): JoinedRun {
  const out: JoinedRun = { judged: new Map(), qids: [], extraFieldLines: 0, dataLines: 0, bytes: 0, problems: [], duplicates: [], regrouped: false };
  const scratch = new RankScratch();
  const seen = new Set<string>();
  const record = (qid: string, judged: JudgedList | undefined) => {
    if (seen.has(qid)) out.regrouped = true;
    seen.add(qid);
    out.qids.push(qid);
    if (judged) out.judged.set(qid, judged);
  };
  const judgeRaw = (s: RawSegment) => {
    const q = qrels.byQid.get(s.qid);
    let judged: JudgedList | undefined;
    if (q) {
      try {
        judged = judgeLines(LineStore.of(s.lines), Int32Array.of(0, s.lines.scores.length), q, level, scratch);
      } catch (e) {
        if (!(e instanceof DuplicateDocError)) throw e;
        out.duplicates.push({ qid: e.qid, docno: e.docno });
      }
    }
    record(s.qid, judged);
  };
  let open: RawSegment | undefined;
  let lineBase = 0;
  for (const r of results) {
    out.extraFieldLines += r.extraFieldLines;
    out.dataLines += r.dataLines;
    out.bytes += r.bytes;
    out.duplicates.push(...r.duplicates);
    if (r.regrouped) out.regrouped = true;
    for (const p of r.problems) {
      if (out.problems.length < maxProblems) out.problems.push(new InputError(file, p.line === undefined ? undefined : p.line + lineBase, p.field, p.detail));
    }
    lineBase += r.lines;
    const last = r.segments.length - 1;
    r.segments.forEach((seg, i) => {
      if (i === 0) {
        let head = r.head!;
        if (open && open.qid === head.qid) head = { qid: head.qid, lines: concatLines(open.lines, head.lines) };
        else if (open) judgeRaw(open);
        open = undefined;
        if (last === 0) open = head;
        else judgeRaw(head);
      } else if (i === last) open = r.tail;
      else record(seg.qid, seg.judged);
    });
  }
  if (open) judgeRaw(open);
  return out;
}
