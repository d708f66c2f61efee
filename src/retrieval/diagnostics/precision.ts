import type { GoldenQuestion } from "../../golden/schema/golden.js";
import type { PipelineOutput } from "../../golden/schema/pipeline.js";
import { groupByKind, kindOf, meanOf, OVERALL } from "./kinds.js";

/** P@k beside the best any ranking could score on the same questions. */
export interface PrecisionCapCell {
  k: number;
  /** Mean P@k of `retrieved` (hits in the top k divided by k, as trec_eval). */
  precision: number;
  /** Maximum achievable mean P@k: mean over questions of min(R, k) / k. */
  maxPrecision: number;
}

/** One group (all, or one kind) with a cell per k. */
export interface PrecisionCapRow {
  kind: string;
  questions: number;
  /** Questions with one or two relevant chunks: the cause of a low ceiling. */
  fewRelevant: number;
  cells: PrecisionCapCell[];
}

/** The precision ceiling overall and by kind, with the notes to show. */
export interface PrecisionCapReport {
  ks: number[];
  overall: PrecisionCapRow | null;
  byKind: PrecisionCapRow[];
  /** One sentence per k whose ceiling is below 1 (seed 000's precision pitfall). */
  notes: string[];
}

interface Q {
  kind: string;
  r: number;
  hits: number[];
}

function row(kind: string, qs: readonly Q[], ks: readonly number[]): PrecisionCapRow {
  return {
    kind,
    questions: qs.length,
    fewRelevant: qs.filter((q) => q.r >= 1 && q.r <= 2).length,
    cells: ks.map((k, i) => ({
      k,
      precision: meanOf(qs.map((q) => q.hits[i]! / k)) ?? 0,
      maxPrecision: meanOf(qs.map((q) => Math.min(q.r, k) / k)) ?? 0,
    })),
  };
}

function fmt(x: number): string {
  return x.toFixed(3);
}

/**
 * Seed 000's precision ceiling: with one anchor per question, one or two
 * chunks are relevant, so P@10 cannot exceed about 0.1-0.2 however good the
 * ranking. This computes, for each k, the measured mean P@k beside the
 * maximum achievable mean, mean(min(R, k) / k), overall and by kind, and a
 * note for every k whose ceiling is below 1. Unanswerable questions are left
 * out; an answerable one with no relevant chunk, or with no output line,
 * scores 0 (as in the score table, so P@k here equals P@k there).
 *
 * @example
 * precisionCap(questions, relevant, outputs, [1, 5, 10]).notes[0]
 * // "P@5 can reach at most 0.200 here (mean of min(R, 5)/5), measured 0.138: 48 of 48 questions have one or two relevant chunks; read R@5 and RR for single-answer questions."
 */
export function precisionCap(
  questions: readonly GoldenQuestion[],
  relevant: ReadonlyMap<string, ReadonlySet<string>>,
  outputs: ReadonlyMap<string, PipelineOutput>,
  ks: readonly number[],
): PrecisionCapReport {
  const sorted = [...new Set(ks)].sort((a, b) => a - b);
  const qs: (Q & { id: string })[] = [];
  for (const q of questions) {
    if (!q.answerable) continue;
    const rel = relevant.get(q.id) ?? new Set<string>();
    const list = outputs.get(q.id)?.retrieved ?? [];
    const hits = sorted.map((k) => list.slice(0, k).filter((e) => rel.has(e.id)).length);
    qs.push({ id: q.id, kind: kindOf(q), r: rel.size, hits });
  }
  const overall = qs.length ? row(OVERALL, qs, sorted) : null;
  const notes: string[] = [];
  if (overall) {
    for (const c of overall.cells) {
      if (c.maxPrecision >= 1) continue;
      const head = `P@${c.k} can reach at most ${fmt(c.maxPrecision)} here (mean of min(R, ${c.k})/${c.k}), measured ${fmt(c.precision)}: `;
      const fewerThanK = qs.filter((q) => q.r < c.k).length;
      notes.push(
        overall.fewRelevant > 0
          ? head + `${overall.fewRelevant} of ${overall.questions} questions have one or two relevant chunks; read R@${c.k} and RR for single-answer questions.`
          : head + `${fewerThanK} of ${overall.questions} questions have fewer than ${c.k} relevant chunks.`,
      );
    }
  }
  return { ks: sorted, overall, byKind: groupByKind(qs).map(([kind, group]) => row(kind, group, sorted)), notes };
}
