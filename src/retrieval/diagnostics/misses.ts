import type { ChunkIndex } from "../../golden/relevance.js";
import type { StageRoles } from "../../golden/schema/config.js";
import type { GoldenQuestion } from "../../golden/schema/golden.js";
import type { Verdict } from "../../golden/schema/items.js";
import type { PipelineOutput, RankedEntry } from "../../golden/schema/pipeline.js";
import { kindOf } from "./kinds.js";
import { bestRank, countInTop, declaredLists, within, type ListRank, type StageList } from "./stages.js";
import { joinWords } from "./table.js";
import { FIX_TABLE, type FailureKind, type Fix } from "./taxonomy.js";

/** The best relevant chunk's place in one list of one question. */
export type StageRank = StageList & ListRank;

/**
 * How a chunk without the anchor relates to the anchor's chunk:
 * `adjacent` (next to it in the document's chunk order, the chunks file's
 * order: just across a cut), `same-heading` (same non-empty heading: the
 * same section, cut into pieces), or merely `same-document`.
 */
export type SiblingRelation = "adjacent" | "same-heading" | "same-document";

/** A chunk of a relevant chunk's document, without the anchor, in the top k of some list. */
export interface SiblingEvidence {
  chunk: string;
  doc: string;
  relation: SiblingRelation;
  list: string;
  rank: number;
}

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
  fix: Fix | null;
  /** One sentence built from the evidence. */
  why: string;
  /** The anchor-ambiguity verdict for this question, when one was supplied. */
  ambiguity: Verdict | null;
  /** The best-ranked sibling across a cut (adjacent or same heading) when the kind is chunk-boundary. */
  boundary: SiblingEvidence | null;
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
 * isRetrievalMiss(new Set(["a"]), [{ id: "b" }, { id: "a" }], 1) // true
 */
export function isRetrievalMiss(relevant: ReadonlySet<string>, retrieved: readonly RankedEntry[], k: number): boolean {
  return countInTop(retrieved, relevant, k) === 0;
}

/**
 * The anchor-ambiguity rubric's `candidates`: the top-k chunk ids of
 * `retrieved` that are not relevant (do not contain the anchor), in rank order.
 */
export function missCandidates(retrieved: readonly RankedEntry[], relevant: ReadonlySet<string>, k: number): string[] {
  return retrieved.slice(0, k).map((e) => e.id).filter((id) => !relevant.has(id));
}

function rankPhrase(r: ListRank, depth: number): string {
  if (r.status === "ranked") return `at ${r.rank}`;
  if (r.status === "beyond-depth") return `beyond ${depth} (at ${r.rank})`;
  return "nowhere (absent)";
}

function short(r: StageRank, depth: number): string {
  if (r.status === "ranked") return `${r.name} ${r.rank}`;
  if (r.status === "beyond-depth") return `${r.name} >${depth} (${r.rank})`;
  return `${r.name} absent`;
}

/** Where the relevant chunk got closest to the top: "best: bm25 14" or "absent from every list". */
function bestPlace(ranks: readonly StageRank[], depth: number): string {
  let best: StageRank | undefined;
  for (const r of ranks) {
    if (r.status === "absent") continue;
    if (!best || best.status === "absent" || r.rank < best.rank) best = r;
  }
  return best ? `best: ${short(best, depth)}` : "absent from every list";
}

/** Everything the classifier looks at for one miss. */
export interface MissEvidence {
  k: number;
  depth: number;
  /** Declared stage lists (in pipeline order) then `retrieved`; roles say which is which. */
  ranks: readonly StageRank[];
  relevantCount: number;
  docs: readonly string[];
  /** Best-ranked top-k sibling across a cut from the anchor's chunk (adjacent or same heading). */
  boundary: SiblingEvidence | null;
  /** Best-ranked top-k sibling of any relation, for the reason of a miss that is not chunk-boundary. */
  sibling: SiblingEvidence | null;
  ambiguity: Verdict | null;
  missingOutput: boolean;
}

/**
 * Proposes one failure kind for one miss by the fixed precedence of
 * {@link PRECEDENCE} (taxonomy.ts), with a one-sentence reason built from the
 * ranks. Pure: the same evidence always gives the same kind.
 *
 * Rules, first match wins:
 * 1. anchor-ambiguity: the supplied verdict is "yes";
 * 2. reranker-demotion: `stages.fused` is declared and has the chunk in its top k;
 * 3. chunk-boundary: a chunk without the anchor that sits across a cut from
 *    the anchor's chunk (adjacent in the document's chunk order, or under the
 *    same heading) is in the top k of some list (stage or `retrieved`), and
 *    the relevant chunk is in no list's top k. A far chunk of the same
 *    document ranking high is not enough: it shows the query matches the
 *    document's topic, not that a cut hid the matching words;
 * 4. ranking: `stages.fused` is declared and has the chunk within the pool
 *    depth, or a first-stage list has it within depth and fusion does not;
 * 5. vocabulary-gap: at least one first-stage list is declared and none has
 *    the chunk within the pool depth;
 * 6. undecided, saying what evidence is missing (no output line, no relevant
 *    chunk, no declared stages, or a single first-stage list that has the chunk
 *    but no fused list to tell ranking from reranker demotion).
 */
