import type { JudgedList, MeasureDef } from "./types.js";

/** Relevant documents among the top k (relRanks is ascending). */
function relInTop(j: JudgedList, k: number): number {
  const r = j.relRanks;
  let n = 0;
  while (n < r.length && r[n]! <= k) n++;
  return n;
}

/**
 * nDCG at k with trec_eval's ndcg_cut arithmetic: gain = grade, discount
 * log2(rank + 1), the ideal over the min(k, judged positive) best grades, and
 * 0 when the ideal is 0. Summation order matches trec_eval's so values agree
 * to the last bit.
 */
function ndcgAt(j: JudgedList, k: number): number {
  let dcg = 0;
  const ranks = j.gainRanks;
  const gains = j.gains;
  for (let i = 0; i < ranks.length; i++) {
    const rank = ranks[i]!;
    if (rank > k) break;
    dcg += rank === 1 ? gains[i]! : gains[i]! / Math.log2(rank + 1);
  }
  const ideal = j.idealGains;
  const n = Math.min(k, ideal.length);
  let idcg = 0;
  for (let i = 0; i < n; i++) idcg += i === 0 ? ideal[i]! : ideal[i]! / Math.log2(i + 2);
  return idcg > 0 ? dcg / idcg : dcg;
}

const TREC = "trec_eval 10.0";

/**
 * Every measure ragjudge computes, in trec_eval's measure-table order (which
 * is the order of `--format trec` output). Each is defined once here; help
 * text, parsing, output and tests all read this list, so documentation cannot
 * drift from the arithmetic.
 */
export const MEASURES: readonly MeasureDef[] = [
  {
    name: "num_q", family: "num_q", trecName: "num_q", cutoff: false, aggregation: "count", order: 0,
    explanation: "Number of queries in the summary (printed only in the summary line).",
    source: TREC,
    compute: () => 1,
  },
  {
    name: "num_ret", family: "num_ret", trecName: "num_ret", cutoff: false, aggregation: "sum", order: 1,
    explanation: "Documents retrieved for the query; the summary is the sum.",
    source: TREC,
    compute: (j) => j.numRet,
  },
  {
    name: "num_rel", family: "num_rel", trecName: "num_rel", cutoff: false, aggregation: "sum", order: 2,
    explanation: "Relevant documents for the query (grade >= the relevance level); the summary is the sum (with complete averaging, trec_eval's count of qrels lines with a positive grade).",
    source: TREC,
    compute: (j) => j.numRel,
  },
  {
    name: "num_rel_ret", family: "num_rel_ret", trecName: "num_rel_ret", cutoff: false, aggregation: "sum", order: 3,
    explanation: "Relevant documents retrieved; the summary is the sum.",
    source: TREC,
    compute: (j) => j.relRanks.length,
  },
  {
    name: "AP", family: "AP", trecName: "map", cutoff: false, aggregation: "mean", order: 4,
    explanation: "Average precision: the precision at the rank of each relevant document retrieved, summed and divided by the number relevant (MAP when averaged).",
    source: `${TREC}; Buckley & Voorhees 2005`,
    compute: (j) => {
      const r = j.relRanks;
      if (r.length === 0) return 0;
      let sum = 0;
      for (let i = 0; i < r.length; i++) sum += (i + 1) / r[i]!;
      return sum / j.numRel;
    },
  },
  {
    name: "R-Prec", family: "R-Prec", trecName: "Rprec", cutoff: false, aggregation: "mean", order: 5,
    explanation: "Precision after R documents, R being the number relevant (the point where precision equals recall); 0 when R = 0.",
    source: TREC,
    compute: (j) => {
      const n = Math.min(j.numRet, j.numRel);
      return n === 0 ? 0 : relInTop(j, n) / j.numRel;
    },
  },
  {
    name: "RR", family: "RR", trecName: "recip_rank", cutoff: false, aggregation: "mean", order: 6,
    explanation: "Reciprocal rank of the first relevant document anywhere in the list, 0 when none is retrieved (MRR when averaged).",
    source: `${TREC} recip_rank (MRR when averaged)`,
    compute: (j) => (j.relRanks.length > 0 ? 1 / j.relRanks[0]! : 0),
  },
  {
    name: "RR@k", family: "RR@", trecName: undefined, cutoff: true, aggregation: "mean", order: 7,
    explanation: "Reciprocal rank of the first relevant document if it is in the top k, else 0 (trec_eval has no such measure).",
    source: "ragjudge's own: MRR cut at k (0 when none is in the top k), as retrieval write-ups often report it",
    compute: (j, k) => {
      const first = j.relRanks.length > 0 ? j.relRanks[0]! : Infinity;
      return first <= k ? 1 / first : 0;
    },
  },
  {
    name: "P@k", family: "P", trecName: "P", cutoff: true, aggregation: "mean", order: 8,
    explanation: "Precision at k: relevant documents in the top k divided by k, even when fewer than k were retrieved.",
    source: `${TREC} P`,
    compute: (j, k) => relInTop(j, k) / k,
  },
  {
    name: "R@k", family: "R", trecName: "recall", cutoff: true, aggregation: "mean", order: 9,
    explanation: "Recall at k: relevant documents in the top k divided by all relevant documents; 0 when there is none.",
    source: `${TREC} recall`,
    compute: (j, k) => (j.numRel === 0 ? 0 : relInTop(j, k) / j.numRel),
  },
  {
    name: "nDCG@k", family: "nDCG", trecName: "ndcg_cut", cutoff: true, aggregation: "mean", order: 10,
    explanation: "Normalised discounted cumulative gain at k: sum of grade / log2(rank + 1) over the top k, divided by the same sum for the ideal ranking over min(k, relevant) documents, so one relevant document at rank 1 scores 1.0. Grades from qrels (binary in golden-set mode); ignores the relevance level.",
    source: `Järvelin & Kekäläinen 2002 (ACM TOIS 20(4)); ${TREC} ndcg_cut`,
    compute: ndcgAt,
  },
  {
    name: "Hit@k", family: "Hit", trecName: "success", cutoff: true, aggregation: "mean", order: 11,
    explanation: "Hit rate (Success@k): 1 when at least one relevant document is in the top k, else 0.",
    source: `${TREC} success (hit rate, Success@k)`,
    compute: (j, k) => (j.relRanks.length > 0 && j.relRanks[0]! <= k ? 1 : 0),
  },
];

/** The registered measure families by family key. */
export const MEASURE_BY_FAMILY: ReadonlyMap<string, MeasureDef> = new Map(MEASURES.map((m) => [m.family, m]));
