/**
 * Seed 000's failure taxonomy for retrieval misses and its fixed list of
 * fixes. Kept as data, not prose in code paths, so the table the user reads
 * (`ragjudge retrieval --misses`, docs) and the one the classifier applies
 * are the same object.
 */

/**
 * The five failure kinds of seed 000, plus `undecided` for a miss whose
 * evidence decides none of them (for example a single first-stage list and
 * no fused list: ranking and reranker-demotion cannot be told apart there).
 * `undecided` is never a guess: its `why` says what is missing.
 */
export const FAILURE_KINDS = [
  "anchor-ambiguity",
  "reranker-demotion",
  "chunk-boundary",
  "ranking",
  "vocabulary-gap",
  "undecided",
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** Seed 000's fixed list of fixes; nothing else is ever proposed. */
export const FIXES = ["hybrid-weights", "smaller-chunks", "contextual-chunk-headers", "query-rewrite", "better-embedder"] as const;
export type Fix = (typeof FIXES)[number];

/** What the table says about one failure kind. */
export interface FixEntry {
  /** The fix proposed for this kind, or null when no retrieval fix applies. */
  fix: Fix | null;
  /** Other fixes from the list that also address this kind, in order of preference. */
  alternatives: readonly Fix[];
  /** Why this fix addresses this kind: shown in docs and in `--misses --explain`-style output. */
  why: string;
}

/**
 * Failure kind -> proposed fix, and why. The documented table of issue 3.
 *
 * - `anchor-ambiguity` proposes no retrieval fix: a top-k chunk already
 *   answers the question, so the miss is in the golden set (widen the anchor
 *   or list that chunk in `relevant`), and tuning retrieval for it would chase
 *   a non-problem.
 * - `undecided` proposes nothing here: the evidence does not say where the chunk
 *   was lost.
 *
 * @example
 * FIX_TABLE["vocabulary-gap"].fix // "better-embedder"
 */
export const FIX_TABLE: Readonly<Record<FailureKind, FixEntry>> = {
  "vocabulary-gap": {
    fix: "better-embedder",
    alternatives: ["query-rewrite", "contextual-chunk-headers"],
    why: "no first-stage list reaches the chunk, so no reranker or fusion weight over the same pool can surface it; only retrieval that matches meaning rather than words (a better embedder, a rewritten query, or chunk text enriched with context) can",
  },
  "chunk-boundary": {
    fix: "contextual-chunk-headers",
    alternatives: ["smaller-chunks"],
    why: "the query matches the document, but the words or heading it matches sit in a neighbouring chunk; prefixing each chunk with its document title and heading (or cutting smaller, aligned chunks) puts them back with the anchor",
  },
  ranking: {
    fix: "hybrid-weights",
    alternatives: [],
    why: "the first stage found the chunk and it reached the fused pool, but fusion ranks it below k; re-weighting the lists in the fusion lifts it without new retrieval",
  },
  "reranker-demotion": {
    fix: "hybrid-weights",
    alternatives: [],
    why: "fusion had the chunk in the top k and the reranker pushed it out; blending the reranker's score with the fused rank (a lower reranker weight) keeps what fusion already got right",
  },
  "anchor-ambiguity": {
    fix: null,
    alternatives: [],
    why: "another top-k chunk answers the question without the anchor, so retrieval delivered an answer; correct the golden set (a wider anchor, or that chunk in `relevant`) rather than retrieval",
  },
  undecided: {
    fix: null,
    alternatives: [],
    why: "the evidence available (declared stage lists, chunk text, judge verdicts) does not decide a kind; the row's reason says what is missing, and its proposal names the fix every remaining kind shares when they share one",
  },
};

/**
 * The order in which the classifier tries the kinds; the first whose rule
 * holds wins, so each miss gets exactly one kind. Strongest evidence first:
 *
 * 1. `anchor-ambiguity` (only with a supplied judge verdict "yes"): if a top-k
 *    chunk answers the question, retrieval did not fail, whatever the ranks say.
 * 2. `reranker-demotion`: the fused list had the chunk in the top k and the
 *    final list does not: the loss is pinned to the last stage.
 * 3. `chunk-boundary`, decided from the chunks' text (text.ts): a chunk
 *    boundary cuts the anchor itself (it occurs once in its document, no chunk
 *    holds it whole: then no chunk is relevant and this rule comes before
 *    reranker-demotion, which has nothing to rank); or, while the relevant
 *    chunk ranks in no list's top k, the chunks beside it in the same section
 *    (previous, next, same heading) hold the question's words that it lacks:
 *    at least two (one for a question of one or two content words) and at
 *    least as many as it holds itself. A neighbour ranking high proves
 *    nothing by itself (the query may match the document's topic, or another
 *    section); its rank is shown as support. Checked before `ranking` because
 *    it names the cause, where `ranking` only names the stage, and before
 *    `vocabulary-gap` because a boundary miss also looks like a gap (the
 *    anchor's chunk alone matches nothing).
 * 4. `ranking`: the chunk is in the fused list within the pool depth (or a
 *    first-stage list had it within depth and fusion dropped it), below k.
 * 5. `vocabulary-gap`: no first-stage list has the chunk within the pool depth.
 * 6. `undecided`: none of the above can be decided from the evidence.
 */
export const PRECEDENCE: readonly FailureKind[] = FAILURE_KINDS;