export function classifyMiss(ev: MissEvidence): { failure: FailureKind; why: string } {
  const { k, depth, ranks } = ev;
  if (ev.ambiguity === "yes") {
    return { failure: "anchor-ambiguity", why: `the anchor-ambiguity judge says a top-${k} chunk without the anchor answers the question` };
  }
  if (ev.missingOutput) return { failure: "undecided", why: "no pipeline output line for this question, so there are no ranks to read" };
  if (ev.relevantCount === 0) {
    return { failure: "undecided", why: `no chunk of ${joinWords(ev.docs, "or") || "the anchor's document"} contains the anchor in this chunks file (ragjudge validate reports it)` };
  }
  const fused = ranks.find((r) => r.role === "fused");
  const final = ranks.find((r) => r.role === "reranked") ?? ranks.find((r) => r.role === "retrieved")!;
  if (fused && fused.status !== "absent" && fused.rank <= k) {
    return { failure: "reranker-demotion", why: `${fused.name} had ${fused.chunk} at rank ${fused.rank} (top ${k}); ${final.name} ranks it ${rankPhrase(final, depth)}` };
  }
  const b = ev.boundary;
  if (b && !ranks.some((r) => within(r, k))) {
    const rel = b.relation === "adjacent" ? "next to the anchor's chunk" : "same section as the anchor's chunk";
    return {
      failure: "chunk-boundary",
      why: `${b.chunk} (${rel} in ${b.doc}, without the anchor) ranks ${b.rank} in ${b.list}, while the anchor's chunk is in no list's top ${k} (${bestPlace(ranks, depth)})`,
    };
  }
  const firsts = ranks.filter((r) => r.role === "first");
  const reached = firsts.filter((r) => r.status === "ranked");
  if (fused && fused.status === "ranked") {
    const firstNote = firsts.length ? `; ${firsts.map((r) => short(r, depth)).join(", ")}` : "";
    return { failure: "ranking", why: `in ${fused.name} at rank ${fused.rank} (within depth ${depth}) but below the top ${k}${firstNote}` };
  }
  if (fused && reached.length > 0) {
    const r = reached[0]!;
    return { failure: "ranking", why: `${r.name} had it at rank ${r.rank} (within depth ${depth}) but ${fused.name} ranks it ${rankPhrase(fused, depth)}` };
  }
  const sib = ev.sibling;
  const docNote = !ev.docs.length
    ? "its document is unknown (the relevant ids are not in the chunks file)"
    : sib
      ? `${sib.chunk} of the same document ranks ${sib.rank} in ${sib.list} but is not next to the anchor's chunk (the query matches the document, not the passage)`
      : `no other chunk of ${joinWords(ev.docs, "or")} ranks in the top ${k}`;
  if (firsts.length > 0 && reached.length === 0) {
    const names = firsts.map((r) => r.name);
    const further = firsts.filter((r) => r.status === "beyond-depth");
    const head = further.length === 0
      ? `absent from ${joinWords(names, "and")} within depth ${depth}`
      : `not in ${joinWords(names, "or")} within depth ${depth} (${further.map((r) => short(r, depth)).join(", ")})`;
    return { failure: "vocabulary-gap", why: `${head}; ${docNote}` };
  }
  if (firsts.length === 0) {
    return {
      failure: "undecided",
      why: `no first-stage list is declared (stages.first in ragjudge.config.json), so vocabulary-gap, ranking and reranker-demotion cannot be told apart; ${docNote}`,
    };
  }
  const r = reached[0]!;
  return {
    failure: "undecided",
    why: `${r.name} has it at rank ${r.rank} (within depth ${depth}), so not a vocabulary gap; ranking and reranker-demotion need a fused list (stages.fused), which this variant does not declare`,
  };
}

/** The variant data the miss analysis reads. */
export interface MissVariant {
  chunks: ChunkIndex;
  outputs: ReadonlyMap<string, PipelineOutput>;
  stages: StageRoles;
}

/**
 * How `id` relates to the nearest relevant chunk of its document, or null
 * when it is in no relevant document. `relevantDocs` are the documents of
 * the relevant chunks: a chunk of any other document is answered without
 * looking at its document's chunks (most top-k chunks of a miss are such).
 */
