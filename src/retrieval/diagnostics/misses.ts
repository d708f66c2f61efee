import type { LayoutCache } from "../../golden/document.js";
import type { ChunkIndex } from "../../golden/relevance.js";
import type { StageRoles } from "../../golden/schema/config.js";
import type { GoldenQuestion } from "../../golden/schema/golden.js";
import type { Verdict } from "../../golden/schema/items.js";
import type { PipelineOutput, RankedList } from "../../golden/schema/pipeline.js";
import { NO_DOC } from "../../golden/passages.js";
import { classifyMiss, shortRank, type SiblingEvidence, type SiblingRelation, type StageRank } from "./classify.js";
import { kindOf } from "./kinds.js";
import { relevantRanks } from "../../golden/relevant-ranks.js";
import { contentWords } from "../../golden/words.js";
import { bestRank, countInTop, declaredLists, rankOf } from "./stages.js";
import type { FailureKind, Fix } from "./taxonomy.js";
import { ChunkWords, describeEvidence, emptyEvidence, neighbourText, textEvidence, type TextEvidence } from "./text.js";

export { classifyMiss, type Classification, type MissEvidence, type SiblingEvidence, type SiblingRelation, type StageRank } from "./classify.js";

/** One analysed miss: where the relevant chunk went, the proposed kind, its fix and why. */
export interface MissRow {
  question: string;
  /** The question's kind (factual, lexical, conceptual...). */
  kind: string;
  anchor: { doc: string; text: string } | null;
  /** The relevant chunk ids for this variant's chunks. */
  relevant: string[];
  /** Declared stage lists in pipeline order, then `retrieved`. */
  ranks: StageRank[];
  failure: FailureKind;
  /** The fix from seed 000's list, when the evidence names one (undecided misses too, when every kind they could be shares it). */
  fix: Fix | null;
  /** What to do, always said: the fix, or what to correct or declare first. */
  proposal: string;
  /** One sentence built from the evidence. */
  why: string;
  /** What the chunks' text says: the question's words, which the anchor's chunk holds, which sit beside it, a cut anchor. */
  text: TextEvidence;
  /** {@link text} as one sentence: the words and where they are. */
  evidence: string;
  /** The anchor-ambiguity verdict for this question, when one was supplied. */
  ambiguity: Verdict | null;
  /** The best-ranked top-k chunk beside the anchor's chunk (adjacent or same heading), whatever the kind: supporting evidence only. */
  neighbour: SiblingEvidence | null;
  missingOutput: boolean;
}

/** Options of the miss analysis. */
export interface MissOptions {
  /** Cut-off of the final list: a question is a miss when no relevant chunk is in the top k of `retrieved`. */
  k: number;
  /** Depth within which a stage list "reaches" a chunk (seed 000: 50). */
  poolDepth: number;
  /**
   * Verdicts of the optional anchor-ambiguity rubric, question id -> verdict
   * ("yes": a top-k chunk without the anchor answers the question). Without
   * this map anchor-ambiguity is never proposed; "error" verdicts are ignored.
   */
  ambiguity?: ReadonlyMap<string, Verdict>;
}

/**
 * The shared definition of a retrieval miss: an answerable question none of
 * whose relevant chunks is in the top `k` of `retrieved`. The judge's
 * `retrieval-misses` items and this analysis must agree, so both call this.
 * A question with no relevant chunk at all counts as a miss (nothing found).
 *
 * @example
 * isRetrievalMiss(new Set(["a"]), ["b", "a"], 1) // true
 */
export function isRetrievalMiss(relevant: ReadonlySet<string>, retrieved: Readonly<RankedList>, k: number): boolean {
  return countInTop(retrieved, relevant, k) === 0;
}

/**
 * The anchor-ambiguity rubric's `candidates`: the top-k chunk ids of
 * `retrieved` that are not relevant (do not contain the anchor), in rank order.
 */
