import { normalise } from "./normalise.js";
import type { Chunk, GoldenQuestion } from "./schema/golden.js";

/** Chunks grouped by document, with their normalised text computed once. */
export interface ChunkIndex {
  byId: Map<string, Chunk>;
  byDoc: Map<string, IndexedChunk[]>;
}

/**
 * A chunk and its normalised text, computed when asked for and not kept:
 * an evaluation of 100 questions over 500,000 chunks normalises only the
 * chunks of the documents its anchors name, and one of 50,000 questions
 * does not hold a second copy of every chunk's text (relevant sets, which
 * read it, are computed once per chunks file: relevantSets in dataset.ts).
 */
export class IndexedChunk {
  constructor(readonly chunk: Chunk) {}

  /** {@link normalise} of the chunk's text. */
  get norm(): string {
    return normalise(this.chunk.text);
  }
}

/**
 * Indexes a chunks file for relevance and validation look-ups. A chunk id
 * given twice keeps its first chunk in `byId` (the loaders report the
 * duplicate); `byDoc` lists every chunk in file order.
 */
export function indexChunks(chunks: Iterable<Chunk>): ChunkIndex {
  const byId = new Map<string, Chunk>();
  const byDoc = new Map<string, IndexedChunk[]>();
  let lastDoc: string | undefined;
  let list: IndexedChunk[] = [];
  for (const chunk of chunks) {
    if (!byId.has(chunk.id)) byId.set(chunk.id, chunk);
    // a document's chunks are usually consecutive: look its list up only when the document changes
    if (chunk.doc !== lastDoc) {
      lastDoc = chunk.doc;
      let l = byDoc.get(chunk.doc);
      if (!l) byDoc.set(chunk.doc, (l = []));
      list = l;
    }
    list.push(new IndexedChunk(chunk));
  }
  return { byId, byDoc };
}

/**
 * Ids of the chunks that contain the anchor: chunks of the anchor's document
 * whose normalised text contains the normalised anchor (seed 000). Recomputed
 * for every chunks file, so re-chunking needs no new labels. An anchor that
 * normalises to nothing marks no chunk (the schema rejects it on load).
 */
export function anchorChunks(anchor: { doc: string; text: string }, index: ChunkIndex): string[] {
  const needle = normalise(anchor.text);
  const out: string[] = [];
  if (needle === "") return out; // "" is in every text: an empty anchor marks nothing, not everything
  for (const { chunk, norm } of index.byDoc.get(anchor.doc) ?? []) {
    if (norm.includes(needle)) out.push(chunk.id);
  }
  return out;
}

/**
 * The binary relevant set of a golden question for one chunks file: the
 * listed `relevant` ids plus every chunk containing the anchor. Empty for
 * unanswerable questions, which retrieval metrics leave out.
 */
export function relevantSet(q: GoldenQuestion, index: ChunkIndex): Set<string> {
  const rel = new Set<string>(q.relevant ?? []);
  if (q.anchor) for (const id of anchorChunks(q.anchor, index)) rel.add(id);
  return rel;
}
