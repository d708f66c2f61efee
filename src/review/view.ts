import type { EvidenceChunk, QueueEntry } from "../golden/schema/items.js";
import { keyOf } from "../calibration/keys.js";
import { markAnchor, markCitations, type Segment } from "./highlight.js";
import { isClaimUnit } from "../judge/items/claims.js";

/** One chunk as the reviewer sees it. */
export interface ChunkView {
  id: string;
  /**
   * 1-based position in the context (the number an `[n]` marker uses); 0 when
   * not in the context; absent when the evidence carries no context to tell.
   */
  position?: number;
  heading?: string;
  /** The answer (or the judged sentence) cites this chunk. */
  cited: boolean;
  /** The chunk contains the golden anchor phrase (marked in `text`). */
  hasAnchor: boolean;
  text: Segment[];
}

/**
 * Everything the page or terminal shows for one queue item *before* the
 * person answers. Deliberately without the judge's verdict, and without the
 * sampling frame and stratum (the `balanced` stratum is the judge's verdict,
 * and `disagreement` says someone differed from it): no anchoring.
 */
export interface ItemView {
  index: number;
  total: number;
  item: { variant: string; question: string; rubric: string; unit: string };
  inputHash: string;
  rubricQuestion: string;
  /** The rubric's case text for this item (the not-found rubric's answerable/unanswerable instructions). */
  rubricGuidance?: string;
  questionText: string;
  answerable?: boolean;
  /** Claim-level faithfulness: the claim's unit (`c2`); then `answer` is that one claim, labelled on its own. */
  claim?: string;
  answer?: Segment[];
  sentence?: Segment[];
  reference?: string;
  context?: ChunkView[];
  cited?: ChunkView;
  candidates?: ChunkView[];
  anchor?: { doc: string; text: string };
  kind?: string;
  tags: string[];
  /** This annotator's current label for the item, when it has one. */
  label?: { label: "yes" | "no"; note?: string; time: string };
  skipped: boolean;
}

function chunkView(c: EvidenceChunk, position: number | undefined, cited: Set<string>, anchor: string | undefined): ChunkView {
  const text = markAnchor(c.text, anchor);
  return {
    id: c.id,
    ...(position !== undefined ? { position } : {}),
    ...(c.heading !== undefined ? { heading: c.heading } : {}),
    cited: cited.has(c.id),
    hasAnchor: text.some((s) => s.mark === "anchor"),
    text,
  };
}

/**
 * Builds the display form of a queue entry: citation markers in the answer
 * resolved and marked, cited chunks flagged, the anchor phrase marked in the
 * chunks that contain it. Pure: the same entry always gives the same view.
 */
export function buildItemView(
  entry: QueueEntry,
  index: number,
  total: number,
  rubricQuestion: string,
  rubricGuidance?: string,
): Omit<ItemView, "label" | "skipped"> {
  const ev = entry.evidence;
  const contextIds = ev.context?.map((c) => c.id);
  const cited = new Set(entry.citedIds);
  if (ev.cited) cited.add(ev.cited.id);
  const anchorText = entry.anchor?.text;
  return {
    index,
    total,
    item: keyOf(entry),
    inputHash: entry.inputHash,
    // A claim stands in for the answer: the rubric's question says "the answer", so say which claim that is.
    rubricQuestion: isClaimUnit(entry.unit) ? `${rubricQuestion} (for claim ${entry.unit} alone)` : rubricQuestion,
    ...(rubricGuidance ? { rubricGuidance } : {}),
    questionText: ev.question,
    ...(ev.answerable !== undefined ? { answerable: ev.answerable } : {}),
    ...(isClaimUnit(entry.unit) ? { claim: entry.unit } : {}),
    ...(ev.answer !== undefined ? { answer: markCitations(ev.answer, contextIds) } : {}),
    ...(ev.sentence !== undefined ? { sentence: markCitations(ev.sentence, contextIds) } : {}),
    ...(ev.reference !== undefined ? { reference: ev.reference } : {}),
    ...(ev.context ? { context: ev.context.map((c, i) => chunkView(c, i + 1, cited, anchorText)) } : {}),
    ...(ev.cited ? { cited: chunkView(ev.cited, contextIds ? contextIds.indexOf(ev.cited.id) + 1 : undefined, cited, anchorText) } : {}),
    ...(ev.candidates ? { candidates: ev.candidates.map((c, i) => chunkView(c, i + 1, cited, anchorText)) } : {}),
    ...(entry.anchor ? { anchor: entry.anchor } : {}),
    ...(entry.kind !== undefined ? { kind: entry.kind } : {}),
    tags: entry.tags,
  };
}
