import { normalise } from "./normalise.js";
import type { ChunkIndex } from "./relevance.js";

/**
 * A document as ragjudge sees it: rebuilt from its chunks, because chunks are
 * all a chunks file holds of a document. Validation counts an anchor's
 * occurrences in it (exactly once, the README's rule), and the miss analysis
 * finds where a chunk boundary cuts an anchor (seed 000's chunk-boundary).
 */

/** One chunk's place in the rebuilt document text: [start, end) in normalised characters. */
export interface ChunkSpan {
  id: string;
  start: number;
  end: number;
}

/** A document's normalised text and where each of its chunks lies in it, in chunks-file order. */
export interface DocumentLayout {
  text: string;
  spans: ChunkSpan[];
}

/**
 * Longest suffix of `a` that is a prefix of `b` and falls on word
 * boundaries at both ends (so "twelve" + "example" do not merge on their
 * shared "e"). Such a suffix starts with `b`'s first word at a word start
 * of `a`, so the candidates are that word's occurrences in `a`'s last
 * `b.length` characters, found by the engine's `indexOf` (most pairs of
 * chunks have none), longest first; each is then compared directly.
 * Text that keeps comparisons long without matching (repetitive text)
 * spends a budget linear in the lengths and then asks {@link overlapKmp},
 * which is linear always; both give the same length
 * (test/golden/document.test.ts).
 */
export function overlap(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  if (max === 0) return 0;
  if (b.includes("\u0000") || a.includes("\u0000", a.length - max)) return overlapKmp(a, b); // the separator overlapKmp relies on
  const space = b.indexOf(" ");
  const head = space === -1 ? b.length : space; // b's first word; a suffix of a that b starts with holds it whole
  if (head === 0) return overlapKmp(a, b); // b starts with a space: not a normalised text
  const word = head === b.length ? b : b.slice(0, head);
  let budget = 4 * max + 64;
  const last = a.length - head;
  for (let off = a.indexOf(word, a.length - max); off !== -1 && off <= last; off = a.indexOf(word, off + 1)) {
    if (off !== 0 && a.charCodeAt(off - 1) !== 32) continue;
    const k = a.length - off;
    if (k !== b.length && b.charCodeAt(k) !== 32) continue;
    let i = head;
    while (i < k && a.charCodeAt(off + i) === b.charCodeAt(i)) i++;
    if (i === k) return k;
    budget -= i - head + 1;
    if (budget < 0) return overlapKmp(a, b);
  }
  return 0;
}

/**
 * {@link overlap} by the prefix function of b + separator + the tail of a,
 * then its chain of shorter borders until one starts and ends at a space.
 */
export function overlapKmp(a: string, b: string): number {
  const tail = a.slice(Math.max(0, a.length - b.length));
  const s = `${b}\u0000${tail}`;
  const pi = new Int32Array(s.length);
  for (let i = 1; i < s.length; i++) {
    let k = pi[i - 1]!;
    while (k > 0 && s[i] !== s[k]) k = pi[k - 1]!;
    if (s[i] === s[k]) k++;
    pi[i] = k;
  }
  for (let k = pi[s.length - 1]!; k > 0; k = pi[k - 1]!) {
    const startsWord = k === a.length || a[a.length - k - 1] === " ";
    const endsWord = k === b.length || b[k] === " ";
    if (startsWord && endsWord) return k;
  }
  return 0;
}

/**
 * Rebuilds a document from its chunks (normalised, in file order), merging
 * the overlap between consecutive chunks so that text inside an overlap is
 * not counted twice; chunks that do not overlap are joined by one space.
 *
 * @example
 * documentLayout(indexChunks([{id:"a",doc:"d",text:"one two"},{id:"b",doc:"d",text:"two three"}]), "d")
 * // { text: "one two three", spans: [{id:"a",start:0,end:7},{id:"b",start:4,end:13}] }
 */
export function documentLayout(index: ChunkIndex, doc: string): DocumentLayout {
  const list = index.byDoc.get(doc) ?? [];
  const norms = list.map((e) => e.norm);
  // Overlaps are found against the text's last characters only (at least one more than the longest
  // chunk, so a word boundary before an overlap is still seen), kept apart from the parts joined at
  // the end: reading the growing text itself would copy it once per chunk, quadratic in a long document.
  const keep = norms.reduce((m, n) => Math.max(m, n.length), 0) + 1;
  const parts: string[] = [];
  const spans: ChunkSpan[] = [];
  let length = 0;
  let recent = "";
  for (let i = 0; i < list.length; i++) {
    const norm = norms[i]!;
    let start: number;
    let added: string;
    if (length === 0) {
      start = 0;
      added = norm;
    } else {
      const k = overlap(recent, norm);
      start = k > 0 ? length - k : length + 1;
      added = k > 0 ? norm.slice(k) : ` ${norm}`;
    }
    parts.push(added);
    length += added.length;
    recent = recent.length + added.length > 2 * keep ? (recent + added).slice(-keep) : recent + added;
    spans.push({ id: list[i]!.chunk.id, start, end: start + norm.length });
  }
  return { text: parts.join(""), spans };
}

