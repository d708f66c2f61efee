import type { GoldenSet, VariantData } from "./dataset.js";
import { cachedLayout, chunksHolding, locateAnchor, type LayoutCache } from "./document.js";
import { InputError } from "./errors.js";
import { normalise } from "./normalise.js";
import { derivedMemo, noteAnchorChunks, type ChunkIndex } from "./relevance.js";
import type { Anchor } from "./schema/golden.js";
import { wordCount } from "./words.js";

/**
 * The anchor rule (seed 000, stated in the README): a verbatim phrase of 6 to
 * 20 words that occurs exactly once in its document. `validate` and `run`
 * refuse an anchor that breaks it, and `retrieval` does too, instead of
 * scoring it: a two-word anchor marks any chunk that mentions the words, a
 * repeated one marks chunks that do not answer, a misspelt one marks none.
 *
 * An anchor that a chunk boundary cuts (it occurs once, but no chunk holds it
 * whole) is not a golden-set mistake: it is what that variant's chunker did,
 * and the miss analysis calls it chunk-boundary. That is a warning.
 */

/** Fewest and most words an anchor may have. */
export const ANCHOR_WORDS = { min: 6, max: 20 } as const;

/** One finding about one anchor: `error` breaks the rule, `warning` is a chunking fact worth knowing. */
export interface AnchorFinding {
  level: "error" | "warning";
  field: "anchor.text" | "anchor.doc";
  message: string;
}

const q = JSON.stringify;

/**
 * The word-count half of the rule, which needs no chunks.
 *
 * @example
 * anchorWordFinding("carried forward") // { level: "error", field: "anchor.text", message: "has 2 words; ..." }
 */
export function anchorWordFinding(text: string): AnchorFinding | undefined {
  const n = wordCount(text);
  if (n >= ANCHOR_WORDS.min && n <= ANCHOR_WORDS.max) return undefined;
  return {
    level: "error",
    field: "anchor.text",
    message: `has ${n} word${n === 1 ? "" : "s"}; an anchor is a verbatim phrase of ${ANCHOR_WORDS.min} to ${ANCHOR_WORDS.max} words (shorter ones mark chunks that merely mention the words, longer ones rarely survive re-chunking)`,
  };
}

/**
 * The half of the rule that reads one chunks file: the anchor's document has
 * chunks, and the anchor occurs exactly once in the document rebuilt from
 * them; when it occurs once but no chunk holds it whole, a warning naming
 * the chunks the boundary cut it across. `layouts` caches rebuilt documents.
 */
export function anchorChunkFindings(anchor: Anchor, index: ChunkIndex, chunksFile: string, layouts: LayoutCache = new Map()): AnchorFinding[] {
  // Remembered per index: `retrieval` checks the anchors while the pipeline output loads, then again once it has loaded.
  const memo = derivedMemo<AnchorFinding[]>(index, FINDINGS);
  const key = JSON.stringify([chunksFile, anchor.doc, anchor.text]); // ids and texts may hold any character: no separator is safe
  let found = memo.get(key);
  if (!found) memo.set(key, (found = findingsOf(anchor, index, chunksFile, layouts)));
  return found.map((f) => ({ ...f }));
}

const FINDINGS = {};

function findingsOf(anchor: Anchor, index: ChunkIndex, chunksFile: string, layouts: LayoutCache): AnchorFinding[] {
  if (!index.byDoc.has(anchor.doc)) return [{ level: "error", field: "anchor.doc", message: `document ${q(anchor.doc)} has no chunk in ${chunksFile}` }];
  const layout = cachedLayout(index, anchor.doc, layouts);
  const place = locateAnchor(index, anchor, layout);
  // The rebuilt document answers which chunks hold the anchor too: the relevant sets take that from here.
  const needle = normalise(anchor.text);
  noteAnchorChunks(index, anchor.doc, needle, chunksHolding(layout, needle));
  if (place.occurrences === 0) {
    return [{ level: "error", field: "anchor.text", message: `is not in document ${q(anchor.doc)} as its chunks in ${chunksFile} hold it (not verbatim: compare spelling, punctuation and numbers), so no chunk is relevant` }];
  }
  if (place.occurrences > 1) {
    return [{ level: "error", field: "anchor.text", message: `occurs ${place.occurrences} times in document ${q(anchor.doc)}; an anchor must occur exactly once, or it marks chunks that do not answer` }];
  }
  if (place.whole.length === 0) {
    const parts = place.pieces.map((p) => `${p.chunk} holds ${q(p.text)}`).join(", ");
    return [{ level: "warning", field: "anchor.text", message: `is cut by a chunk boundary in ${chunksFile} (${parts}): no chunk holds it whole, so this question has no relevant chunk there and the miss analysis calls it chunk-boundary` }];
  }
  return [];
}

/** The anchor findings of a loaded golden set against loaded variants, as located errors and warnings. */
export interface AnchorCheck {
  problems: InputError[];
  warnings: InputError[];
}

/**
 * Checks every anchor of a loaded golden set: its word count once, then its
 * place in each distinct chunks file. What `retrieval` runs before scoring
 * (`validate` runs the same two functions on the raw files).
 *
 * @example
 * const { problems, warnings } = checkAnchors(golden, variants);
 * if (problems.length) throw new InputErrors(problems);
 */
export function checkAnchors(golden: Pick<GoldenSet, "file" | "questions" | "lineOf">, variants: readonly Pick<VariantData, "chunks" | "chunksFile">[]): AnchorCheck {
  const problems: InputError[] = [];
  const warnings: InputError[] = [];
  const add = (f: AnchorFinding, line: number | undefined) => (f.level === "error" ? problems : warnings).push(new InputError(golden.file, line, f.field, f.message));
  const files = new Map<string, ChunkIndex>();
  // Passages given as text have no chunks file, so no corpus to place an anchor in: only the word rule applies.
  for (const v of variants) if (v.chunksFile !== undefined && !files.has(v.chunksFile)) files.set(v.chunksFile, v.chunks);
  const layouts = new Map([...files.keys()].map((f): [string, LayoutCache] => [f, new Map()]));
  for (const question of golden.questions) {
    const a = question.anchor;
    if (!a || !question.answerable) continue;
    const line = golden.lineOf.get(question.id);
    const words = anchorWordFinding(a.text);
    if (words) add(words, line);
    for (const [file, index] of files) for (const f of anchorChunkFindings(a, index, file, layouts.get(file))) add(f, line);
  }
  return { problems, warnings };
}
