import { z } from "zod";
import { OutcomeName } from "../schema.js";

/**
 * `items.jsonl`: one record per question of each variant (variant,
 * question), with everything needed to read why it failed without opening
 * another file: the question, the reference answer, the answer with its
 * citations, the context given to the generator (text, the anchor's place),
 * the top retrieved chunks with their rank in every stage, each rubric's
 * verdicts with the judge's reason and fingerprint, the labels people gave,
 * the miss analysis, and the command that reviews it. The HTML report's item
 * explorer and `items.csv` are built from these records. Bump
 * {@link ITEMS_SCHEMA} on an incompatible change.
 */

/** The schema tag carried by every line of items.jsonl. */
export const ITEMS_SCHEMA = "ragjudge.items/1";

const Rank = z.number().int().min(1);
const Verdict = z.enum(["yes", "no", "error"]);

/** One chunk given to the generator, in context order. */
export const ContextChunkJson = z.strictObject({
  /** 1-based position: the number an `[n]` citation marker uses. */
  position: Rank,
  id: z.string(),
  doc: z.string().nullable(),
  heading: z.string().nullable(),
  text: z.string().nullable(),
  /** The chunk is relevant to the question (it holds the anchor, or is listed in `relevant`). */
  relevant: z.boolean(),
  /** Where the anchor lies in `text`: [start, end) offsets in UTF-16 code units. */
  anchorAt: z.array(z.tuple([z.number().int(), z.number().int()])),
  /** The answer cites this chunk. */
  cited: z.boolean(),
});
export type ContextChunkJson = z.infer<typeof ContextChunkJson>;

/** One of the top retrieved chunks, with its rank in the final list and in every declared stage (null: not in that list). */
export const RetrievedChunkJson = z.strictObject({
  rank: Rank,
  id: z.string(),
  relevant: z.boolean(),
  inContext: z.boolean(),
  stages: z.record(z.string(), Rank.nullable()),
});
export type RetrievedChunkJson = z.infer<typeof RetrievedChunkJson>;

/** One verdict of one unit of a rubric (the whole answer, or one sentence-citation pair). */
export const UnitVerdictJson = z.strictObject({
  unit: z.string(),
  verdict: Verdict,
  reason: z.string(),
  judge: z.enum(["llm", "baseline", "rule"]),
  fingerprint: z.string(),
  model: z.string().nullable(),
  error: z.string().nullable(),
  rule: z.string().nullable(),
  inputHash: z.string(),
  /** A claim's text (unit `c<n>`, claim-level faithfulness). */
  claim: z.string().optional(),
});

/** A label a person (or an author, or an import) gave one unit, on the same evidence the verdict judged. */
export const ItemLabelJson = z.strictObject({
  unit: z.string(),
  label: z.enum(["yes", "no"]),
  annotator: z.string(),
  provenance: z.enum(["human", "author", "import"]),
  frame: z.string(),
  time: z.string(),
  note: z.string().nullable(),
});

/** One rubric on one item: the item's verdict (every unit yes: yes; any no: no; else error; null: not judged), each unit's verdict and the labels. */
export const ItemRubricJson = z.strictObject({
  rubric: z.string(),
  verdict: Verdict.nullable(),
  units: z.array(UnitVerdictJson),
  labels: z.array(ItemLabelJson),
});
export type ItemRubricJson = z.infer<typeof ItemRubricJson>;

/** The miss analysis of an answerable question none of whose relevant chunks is in the top k (src/retrieval/diagnostics). */
export const ItemMissJson = z.strictObject({
  failure: z.string(),
  fix: z.string().nullable(),
  proposal: z.string(),
  why: z.string(),
  /** The text evidence: the question's words and where they are, or the cut anchor. */
  evidence: z.string(),
});

/** One line of items.jsonl. */
export const ItemRecord = z.strictObject({
  schema: z.literal(ITEMS_SCHEMA),
  variant: z.string(),
  question: z.string(),
  /** The question's text. */
  text: z.string(),
  kind: z.string(),
  tags: z.array(z.string()),
  split: z.string().nullable(),
  answerable: z.boolean(),
  /** The search-or-answering outcome (src/report/search-or-answer.ts) and the verdicts that decided it. */
  outcome: OutcomeName,
  because: z.string(),
  relevantInContext: z.boolean().nullable(),
  /** Rank in `retrieved` of the first relevant chunk (null: none retrieved, or an unanswerable question). */
  firstRelevantRank: Rank.nullable(),
  miss: ItemMissJson.nullable(),
  reference: z.string().nullable(),
  answer: z.string().nullable(),
  /** The answer's citations, sentence by sentence, resolved against the context. */
  citations: z.array(z.strictObject({ sentence: Rank, text: z.string(), chunks: z.array(z.string()), unresolved: z.array(z.string()) })),
  anchor: z.strictObject({ doc: z.string(), text: z.string() }).nullable(),
  /** The relevant chunk ids for this variant's chunks. */
  relevant: z.array(z.string()),
  context: z.array(ContextChunkJson),
  /** The top k of `retrieved` (k: the largest configured cut-off). */
  retrieved: z.array(RetrievedChunkJson),
  /** The declared stage lists, in pipeline order (the keys of each retrieved chunk's `stages`). */
  stages: z.array(z.string()),
  rubrics: z.array(ItemRubricJson),
  /**
   * The command that puts this item in front of a person (`ragjudge review
   * --item ...`); null when no verdict of the item came from a judge (every
   * one was decided by rule, say for a question with no output line, or
   * there is none): rule verdicts are never reviewed, and a command that
   * could only fail must not be shown.
   */
  review: z.string().nullable(),
});
export type ItemRecord = z.infer<typeof ItemRecord>;