export function missCandidates(retrieved: Readonly<RankedList>, relevant: ReadonlySet<string>, k: number): string[] {
  return retrieved.slice(0, k).filter((id) => !relevant.has(id));
}

/** The variant data the miss analysis reads. */
export interface MissVariant {
  chunks: ChunkIndex;
  outputs: ReadonlyMap<string, PipelineOutput>;
  stages: StageRoles;
}

/**
 * How each chunk of the relevant chunks' documents relates to the nearest
 * relevant chunk of its document: `adjacent` (next to one in document
 * order), else `same-heading`, else `same-document`. A chunk of any other
 * document has no entry, so a top-k chunk is answered with one look-up,
 * without finding its document's chunks (most top-k chunks of a miss are
 * such). Linear in the documents' chunks: one pass for the relevant
 * positions and headings, one for the relations.
 */
function relationsOf(relevant: ReadonlySet<string>, docs: ReadonlySet<string>, chunks: ChunkIndex): Map<string, { doc: string; relation: SiblingRelation }> {
  const out = new Map<string, { doc: string; relation: SiblingRelation }>();
  const { passages } = chunks;
  // Passages given as text are filed in the order first seen, not the document's: never "adjacent".
  const ordered = (id: string) => passages.size === 0 || !passages.has(id);
  for (const doc of docs) {
    const list = chunks.byDoc.get(doc) ?? [];
    const relevantAt = (i: number) => i >= 0 && i < list.length && relevant.has(list[i]!.chunk.id) && ordered(list[i]!.chunk.id);
    const headings = new Set<string>();
    for (const e of list) if (e.chunk.heading && relevant.has(e.chunk.id)) headings.add(e.chunk.heading);
    for (let i = 0; i < list.length; i++) {
      const c = list[i]!.chunk;
      // A passage given as text without a document is in no known document; the first of an id twice is its place.
      if ((doc === NO_DOC && passages.has(c.id)) || out.has(c.id)) continue;
      const adjacent = ordered(c.id) && (relevantAt(i - 1) || relevantAt(i + 1));
      const relation: SiblingRelation = adjacent ? "adjacent" : c.heading && headings.has(c.heading) ? "same-heading" : "same-document";
      out.set(c.id, { doc, relation });
    }
  }
  return out;
}

/** The best-ranked top-k siblings: beside the anchor's chunk (adjacent or same heading), and of any relation. */
function findSiblings(
  lists: readonly { name: string; list: Readonly<RankedList> }[],
  relevant: ReadonlySet<string>,
  docs: ReadonlySet<string>,
  chunks: ChunkIndex,
  k: number,
): { neighbour: SiblingEvidence | null; sibling: SiblingEvidence | null } {
  let neighbour: SiblingEvidence | null = null;
  let sibling: SiblingEvidence | null = null;
  const relations = relationsOf(relevant, docs, chunks);
  for (const { name, list } of lists) {
    for (let i = 0; i < Math.min(k, list.length); i++) {
      const id = list[i]!;
      if (relevant.has(id)) continue;
      const r = relations.get(id);
      if (r === undefined) continue;
      const e: SiblingEvidence = { chunk: id, doc: r.doc, relation: r.relation, list: name, rank: i + 1 };
      if (!sibling || e.rank < sibling.rank) sibling = e;
      if (r.relation !== "same-document" && (!neighbour || e.rank < neighbour.rank)) neighbour = e;
    }
  }
  return { neighbour, sibling };
}

/** The best place of each piece of a cut anchor across the lists ("bm25 3"), for the reason. */
function pieceRanks(pieces: readonly { chunk: string }[], lists: readonly { name: string; role: StageRank["role"]; list: Readonly<RankedList> }[], depth: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of pieces) {
    let best: StageRank | undefined;
    for (const l of lists) {
      const r: StageRank = { name: l.name, role: l.role, ...bestRank(l.list, new Set([p.chunk]), depth) };
      if (r.status !== "absent" && (!best || best.status === "absent" || r.rank < best.rank)) best = r;
    }
    out.set(p.chunk, best ? shortRank(best, depth) : "absent");
  }
  return out;
}

