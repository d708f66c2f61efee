import { statSync } from "node:fs";
import { InputError, InputErrors } from "../../golden/errors.js";
import { BOUNDS, requireWithin } from "../../golden/bounds.js";
import { computeValues, summarise, type Evaluation, type QueryValues } from "../evaluate.js";
import type { JudgedList, Measure } from "../measures/types.js";
import { readQrels, type Qrels } from "./qrels.js";
import { DuplicateDocError, RankScratch, judgeLines, judgeMissing } from "./rank.js";
import { locateDocLines, readRun, type TrecRun } from "./run.js";
import { MAX_PROBLEMS } from "./scan.js";
import { joinRanges, scoreRange, type JoinedRun } from "./stream.js";
import { lineRanges, scoreRangesInWorkers, threadsFor } from "./threads.js";

/** Options of a qrels + run evaluation, with trec_eval's flags as names. */
export interface TrecEvalOptions {
  measures: readonly Measure[];
  /**
   * Minimum grade that counts as relevant (trec_eval -l); default 1. nDCG uses grades and ignores it.
   * A whole number of 0 or more, as `-l` takes: another is refused with a RangeError (golden/bounds.ts).
   */
  level?: number;
  /**
   * trec_eval -c (default true): qrels queries missing from the run score 0
   * and count in every mean. false reproduces trec_eval 9.0.8 without -c,
   * which skips them.
   */
  complete?: boolean;
}

/** A trec_eval-style evaluation and what it left out. */
export interface TrecEvaluation extends Evaluation {
  level: number;
  complete: boolean;
  /** Qrels queries with no run line (scored 0 when complete, skipped otherwise). */
  missing: string[];
  /** Run queries absent from the qrels: ignored, as trec_eval ignores them. */
  runOnly: string[];
  /** Run lines with fields after the run tag (ignored). */
  extraFieldLines: number;
}

/**
 * The evaluation of a judged run: queries in byte order of their ids (the
 * qrels order), measures computed per query, summary means over the qrels
 * queries (every one when complete, else those in the run).
 */
function evaluationOf(qrels: Qrels, runFile: string, judged: Map<string, JudgedList>, runQids: readonly string[], extraFieldLines: number, options: TrecEvalOptions): TrecEvaluation {
  const level = options.level ?? 1;
  const complete = options.complete ?? true;
  const measures = [...options.measures];
  const rows: QueryValues[] = [];
  const missing: string[] = [];
  for (const q of qrels.queries) {
    const j = judged.get(q.qid);
    if (j === undefined) {
      missing.push(q.qid);
      if (complete) rows.push({ id: q.qid, values: computeValues(measures, judgeMissing(q, level)), missing: true });
      continue;
    }
    rows.push({ id: q.qid, values: computeValues(measures, j), missing: false });
  }
  // trec_eval stops here even with -c: a run sharing no query with the qrels is
  // almost always the wrong pair of files, not a run that scores 0.
  if (missing.length === qrels.queries.length) {
    throw new InputError(runFile, undefined, undefined, `no query of the run is in the qrels ${qrels.file} (trec_eval: "No queries with both results and relevance info")`);
  }
  const summary = summarise(measures, rows, complete ? { divisor: qrels.queries.length, numRelSummary: qrels.positiveLines } : {});
  const runOnly = runQids.filter((id) => !qrels.byQid.has(id));
  return { measures, queries: rows, summary, level, complete, missing, runOnly, extraFieldLines };
}

/** The error for a document listed twice for a query, naming both lines (found by a second read of the file). */
function duplicateError(file: string, qid: string, docno: string): InputError {
  const lines = locateDocLines(file, qid, docno);
  return new InputError(file, lines[1], "docno", `document ${JSON.stringify(docno)} appears twice for query ${JSON.stringify(qid)}${lines[0] ? ` (first on line ${lines[0]})` : ""}; trec_eval refuses duplicate documents too`);
}

/**
 * Evaluates a parsed run against parsed qrels exactly as trec_eval 10.0
 * does with `-q` (and `-c` unless `complete: false`): queries in byte order
 * of their ids, measures computed per query, summary means over the qrels
 * queries. The qrels and the run must share one DocTable.
 *
 * @example
 * const qrels = readQrels("qrels.txt");
 * const run = readRun("run.txt", qrels);
 * const ev = evaluateTrec(qrels, run, { measures: parseMeasures(["map", "P.5,10"], []) });
 */
