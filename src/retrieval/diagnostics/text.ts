import { cachedLayout, locateAnchor, type AnchorPiece, type LayoutCache } from "../../golden/document.js";
import type { ChunkIndex } from "../../golden/relevance.js";
import type { GoldenQuestion } from "../../golden/schema/golden.js";
import { normalise } from "../../golden/normalise.js";
import { contentWords, hasStem } from "../../golden/words.js";
import { joinWords } from "./table.js";

/**
 * The text half of the miss analysis: seed 000's chunk-boundary is "the cut
 * separated the anchor from the words or heading that would have matched",
 * so it is decided by reading the chunks, not by ranks. Two shapes:
 *
 * - the anchor itself is cut: it occurs once in its document, but no chunk
 *   holds it whole (each side of the cut holds a part);
 * - the question's words sit across a cut: the anchor's chunk lacks words of
 *   the question that a chunk beside it (previous or next in the document, or
 *   under the same heading) holds in its text or heading.
 */

/** Where the anchor's chunk sits relative to a chunk holding a question word. */
export type Side = "previous" | "next" | "same section";

/** One question word the anchor's chunk lacks, and the chunk beside it that holds it. */
export interface WordPlace {
  /** The word as the question writes it. */
  word: string;
  chunk: string;
  where: "text" | "heading";
  side: Side;
}

/** What the chunks say about one miss. */
export interface TextEvidence {
  /** The question's content words (stop words out), as written. */
  queryWords: string[];
  /** The relevant chunk(s) the words were read against, in document order. */
  anchorChunks: string[];
  /** Question words the relevant chunks hold (text or heading). */
  inAnchorChunk: string[];
  /** Question words the relevant chunks lack that a chunk beside one of them holds. */
  across: WordPlace[];
  /** When a chunk boundary cuts the anchor: the chunks it is cut across, with the part each holds. */
  split: AnchorPiece[] | null;
}

/** No evidence (no relevant chunk, no anchor to locate). */
export function emptyEvidence(queryWords: string[] = []): TextEvidence {
  return { queryWords, anchorChunks: [], inAnchorChunk: [], across: [], split: null };
}

/**
 * The chunks a cut separated from the chunk at `at`: the previous and next
 * chunk of its document, then others under the same non-empty heading. When
 * both sides carry a heading and the headings differ, the neighbour is another
 * section: its words were never part of the anchor's passage (the author cut
 * there, not the chunker), so it is left out.
 */
function neighbours(list: readonly { chunk: { id: string; heading?: string | undefined } }[], at: number): { index: number; side: Side }[] {
  const heading = list[at]!.chunk.heading;
  const sameSection = (i: number) => !heading || !list[i]!.chunk.heading || list[i]!.chunk.heading === heading;
  const out: { index: number; side: Side }[] = [];
  if (at > 0 && sameSection(at - 1)) out.push({ index: at - 1, side: "previous" });
  if (at + 1 < list.length && sameSection(at + 1)) out.push({ index: at + 1, side: "next" });
  if (heading) list.forEach((e, i) => {
    if (Math.abs(i - at) > 1 && e.chunk.heading === heading) out.push({ index: i, side: "same section" });
  });
  return out;
}

/**
 * What the caller already knows of one question, so that the miss analysis
 * works it out once: its {@link contentWords}, and the documents of its
 * relevant chunks in the relevant set's order.
 */
export interface KnownOfQuestion {
  words?: ReadonlyMap<string, string>;
  docs?: ReadonlySet<string>;
}

/**
 * Reads one miss's chunks: the question's words, which of them the relevant
 * chunks hold, which sit in a chunk beside them instead, and whether a chunk
 * boundary cuts the anchor (only looked for when no chunk is relevant).
 * `layouts` caches rebuilt documents per variant.
 *
 * @example
 * textEvidence(q, new Set(["hr#1"]), chunks, new Map()).across
 * // [{ word: "casual", chunk: "hr#0", where: "heading", side: "previous" }]
 */
