import type { StageRoles } from "../../golden/schema/config.js";
import { groupByKind, OVERALL } from "./kinds.js";
import type { MissRow } from "./misses.js";
import { joinWords } from "./table.js";
import { FAILURE_KINDS, FIX_TABLE, type FailureKind } from "./taxonomy.js";

/** How many misses got one failure kind, and their share of the group's misses. */
export interface KindCount {
  failure: FailureKind;
  count: number;
  /** count / misses of the group; 0 when the group has no miss. */
  share: number;
}

/** The distribution of failure kinds over one group of questions. */
export interface Distribution {
  /** "overall", or a question kind. */
  kind: string;
  /** Answerable questions in the group. */
  answerable: number;
  misses: number;
  /** Every failure kind in precedence order, zeros included, so columns line up. */
  counts: KindCount[];
}

/** Which failure kinds this variant's evidence can decide, and why the others cannot. */
export interface Decidability {
  decidable: FailureKind[];
  undecidable: { failure: FailureKind; reason: string }[];
}

/** The summary of a miss analysis: the distribution decides the fix (seed 000). */
export interface MissSummary {
  k: number;
  overall: Distribution;
  byKind: Distribution[];
  decidability: Decidability;
  /** One line: the most common decided kind's fix, or what to do first. */
  recommendation: string;
}

function distribution(kind: string, answerable: number, rows: readonly MissRow[]): Distribution {
  return {
    kind,
    answerable,
    misses: rows.length,
    counts: FAILURE_KINDS.map((failure) => {
      const count = rows.filter((r) => r.failure === failure).length;
      return { failure, count, share: rows.length ? count / rows.length : 0 };
    }),
  };
}

/**
 * Which kinds can be decided from the declared stages and supplied verdicts:
 * ranking and reranker-demotion need a fused list; vocabulary-gap needs a
 * first-stage list; anchor-ambiguity needs judge verdicts; chunk-boundary
 * needs only the chunks file and the final list.
 *
 * @example
 * decidability({ first: ["bm25"] }, false).decidable // ["chunk-boundary", "vocabulary-gap"]
 */
export function decidability(roles: StageRoles, hasVerdicts: boolean): Decidability {
  const undecidable: Decidability["undecidable"] = [];
  if (!hasVerdicts) undecidable.push({ failure: "anchor-ambiguity", reason: "needs verdicts of the optional anchor-ambiguity rubric" });
  if (roles.fused === undefined) {
    undecidable.push({ failure: "reranker-demotion", reason: "needs a fused list, stages.fused" });
    undecidable.push({ failure: "ranking", reason: "needs a fused list, stages.fused" });
  }
  if (roles.first.length === 0) undecidable.push({ failure: "vocabulary-gap", reason: "needs a first-stage list, stages.first" });
  const decidable = FAILURE_KINDS.filter((f) => f !== "undecided" && !undecidable.some((u) => u.failure === f));
  return { decidable, undecidable };
}

function fixPhrase(failure: FailureKind): string {
  const e = FIX_TABLE[failure];
  if (failure === "anchor-ambiguity") return "correct the golden set's anchors before tuning retrieval";
  if (!e.fix) return "no fix";
  return e.alternatives.length ? `try ${e.fix} (or ${e.alternatives.join(", ")})` : `try ${e.fix}`;
}

/** The one-line recommendation: the most common decided kind's fix (ties name every tied kind). */
export function recommend(overall: Distribution): string {
  if (overall.misses === 0) return "no misses: every answerable question has a relevant chunk in the top k";
  const decided = overall.counts.filter((c) => c.failure !== "undecided" && c.count > 0);
  const undecided = overall.counts.find((c) => c.failure === "undecided")!.count;
  const tail = undecided > 0 ? ` ${undecided} of ${overall.misses} misses ${undecided === 1 ? "is" : "are"} undecided (see each row's reason).` : "";
  if (decided.length === 0) return `no miss could be classified from the evidence: declare the stage lists (a variant's stages in the config) or read the misses by hand.${tail}`;
  const top = Math.max(...decided.map((c) => c.count));
  const leaders = decided.filter((c) => c.count === top);
  if (leaders.length === 1) {
    const c = leaders[0]!;
    return `most misses are ${c.failure} (${c.count} of ${overall.misses}): ${fixPhrase(c.failure)}.${tail}`;
  }
  return `${joinWords(leaders.map((c) => c.failure))} tie (${top} of ${overall.misses} misses each): ${leaders.map((c) => `${c.failure}: ${fixPhrase(c.failure)}`).join("; ")}.${tail}`;
}

/**
 * Counts and shares of failure kinds overall and by question kind, the
 * kinds this variant can decide, and the recommendation line.
 * `answerableByKind` gives each kind's number of answerable questions, so a
 * kind with no miss still shows (0 of 16 missed).
 */
export function summariseMisses(
  rows: readonly MissRow[],
  answerableByKind: ReadonlyMap<string, number>,
  k: number,
  roles: StageRoles,
  hasVerdicts: boolean,
): MissSummary {
  const total = [...answerableByKind.values()].reduce((a, b) => a + b, 0);
  const overall = distribution(OVERALL, total, rows);
  const groups = new Map(groupByKind(rows));
  const byKind = groupByKind([...answerableByKind.keys()].map((kind) => ({ kind }))).map(([kind]) =>
    distribution(kind, answerableByKind.get(kind) ?? 0, groups.get(kind) ?? []),
  );
  return { k, overall, byKind, decidability: decidability(roles, hasVerdicts), recommendation: recommend(overall) };
}