export function evaluateTrec(qrels: Qrels, run: TrecRun, options: TrecEvalOptions): TrecEvaluation {
  if (run.judgedBy !== qrels) throw new Error("evaluateTrec: read the run with these qrels: readRun(file, qrels)");
  const level = requireWithin("level", options.level, BOUNDS.level) ?? 1;
  const scratch = new RankScratch();
  const judged = new Map<string, JudgedList>();
  for (const q of qrels.queries) {
    const qi = run.qidIndex.get(q.qid);
    if (qi === undefined) continue;
    try {
      judged.set(q.qid, judgeLines(run, run.segmentsOf[qi]!, q, level, scratch));
    } catch (e) {
      if (e instanceof DuplicateDocError) throw duplicateError(run.file, e.qid, e.docno);
      throw e;
    }
  }
  return evaluationOf(qrels, run.file, judged, run.qids, run.extraFieldLines, options);
}

/**
 * The evaluation of a run read range by range, or undefined when its
 * queries are not grouped (then the run must be read whole). Input problems
 * are thrown as trec_eval would stop on them: malformed lines first, then
 * the first query (in qrels order) listing a document twice.
 */
function evaluationOfJoined(qrels: Qrels, runFile: string, run: JoinedRun, options: TrecEvalOptions): TrecEvaluation | undefined {
  if (run.regrouped) return undefined;
  if (run.problems.length) throw new InputErrors(run.problems);
  if (run.bytes === 0 || run.dataLines === 0) throw new InputError(runFile, undefined, undefined, "file is empty (expected run lines: qid iter docno rank score run)");
  if (run.duplicates.length) {
    const rank = new Map(qrels.queries.map((q, i) => [q.qid, i]));
    const first = run.duplicates.reduce((a, b) => (rank.get(b.qid)! < rank.get(a.qid)! ? b : a));
    throw duplicateError(runFile, first.qid, first.docno);
  }
  return evaluationOf(qrels, runFile, run.judged, run.qids, run.extraFieldLines, options);
}

/** The run read whole ({@link readRun}) and evaluated: for runs whose queries are not grouped. */
function evaluateWhole(qrels: Qrels, runFile: string, options: TrecEvalOptions): TrecEvaluation {
  return evaluateTrec(qrels, readRun(runFile, qrels), options);
}

/**
 * Reads a qrels file and a run file and evaluates them ({@link evaluateTrec})
 * on this thread, keeping only one query's lines at a time when the run is
 * grouped by query (as runs are written), else reading it whole.
 */
export function evaluateTrecFiles(qrelsFile: string, runFile: string, options: TrecEvalOptions): TrecEvaluation {
  const level = requireWithin("level", options.level, BOUNDS.level) ?? 1;
  const qrels = readQrels(qrelsFile);
  const range = scoreRange({ runFile, from: 0, to: Infinity, level }, qrels);
  const joined = joinRanges(runFile, [range], qrels, level, MAX_PROBLEMS);
  return evaluationOfJoined(qrels, runFile, joined, options) ?? evaluateWhole(qrels, runFile, options);
}

/**
 * {@link evaluateTrecFiles} on every core: a large run is cut at line
 * boundaries into one byte range per thread; worker threads score their
 * ranges while this thread scores the first, with the qrels this thread
 * read, and the queries cut by a boundary are joined here. Small runs (where
 * starting a thread costs more than it saves) are scored on this thread.
 *
 * @param options.threads threads to use (default: by file size and the cores available)
 * @example
 * const ev = await scoreTrecFiles("qrels.txt", "run.txt", { measures: parseMeasures(["map"], []) });
 */
export async function scoreTrecFiles(qrelsFile: string, runFile: string, options: TrecEvalOptions & { threads?: number }): Promise<TrecEvaluation> {
  requireWithin("level", options.level, BOUNDS.level);
  let size = 0;
  try {
    size = statSync(runFile).size;
  } catch {
    // readQrels or the run reader reports a missing or unreadable file properly
  }
  const threads = options.threads ?? threadsFor(size);
  if (threads <= 1 || size === 0) return evaluateTrecFiles(qrelsFile, runFile, options);
  const level = options.level ?? 1;
  const ranges = lineRanges(runFile, size, threads);
  // the workers start first and boot while this thread reads the qrels; then each scores its range with a copy of them
  const others = scoreRangesInWorkers(ranges.slice(1).map(([from, to]) => ({ runFile, from, to, level })));
  let qrels: Qrels;
  let first;
  try {
    qrels = readQrels(qrelsFile);
    others.start(qrels);
    first = scoreRange({ runFile, from: ranges[0]![0], to: ranges[0]![1], level }, qrels);
  } catch (e) {
    others.cancel();
    throw e;
  }
  const rest = await others.results;
  const joined = joinRanges(runFile, [first, ...rest], qrels, level, MAX_PROBLEMS);
  return evaluationOfJoined(qrels, runFile, joined, options) ?? evaluateWhole(qrels, runFile, options);
}
