import type { GoldenSet, VariantData } from "../../golden/dataset.js";
import { BOUNDS, requireWithin } from "../../golden/bounds.js";
import type { Verdict } from "../../golden/schema/items.js";
import { diagnoseVariant, missK, type VariantDiagnostics } from "./diagnose.js";
import { renderDiagnostics, type TextFormat } from "./render.js";

/** What `ragjudge retrieval` asks of the diagnostics. */
export interface SectionOptions {
  /** The cutoffs in use (`-k` or the config's `k`): misses are read at the largest. */
  ks: readonly number[];
  poolDepth: number;
  /** Anchor-ambiguity verdicts by variant name, then question id. */
  ambiguity?: ReadonlyMap<string, ReadonlyMap<string, Verdict>>;
}

/**
 * Diagnoses every variant of a golden-set run, in the given order, with the
 * miss cut-off at the largest cutoff (10 for the default 1, 5, 10). A
 * cutoff or pool depth outside the bounds of `-k` and `--pool-depth` (a
 * positive whole number) throws a RangeError (golden/bounds.ts).
 *
 * @example
 * const ds = diagnoseVariants(golden, variants, { ks: [1, 5, 10], poolDepth: 50 });
 */
export function diagnoseVariants(golden: Pick<GoldenSet, "questions">, variants: readonly VariantData[], opts: SectionOptions): VariantDiagnostics[] {
  for (const k of opts.ks) requireWithin("ks", k, BOUNDS.cutoff);
  requireWithin("poolDepth", opts.poolDepth, BOUNDS.poolDepth);
  return variants.map((v) => {
    const ambiguity = opts.ambiguity?.get(v.name);
    return diagnoseVariant(golden.questions, v, { k: missK(opts.ks), poolDepth: opts.poolDepth, precisionKs: opts.ks, ...(ambiguity ? { ambiguity } : {}) });
  });
}

/**
 * The diagnostics block printed after the score tables: one block per
 * variant (pool recall, precision ceiling, failure kinds, and the misses
 * table when `misses`), ending with a newline.
 */
export function renderDiagnosticsSection(ds: readonly VariantDiagnostics[], format: TextFormat, misses: boolean): string {
  return ds.map((d) => renderDiagnostics(d, format, { misses })).join("\n\n") + "\n";
}

