import type { JudgedList, Measure } from "./measures/types.js";

/** One query's values, aligned with the measure list they were computed for. */
export interface QueryValues {
  id: string;
  values: Float64Array;
  /** True when the query had no ranked list at all (no run lines / no pipeline output line): it scores 0. */
  missing: boolean;
}

/** Per-query values and the summary of one evaluation, in trec_eval's order. */
export interface Evaluation {
  measures: Measure[];
  /** Queries in trec_eval's order (id by byte order). */
  queries: QueryValues[];
  /** Summary value per measure: means, sums and the query count. */
  summary: Float64Array;
}

/** Every measure's value for one judged list. */
export function computeValues(measures: readonly Measure[], j: JudgedList): Float64Array {
  const out = new Float64Array(measures.length);
  for (let m = 0; m < measures.length; m++) out[m] = measures[m]!.def.compute(j, measures[m]!.k);
  return out;
}

/**
 * Summarises per-query values the way trec_eval does: means are sums in
 * query order divided by `divisor` (with complete averaging, every qrels
 * query counts), counts are sums, `num_q` is the number of queries, and
 * `num_rel` may be overridden (trec_eval -c reports the qrels' positive lines).
 */
export function summarise(
  measures: readonly Measure[],
  rows: readonly QueryValues[],
  options: { divisor?: number; numRelSummary?: number } = {},
): Float64Array {
  const divisor = options.divisor ?? rows.length;
  const out = new Float64Array(measures.length);
  for (let m = 0; m < measures.length; m++) {
    const agg = measures[m]!.def.aggregation;
    if (agg === "count") {
      out[m] = rows.length;
      continue;
    }
    if (agg === "sum" && measures[m]!.def.family === "num_rel" && options.numRelSummary !== undefined) {
      out[m] = options.numRelSummary;
      continue;
    }
    let sum = 0;
    for (const r of rows) sum += r.values[m]!;
    out[m] = agg === "mean" && divisor > 0 ? sum / divisor : sum;
  }
  return out;
}
