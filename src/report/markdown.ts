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
import { claimsSection } from "./claims.js";
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
 * The most characters report.md holds when it can: the body of a GitHub
 * pull-request comment (the API refuses a longer one: "Body is too long
 * (maximum is 65536 characters)"); a job summary takes 1 MiB. Counted in
 * UTF-16 units, which is never fewer than GitHub's characters.
 */
export const MARKDOWN_BUDGET = 65_536;

/** How many items of each failure class are listed (when the file fits its budget). */
export const WORST_PER_CLASS = 10;

/** How much of the per-item tables report.md shows: rows of a per-question or miss table, items per failure class. */
interface Detail {
  rows: number;
  worst: number;
}

/** Tried in order until the file fits its budget; the last is used when none does. */
const DETAIL_LADDER: readonly Detail[] = [
  { rows: MARKDOWN_TABLE_ROWS, worst: WORST_PER_CLASS },
  { rows: 50, worst: WORST_PER_CLASS },
  { rows: 25, worst: 5 },
  { rows: 10, worst: 5 },
  { rows: 5, worst: 3 },
  { rows: 0, worst: 3 },
  { rows: 0, worst: 0 },
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

/** Options of {@link renderReportMarkdown}. */
export interface MarkdownOptions {
  /** The most characters the file should hold ({@link MARKDOWN_BUDGET}); Infinity keeps every table at its bound. */
  budget?: number;
}

/**
 * Renders report.md; with the run's items, the worst items of each failure
 * class come right after the search-or-answering section. The per-item
 * tables (worst items, per-question outcomes, misses) shrink step by step
 * until the file fits `budget` (a pull-request comment); the file then says
 * so and where every row is. The other sections are whole at every step:
 * when even the smallest step does not fit, the file says how long it is
 * and what to post instead.
 *
 * @example
 * writeFileSync("report.md", renderReportMarkdown(report, items));
 */
export function renderReportMarkdown(report: ReportJson, items?: readonly ItemRecord[], options: MarkdownOptions = {}): string {
  const budget = options.budget ?? MARKDOWN_BUDGET;
  const title = [
    `# ragjudge: ${md(report.name)}`,
    "",
    `${md(`${report.time} · ${questionCounts(report)} · judge: ${report.judge.label}`)} · evaluation ${markdownCode(report.folder)}`,
    "",
  ];
  const top = [...headline(report), "", searchOrAnswerSection(report, "markdown")];
  const claims = claimsSection(report, "markdown");
  const middle = ["", retrievalSection(report, "markdown"), diagnosticsSection(report, "markdown")];
  const end = [
    "",
    judgeSection(report, "markdown"),
    confidenceSection(report),
    gateSection(report, "markdown"),
    ...(report.panel ? [panelSection(report.panel, "markdown", report.config.file)] : []),
  ];
  if (report.warnings.length) {
    end.push(details(plural(report.warnings.length, "input warning"), report.warnings.map((w) => `- ${md(w)}`).join("\n")));
  }
  const classes = items ? classItems(report, items) : undefined;
  const render = (d: Detail, note: string[]) =>
    [
      ...title,
      ...note,
      ...top,
      ...(classes ? [worstSection(classes, d.worst)] : []),
      claims,
      ...report.variants.map((v) => perQuestion(v, d.rows)),
      ...middle,
      ...report.variants.map((v) => misses(v, d.rows)),
      ...end,
    ].join("\n").replace(/\n{3,}/g, "\n\n");
  let text = render(DETAIL_LADDER[0]!, []);
  if (text.length <= budget) return text;
  for (const d of DETAIL_LADDER.slice(1)) {
    const shown = d.rows > 0 ? `their first ${d.rows} rows` : "no rows";
    const worst = items ? (d.worst > 0 ? ` and the ${d.worst} worst items of each failure class` : " and no worst items") : "";
    text = render(d, [`> ${md(`The per-item tables show ${shown}${worst}, so that this file fits a pull-request comment (GitHub takes ${budget.toLocaleString("en")} characters). Every row is in items.csv, items.jsonl, diagnostics.json and report.html.`)}`, ""]);
    if (text.length <= budget) return text;
  }
  const over = `This file is longer than a pull-request comment holds (${budget.toLocaleString("en")} characters) even with its per-item tables left out: post summary.txt instead, or report.md as a job summary (GitHub takes 1 MiB there). Every row is in items.csv, items.jsonl, diagnostics.json and report.html.`;
  return render(DETAIL_LADDER[DETAIL_LADDER.length - 1]!, [`> ${md(over)}`, ""]);
}
