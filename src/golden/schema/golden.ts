import { z } from "zod";
import { normalise } from "../normalise.js";
import { Id, Meta } from "./common.js";

/**
 * A verbatim phrase (seed 000: 6 to 20 words) that occurs exactly once in
 * its document. A chunk of `doc` whose normalised text contains the
 * normalised phrase is relevant; recomputed on every run, so re-chunking
 * needs no new labels.
 */
export const Anchor = z.strictObject({
  doc: Id,
  // White space alone would normalise to "", which every chunk "contains".
  text: z.string().refine((t) => normalise(t) !== "", "must not be empty or only white space"),
});
export type Anchor = z.infer<typeof Anchor>;

/**
 * One golden question (one line of the golden set JSONL).
 *
 * @example
 * {"id":"q01","question":"How many days of casual leave carry over?","answerable":true,
 *  "anchor":{"doc":"hr-leave","text":"unused casual leave cannot be carried forward to the next year"},
 *  "reference":"None: unused casual leave lapses at year end.","kind":"factual","tags":["policy"],"split":"dev"}
 */
export const GoldenQuestion = z
  .strictObject({
    id: Id,
    // a question of spaces alone asks nothing: the judge would grade answers to it
    question: z.string().refine((t) => t.trim() !== "", "must not be empty or only white space"),
    /** false: no answer exists in the documents; the right output is "not found". */
    answerable: z.boolean().default(true),
    relevant: z.array(Id).optional(),
    anchor: Anchor.optional(),
    /**
     * Passages a person marked as the right ones (Ragas' `reference_contexts`):
     * a chunk or passage is relevant when its normalised text contains one of
     * them or lies inside one.
     */
    relevantText: z.array(z.string().refine((t) => normalise(t) !== "", "must not be empty or only white space")).optional(),
    // absent: no reference answer (correctness is not judged); present but blank, a reference lost on the way
    reference: z.string().refine((t) => t.trim() !== "", "must not be empty or only white space (leave it out when there is no reference answer)").optional(),
    kind: z.string().min(1).optional(),
    tags: z.array(z.string().min(1)).default([]),
    split: z.string().min(1).optional(),
    meta: Meta,
  })
  .superRefine((q, ctx) => {
    if (q.answerable) {
      if ((q.relevant === undefined || q.relevant.length === 0) && q.anchor === undefined && (q.relevantText === undefined || q.relevantText.length === 0)) {
        ctx.addIssue({ code: "custom", path: ["relevant"], message: "an answerable question needs relevant chunk ids, an anchor or relevantText" });
      }
    } else {
      if (q.relevant !== undefined && q.relevant.length > 0) {
        ctx.addIssue({ code: "custom", path: ["relevant"], message: "an unanswerable question (answerable: false) must have no relevant chunks" });
      }
      if (q.anchor !== undefined) {
        ctx.addIssue({ code: "custom", path: ["anchor"], message: "an unanswerable question (answerable: false) must have no anchor" });
      }
      if (q.relevantText !== undefined && q.relevantText.length > 0) {
        ctx.addIssue({ code: "custom", path: ["relevantText"], message: "an unanswerable question (answerable: false) must have no relevant passages" });
      }
    }
  });
export type GoldenQuestion = z.infer<typeof GoldenQuestion>;

/**
 * One chunk of a document, as the pipeline variant indexed it.
 *
 * @example
 * {"id":"hr-leave#1","doc":"hr-leave","heading":"Casual leave","text":"Unused casual leave cannot be carried forward to the next year."}
 */
export const Chunk = z.strictObject({
  id: Id,
  doc: Id,
  text: z.string(),
  heading: z.string().optional(),
  meta: Meta,
});
export type Chunk = z.infer<typeof Chunk>;
