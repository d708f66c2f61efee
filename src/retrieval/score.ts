import type { GoldenSet, VariantData } from "../golden/dataset.js";
import { BOUNDS, requireWithin } from "../golden/bounds.js";
import { isCheckedUnique, loadGolden, loadVariant, relevantSets, variantNameFromFile } from "../golden/dataset.js";
import { relevantRanks } from "../golden/relevant-ranks.js";
import { kindOf, NO_KIND } from "./diagnostics/kinds.js";
import { computeValues, summarise, type Evaluation, type QueryValues } from "./evaluate.js";
import { judgedFromRanks, judgeList } from "./judged.js";
import { defaultMeasures, measureLabel, parseMeasures } from "./measures/parse.js";
import type { Measure } from "./measures/types.js";
import { byteOrder } from "./trec/fields.js";

/** What golden questions can be grouped by. */
export type GroupBy = "kind" | "tags" | "split";
/** Every grouping `--by` accepts. */
export const GROUP_BY: readonly GroupBy[] = ["kind", "tags", "split"];

/** Options of {@link scoreRetrieval}. */
export interface ScoreOptions {
  /** Cutoffs for measures given without one and for the defaults; default [1, 5, 10]. Each a positive whole number, as `-k` takes: another is refused with a RangeError (golden/bounds.ts). */
  k?: readonly number[];
  /** Measures as objects or names ("R@10", "RR", "nDCG@5"); default: all trec_eval measures at every k, with counts. */
  measures?: readonly Measure[] | readonly string[];
  /** Groupings besides the overall mean; default ["kind"]. */
  by?: readonly GroupBy[];
}

/** One answerable question's scores. */
export interface QuestionScore {
  id: string;
  kind: string | undefined;
  tags: string[];
  split: string | undefined;
  /** Values aligned with {@link RetrievalScore.measures}. */
  values: Float64Array;
  /** No pipeline output line: the question scores 0 everywhere. */
  missing: boolean;
  /** Relevant chunks for this chunks file (R). */
  numRel: number;
  /** Rank of the first relevant chunk in the output's list, or null. */
  firstRelevantRank: number | null;
}

/** Means over a group of questions (overall, one kind, one tag, one split). */
export interface GroupScore {
  by: "overall" | GroupBy;
  key: string;
  n: number;
  /** Summary values aligned with {@link RetrievalScore.measures} (means; counts are sums). */
  values: Float64Array;
}

/** A variant's retrieval scores on a golden set. */
export interface RetrievalScore {
  variant: string;
  measures: Measure[];
  /** Answerable questions in golden-set order. */
  questions: QuestionScore[];
  overall: GroupScore;
  groups: GroupScore[];
  /** Unanswerable questions: left out of every retrieval mean. */
  unanswerable: string[];
  /** Answerable questions without a pipeline output line: scored 0 and counted. */
  missing: string[];
  /** Answerable questions with no relevant chunk in this chunks file (anchor in no chunk): scored 0 and counted. */
  noRelevant: string[];
  /**
   * Answerable questions listing `relevant` ids this chunks file lacks (ids of
   * another chunking?): those ids count in R, so recall cannot reach 1.
   */
  unknownRelevant: string[];
  /** The same figures shaped as trec_eval's (queries by id in byte order), for `--format trec`. */
  evaluation: Evaluation;
}

/** Label of questions that carry no `split` (those without a `kind` get {@link NO_KIND}, as in the diagnostics). */
const NO_SPLIT = "(no split)";

function resolveMeasures(options: ScoreOptions): Measure[] {
  const ks = options.k ?? [1, 5, 10];
  for (const k of ks) requireWithin("k", k, BOUNDS.cutoff);
  const m = options.measures;
  if (m === undefined) return defaultMeasures(ks, true);
  if (m.length > 0 && typeof m[0] === "string") return parseMeasures(m as readonly string[], ks);
  return [...(m as readonly Measure[])];
}

/**
 * Scores one variant's retrieval on a golden set (golden-set mode). Each
 * answerable question's relevant set comes from its `relevant` ids and its
 * anchor, recomputed for the variant's chunks; the output's `retrieved` order
 * is the ranking. Unanswerable questions are left out and listed; a question
 * with no output line scores 0 and is listed. Means are computed overall and
 * per kind, tag or split, as trec_eval averages (sums in id byte order).
 *
 * Importable for a team's own test suite:
 * @example
 * const golden = loadGolden("golden/questions.jsonl");
 * const variant = loadVariant({ name: "bm25", output: "runs/bm25.jsonl", chunks: "chunks.jsonl", contextK: 5, stages: { first: [] } }, golden);
 * const score = scoreRetrieval(golden, variant, { measures: ["R@10", "RR"] });
 * expect(score.overall.values[0]).toBeGreaterThanOrEqual(0.7);
 */
