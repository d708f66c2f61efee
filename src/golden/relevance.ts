import { normalise } from "./normalise.js";
import { NO_DOC, passageId } from "./passages.js";
import { markReadOnly } from "./relevant-ranks.js";
import type { Chunk, GoldenQuestion } from "./schema/golden.js";
import type { LinePassage } from "./schema/pipeline.js";

/** Chunks grouped by document, each with its normalised text on demand. */
export interface ChunkIndex {
  byId: Map<string, Chunk>;
  byDoc: Map<string, IndexedChunk[]>;
  /**
   * Ids of the passages given as text in a pipeline output (not read from a
   * chunks file): their order within a document is the order they were
   * first seen, not the document's, so no analysis may call two of them
   * adjacent.
   */
  passages: Set<string>;
}

/**
 * A chunk and its normalised text, computed when asked for and not kept:
 * an evaluation of 100 questions over 500,000 chunks normalises only the
 * chunks of the documents its anchors name, and one of 50,000 questions
 * does not hold a second copy of every chunk's text (relevant sets, which
 * read it, are computed once per chunks file: {@link relevantSets}).
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
  const indexer = chunkIndexer();
  for (const chunk of chunks) indexer.add(chunk);
  return indexer.index;
}

/**
 * {@link indexChunks} a chunk at a time, for a loader that indexes each
 * block of lines as it is parsed (and so keeps no list of the whole file's
 * lines): `count` is the number of chunks added, `index.byId.size` the
 * number of distinct ids.
 */
export function chunkIndexer(): { index: ChunkIndex; add(chunk: Chunk): void; readonly count: number } {
  const index: ChunkIndex = { byId: new Map(), byDoc: new Map(), passages: new Set() };
  const { byId, byDoc } = index;
  let lastDoc: string | undefined;
  let list: IndexedChunk[] = [];
  let count = 0;
  return {
    index,
    get count() {
      return count;
    },
    add(chunk: Chunk) {
      count++;
      if (!byId.has(chunk.id)) byId.set(chunk.id, chunk);
      // a document's chunks are usually consecutive: look its list up only when the document changes
      if (chunk.doc !== lastDoc) {
        lastDoc = chunk.doc;
        let l = byDoc.get(chunk.doc);
        if (!l) byDoc.set(chunk.doc, (l = []));
        list = l;
      }
      list.push(new IndexedChunk(chunk));
    },
  };
}

/** A copy of an index that can take passages ({@link addPassages}) without changing the original; the chunks themselves are shared, as nothing changes them. */
export function copyIndex(index: ChunkIndex): ChunkIndex {
  return { byId: new Map(index.byId), byDoc: new Map([...index.byDoc].map(([doc, list]) => [doc, [...list]])), passages: new Set(index.passages) };
}

function addChunk(index: ChunkIndex, chunk: Chunk): void {
  index.byId.set(chunk.id, chunk);
  let list = index.byDoc.get(chunk.doc);
  if (!list) index.byDoc.set(chunk.doc, (list = []));
  list.push(new IndexedChunk(chunk));
}

/**
 * Adds the passages a pipeline output gave as text to a variant's index
 * (each id once; an id a chunks file already has is left as the file has
 * it). A passage without `doc` is filed under {@link NO_DOC} until a line
 * names its document; the first document named wins. What was computed from
 * the index before (text matches, relevant sets) is computed again.
 */
export function addPassages(index: ChunkIndex, passages: Iterable<LinePassage>): void {
  textMatches.delete(index);
  normsOf.delete(index);
  derived.delete(index);
  relevantMemo.delete(index);
  for (const p of passages) {
    const known = index.byId.get(p.id);
    if (!known) {
      addChunk(index, { id: p.id, doc: p.doc, text: p.text });
      index.passages.add(p.id);
    } else if (index.passages.has(p.id) && known.doc === NO_DOC && p.doc !== NO_DOC) {
      // The same text, seen before without its document: file it under the one given now.
      const docless = index.byDoc.get(NO_DOC)!;
      docless.splice(docless.findIndex((e) => e.chunk.id === p.id), 1);
      index.byId.delete(p.id);
      addChunk(index, { ...known, doc: p.doc });
    }
  }
}

/**
 * Ids of the chunks that contain the anchor: chunks of the anchor's document
 * whose normalised text contains the normalised anchor (seed 000), and
 * passages given as text without a document that contain it. Recomputed for
 * every chunks file, so re-chunking needs no new labels. An anchor that
 * normalises to nothing marks no chunk (the schema rejects it on load).
 */
export function anchorChunks(anchor: { doc: string; text: string }, index: ChunkIndex): string[] {
  const needle = normalise(anchor.text);
  const out: string[] = [];
  if (needle === "") return out; // "" is in every text: an empty anchor marks nothing, not everything
  const noted = derived.get(index)?.get(ANCHOR_HITS)?.get(hitKey(anchor.doc, needle)) as readonly string[] | undefined;
  for (const doc of [anchor.doc, NO_DOC]) {
    if (noted && doc === anchor.doc) {
      out.push(...noted);
      continue;
    }
    for (const { chunk, norm } of index.byDoc.get(doc) ?? []) {
      if (norm.includes(needle)) out.push(chunk.id);
    }
  }
  return out;
}

/**
 * The chunks of a document that hold a normalised anchor, as the anchor
 * check found them in the document it rebuilt (anchors.ts), kept for
 * {@link anchorChunks}: the relevant sets would otherwise normalise every
 * anchor document's chunks a second time (1.3 s of 50,000 anchors over
 * 500,000 chunks). Dropped when passages join the index ({@link addPassages}).
 */
