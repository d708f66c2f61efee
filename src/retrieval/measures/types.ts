/**
 * One query's ranked list reduced to what every measure needs: trec_eval's
 * "res_rels". Sparse on purpose: a run line that is not relevant carries no
 * information beyond being counted in `numRet`, so a 1,000-document list with
 * 5 relevant documents is 5 numbers, not 1,000.
 *
 * Built from a TREC run and qrels by `judgeQuery` (trec/rank.ts) or from a
 * pipeline output and golden relevance by `judgeList` (judged.ts).
 *
 * @example
 * // ranked d3 d8 d1 d6 d2, relevant {d1, d2, d5} (the seed's worked example)
 * { numRet: 5, numRel: 3, relRanks: [3, 5], gainRanks: [3, 5], gains: [1, 1], idealGains: [1, 1, 1] }
 */
export interface JudgedList {
  /** Documents retrieved (after ranking; 0 for a query with no run lines). */
  numRet: number;
  /** Documents judged relevant for the query (grade >= the relevance level). */
  numRel: number;
  /** 1-based ranks, ascending, of the retrieved documents that are relevant (grade >= level). */
  relRanks: ArrayLike<number>;
  /** 1-based ranks, ascending, of the retrieved documents with a positive grade (nDCG gains). */
  gainRanks: ArrayLike<number>;
  /** The grade of each document in `gainRanks`, aligned with it. */
  gains: ArrayLike<number>;
  /** Positive grades of every judged document of the query, descending: the ideal ranking's gains. */
  idealGains: ArrayLike<number>;
}

/** How a measure's per-query values become one summary figure. */
export type Aggregation = "mean" | "sum" | "count";

/**
 * One measure family, registered once (trec_eval style): its name as IR
 * people write it, trec_eval's name, what it means and where the definition
 * comes from, whether it takes a cutoff, and its one compute function.
 */
export interface MeasureDef {
  /** Display form with `k` for the cutoff: "P@k", "RR", "nDCG@k". */
  name: string;
  /** Family key used in parsing and output ("P", "R", "nDCG", "RR", "RR@", "AP", "R-Prec", "Hit", "num_ret"...). */
  family: string;
  /** trec_eval's measure name ("P", "recall", "ndcg_cut", "map"...), or undefined when trec_eval has none. */
  trecName: string | undefined;
  /** Whether the measure takes a cutoff k. */
  cutoff: boolean;
  aggregation: Aggregation;
  /** One user-facing sentence or two: what the number says. */
  explanation: string;
  /** Where the definition comes from (trec_eval, Järvelin & Kekäläinen 2002, seed 000...). */
  source: string;
  /** Position in trec_eval's measure table, which fixes output order. */
  order: number;
  /** Pure: the measure's value for one query (k is 0 for measures without a cutoff). */
  compute(j: JudgedList, k: number): number;
}

/** A measure with its cutoff applied: "P@5" is P@k with k = 5. */
export interface Measure {
  def: MeasureDef;
  /** The cutoff, or 0 when the family has none. */
  k: number;
  /** "P@5", "RR", "nDCG@10". */
  label: string;
  /** trec_eval's output name ("P_5", "recip_rank", "ndcg_cut_10"), or undefined. */
  trecLabel: string | undefined;
}
