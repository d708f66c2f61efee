import type { Evidence } from "../../golden/schema/items.js";

/** A baseline verdict: "yes" always means the answer (or retrieval) behaved correctly. */
export interface BaselineVerdict {
  verdict: "yes" | "no";
  reason: string;
  /**
   * The learned support model's probability that the verdict is "yes"
   * (faithfulness, citation accuracy); absent when a rule decided alone.
   */
  pYes?: number;
}

/**
 * The evidence lacks a field the rubric needs (correctness without a
 * reference, not-found without `answerable`). A bug in how items were built,
 * not a verdict: callers turn it into an `error` verdict or a failure, never
 * into "yes" or "no".
 */
export class BaselineEvidenceError extends Error {
  override name = "BaselineEvidenceError";
  constructor(
    readonly rubric: string,
    readonly field: keyof Evidence,
  ) {
    super(`the baseline ${rubric} rule needs evidence.${String(field)}, which this item does not have`);
  }
}

/** The named evidence field, or a {@link BaselineEvidenceError}. */
export function need<K extends keyof Evidence>(rubric: string, e: Evidence, field: K): NonNullable<Evidence[K]> {
  const v = e[field];
  if (v === undefined || v === null) throw new BaselineEvidenceError(rubric, field);
  return v as NonNullable<Evidence[K]>;
}

/** The text the judge reads of a chunk: its heading (when it has one) and its text. */
export function chunkText(c: { heading?: string | undefined; text: string }): string {
  return c.heading ? `${c.heading}\n${c.text}` : c.text;
}