export function noteAnchorChunks(index: ChunkIndex, doc: string, needle: string, ids: readonly string[]): void {
  derivedMemo<readonly string[]>(index, ANCHOR_HITS).set(hitKey(doc, needle), ids);
}

const ANCHOR_HITS = {};
/** A key no two (doc, needle) pairs share: both may hold any character, NUL included, which JSON escapes. */
const hitKey = (doc: string, needle: string) => JSON.stringify([doc, needle]);

/**
 * A memo of facts computed from an index's chunks, kept for the index under
 * `owner` (any object a module keeps for the purpose): the anchor check's
 * findings, the chunks holding each anchor. Every such memo is dropped when
 * passages join the index ({@link addPassages}), so none outlives the
 * chunks it was computed from.
 */
export function derivedMemo<T>(index: ChunkIndex, owner: object): Map<string, T> {
  let byOwner = derived.get(index);
  if (!byOwner) derived.set(index, (byOwner = new Map()));
  let memo = byOwner.get(owner);
  if (!memo) byOwner.set(owner, (memo = new Map()));
  return memo as Map<string, T>;
}
const derived = new WeakMap<ChunkIndex, Map<object, Map<string, unknown>>>();

/**
 * Ids of the chunks that match a passage a person marked as relevant
 * (`relevantText`, Ragas' `reference_contexts`): the chunk's normalised text
 * contains the marked text, or lies inside it. Containment either way lets a
 * marked passage that is a little longer or shorter than the pipeline's
 * chunk still match; an empty chunk matches nothing.
 */
export function textChunks(marked: string, index: ChunkIndex): string[] {
  const needle = normalise(marked);
  if (needle === "") return [];
  // Scoring, diagnosis, the join and the judge's items all ask for the same sets: scan each index once per text.
  let memo = textMatches.get(index);
  if (!memo) textMatches.set(index, (memo = new Map()));
  const known = memo.get(needle);
  if (known) return [...known];
  const out: string[] = [];
  const { ids, norms } = allNorms(index);
  for (let i = 0; i < ids.length; i++) {
    const norm = norms[i]!;
    if (norm !== "" && (norm.includes(needle) || needle.includes(norm))) out.push(ids[i]!);
  }
  memo.set(needle, out);
  return [...out];
}

/** {@link textChunks} results per index and normalised text. */
const textMatches = new WeakMap<ChunkIndex, Map<string, string[]>>();

/**
 * Every chunk's id and normalised text, in the index's order, kept for the
 * index once a marked text must be compared with all of them: each further
 * marked text then scans without normalising 500,000 chunks again. Only a
 * golden set with `relevantText` pays for it.
 */
function allNorms(index: ChunkIndex): { ids: string[]; norms: string[] } {
  let all = normsOf.get(index);
  if (!all) {
    all = { ids: [], norms: [] };
    for (const list of index.byDoc.values()) {
      for (const e of list) {
        all.ids.push(e.chunk.id);
        all.norms.push(e.norm);
      }
    }
    normsOf.set(index, all);
  }
  return all;
}
const normsOf = new WeakMap<ChunkIndex, { ids: string[]; norms: string[] }>();

/**
 * The binary relevant set of a golden question for one variant's chunks:
 * the listed `relevant` ids, every chunk containing the anchor, and every
 * chunk matching a `relevantText` passage. A marked passage that matches no
 * chunk still counts as one relevant passage, under the id it would have as
 * text ({@link passageId}), so it is in recall's denominator exactly as a
 * relevant chunk that was never retrieved. Empty for unanswerable questions,
 * which retrieval metrics leave out.
 */
export function relevantSet(q: GoldenQuestion, index: ChunkIndex): Set<string> {
  const rel = new Set<string>(q.relevant ?? []);
  if (q.anchor) for (const id of anchorChunks(q.anchor, index)) rel.add(id);
  for (const marked of q.relevantText ?? []) {
    const ids = textChunks(marked, index);
    if (ids.length === 0) rel.add(passageId(marked));
    for (const id of ids) rel.add(id);
  }
  return rel;
}

/**
 * Relevant sets of every answerable question for one variant's chunks.
 * Computed once per question list and chunk index and shared (scoring, the
 * diagnostics, the judge's items and the report all ask): read them, never
 * change them. Adding passages to the index ({@link addPassages}) drops them.
 */
export function relevantSets(golden: { questions: readonly GoldenQuestion[] }, chunks: ChunkIndex): ReadonlyMap<string, ReadonlySet<string>> {
  let byQuestions = relevantMemo.get(chunks);
  if (!byQuestions) relevantMemo.set(chunks, (byQuestions = new WeakMap()));
  let out = byQuestions.get(golden.questions);
  if (!out) {
    const sets = new Map<string, ReadonlySet<string>>();
    for (const q of golden.questions) {
      if (!q.answerable) continue;
      const rel = relevantSet(q, chunks);
      markReadOnly(rel); // shared and never changed: its ranks in a loaded list may be remembered (relevant-ranks.ts)
      sets.set(q.id, rel);
    }
    byQuestions.set(golden.questions, (out = sets));
  }
  return out;
}
const relevantMemo = new WeakMap<ChunkIndex, WeakMap<readonly GoldenQuestion[], ReadonlyMap<string, ReadonlySet<string>>>>();
