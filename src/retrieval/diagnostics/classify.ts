import type { Verdict } from "../../golden/schema/items.js";
import type { ListRank, StageList } from "./stages.js";
import { within } from "./stages.js";
import { joinWords } from "./table.js";
import { FIX_TABLE, type FailureKind, type Fix } from "./taxonomy.js";
import { describeEvidence, describeNeighbour, isBoundary, type NeighbourText, type TextEvidence } from "./text.js";

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

/** Everything the classifier looks at for one miss. */
export interface MissEvidence {
  k: number;
  depth: number;
  /** Declared stage lists (in pipeline order) then `retrieved`; roles say which is which. */
  ranks: readonly StageRank[];
  relevantCount: number;
  docs: readonly string[];
  /** What the chunks' text says (src/retrieval/diagnostics/text.ts). */
  text: TextEvidence;
  /** Best-ranked top-k chunk beside the anchor's chunk (adjacent or same heading): supporting evidence, never enough alone. */
  neighbour: SiblingEvidence | null;
  /** What that neighbour holds of the question's words (when there is one). */
  neighbourText?: NeighbourText;
  /** Best-ranked top-k sibling of any relation, for the reason of a miss that is not chunk-boundary. */
  sibling: SiblingEvidence | null;
  /** Best rank of each piece of a cut anchor, by chunk id ("bm25 3"), when the anchor is cut. */
  pieceRanks?: ReadonlyMap<string, string>;
  ambiguity: Verdict | null;
  missingOutput: boolean;
}

/** The classifier's answer: the kind, the fix from seed 000's list (when the evidence names one), what to do, and why. */
export interface Classification {
  failure: FailureKind;
  fix: Fix | null;
  /** What to do about this miss, always said: the fix, or what to correct or declare first. */
  proposal: string;
  why: string;
}

function rankPhrase(r: ListRank, depth: number): string {
  if (r.status === "ranked") return `at ${r.rank}`;
  if (r.status === "beyond-depth") return `beyond ${depth} (at ${r.rank})`;
  return "nowhere (absent)";
}

/** "bm25 14", "bm25 >50 (73)", "bm25 absent". */
export function shortRank(r: StageRank, depth: number): string {
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
  return best ? `best: ${shortRank(best, depth)}` : "absent from every list";
}

/** The proposal sentence of a kind's table fix: "try contextual-chunk-headers (or smaller-chunks)". */
export function fixProposal(failure: FailureKind): string {
  const e = FIX_TABLE[failure];
  return e.fix ? (e.alternatives.length ? `try ${e.fix} (or ${e.alternatives.join(", ")})` : `try ${e.fix}`) : "";
}

function decided(failure: Exclude<FailureKind, "undecided" | "anchor-ambiguity">, why: string): Classification {
  return { failure, fix: FIX_TABLE[failure].fix, proposal: fixProposal(failure), why };
}

/** An undecided miss: what evidence is missing, and the fix every kind it could still be calls for (or what to declare). */
function undecided(why: string, fix: Fix | null, proposal: string): Classification {
  return { failure: "undecided", fix, proposal, why };
}

/**
 * Proposes one failure kind for one miss by the fixed precedence of
 * {@link PRECEDENCE} (taxonomy.ts), with a proposal and a one-sentence reason
 * built from the ranks and the text. Pure: the same evidence always gives
 * the same answer.
 *
 * Rules, first match wins:
 * 1. anchor-ambiguity: the supplied verdict is "yes";
 * 2. chunk-boundary: no chunk is relevant because a chunk boundary cuts the
 *    anchor (it occurs once in its document, no chunk holds it whole);
 * 3. reranker-demotion: `stages.fused` is declared and has the chunk in its top k;
 * 4. chunk-boundary: the relevant chunk is in no list's top k, and the text
 *    shows the cut: the chunks beside the anchor's chunk hold at least as many
 *    of the question's words (that the anchor's chunk lacks) as the anchor's
 *    chunk holds. A neighbour ranking high without those words is not
 *    evidence: the query matched the document, not the passage;
 * 5. ranking: `stages.fused` is declared and has the chunk within the pool
 *    depth, or a first-stage list has it within depth and fusion does not;
 * 6. vocabulary-gap: at least one first-stage list is declared and none has
 *    the chunk within the pool depth;
 * 7. undecided, saying what evidence is missing (no output line, no relevant
 *    chunk, no declared stages, or a single first-stage list that has the
 *    chunk but no fused list to tell ranking from reranker demotion), with the
 *    fix the remaining kinds share when they share one.
 */
