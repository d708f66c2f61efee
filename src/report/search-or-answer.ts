import type { GoldenQuestion } from "../golden/schema/golden.js";
import type { Verdict } from "../golden/schema/items.js";
import { kindOf } from "../retrieval/diagnostics/kinds.js";

/**
 * Where an answer went wrong, the question ragjudge exists to answer
 * (seed 000: "debug retrieval first"; seed 002: search or answering).
 *
 * Answerable questions:
 * - `ok`: a relevant chunk reached the context and the answer is correct and faithful;
 * - `retrieval-failure`: no relevant chunk reached the context and the answer fails;
 * - `generation-failure`: a relevant chunk reached the context, the answer still fails;
 * - `ok-without-retrieval`: the answer passes although no anchored chunk reached
 *   the context (another chunk answered it, or the model knew): worth reading,
 *   since it can hide an anchor-ambiguity;
 * - `unjudged`: a needed verdict is missing or an error.
 * Unanswerable questions, by their not-found outcome:
 * - `correct-not-found`: the answer said the information is not available;
 * - `invented-answer`: it answered anyway;
 * - `unjudged`.
 */
export type Outcome = (typeof OUTCOMES)[number];

/** Every outcome in reading order (table columns, chart legends); report.json's enum is built from it. */
export const OUTCOMES = [
  "ok",
  "retrieval-failure",
  "generation-failure",
  "ok-without-retrieval",
  "correct-not-found",
  "invented-answer",
  "unjudged",
] as const;

/** What the join needs per question of one variant. */
export interface QuestionEvidence {
  question: GoldenQuestion;
  /** Did any relevant chunk reach the context given to the generator? */
  relevantInContext: boolean;
  /** Item-level verdicts by rubric name (the answer unit). */
  verdicts: ReadonlyMap<string, Verdict>;
}

/** One classified question. */
export interface QuestionOutcome {
  id: string;
  kind: string;
  tags: string[];
  answerable: boolean;
  relevantInContext: boolean | null;
  /** Whether the answer passed the answer rubrics (null when unjudged or unanswerable). */
  answerPassed: boolean | null;
  outcome: Outcome;
  /** Which rubric verdicts decided it, for the per-question table. */
  because: string;
}

/** The answer rubrics whose joint pass means "the answer is right". */
export const ANSWER_RUBRICS = ["correctness", "faithfulness"] as const;

/** The rubric whose verdict classifies unanswerable questions. */
export const NOT_FOUND_RUBRIC = "not-found";

/**
 * Classifies one question. An answer passes when every answer rubric that was
 * judged says yes; any error or missing verdict makes it `unjudged` rather
 * than guessing (an error is never a verdict).
 */
export function classify(e: QuestionEvidence, answerRubrics: readonly string[] = ANSWER_RUBRICS): QuestionOutcome {
  const q = e.question;
  const base = { id: q.id, kind: kindOf(q), tags: q.tags, answerable: q.answerable };
  if (!q.answerable) {
    const v = e.verdicts.get(NOT_FOUND_RUBRIC);
    const outcome: Outcome = v === "yes" ? "correct-not-found" : v === "no" ? "invented-answer" : "unjudged";
    const because = v === undefined ? "not-found not judged" : `not-found: ${v}`;
    return { ...base, relevantInContext: null, answerPassed: null, outcome, because };
  }
  const parts: string[] = [];
  let passed: boolean | null = true;
  for (const r of answerRubrics) {
    const v = e.verdicts.get(r);
    parts.push(`${r}: ${v ?? "missing"}`);
    if (v === "no") passed = passed === null ? null : false;
    else if (v !== "yes") passed = null;
  }
  // A "no" on any rubric fails the answer even when another rubric errored.
  if (answerRubrics.some((r) => e.verdicts.get(r) === "no")) passed = false;
  let outcome: Outcome;
  if (passed === null) outcome = "unjudged";
  else if (passed) outcome = e.relevantInContext ? "ok" : "ok-without-retrieval";
  else outcome = e.relevantInContext ? "generation-failure" : "retrieval-failure";
  return { ...base, relevantInContext: e.relevantInContext, answerPassed: passed, outcome, because: parts.join(", ") };
}

/** Outcome of an answer as 1 (right), 0 (wrong) or null (unjudged). */
export function answerScore(o: Outcome): 0 | 1 | null {
  if (o === "ok" || o === "ok-without-retrieval" || o === "correct-not-found") return 1;
  if (o === "unjudged") return null;
  return 0;
}

/** Counts of outcomes, overall and per group (kind, tag). */
export interface CrossTab {
  n: number;
  counts: Record<Outcome, number>;
}

function emptyTab(): CrossTab {
  return { n: 0, counts: Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number> };
}

/** The cross-tab overall, by kind and by tag. */
export function crossTab(outcomes: readonly QuestionOutcome[]): {
  overall: CrossTab;
  byKind: Map<string, CrossTab>;
  byTag: Map<string, CrossTab>;
} {
  const overall = emptyTab();
  const byKind = new Map<string, CrossTab>();
  const byTag = new Map<string, CrossTab>();
  const add = (t: CrossTab, o: Outcome) => {
    t.n++;
    t.counts[o]++;
  };
  for (const o of outcomes) {
    add(overall, o.outcome);
    let k = byKind.get(o.kind);
    if (!k) byKind.set(o.kind, (k = emptyTab()));
    add(k, o.outcome);
    for (const tag of o.tags) {
      let t = byTag.get(tag);
      if (!t) byTag.set(tag, (t = emptyTab()));
      add(t, o.outcome);
    }
  }
  return { overall, byKind: sortMap(byKind), byTag: sortMap(byTag) };
}

function sortMap<V>(m: Map<string, V>): Map<string, V> {
  return new Map([...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** "1 retrieval failure", "2 retrieval failures" (format.ts's plural; this module is below it). */
const count = (n: number, word: string) => `${n} ${n === 1 ? word : `${word}s`}`;

/**
 * The one-line diagnosis: which half of the system to fix first, from the
 * failed answerable questions.
 */
export function diagnosis(tab: CrossTab): string {
  const r = tab.counts["retrieval-failure"];
  const g = tab.counts["generation-failure"];
  const inv = tab.counts["invented-answer"];
  const failed = r + g;
  if (failed === 0 && inv === 0) return "No failed answers among the judged questions.";
  const parts: string[] = [];
  if (failed > 0) {
    const lead = r > g ? "search" : g > r ? "answering" : "search and answering equally";
    parts.push(`${count(failed, "failed answer")}: ${count(r, "retrieval failure")} (the relevant chunk never reached the context), ${count(g, "generation failure")} (it did); fix ${lead} first.`);
  }
  if (inv > 0) parts.push(`${count(inv, "unanswerable question")} got an invented answer.`);
  return parts.join(" ");
}