export function textEvidence(
  question: GoldenQuestion,
  relevant: ReadonlySet<string>,
  chunks: ChunkIndex,
  layouts: LayoutCache,
  chunkWords: ChunkWords = new ChunkWords(),
  known: KnownOfQuestion = {},
): TextEvidence {
  const words = known.words ?? contentWords(question.question);
  const ev = emptyEvidence([...words.values()]);
  if (relevant.size === 0) {
    if (question.anchor && chunks.byDoc.has(question.anchor.doc)) {
      const place = locateAnchor(chunks, question.anchor, cachedLayout(chunks, question.anchor.doc, layouts));
      if (place.occurrences === 1 && place.whole.length === 0 && place.pieces.length > 1) ev.split = place.pieces;
    }
    return ev;
  }
  const held: ChunkStems[] = [];
  const beside: { index: number; side: Side; list: { chunk: { id: string; text: string; heading?: string | undefined } }[] }[] = [];
  const docs = known.docs ?? new Set([...relevant].map((id) => chunks.byId.get(id)?.doc).filter((d): d is string => d !== undefined));
  for (const doc of docs) {
    const list = chunks.byDoc.get(doc) ?? [];
    list.forEach((e, i) => {
      if (!relevant.has(e.chunk.id)) return;
      ev.anchorChunks.push(e.chunk.id);
      held.push(chunkWords.of(e.chunk));
      for (const n of neighbours(list, i)) if (!relevant.has(list[n.index]!.chunk.id)) beside.push({ ...n, list });
    });
  }
  const isHeld = (stem: string) => held.some((c) => c.has(stem));
  ev.inAnchorChunk = [...words].filter(([s]) => isHeld(s)).map(([, w]) => w);
  const missing = [...words].filter(([s]) => !isHeld(s));
  const order: Record<Side, number> = { previous: 0, next: 1, "same section": 2 };
  beside.sort((a, b) => order[a.side] - order[b.side] || a.index - b.index);
  for (const [stem, word] of missing) {
    for (const n of beside) {
      const c = n.list[n.index]!.chunk;
      const w = chunkWords.of(c);
      const where = w.inText(stem) ? "text" : w.inHeading(stem) ? "heading" : null;
      if (where) {
        ev.across.push({ word, chunk: c.id, where, side: n.side });
        break;
      }
    }
  }
  return ev;
}

/**
 * Whether one chunk's words have a given stem, in its text, its heading, or
 * either (the stems of `${heading} ${text}` are the union of the two).
 * The analysis only ever asks about a question's few stems, and most are
 * not there: {@link hasStem} reads only the words that start as the stem
 * does, so the normalised text is all that is kept.
 */
export class ChunkStems {
  private textNorm: string | undefined;
  private headingNorm: string | undefined;

  constructor(private readonly chunk: { text: string; heading?: string | undefined }) {}

  inText(stem: string): boolean {
    return hasStem((this.textNorm ??= normalise(this.chunk.text)), stem);
  }

  inHeading(stem: string): boolean {
    const heading = this.chunk.heading;
    if (!heading) return false;
    return hasStem((this.headingNorm ??= normalise(heading)), stem);
  }

  has(stem: string): boolean {
    return this.inHeading(stem) || this.inText(stem);
  }
}

/**
 * The {@link ChunkStems} of the chunks one miss analysis reads, one per
 * chunk: the same anchor chunk and its neighbours are read for every word
 * the chunk lacks and again for the neighbour's evidence, and questions
 * about one passage share chunks. Forgotten wholesale past a bound, so a
 * large evaluation does not hold every chunk's words.
 */
export class ChunkWords {
  private readonly memo = new Map<object, ChunkStems>();

  constructor(private readonly bound = 10_000) {}

  of(chunk: { text: string; heading?: string | undefined }): ChunkStems {
    let s = this.memo.get(chunk);
    if (!s) {
      if (this.memo.size >= this.bound) this.memo.clear();
      this.memo.set(chunk, (s = new ChunkStems(chunk)));
    }
    return s;
  }
}

/**
 * How many question words must sit across the cut: two, or one when the
 * question has only one or two content words. A single common word beside
 * the anchor's chunk ("time", "work") is what any conceptual paraphrase
 * leaves; it says nothing about a cut.
 */
export function acrossNeeded(queryWords: number): number {
  return Math.min(2, Math.ceil(queryWords / 2));
}

/**
 * Whether the text shows a chunk boundary: the anchor is cut; or the chunks
 * beside the anchor's chunk hold enough of the question's words that it
 * lacks ({@link acrossNeeded}), and at least as many as it holds itself (the
 * passage matches the question, the anchor's piece of it does not).
 *
 * @example
 * isBoundary({ ...ev, queryWords: ["vpn", "reset", "form"], inAnchorChunk: ["form"], across: [vpn, reset] }) // true
 */
export function isBoundary(e: TextEvidence): boolean {
  if (e.split) return true;
  const n = e.across.length;
  return n > 0 && n >= acrossNeeded(e.queryWords.length) && n >= e.inAnchorChunk.length;
}