function relationOf(id: string, relevant: ReadonlySet<string>, relevantDocs: ReadonlySet<string>, chunks: ChunkIndex): SiblingRelation | null {
  const c = chunks.byId.get(id);
  if (!c || !relevantDocs.has(c.doc)) return null;
  const list = chunks.byDoc.get(c.doc) ?? [];
  const at = list.findIndex((e) => e.chunk.id === id);
  let relation: SiblingRelation | null = null;
  for (let i = 0; i < list.length; i++) {
    const r = list[i]!.chunk;
    if (!relevant.has(r.id)) continue;
    if (Math.abs(i - at) === 1) return "adjacent";
    if (c.heading && c.heading === r.heading) relation = "same-heading";
    else relation ??= "same-document";
  }
  return relation;
}

/** The best-ranked top-k siblings: across a cut (adjacent or same heading), and of any relation. */
function findSiblings(
  lists: readonly { name: string; list: readonly RankedEntry[] }[],
  relevant: ReadonlySet<string>,
  chunks: ChunkIndex,
  k: number,
): { boundary: SiblingEvidence | null; sibling: SiblingEvidence | null } {
  let boundary: SiblingEvidence | null = null;
  let sibling: SiblingEvidence | null = null;
  const relevantDocs = new Set<string>();
  for (const id of relevant) {
    const doc = chunks.byId.get(id)?.doc;
    if (doc !== undefined) relevantDocs.add(doc);
  }
  for (const { name, list } of lists) {
    for (let i = 0; i < Math.min(k, list.length); i++) {
      const id = list[i]!.id;
      if (relevant.has(id)) continue;
      const relation = relationOf(id, relevant, relevantDocs, chunks);
      if (relation === null) continue;
      const e: SiblingEvidence = { chunk: id, doc: chunks.byId.get(id)!.doc, relation, list: name, rank: i + 1 };
      if (!sibling || e.rank < sibling.rank) sibling = e;
      if (relation !== "same-document" && (!boundary || e.rank < boundary.rank)) boundary = e;
    }
  }
  return { boundary, sibling };
}

/**
 * For every answerable question that is a retrieval miss at `k`, the rank of
 * its best relevant chunk in each declared stage list and in `retrieved`, a
 * proposed failure kind ({@link classifyMiss}), the fix from
 * {@link FIX_TABLE} and a one-sentence reason. Rows follow the golden set's
 * order. Stage lists are read by their declared roles only.
 *
 * @example
 * const rows = analyseMisses(golden.questions, relevantSets(golden, v.chunks), v, { k: 10, poolDepth: 50 });
 * rows[0] // {question:"q07", failure:"vocabulary-gap", fix:"better-embedder", why:"absent from bm25 and vector within depth 50; ..."}
 */
export function analyseMisses(
  questions: readonly GoldenQuestion[],
  relevant: ReadonlyMap<string, ReadonlySet<string>>,
  variant: MissVariant,
  opts: MissOptions,
): MissRow[] {
  const { k, poolDepth: depth } = opts;
  const lists = declaredLists(variant.stages);
  const rows: MissRow[] = [];
  for (const q of questions) {
    if (!q.answerable) continue;
    const rel = relevant.get(q.id) ?? new Set<string>();
    const out = variant.outputs.get(q.id);
    const retrieved = out?.retrieved ?? [];
    if (!isRetrievalMiss(rel, retrieved, k)) continue;
    const named = [
      ...lists.map((l) => ({ ...l, list: out?.stages?.[l.name] ?? [] })),
      { name: "retrieved", role: "retrieved" as const, list: retrieved },
    ];
    const ranks: StageRank[] = named.map(({ name, role, list }) => ({ name, role, ...bestRank(list, rel, depth) }));
    const docs = new Set<string>();
    if (q.anchor) docs.add(q.anchor.doc);
    for (const id of rel) {
      const doc = variant.chunks.byId.get(id)?.doc;
      if (doc !== undefined) docs.add(doc);
    }
    const { boundary, sibling } = rel.size > 0 ? findSiblings(named, rel, variant.chunks, k) : { boundary: null, sibling: null };
    const ambiguity = opts.ambiguity?.get(q.id) ?? null;
    const { failure, why } = classifyMiss({
      k,
      depth,
      ranks,
      relevantCount: rel.size,
      docs: [...docs],
      boundary,
      sibling,
      ambiguity,
      missingOutput: out === undefined,
    });
    rows.push({
      question: q.id,
      kind: kindOf(q),
      anchor: q.anchor ? { doc: q.anchor.doc, text: q.anchor.text } : null,
      relevant: [...rel],
      ranks,
      failure,
      fix: FIX_TABLE[failure].fix,
      why,
      ambiguity,
      boundary: failure === "chunk-boundary" ? boundary : null,
      missingOutput: out === undefined,
    });
  }
  return rows;
}
