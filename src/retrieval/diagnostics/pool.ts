import type { StageRoles } from "../../golden/schema/config.js";
import type { GoldenQuestion } from "../../golden/schema/golden.js";
import type { PipelineOutput } from "../../golden/schema/pipeline.js";
import { groupByKind, kindOf, meanOf, OVERALL } from "./kinds.js";
import { relevantRanks, ranksWithin } from "../../golden/relevant-ranks.js";
import { countInTop, poolList, type PoolChoice } from "./stages.js";

/** Pool and final recall of one answerable question. */
export interface PoolRecallQuestion {
  question: string;
  kind: string;
  /** Number of relevant chunks, R. */
  relevant: number;
  /** Relevant chunks within the pool list's top `depth`; null when there is no pool. */
  inPool: number | null;
  poolRecall: number | null;
  /** Relevant chunks within the top `k` of `retrieved`. */
  inTopK: number;
  finalRecall: number;
  /** No pipeline output line: both recalls count as 0, as for an empty ranking. */
  missingOutput: boolean;
}

/** Means over one group of questions (all, or one kind). */
export interface PoolRecallMean {
  kind: string;
  questions: number;
  /** Mean pool recall at depth; null when pool recall is unavailable. */
  poolRecall: number | null;
  /** Mean recall@k of `retrieved`. */
  finalRecall: number;
  /** Questions with relevant chunks none of which is in the pool: the first stage never found them. */
  notInPool: number | null;
  /** Questions with a relevant chunk in the pool but none in the final top k: fusion or the reranker lost them. */
  inPoolNotInTopK: number | null;
}

/** Pool recall beside final recall, per question, overall and by kind. */
export interface PoolRecallReport {
  depth: number;
  k: number;
  pool: PoolChoice;
  questions: PoolRecallQuestion[];
  /** null when no answerable question has a relevant chunk. */
  overall: PoolRecallMean | null;
  byKind: PoolRecallMean[];
  /** Unanswerable questions: left out, as from every retrieval metric. */
  unanswerable: number;
  /**
   * Answerable questions with no relevant chunk in this chunks file (the
   * anchor is in no chunk; `validate` reports them). Counted with recall 0,
   * as the retrieval score table counts them, so R@k here equals R@k there.
   */
  noRelevant: string[];
}

function meanRow(kind: string, rows: readonly PoolRecallQuestion[], available: boolean): PoolRecallMean {
  return {
    kind,
    questions: rows.length,
    poolRecall: available ? meanOf(rows.map((r) => r.poolRecall ?? 0)) : null,
    finalRecall: meanOf(rows.map((r) => r.finalRecall)) ?? 0,
    notInPool: available ? rows.filter((r) => r.relevant > 0 && r.inPool === 0).length : null,
    inPoolNotInTopK: available ? rows.filter((r) => (r.inPool ?? 0) > 0 && r.inTopK === 0).length : null,
  };
}

/**
 * Recall of the declared pool list at `depth` (seed 000: the ceiling any
 * reranker can reach) beside the final recall@k of `retrieved`, per
 * question, overall and by kind. It separates "the first stage never found
 * it" (`notInPool`) from "the reranker or fusion did not promote it"
 * (`inPoolNotInTopK`). Unanswerable questions are left out; answerable
 * ones with no relevant chunk count as 0 (as in the score table). Without a
 * declared pool the report says so (`pool.available: false`) and carries
 * final recall only: pool recall is never estimated from `retrieved`.
 *
 * @example
 * // the shipped example's bm25-small
 * const r = poolRecall(golden.questions, relevantSets(golden, v.chunks), v.outputs, { first: ["bm25"] }, 50, 10);
 * r.overall?.poolRecall // 0.667: the mean over the 48 answerable questions of the share of their relevant chunks in bm25's top 50
 */
export function poolRecall(
  questions: readonly GoldenQuestion[],
  relevant: ReadonlyMap<string, ReadonlySet<string>>,
  outputs: ReadonlyMap<string, PipelineOutput>,
  roles: StageRoles,
  depth: number,
  k: number,
): PoolRecallReport {
  const pool = poolList(roles);
  const rows: PoolRecallQuestion[] = [];
  let unanswerable = 0;
  const noRelevant: string[] = [];
  for (const q of questions) {
    if (!q.answerable) {
      unanswerable++;
      continue;
    }
    const rel = relevant.get(q.id) ?? new Set<string>();
    if (rel.size === 0) noRelevant.push(q.id);
    const out = outputs.get(q.id);
    const inTopK = out === undefined ? 0 : ranksWithin(relevantRanks(out.retrieved, rel), k);
    const inPool = pool.available ? countInTop(out?.stages?.[pool.list], rel, depth) : null;
    const share = (n: number) => (rel.size === 0 ? 0 : n / rel.size);
    rows.push({
      question: q.id,
      kind: kindOf(q),
      relevant: rel.size,
      inPool,
      poolRecall: inPool === null ? null : share(inPool),
      inTopK,
      finalRecall: share(inTopK),
      missingOutput: out === undefined,
    });
  }
  return {
    depth,
    k,
    pool,
    questions: rows,
    overall: rows.length ? meanRow(OVERALL, rows, pool.available) : null,
    byKind: groupByKind(rows).map(([kind, group]) => meanRow(kind, group, pool.available)),
    unanswerable,
    noRelevant,
  };
}
