import { escapeMarkdown, markdownCode } from "../golden/escape.js";
import { panelSection } from "./panel/render.js";
import { whyWithProposal } from "../retrieval/diagnostics/render.js";
import { renderTable, shorten } from "../retrieval/diagnostics/table.js";
import { confidenceSection } from "./confidence-section.js";
import { gateResult, OUTCOME_LABELS, plural, pct, questionCounts, retrievalHeadline, trustedJudgeRubrics, untrustedAnswerRubrics } from "./format.js";
import { escapeHtml } from "./html/escape.js";
import type { ItemRecord } from "./items/schema.js";
import { FAILURE_CLASSES, failingReasons, worstItems, type FailureClass } from "./items/worst.js";
import type { ReportJson, VariantJson } from "./schema.js";
import { CLAIMS_SHOWN, claimsSection } from "./claims.js";
import { diagnosticsSection, gateSection, judgeSection, retrievalSection, searchOrAnswerSection, verdictLines } from "./terminal.js";

/**
 * The Markdown report (report.md), for a pull-request comment or a CI job
 * summary: the same sections as the terminal summary as GitHub tables, the
 * ten worst items of each failure class with the question, the answer and
 * the judge's reason, and the per-question outcomes and the misses in
 * collapsed blocks. Every piece of user text is escaped (src/golden/escape.ts):
 * a judge's reason holding `</td></tr></table>` or a link stays text.
 */

const md = escapeMarkdown;

/**
 * The top of report.md: the search-or-answering verdict of each variant,
 * then a table whose answer counts appear only when the rubrics they rest on
 * are trusted, the trusted pass rates, and untrusted rubrics by name only.
 */
function headline(report: ReportJson): string[] {
  const answersTrusted = untrustedAnswerRubrics(report).length === 0;
  const out = ["**Verdict:**", "", ...verdictLines(report, "markdown"), ""];
  out.push(answersTrusted ? "| variant | retrieval | answers ok | retrieval failures | generation failures |" : "| variant | retrieval | relevant chunk in context |");
  out.push(answersTrusted ? "|:---|:---|---:|---:|---:|" : "|:---|:---|---:|");
  for (const v of report.variants) {
    const c = v.searchOrAnswer.overall.counts;
    const answerable = v.searchOrAnswer.questions.filter((q) => q.answerable);
    out.push(answersTrusted
      ? `| ${md(v.name)} | ${md(retrievalHeadline(v))} | ${c.ok + c["ok-without-retrieval"]} | ${c["retrieval-failure"]} | ${c["generation-failure"]} |`
      : `| ${md(v.name)} | ${md(retrievalHeadline(v))} | ${answerable.filter((q) => q.relevantInContext === true).length} of ${answerable.length} |`);
  }
  const trusted = trustedJudgeRubrics(report);
  const untrusted = report.gate.untrusted;
  out.push("");
  if (trusted.length) out.push(md(`Trusted pass rates: ${trusted.map((r) => `${r.rubric} ${r.variants.map((v) => `${v.variant} ${pct(v.raw.value)}`).join(", ")}`).join("; ")}.`));
  if (untrusted.length) out.push(md(`Untrusted rubrics (not headline figures until calibrated): ${untrusted.join(", ")}.`));
  out.push(`Gate: ${md(gateResult(report))}.`);
  return out;
}

/** A collapsed block; its summary is HTML, so it is HTML-escaped (Markdown escapes do not apply inside it). */
function details(summary: string, body: string): string {
  return `<details><summary>${escapeHtml(summary)}</summary>\n\n${body}\n\n</details>\n`;
}

/**
 * Rows a per-question table of report.md shows at most (the per-question
 * outcomes and the misses of each variant). At 10,000 questions the whole
 * tables were 13.7 MB. Every row stays in items.csv, items.jsonl and
 * diagnostics.json.
 */
export const MARKDOWN_TABLE_ROWS = 100;

/**
 * The most characters report.md holds when it can. A GitHub pull-request
 * comment takes 65,536 (the API refuses a longer one: "Body is too long
 * (maximum is 65536 characters)"); 1,536 are left for what a comment action
 * adds (a heading, a hidden marker). A job summary takes 1 MiB. Counted in
 * UTF-16 units, never fewer than GitHub's characters.
 */
export const MARKDOWN_BUDGET = 64_000;

/** How many items of each failure class are listed (when the file fits its budget). */
export const WORST_PER_CLASS = 10;

/**
 * How much of its per-item content report.md shows: rows of a per-question or
 * miss table, items per failure class, and entries of a long list (input
 * warnings, question ids in the retrieval notes, unsupported claims per
 * variant; Infinity: all, claims up to their own bound).
 */
export interface MarkdownDetail {
  rows: number;
  worst: number;
  list: number;
}

