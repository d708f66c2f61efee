import { relevantSets, type VariantData } from "../../golden/dataset.js";
import { InputErrors } from "../../golden/errors.js";
import type { GoldenQuestion } from "../../golden/schema/golden.js";
import type { Verdict } from "../../golden/schema/items.js";
import { kindOf } from "./kinds.js";
import { analyseMisses, type MissRow } from "./misses.js";
import { poolRecall, type PoolRecallReport } from "./pool.js";
import { precisionCap, type PrecisionCapReport } from "./precision.js";
import { checkDeclaredStages, declaredLists, type StageList } from "./stages.js";
import { summariseMisses, type MissSummary } from "./summary.js";

/** Options of {@link diagnoseVariant}. */
export interface DiagnoseOptions {
  /** Miss cut-off and final recall@k: the largest configured k (10 with the default config). */
  k: number;
  /** Pool depth (config `poolDepth`, default 50). */
  poolDepth: number;
  /** The ks to show the precision ceiling for (config `k`). */
  precisionKs: readonly number[];
  /** Optional anchor-ambiguity verdicts, question id -> verdict. */
  ambiguity?: ReadonlyMap<string, Verdict>;
}

/**
 * Every diagnostic of one variant, as plain JSON-serialisable data (no Map or
 * Set), so `--json` output is `JSON.stringify` of it.
 */
export interface VariantDiagnostics {
  variant: string;
  k: number;
  poolDepth: number;
  /** The declared stage lists in pipeline order (empty when none). */
  stages: StageList[];
  pool: PoolRecallReport;
  precision: PrecisionCapReport;
  misses: MissRow[];
  summary: MissSummary;
}

/**
 * The miss cut-off for a config: the largest configured k (seed 000 reads
 * misses at the k sent to the model, 10 by default).
 *
 * @example
 * missK([1, 5, 10]) // 10
 */
export function missK(ks: readonly number[]): number {
  return ks.length ? Math.max(...ks) : 10;
}

/**
 * Runs pool recall, the precision ceiling, the miss analysis and its summary
 * for one loaded variant. Throws {@link InputErrors} when an output line
 * lacks a stage list the variant declares (file, line, `stages.<name>`).
 *
 * @example
 * const v = loadVariant(cfg.config.variants[0], golden, cfg.path);
 * const d = diagnoseVariant(golden.questions, v, { k: 10, poolDepth: 50, precisionKs: [1, 5, 10] });
 * console.log(renderDiagnostics(d, "terminal"));
 */
export function diagnoseVariant(
  questions: readonly GoldenQuestion[],
  variant: Pick<VariantData, "name" | "outputFile" | "chunks" | "outputs" | "lineOf" | "stages">,
  opts: DiagnoseOptions,
): VariantDiagnostics {
  const problems = checkDeclaredStages(variant);
  if (problems.length) throw new InputErrors(problems);
  const relevant = relevantSets({ questions }, variant.chunks);
  const answerableByKind = new Map<string, number>();
  for (const q of questions) if (q.answerable) answerableByKind.set(kindOf(q), (answerableByKind.get(kindOf(q)) ?? 0) + 1);
  const misses = analyseMisses(questions, relevant, variant, { k: opts.k, poolDepth: opts.poolDepth, ambiguity: opts.ambiguity });
  return {
    variant: variant.name,
    k: opts.k,
    poolDepth: opts.poolDepth,
    stages: declaredLists(variant.stages),
    pool: poolRecall(questions, relevant, variant.outputs, variant.stages, opts.poolDepth, opts.k),
    precision: precisionCap(questions, relevant, variant.outputs, opts.precisionKs),
    misses,
    summary: summariseMisses(misses, answerableByKind, opts.k, variant.stages, opts.ambiguity !== undefined),
  };
}