const quoted = (words: readonly string[]) => joinWords(words.map((w) => JSON.stringify(w)));

/** What a chunk ranking high beside the anchor's chunk holds of the question's words that the anchor's chunk lacks. */
export interface NeighbourText {
  chunk: string;
  /** Those words, as the question writes them. */
  words: string[];
  /** The neighbour's heading when it is another section than the anchor's chunk (so its words were never the anchor's passage). */
  otherSection: string | null;
}

/**
 * Reads one neighbour of the anchor's chunk (a chunk beside it that ranks
 * high): which of the question's words it holds that the relevant chunks
 * lack, and whether it is another section.
 */
export function neighbourText(
  question: GoldenQuestion,
  relevant: ReadonlySet<string>,
  chunk: string,
  chunks: ChunkIndex,
  chunkWords: ChunkWords = new ChunkWords(),
  questionWords: ReadonlyMap<string, string> = contentWords(question.question),
): NeighbourText {
  const c = chunks.byId.get(chunk);
  const held: ChunkStems[] = [];
  const headings = new Set<string>();
  for (const id of relevant) {
    const r = chunks.byId.get(id);
    if (!r) continue;
    held.push(chunkWords.of(r));
    if (r.heading && r.doc === c?.doc) headings.add(r.heading);
  }
  const has = c ? chunkWords.of(c) : undefined;
  const words = has ? [...questionWords].filter(([s]) => has.has(s) && !held.some((r) => r.has(s))).map(([, w]) => w) : [];
  const otherSection = c?.heading && headings.size > 0 && !headings.has(c.heading) ? c.heading : null;
  return { chunk, words, otherSection };
}

/**
 * Why a neighbour that ranks high is no boundary evidence, when it is not:
 * it is another section, holds too few of the missing words, or none.
 */
export function describeNeighbour(n: NeighbourText, rank: string): string {
  if (n.otherSection) return `${n.chunk} ranks ${rank} but is another section (${JSON.stringify(n.otherSection)}), so no cut separated its words from the anchor`;
  if (n.words.length) return `${n.chunk}, beside the anchor's chunk, ranks ${rank} but holds only ${quoted(n.words)} of the question's words, too few to call the cut the cause`;
  return `${n.chunk}, beside the anchor's chunk, ranks ${rank} but holds none of the question's words the anchor's chunk lacks, so the cut hid nothing`;
}


/**
 * The evidence as one sentence, naming the words and where they are.
 *
 * @example
 * describeEvidence(ev)
 * // 'the question\'s words "casual" (heading of hr#0, previous chunk) sit beside the anchor\'s chunk hr#1, which holds "leave"'
 */
export function describeEvidence(e: TextEvidence): string {
  if (e.split) {
    return `the anchor is cut by a chunk boundary: ${e.split.map((p) => `${p.chunk} holds ${JSON.stringify(p.text)}`).join(", ")}; no chunk holds it whole`;
  }
  if (e.anchorChunks.length === 0) return e.queryWords.length ? `no relevant chunk to read the question's words ${quoted(e.queryWords)} against` : "no relevant chunk";
  const chunk = e.anchorChunks.length === 1 ? `the anchor's chunk ${e.anchorChunks[0]}` : `the relevant chunks ${joinWords(e.anchorChunks)}`;
  if (e.queryWords.length === 0) return `${chunk}: the question has no content word to look for (only stop words)`;
  if (e.across.length === 0) {
    return e.inAnchorChunk.length
      ? e.inAnchorChunk.length >= e.queryWords.length
        ? `${chunk} ${e.anchorChunks.length === 1 ? "holds" : "hold"} every one of the question's words (${quoted(e.inAnchorChunk)})`
        : `${chunk} holds ${quoted(e.inAnchorChunk)} of the question's words; no chunk beside it holds the others`
      : `${chunk} shares none of the question's words (${quoted(e.queryWords)}), and no chunk beside it holds them`;
  }
  const places = e.across.map((p) => `${JSON.stringify(p.word)} (${p.where} of ${p.chunk}, ${p.side === "same section" ? "same section" : `${p.side} chunk`})`);
  return `the question's ${e.across.length === 1 ? "word" : "words"} ${joinWords(places)} ${e.across.length === 1 ? "sits" : "sit"} beside ${chunk}, which holds ${e.inAnchorChunk.length ? `only ${quoted(e.inAnchorChunk)}` : "none of the question's words"}`;
}
