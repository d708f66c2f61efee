import type { VariantDiagnostics } from "../../retrieval/diagnostics/diagnose.js";
import type { PoolRecallMean } from "../../retrieval/diagnostics/pool.js";
import { rankCell } from "../../retrieval/diagnostics/render.js";
import type { Distribution } from "../../retrieval/diagnostics/summary.js";
import type { Measure } from "../../retrieval/measures/types.js";
import type { RetrievalScore } from "../../retrieval/score.js";
import type { FailuresJson, MissJson, PoolJson, RetrievalJson } from "../schema.js";

/**
 * The main retrieval measures every summary shows, at the largest configured
 * k: did any relevant chunk show up (Hit), how many of them (R), how high the
 * first one ranked (RR), and how well the top k is ordered (nDCG).
 *
 * @example
 * mainMeasures([1, 5, 10]) // ["Hit@10", "R@10", "RR", "nDCG@10"]
 */
export function mainMeasures(ks: readonly number[]): string[] {
  const k = ks.length ? Math.max(...ks) : 10;
  return [`Hit@${k}`, `R@${k}`, "RR", `nDCG@${k}`];
}

function valuesOf(measures: readonly Measure[], values: Float64Array): Record<string, number> {
  const o: Record<string, number> = {};
  measures.forEach((m, i) => {
    if (m.def.aggregation === "mean") o[m.label] = values[i]!;
  });
  return o;
}

/**
 * The JSON form of one variant's retrieval score: mean measures overall, by
 * kind and by tag, and every answerable question's values at full precision
 * (what `ragjudge compare` pairs on).
 */
export function retrievalJson(s: RetrievalScore, ks: readonly number[]): RetrievalJson {
  const groups = (by: "kind" | "tags") => s.groups.filter((g) => g.by === by).map((g) => ({ key: g.key, n: g.n, values: valuesOf(s.measures, g.values) }));
  return {
    measures: s.measures.filter((m) => m.def.aggregation === "mean").map((m) => m.label),
    main: mainMeasures(ks),
    overall: { n: s.overall.n, values: valuesOf(s.measures, s.overall.values) },
    byKind: groups("kind"),
    byTag: groups("tags"),
    perQuery: s.questions.map((q) => ({ id: q.id, missing: q.missing, numRel: q.numRel, firstRelevantRank: q.firstRelevantRank, values: valuesOf(s.measures, q.values) })),
    unanswerable: s.unanswerable.length,
    missing: [...s.missing],
    noRelevant: [...s.noRelevant],
  };
}

const poolRow = (r: PoolRecallMean) => ({ kind: r.kind, questions: r.questions, poolRecall: r.poolRecall, finalRecall: r.finalRecall, notInPool: r.notInPool, inPoolNotInTopK: r.inPoolNotInTopK });

/** Pool recall beside final recall (the ceiling any reranker can reach), as JSON. */
export function poolJson(d: VariantDiagnostics): PoolJson {
  const p = d.pool;
  return {
    available: p.pool.available,
    list: p.pool.available ? p.pool.list : null,
    reason: p.pool.available ? null : p.pool.reason,
    depth: p.depth,
    k: p.k,
    overall: p.overall ? poolRow(p.overall) : null,
    byKind: p.byKind.map(poolRow),
  };
}

const dist = (g: Distribution) => ({ kind: g.kind, answerable: g.answerable, misses: g.misses, counts: g.counts.map((c) => ({ ...c })) });

/** The failure-kind distribution of the misses, its undecidable kinds and the recommendation. */
export function failuresJson(d: VariantDiagnostics, ambiguityJudged: boolean): FailuresJson {
  const s = d.summary;
  return {
    k: s.k,
    overall: dist(s.overall),
    byKind: s.byKind.map(dist),
    undecidable: s.decidability.undecidable.map((u) => ({ ...u })),
    recommendation: s.recommendation,
    ambiguityJudged,
  };
}

/** Every miss with its rank in each list, failure kind, fix and reason. */
export function missesJson(d: VariantDiagnostics): MissJson[] {
  return d.misses.map((m) => ({
    question: m.question,
    kind: m.kind,
    anchor: m.anchor ? m.anchor.text : m.relevant.length ? m.relevant.join(", ") : null,
    ranks: m.ranks.map((r) => ({ name: r.name, cell: rankCell(r, d.poolDepth) })),
    failure: m.failure,
    fix: m.fix,
    proposal: m.proposal,
    why: m.why,
    evidence: m.evidence,
  }));
}
