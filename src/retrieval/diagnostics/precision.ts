import type { GoldenQuestion } from "../../golden/schema/golden.js";
import type { PipelineOutput } from "../../golden/schema/pipeline.js";
import { groupByKind, kindOf, meanOf, OVERALL } from "./kinds.js";
import { relevantRanks, ranksWithin } from "../../golden/relevant-ranks.js";
import { joinWords } from "./table.js";

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
  /** One sentence naming every k whose ceiling is below 1 (seed 000's precision pitfall); empty when none is. */
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
 * maximum achievable mean, mean(min(R, k) / k), overall and by kind, and one
 * note naming every k whose ceiling is below 1. Unanswerable questions are left
 * out; an answerable one with no relevant chunk, or with no output line,
 * scores 0 (as in the score table, so P@k here equals P@k there).
 *
 * @example
 * // the shipped example's bm25-small (hybrid-rerank measures 0.133 and 0.071)
 * precisionCap(golden.questions, relevantSets(golden, v.chunks), v.outputs, [1, 5, 10]).notes[0]
 * // "P@5 and P@10 are capped: at most 0.200 and 0.100 here (the mean of min(R, k)/k), measured 0.125 and 0.065;
 * //  48 of 48 questions have one or two relevant chunks, so read R@k and RR rather than P@k."
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
    const list = outputs.get(q.id)?.retrieved;
    const ranks = list === undefined ? [] : relevantRanks(list, rel);
    const hits = sorted.map((k) => ranksWithin(ranks, k));
    qs.push({ id: q.id, kind: kindOf(q), r: rel.size, hits });
  }
  const overall = qs.length ? row(OVERALL, qs, sorted) : null;
  const notes: string[] = [];
  const capped = overall ? overall.cells.filter((c) => c.maxPrecision < 1) : [];
  if (overall && capped.length) {
    const list = (f: (c: PrecisionCapCell) => string) => joinWords(capped.map(f));
    const why =
      overall.fewRelevant > 0
        ? `${overall.fewRelevant} of ${overall.questions} questions have one or two relevant chunks, so read R@k and RR rather than P@k.`
        : `${qs.filter((q) => q.r < capped[0]!.k).length} of ${overall.questions} questions have fewer than ${capped[0]!.k} relevant chunks.`;
    notes.push(
      `${list((c) => `P@${c.k}`)} ${capped.length === 1 ? "is" : "are"} capped: at most ${list((c) => fmt(c.maxPrecision))} here (the mean of min(R, k)/k), measured ${list((c) => fmt(c.precision))}; ${why}`,
    );
  }
  return { ks: sorted, overall, byKind: groupByKind(qs).map(([kind, group]) => row(kind, group, sorted)), notes };
}