export function scoreRetrieval(
  golden: GoldenSet,
  variant: Pick<VariantData, "name" | "chunks" | "outputs">,
  options: ScoreOptions = {},
): RetrievalScore {
  const measures = resolveMeasures(options);
  const by = options.by ?? ["kind"];
  const questions: QuestionScore[] = [];
  const unanswerable: string[] = [];
  const missing: string[] = [];
  const noRelevant: string[] = [];
  const unknownRelevant: string[] = [];
  const relevant = relevantSets(golden, variant.chunks);
  for (const q of golden.questions) {
    if (!q.answerable) {
      unanswerable.push(q.id);
      continue;
    }
    const rel = relevant.get(q.id)!;
    const out = variant.outputs.get(q.id);
    const ranked = out ? out.retrieved : [];
    // A list the loader checked for repeated ids has its relevant ranks worked out once, for the diagnostics too.
    const judged = out !== undefined && isCheckedUnique(out.retrieved) ? judgedFromRanks(ranked.length, rel.size, relevantRanks(ranked, rel)) : judgeList(ranked, rel);
    if (!out) missing.push(q.id);
    if (rel.size === 0) noRelevant.push(q.id);
    if (q.relevant?.some((id) => !variant.chunks.byId.has(id))) unknownRelevant.push(q.id);
    questions.push({
      id: q.id,
      kind: q.kind,
      tags: q.tags,
      split: q.split,
      values: computeValues(measures, judged),
      missing: !out,
      numRel: rel.size,
      firstRelevantRank: judged.relRanks.length ? judged.relRanks[0]! : null,
    });
  }
  const sorted = [...questions].sort((a, b) => byteOrder(a.id, b.id));
  const rows = (qs: readonly QuestionScore[]): QueryValues[] => qs.map((q) => ({ id: q.id, values: q.values, missing: q.missing }));
  const group = (b: "overall" | GroupBy, key: string, qs: QuestionScore[]): GroupScore => ({ by: b, key, n: qs.length, values: summarise(measures, rows(qs)) });

  const groups: GroupScore[] = [];
  for (const b of by) {
    const buckets = new Map<string, QuestionScore[]>();
    for (const q of sorted) {
      const keys = b === "tags" ? q.tags : [b === "kind" ? kindOf(q) : q.split ?? NO_SPLIT];
      for (const key of new Set(keys)) {
        let list = buckets.get(key);
        if (!list) buckets.set(key, (list = []));
        list.push(q);
      }
    }
    // a grouping nobody uses ("(no kind)" holding every question) would only repeat the overall row
    if (buckets.size === 1 && (buckets.has(NO_KIND) || buckets.has(NO_SPLIT))) continue;
    for (const key of [...buckets.keys()].sort()) groups.push(group(b, key, buckets.get(key)!));
  }
  const overall = group("overall", "overall", sorted);
  return {
    variant: variant.name,
    measures,
    questions,
    overall,
    groups,
    unanswerable,
    missing,
    noRelevant,
    unknownRelevant,
    evaluation: { measures, queries: rows(sorted), summary: overall.values },
  };
}

/**
 * Loads a golden set, a chunks file and one pipeline output and scores
 * them ({@link scoreRetrieval}); the variant name defaults to the output's
 * file name (`runs/bm25.output.jsonl` -> `bm25`). `chunks` may be left out
 * when the output gives every passage as text.
 */
export function scoreRetrievalFiles(
  files: { golden: string; chunks?: string; output: string; variant?: string },
  options: ScoreOptions = {},
): RetrievalScore {
  const golden = loadGolden(files.golden);
  const name = files.variant ?? variantNameFromFile(files.output);
  const variant = loadVariant({ name, output: files.output, ...(files.chunks ? { chunks: files.chunks } : {}), contextK: 5, stages: { first: [] } }, golden);
  return scoreRetrieval(golden, variant, options);
}

/**
 * The overall value of a measure, named by its label ("R@10") or any name
 * `-m` accepts ("recall_10", "MRR", "recip_rank", "ndcg_cut_10"), or
 * undefined when that measure was not computed. A name of no single
 * measure throws a MeasureSpecError (UnknownMeasureError, listing the known
 * ones, when it is no measure at all; `R` without its cutoff names several),
 * so a typo in a team's floor test reads as a typo, not as a missing value.
 *
 * @example
 * overallValue(score, "MRR") // the same number as overallValue(score, "RR")
 */
export function overallValue(score: Pick<RetrievalScore, "measures" | "overall">, name: string): number | undefined {
  let i = score.measures.findIndex((m) => m.label === name);
  if (i < 0) {
    const label = measureLabel(name);
    i = score.measures.findIndex((m) => m.label === label);
  }
  return i < 0 ? undefined : score.overall.values[i];
}