/**
 * For every answerable question that is a retrieval miss at `k`, the rank of
 * its best relevant chunk in each declared stage list and in `retrieved`,
 * what the chunks' text says ({@link textEvidence}), a proposed failure kind
 * ({@link classifyMiss}) with its fix and proposal, and a one-sentence
 * reason. Rows follow the golden set's order. Stage lists are read by their
 * declared roles only.
 *
 * @example
 * // the shipped example's bm25-small
 * const rows = analyseMisses(golden.questions, relevantSets(golden, v.chunks), v, { k: 10, poolDepth: 50 });
 * rows[0] // {question:"fact-01", failure:"vocabulary-gap", fix:"better-embedder", why:"absent from bm25 within depth 50; ...", ...}
 */
export function analyseMisses(
  questions: readonly GoldenQuestion[],
  relevant: ReadonlyMap<string, ReadonlySet<string>>,
  variant: MissVariant,
  opts: MissOptions,
): MissRow[] {
  const { k, poolDepth: depth } = opts;
  const lists = declaredLists(variant.stages);
  const layouts: LayoutCache = new Map();
  const words = new ChunkWords();
  const rows: MissRow[] = [];
  for (const q of questions) {
    if (!q.answerable) continue;
    const rel = relevant.get(q.id) ?? new Set<string>();
    const out = variant.outputs.get(q.id);
    const retrieved = out?.retrieved ?? [];
    // The first relevant rank in `retrieved` says whether this is a miss (isRetrievalMiss: none in the top k) and is its last rank.
    const first = relevantRanks(retrieved, rel)[0];
    if (first !== undefined && first - 1 < k) continue; // index first - 1 within the top k, as countInTop counts (k of 2.5: three places)
    const final = rankOf(retrieved, first, depth);
    const named = [
      ...lists.map((l) => ({ ...l, list: out?.stages?.[l.name] ?? [] })),
      { name: "retrieved", role: "retrieved" as const, list: retrieved },
    ];
    const ranks: StageRank[] = named.map(({ name, role, list }) => ({ name, role, ...(list === retrieved ? final : bestRank(list, rel, depth)) }));
    // Each relevant chunk's document is looked up once (500,000 chunks: each look-up is a cache miss).
    const relDocs = new Set<string>();
    for (const id of rel) {
      const doc = variant.chunks.byId.get(id)?.doc;
      if (doc !== undefined) relDocs.add(doc);
    }
    const docs = [...new Set(q.anchor ? [q.anchor.doc, ...relDocs] : relDocs)];
    const qWords = contentWords(q.question);
    const { neighbour, sibling } = rel.size > 0 ? findSiblings(named, rel, relDocs, variant.chunks, k) : { neighbour: null, sibling: null };
    const text = out === undefined ? emptyEvidence() : textEvidence(q, rel, variant.chunks, layouts, words, { words: qWords, docs: relDocs });
    const ambiguity = opts.ambiguity?.get(q.id) ?? null;
    const c = classifyMiss({
      k,
      depth,
      ranks,
      relevantCount: rel.size,
      docs,
      text,
      neighbour,
      ...(neighbour ? { neighbourText: neighbourText(q, rel, neighbour.chunk, variant.chunks, words, qWords) } : {}),
      sibling,
      ...(text.split ? { pieceRanks: pieceRanks(text.split, named, depth) } : {}),
      ambiguity,
      missingOutput: out === undefined,
    });
    rows.push({
      question: q.id,
      kind: kindOf(q),
      anchor: q.anchor ? { doc: q.anchor.doc, text: q.anchor.text } : null,
      relevant: [...rel],
      ranks,
      failure: c.failure,
      fix: c.fix,
      proposal: c.proposal,
      why: c.why,
      text,
      evidence: out === undefined ? "" : describeEvidence(text),
      ambiguity,
      neighbour,
      missingOutput: out === undefined,
    });
  }
  return rows;
}
