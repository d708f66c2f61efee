import { InputError } from "../../golden/errors.js";
import { computeValues, summarise, type Evaluation, type QueryValues } from "../evaluate.js";
import type { Measure } from "../measures/types.js";
import { readQrels, type Qrels } from "./qrels.js";
import { DuplicateDocError, RankScratch, judgeMissing, judgeQuery } from "./rank.js";
import { locateDocLines, readRun, type TrecRun } from "./run.js";

/** Options of a qrels + run evaluation, with trec_eval's flags as names. */
export interface TrecEvalOptions {
  measures: readonly Measure[];
  /** Minimum grade that counts as relevant (trec_eval -l); default 1. nDCG uses grades and ignores it. */
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
  const level = options.level ?? 1;
  const complete = options.complete ?? true;
  const measures = [...options.measures];
  const scratch = new RankScratch();
  const rows: QueryValues[] = [];
  const missing: string[] = [];
  for (const q of qrels.queries) {
    const qi = run.qidIndex.get(q.qid);
    if (qi === undefined) {
      missing.push(q.qid);
      if (complete) rows.push({ id: q.qid, values: computeValues(measures, judgeMissing(q, level)), missing: true });
      continue;
    }
    let judged;
    try {
      judged = judgeQuery(run, qi, q, level, scratch);
    } catch (e) {
      if (e instanceof DuplicateDocError) {
        const lines = locateDocLines(run.file, e.qid, e.docno);
        throw new InputError(run.file, lines[1], "docno", `document ${JSON.stringify(e.docno)} appears twice for query ${JSON.stringify(e.qid)}${lines[0] ? ` (first on line ${lines[0]})` : ""}; trec_eval refuses duplicate documents too`);
      }
      throw e;
    }
    rows.push({ id: q.qid, values: computeValues(measures, judged), missing: false });
  }
  // trec_eval stops here even with -c: a run sharing no query with the qrels is
  // almost always the wrong pair of files, not a run that scores 0.
  if (missing.length === qrels.queries.length) {
    throw new InputError(run.file, undefined, undefined, `no query of the run is in the qrels ${qrels.file} (trec_eval: "No queries with both results and relevance info")`);
  }
  const summary = summarise(measures, rows, complete ? { divisor: qrels.queries.length, numRelSummary: qrels.positiveLines } : {});
  const runOnly = run.qids.filter((id) => !qrels.byQid.has(id));
  return { measures, queries: rows, summary, level, complete, missing, runOnly, extraFieldLines: run.extraFieldLines };
}

/** Reads a qrels file and a run file and evaluates them ({@link evaluateTrec}). */
export function evaluateTrecFiles(qrelsFile: string, runFile: string, options: TrecEvalOptions): TrecEvaluation {
  const qrels = readQrels(qrelsFile);
  const run = readRun(runFile, qrels);
  return evaluateTrec(qrels, run, options);
}