/** Rebuilt documents remembered per chunk index and document id (see {@link cachedLayout}). */
export type LayoutCache = Map<string, DocumentLayout>;

/** How many rebuilt documents a {@link LayoutCache} keeps before it starts again. */
const LAYOUTS_KEPT = 256;

/**
 * {@link documentLayout}, remembered in `cache` for the questions that share
 * an anchor document. Bounded: 50,000 anchors in 50,000 documents would
 * otherwise keep every document's text to the end of the check, all of it
 * promoted to the old generation and then garbage.
 */
export function cachedLayout(index: ChunkIndex, doc: string, cache: LayoutCache): DocumentLayout {
  let layout = cache.get(doc);
  if (!layout) {
    if (cache.size >= LAYOUTS_KEPT) cache.clear();
    cache.set(doc, (layout = documentLayout(index, doc)));
  }
  return layout;
}

/**
 * Ids of the chunks whose normalised text holds `needle` (a normalised
 * anchor), in the document's chunk order, read from its rebuilt text: the
 * text at a chunk's span is that chunk's normalised text, so a chunk holds
 * the needle exactly when an occurrence starts inside its span and ends
 * inside it too (the first occurrence from the span's start decides: a later
 * one ends later still). No chunk is normalised again.
 *
 * @example
 * chunksHolding(documentLayout(index, "hr"), "carried forward") // ["hr#3"]
 */
export function chunksHolding(layout: DocumentLayout, needle: string): string[] {
  const out: string[] = [];
  if (needle === "") return out;
  // Every occurrence's start, overlapping ones too, found once (most documents hold an anchor once);
  // then per chunk the first start at or after its own, by binary search: spans need not be in text order.
  const starts: number[] = [];
  for (let at = layout.text.indexOf(needle); at !== -1; at = layout.text.indexOf(needle, at + 1)) starts.push(at);
  if (starts.length === 0) return out;
  for (const s of layout.spans) {
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! < s.start) lo = mid + 1;
      else hi = mid;
    }
    if (lo < starts.length && starts[lo]! + needle.length <= s.end) out.push(s.id);
  }
  return out;
}

/** The part of an anchor one chunk holds, when a boundary cuts the anchor. */
export interface AnchorPiece {
  chunk: string;
  /** The anchor's normalised text that lies in this chunk. */
  text: string;
}

/** Where an anchor lies in its document. */
export interface AnchorPlace {
  /** Non-overlapping occurrences in the rebuilt document text. */
  occurrences: number;
  /** Chunks holding the (first) occurrence whole. */
  whole: string[];
  /** When no chunk holds it whole: the chunks it is cut across, in order, with the part each holds. */
  pieces: AnchorPiece[];
}

/**
 * Finds an anchor in its document's chunks: how often it occurs in the
 * rebuilt text, which chunks hold its first occurrence whole, and, when none
 * does, the chunks a boundary cut it across (with their parts of it).
 *
 * @example
 * locateAnchor(index, { doc: "hr", text: "carried forward to next year" }).pieces
 * // [{ chunk: "hr#3", text: "carried forward" }, { chunk: "hr#4", text: "to next year" }]
 */
export function locateAnchor(index: ChunkIndex, anchor: { doc: string; text: string }, layout = documentLayout(index, anchor.doc)): AnchorPlace {
  const needle = normalise(anchor.text);
  if (needle === "") return { occurrences: 0, whole: [], pieces: [] };
  let occurrences = 0;
  let first = -1;
  for (let at = layout.text.indexOf(needle); at !== -1; at = layout.text.indexOf(needle, at + needle.length)) {
    if (first < 0) first = at;
    occurrences++;
  }
  if (first < 0) return { occurrences, whole: [], pieces: [] };
  const end = first + needle.length;
  const whole = layout.spans.filter((s) => s.start <= first && s.end >= end).map((s) => s.id);
  if (whole.length) return { occurrences, whole, pieces: [] };
  const pieces = layout.spans
    .filter((s) => s.start < end && s.end > first)
    .map((s) => ({ chunk: s.id, text: layout.text.slice(Math.max(first, s.start), Math.min(end, s.end)).trim() }))
    .filter((p) => p.text !== "");
  return { occurrences, whole, pieces };
}
