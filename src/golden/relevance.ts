import { normalise } from "./normalise.js";
import type { Chunk, GoldenQuestion } from "./schema/golden.js";

/** Chunks grouped by document, with their normalised text computed once. */
export interface ChunkIndex {
  byId: Map<string, Chunk>;
  byDoc: Map<string, { chunk: Chunk; norm: string }[]>;
}

/** Indexes a chunks file for relevance and validation look-ups. */
export function indexChunks(chunks: Iterable<Chunk>): ChunkIndex {
  const byId = new Map<string, Chunk>();
  const byDoc = new Map<string, { chunk: Chunk; norm: string }[]>();
  for (const chunk of chunks) {
    byId.set(chunk.id, chunk);
    let list = byDoc.get(chunk.doc);
    if (!list) byDoc.set(chunk.doc, (list = []));
    list.push({ chunk, norm: normalise(chunk.text) });
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