export function classifyMiss(ev: MissEvidence): Classification {
  const { k, depth, ranks, text } = ev;
  if (ev.ambiguity === "yes") {
    return {
      failure: "anchor-ambiguity",
      fix: null,
      proposal: "correct the golden set: widen the anchor, or list the answering chunk in `relevant`",
      why: `the anchor-ambiguity judge says a top-${k} chunk without the anchor answers the question`,
    };
  }
  if (ev.missingOutput) return undecided("no pipeline output line for this question, so there are no ranks to read", null, "add this question's line to the pipeline output, then read the miss again");
  if (ev.relevantCount === 0 && text.split) {
    const ranksOf = text.split.map((p) => `${p.chunk} ${ev.pieceRanks?.get(p.chunk) ?? "absent"}`);
    return decided("chunk-boundary", `${describeEvidence(text)}, so no chunk is relevant (best ranks: ${ranksOf.join(", ")})`);
  }
  if (ev.relevantCount === 0) {
    return undecided(
      `no chunk of ${joinWords(ev.docs, "or") || "the anchor's document"} contains the anchor in this chunks file (ragjudge validate reports it)`,
      null,
      "correct the anchor (it must be verbatim, once in its document) or the relevant ids",
    );
  }
  const fused = ranks.find((r) => r.role === "fused");
  const final = ranks.find((r) => r.role === "reranked") ?? ranks.find((r) => r.role === "retrieved")!;
  if (fused && fused.status !== "absent" && fused.rank <= k) {
    return decided("reranker-demotion", `${fused.name} had ${fused.chunk} at rank ${fused.rank} (top ${k}); ${final.name} ranks it ${rankPhrase(final, depth)}`);
  }
  const reachedTopK = ranks.some((r) => within(r, k));
  if (!reachedTopK && isBoundary(text)) {
    const n = ev.neighbour;
    const support = n && text.across.some((p) => p.chunk === n.chunk) ? `; ${n.chunk} ranks ${n.rank} in ${n.list}` : "";
    return decided("chunk-boundary", `${describeEvidence(text)}; it is in no list's top ${k} (${bestPlace(ranks, depth)})${support}`);
  }
  const firsts = ranks.filter((r) => r.role === "first");
  const reached = firsts.filter((r) => r.status === "ranked");
  if (fused && fused.status === "ranked") {
    const firstNote = firsts.length ? `; ${firsts.map((r) => shortRank(r, depth)).join(", ")}` : "";
    return decided("ranking", `in ${fused.name} at rank ${fused.rank} (within depth ${depth}) but below the top ${k}${firstNote}`);
  }
  if (fused && reached.length > 0) {
    const r = reached[0]!;
    return decided("ranking", `${r.name} had it at rank ${r.rank} (within depth ${depth}) but ${fused.name} ranks it ${rankPhrase(fused, depth)}`);
  }
  const textNote = `${describeEvidence(text)}${neighbourNote(ev)}`;
  const sib = ev.sibling;
  const docNote = !ev.docs.length
    ? "its document is unknown (the relevant ids are not in the chunks file)"
    : sib && sib.relation === "same-document"
      ? `${sib.chunk} of the same document ranks ${sib.rank} in ${sib.list} but is not next to the anchor's chunk (the query matches the document, not the passage)`
      : sib
        ? ""
        : `no other chunk of ${joinWords(ev.docs, "or")} ranks in the top ${k}`;
  const tail = [docNote, textNote].filter(Boolean).join("; ");
  if (firsts.length > 0 && reached.length === 0) {
    const names = firsts.map((r) => r.name);
    const further = firsts.filter((r) => r.status === "beyond-depth");
    const head = further.length === 0
      ? `absent from ${joinWords(names, "and")} within depth ${depth}`
      : `not in ${joinWords(names, "or")} within depth ${depth} (${further.map((r) => shortRank(r, depth)).join(", ")})`;
    return decided("vocabulary-gap", `${head}; ${tail}`);
  }
  if (firsts.length === 0) {
    const found = within(final, depth) && final.status === "ranked";
    return undecided(
      `no first-stage list is declared (the variant's stages.first in the config), so vocabulary-gap, ranking and reranker-demotion cannot be told apart; ${tail}`,
      found ? "hybrid-weights" : FIX_TABLE["vocabulary-gap"].fix,
      found
        ? `try hybrid-weights (${final.name} has it at ${final.rank}, below the top ${k}: ranking and reranker-demotion both call for it); declare stages to decide the kind`
        : `likely a vocabulary gap (${final.name} does not reach it within depth ${depth}): ${fixProposal("vocabulary-gap")}; declare stages.first to decide the kind`,
    );
  }
  const r = reached[0]!;
  return undecided(
    `${r.name} has it at rank ${r.rank} (within depth ${depth}), so not a vocabulary gap; ranking and reranker-demotion need a fused list (stages.fused), which this variant does not declare`,
    "hybrid-weights",
    "try hybrid-weights (ranking and reranker-demotion both call for it); declare stages.fused to tell them apart",
  );
}

/** A neighbour ranking high without being boundary evidence is worth saying: it is why a rank proxy would have called this a boundary miss. */
function neighbourNote(ev: MissEvidence): string {
  const n = ev.neighbour;
  if (!n || !ev.neighbourText || ev.text.across.some((p) => p.chunk === n.chunk && isBoundary(ev.text))) return "";
  return `; ${describeNeighbour(ev.neighbourText, `${n.rank} in ${n.list}`)}`;
}