/** Tried in order until the file fits its budget; the last is used when none does. */
export const DETAIL_LADDER: readonly MarkdownDetail[] = [
  { rows: MARKDOWN_TABLE_ROWS, worst: WORST_PER_CLASS, list: Infinity },
  { rows: 50, worst: WORST_PER_CLASS, list: 100 },
  { rows: 25, worst: 5, list: 50 },
  { rows: 10, worst: 5, list: 20 },
  { rows: 5, worst: 3, list: 10 },
  { rows: 0, worst: 3, list: 5 },
  { rows: 0, worst: 0, list: 0 },
];

/** The first `limit` rows of a table and, when it had more, a line saying where the rest are. */
function firstRows<T>(rows: readonly T[], limit: number, rest: string): { shown: readonly T[]; summary: string; after: string } {
  if (rows.length <= limit) return { shown: rows, summary: "", after: "" };
  const more = rows.length - limit;
  return { shown: rows.slice(0, limit), summary: `, the first ${limit}`, after: `\n\n${md(`${more} more ${rest}.`)}` };
}

const PER_QUESTION_REST = "in items.csv and items.jsonl, one row per question of each variant";
const MISSES_REST = "in diagnostics.json, every miss with its ranks and evidence";

function perQuestion(v: VariantJson, limit: number): string {
  const all = v.searchOrAnswer.questions;
  if (limit === 0 && all.length > 0) return `${md(`Per question: ${v.name} (${plural(all.length, "question")}) ${PER_QUESTION_REST}.`)}\n`;
  const { shown, summary, after } = firstRows(all, limit, PER_QUESTION_REST);
  const rows = shown.map((q) => [q.id, q.kind, q.relevantInContext === null ? "—" : q.relevantInContext ? "yes" : "no", OUTCOME_LABELS[q.outcome], q.because]);
  const table = renderTable([{ header: "question" }, { header: "kind" }, { header: "relevant in context" }, { header: "outcome" }, { header: "verdicts" }], rows, "markdown");
  return details(`Per question: ${v.name} (${plural(all.length, "question")}${summary})`, table + after);
}

function misses(v: VariantJson, limit: number): string {
  if (v.misses.length === 0) return `${md(`No misses for ${v.name}: every answerable question has a relevant chunk in the top ${v.failures.k}.`)}\n`;
  const title = `Misses: ${v.name} (${v.misses.length} of ${v.failures.overall.answerable}, no relevant chunk in the top ${v.failures.k}`;
  if (limit === 0) return `${md(`${title}) ${MISSES_REST}.`)}\n`;
  const lists = v.misses[0]!.ranks.map((r) => r.name);
  const { shown, summary, after } = firstRows(v.misses, limit, MISSES_REST);
  const rows = shown.map((m) => [m.question, m.kind, m.anchor ?? "—", ...lists.map((n) => m.ranks.find((r) => r.name === n)?.cell ?? ""), m.failure, m.fix ?? "—", whyWithProposal(m)]);
  const table = renderTable([{ header: "question" }, { header: "kind" }, { header: "anchor" }, ...lists.map((n) => ({ header: n, align: "right" as const })), { header: "failure" }, { header: "fix" }, { header: "why" }], rows, "markdown");
  return details(`${title}${summary})`, table + after);
}

const CLASS_TITLES: Record<FailureClass, string> = {
  "retrieval-failure": "retrieval failures (the relevant chunk never reached the context)",
  "generation-failure": "generation failures (it did, and the answer still failed)",
  "invented-answer": "invented answers (unanswerable questions answered anyway)",
};

function retrievalCell(it: ItemRecord): string {
  const rank = it.firstRelevantRank === null ? "not retrieved" : `first relevant at ${it.firstRelevantRank}`;
  return it.miss ? `${rank}; ${it.miss.failure}` : rank;
}

/** One variant's items of one failure class: how many, and the worst {@link WORST_PER_CLASS} in order. */
interface ClassItems {
  variant: string;
  cls: FailureClass;
  all: number;
  worst: ItemRecord[];
}

/** The failure classes of each variant that have items, ranked once for every step of the budget. */
function classItems(report: ReportJson, items: readonly ItemRecord[]): ClassItems[] {
  const out: ClassItems[] = [];
  for (const v of report.variants) {
    for (const cls of FAILURE_CLASSES) {
      const all = items.filter((i) => i.variant === v.name && i.outcome === cls).length;
      if (all > 0) out.push({ variant: v.name, cls, all, worst: worstItems(items, v.name, cls, WORST_PER_CLASS) });
    }
  }
  return out;
}

/**
 * The `limit` worst items of each failure class per variant (src/report/items/worst.ts):
 * question, answer excerpt and the judge's reason, the rows a reviewer reads first.
 */
function worstSection(classes: readonly ClassItems[], limit: number): string {
  const lead = limit > 0 ? `The ${limit} worst of each class per variant; every item` : "Every item";
  const out: string[] = ["## Worst items by failure class", "", md(`${lead} is in items.csv and in the HTML report's explorer.`), ""];
  for (const { variant, cls, all, worst } of classes) {
    const rows = worst.slice(0, limit).map((it) => [
      it.question,
      shorten(it.text, 80),
      it.answer === null ? "(no answer)" : shorten(it.answer, 140),
      shorten(failingReasons(it) || it.because, 220),
      retrievalCell(it),
    ]);
    out.push(`### ${md(`${variant}: ${all} ${CLASS_TITLES[cls]}${all > rows.length && rows.length > 0 ? `, the ${rows.length} worst` : ""}`)}`, "");
    if (rows.length) out.push(renderTable([{ header: "question" }, { header: "text" }, { header: "answer" }, { header: "judge's reason" }, { header: "retrieval" }], rows, "markdown"), "");
  }
  return out.join("\n");
}

