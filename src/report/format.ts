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

/**
 * An interval as "[lo, hi]" in percent (shares) or plain numbers. A bound
 * that rounds to zero prints without a minus sign ({@link fixed}), as the
 * gate's messages print it: a kappa bound of -1e-17 is 0.00, not -0.00.
 *
 * @example
 * interval({ lo: -0.0001, hi: 0.5 })      // "[0.00, 0.50]"
 * interval({ lo: 0.4902, hi: 0.9433 }, true) // "[49.0, 94.3]"
 */
export function interval(ci: { lo: number; hi: number } | null | undefined, asPct = false, digits?: number): string {
  if (!ci) return "n/a";
  const d = digits ?? (asPct ? 1 : 2);
  const scale = asPct ? 100 : 1;
  return `[${fixed(scale * ci.lo, d)}, ${fixed(scale * ci.hi, d)}]`;
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

/** The unit a rubric's pass rate counts (citation accuracy: answers, whose every citation must be supported). */
export function unitWord(r: Pick<RubricJson, "unit"> & { rateUnit?: RubricJson["rateUnit"] }): string {
  return r.rateUnit ?? (r.unit === "question" ? "questions" : "answers");
}

/** A corrected rate for a table cell: "n/a", "83.3% [70.1, 91.2]", or "100.0% (interval not informative)". */
export function estimateText(e: { estimate: number | null; ci: { lo: number; hi: number } | null; uninformative?: string | null }): string {
  if (e.estimate === null) return "n/a";
  if (e.uninformative) return `${pct(e.estimate)} (interval not informative)`;
  return `${pct(e.estimate)} ${e.ci ? interval(e.ci, true) : "(no interval)"}`;
}

/** One line per draw of a rubric's trust state: its coverage of the judge's held-out items and whether it counts. */
export function drawLines(r: RubricJson): string[] {
  return r.trust.draws.map((d) => {
    const cov = d.coverage === null ? "no drawn held-out item" : `${d.labelled} of ${d.drawn} drawn held-out items labelled (${Math.round(100 * d.coverage)}%)`;
    const state = d.counts ? "counts" : !d.covers ? `does not count: ${d.why ?? "it does not cover the judged items"}` : `does not count yet: its labels count once ${Math.round(100 * (r.trust.thresholds.minCoverage ?? 0.8))}% of it is labelled`;
    const skips = d.skipsLean ? `; skips are not at random (Fisher's exact p = ${d.skipP === null ? "n/a" : d.skipP.toFixed(3)})` : "";
    return `draw ${d.id} (drawn for ${d.annotator}): ${cov}; ${state}${skips}`;
  });
}

/** The main retrieval figure of a variant ("R@10 0.708, RR 0.569"). */
export function retrievalHeadline(v: ReportJson["variants"][number]): string {
  const m = v.retrieval.main;
  return m.map((label) => `${label} ${num(v.retrieval.overall.values[label])}`).join(", ");
}

/** The search-or-answering verdict of one variant as every report opens with it. */
export interface HeadlineVerdict {
  variant: string;
  /** True when every rubric the join rests on is trusted: the diagnosis is then the verdict. */
  decided: boolean;
  /** One line: the diagnosis, or "not decided" with what retrieval alone says. */
  text: string;
}

/**
 * The first thing every report (terminal, Markdown, HTML) shows: per
 * variant, whether it fails at search or at answering. When the answer
 * rubrics the join rests on are trusted, that is the diagnosis. When any is
 * untrusted, no figure from their verdicts is a headline: the verdict says
 * "not decided", names them, and gives only what needs no judge, how often
 * a relevant chunk reached the context.
 *
 * @example
 * headlineVerdicts(report)[0].text
 * // on the shipped example:
 * // "bm25-small: not decided: the answer verdicts rest on untrusted rubrics (correctness, faithfulness, not-found); retrieval alone: a relevant chunk reached the context for 30 of 48 answerable questions"
 */
export function headlineVerdicts(report: ReportJson): HeadlineVerdict[] {
  const untrusted = untrustedAnswerRubrics(report);
  return report.variants.map((v) => {
    if (!untrusted.length) return { variant: v.name, decided: true, text: `${v.name}: ${v.searchOrAnswer.diagnosis}` };
    const answerable = v.searchOrAnswer.questions.filter((q) => q.answerable);
    const reached = answerable.filter((q) => q.relevantInContext === true).length;
    return {
      variant: v.name,
      decided: false,
      text: `${v.name}: not decided: the answer verdicts rest on untrusted rubrics (${untrusted.join(", ")}); retrieval alone: a relevant chunk reached the context for ${reached} of ${answerable.length} answerable questions`,
    };
  });
}

/** The gate's result in words, as the badge and the result lines say it: "PASS", "PASS (floors only; trust not required)", "FAIL (floor missed: ...)" with every reason. */
export function gateResult(report: ReportJson): string {
  const g = report.gate;
  return g.badge === "fail" ? (g.failures.length ? `FAIL (${g.failures.join("; ")})` : "FAIL") : g.badge === "partial" ? `PASS (${g.checked}; ${plural(g.untrusted.length, "rubric")} untrusted)` : `PASS (${g.checked})`;
}
