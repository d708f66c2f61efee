import type { LabelBook } from "../calibration/labels.js";

/** A review's provenance, and whether it was taken from the annotator's earlier labels rather than `--provenance`. */
export interface ReviewProvenance {
  provenance: "human" | "author";
  inherited: boolean;
}

/**
 * The provenance a review writes: `--provenance` when given; else `author`
 * when every earlier label of this annotator is an author label (the next
 * commands `sample`, `run` and `plan` print name no provenance, so a
 * project's own labeller who follows them must not turn human); else `human`.
 *
 * @example
 * reviewProvenance(undefined, book, "asha") // { provenance: "author", inherited: true } when asha's labels are all author
 */
export function reviewProvenance(flag: "human" | "author" | undefined, book: LabelBook, annotator: string): ReviewProvenance {
  if (flag !== undefined) return { provenance: flag, inherited: false };
  const own = book.history.filter((l) => l.value.annotator === annotator);
  const author = own.length > 0 && own.every((l) => l.value.provenance === "author");
  return { provenance: author ? "author" : "human", inherited: author };
}
