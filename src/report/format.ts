import { fixed } from "../calibration/format.js";
import type { ReportJson, RubricJson, TabJson } from "./schema.js";
import { NOT_FOUND_RUBRIC, OUTCOMES, type Outcome } from "./search-or-answer.js";

/**
 * Number and label formatting shared by the terminal, Markdown, HTML and
 * JUnit reports, so one figure reads the same everywhere.
 */

/** A share as a percentage with one decimal, or "n/a". */
export function pct(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? "n/a" : `${(100 * x).toFixed(digits)}%`;
}

/** A number with `digits` decimals, or "n/a". */
export function num(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined || !Number.isFinite(x) ? "n/a" : x.toFixed(digits);
}

/** A run's cost in US dollars, or "unknown" when the model has no price in the config. */
export function usd(cost: number | null): string {
  return cost === null ? "unknown" : `$${cost.toFixed(4)}`;
}

/** A signed difference: "+0.060", "-0.021". */
export function signed(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "n/a";
  const s = fixed(x, digits);
  return s.startsWith("-") ? s : `+${s}`;
}

/** An interval as "[lo, hi]" in percent (shares) or plain numbers. */
export function interval(ci: { lo: number; hi: number } | null | undefined, asPct = false, digits?: number): string {
  if (!ci) return "n/a";
  if (asPct) return `[${(100 * ci.lo).toFixed(digits ?? 1)}, ${(100 * ci.hi).toFixed(digits ?? 1)}]`;
  return `[${ci.lo.toFixed(digits ?? 2)}, ${ci.hi.toFixed(digits ?? 2)}]`;
}

/** Column labels of the outcomes, in reading order. */
export const OUTCOME_LABELS: Record<Outcome, string> = {
  ok: "ok",
  "retrieval-failure": "retrieval failure",
  "generation-failure": "generation failure",
  "ok-without-retrieval": "ok w/o relevant chunk",
  "correct-not-found": "correct not found",
  "invented-answer": "invented answer",
  unjudged: "unjudged",
};

/** The outcomes shown as columns: every one, except `unjudged` when no group has any. */
export function outcomeColumns(tabs: readonly TabJson[]): Outcome[] {
  return OUTCOMES.filter((o) => o !== "unjudged" || tabs.some((t) => t.counts[o] > 0));
}

/** "1 question" / "3 questions". */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/**
 * The golden set's size as every report's header states it.
 *
 * @example
 * questionCounts(report) // "60 questions (48 answerable, 12 unanswerable)"
 */
export function questionCounts(report: ReportJson): string {
  const q = report.questions;
  const answerable = q.filter((x) => x.answerable).length;
  return `${plural(q.length, "question")} (${answerable} answerable, ${q.length - answerable} unanswerable)`;
}

/**
 * The run's time as a person reads it, to the second.
 *
 * @example
 * readableTime("2026-11-30T13:45:01.250Z") // "2026-11-30 13:45:01 UTC"
 */
export function readableTime(iso: string): string {
  return iso.replace("T", " ").replace(/\.\d+Z$/, " UTC");
}

/** The rubrics whose judge is trusted (rule-only rubrics left out: nothing was calibrated), for headline figures. */
export function trustedJudgeRubrics(report: ReportJson): RubricJson[] {
  return report.rubrics.filter((r) => r.trust.trusted && r.judge !== "rule");
}

/** The rubrics the search-or-answering join relied on that are not trusted, for its caveat. */
export function untrustedAnswerRubrics(report: ReportJson): string[] {
  const used = new Set<string>([...report.variants.flatMap((v) => v.searchOrAnswer.answerRubrics), NOT_FOUND_RUBRIC]);
  return [...new Set(report.rubrics.filter((r) => used.has(r.rubric) && !r.trust.trusted).map((r) => r.rubric))];
}

/** "untrusted 45.8%" or "trusted 45.8%": the trust state always stands before the number. */
export function trustedRate(r: RubricJson, value: number | null): string {
  return `${r.trust.trusted ? "trusted" : "untrusted"} ${pct(value)}`;
}

/** The rubric's heading line: name, judge fingerprint, trust state and what the calibration was based on. */
export function trustHeadline(r: RubricJson): string {
  const fp = r.judge === "rule" ? "rule verdicts" : `fingerprint ${r.fingerprint.slice(0, 12)}`;
  const state = r.trust.trusted ? "TRUSTED" : "UNTRUSTED";
  const message = r.trust.message.replace(/^(un)?trusted: /, "");
  return `${r.rubric} (${fp}): ${state}: ${message}${basisSuffix(r)}`;
}

/**
 * " (calibration based on 52 author labels ...)" when the trust message does
 * not already name the labels it rests on (the gate's message does when it
 * counts them), else "". Author labels are never called human.
 */
export function basisSuffix(r: RubricJson): string {
  if (r.judge === "rule" || r.trust.message.includes(r.trust.basis)) return "";
  return ` (calibration based on ${r.trust.basis})`;
}

/** The unit a rubric's rates count. */
export function unitWord(r: RubricJson): string {
  return r.unit === "citation" ? "citation pairs" : r.unit === "question" ? "questions" : "answers";
}

/** The main retrieval figure of a variant ("R@10 0.708, RR 0.569"). */
export function retrievalHeadline(v: ReportJson["variants"][number]): string {
  const m = v.retrieval.main;
  return m.map((label) => `${label} ${num(v.retrieval.overall.values[label])}`).join(", ");
}