/** The input warnings, the first `limit` of them. */
function warningsBlock(warnings: readonly string[], limit: number): string {
  if (warnings.length === 0) return "";
  const shown = warnings.slice(0, limit);
  const more = warnings.length - shown.length;
  const body = [...shown.map((w) => `- ${md(w)}`), ...(more ? [md(`${shown.length ? `${more} more` : `All ${more}`} in validation.json and report.json.`)] : [])].join("\n");
  return details(`${plural(warnings.length, "input warning")}${more && shown.length ? `, the first ${shown.length}` : ""}`, body);
}

/** Options of {@link renderReportMarkdown}. */
export interface MarkdownOptions {
  /** The most characters the file should hold ({@link MARKDOWN_BUDGET}); Infinity keeps every table at its bound. */
  budget?: number;
}

/**
 * Renders report.md; with the run's items, the worst items of each failure
 * class come right after the search-or-answering section. The per-item
 * content (worst items, per-question outcomes, misses, long lists) shrinks
 * step by step ({@link DETAIL_LADDER}) until the file fits `budget` (a
 * pull-request comment); the file then says so and where every row is.
 * When even the smallest step does not fit, the file says what to post
 * instead.
 *
 * @example
 * writeFileSync("report.md", renderReportMarkdown(report, items));
 */
export function renderReportMarkdown(report: ReportJson, items?: readonly ItemRecord[], options: MarkdownOptions = {}): string {
  const budget = options.budget ?? MARKDOWN_BUDGET;
  let last = "";
  for (const { text } of markdownSteps(report, items, budget)) {
    if (text.length <= budget) return text;
    last = text;
  }
  const over = `This file is longer than a pull-request comment holds (${budget.toLocaleString("en")} characters) even with its per-item tables and lists left out: post summary.txt instead, or report.md as a job summary (GitHub takes 1 MiB there). Every row is in items.csv, items.jsonl, diagnostics.json and report.html.`;
  return last.replace(/^> .*$/m, `> ${md(over)}`);
}

/**
 * report.md at each step of {@link DETAIL_LADDER}, in order, each with its
 * note (the first step has none): what {@link renderReportMarkdown} chooses
 * from, rendered only as far as it is read.
 */
export function* markdownSteps(report: ReportJson, items: readonly ItemRecord[] | undefined, budget = MARKDOWN_BUDGET): Generator<{ detail: MarkdownDetail; text: string }> {
  const title = [
    `# ragjudge: ${md(report.name)}`,
    "",
    `${md(`${report.time} · ${questionCounts(report)} · judge: ${report.judge.label}`)} · evaluation ${markdownCode(report.folder)}`,
    "",
  ];
  const top = [...headline(report), "", searchOrAnswerSection(report, "markdown")];
  const diagnostics = diagnosticsSection(report, "markdown");
  const end = [
    "",
    judgeSection(report, "markdown"),
    confidenceSection(report),
    gateSection(report, "markdown"),
    ...(report.panel ? [panelSection(report.panel, "markdown", report.config.file)] : []),
  ];
  const classes = items ? classItems(report, items) : undefined;
  for (const [step, d] of DETAIL_LADDER.entries()) {
    const note = step === 0 ? [] : [`> ${md(cutNote(d, items !== undefined, budget))}`, ""];
    const text = [
      ...title,
      ...note,
      ...top,
      ...(classes ? [worstSection(classes, d.worst)] : []),
      claimsSection(report, "markdown", Math.min(CLAIMS_SHOWN, d.list)),
      ...report.variants.map((v) => perQuestion(v, d.rows)),
      "",
      retrievalSection(report, "markdown", d.list),
      diagnostics,
      ...report.variants.map((v) => misses(v, d.rows)),
      ...end,
      warningsBlock(report.warnings, d.list),
    ].join("\n").replace(/\n{3,}/g, "\n\n");
    yield { detail: d, text };
  }
}

/** The line at the top of a cut report.md: what each kind of content shows. */
function cutNote(d: MarkdownDetail, withItems: boolean, budget: number): string {
  const rows = d.rows > 0 ? `their first ${d.rows} rows` : "no rows";
  const worst = withItems ? (d.worst > 0 ? `, the ${d.worst} worst items of each failure class` : ", no worst items") : "";
  const lists = d.list > 0 ? `long lists their first ${d.list} entries` : "long lists only their counts";
  return `The per-item tables show ${rows}${worst} and ${lists}, so that this file fits a pull-request comment (${budget.toLocaleString("en")} characters). Every row is in items.csv, items.jsonl, diagnostics.json and report.html.`;
}
