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
 * outcomes and the misses of each variant). report.md is read in a pull
 * request or a CI job summary (GitHub takes 1 MiB per job summary): at 10,000
 * questions the whole tables were 13.7 MB. Every row stays in items.csv,
 * items.jsonl and diagnostics.json.
 */
export const MARKDOWN_TABLE_ROWS = 100;

/** The first rows of a table and, when it had more, a line saying where the rest are. */
function firstRows<T>(rows: readonly T[], rest: string): { shown: readonly T[]; summary: string; after: string } {
  if (rows.length <= MARKDOWN_TABLE_ROWS) return { shown: rows, summary: "", after: "" };
  const more = rows.length - MARKDOWN_TABLE_ROWS;
  return { shown: rows.slice(0, MARKDOWN_TABLE_ROWS), summary: `, the first ${MARKDOWN_TABLE_ROWS}`, after: `\n\n${md(`${more} more ${rest}.`)}` };
}

function perQuestion(v: VariantJson): string {
  const all = v.searchOrAnswer.questions;
  const { shown, summary, after } = firstRows(all, "in items.csv and items.jsonl, one row per question of each variant");
  const rows = shown.map((q) => [q.id, q.kind, q.relevantInContext === null ? "—" : q.relevantInContext ? "yes" : "no", OUTCOME_LABELS[q.outcome], q.because]);
  const table = renderTable([{ header: "question" }, { header: "kind" }, { header: "relevant in context" }, { header: "outcome" }, { header: "verdicts" }], rows, "markdown");
  return details(`Per question: ${v.name} (${plural(all.length, "question")}${summary})`, table + after);
}

function misses(v: VariantJson): string {
  if (v.misses.length === 0) return `${md(`No misses for ${v.name}: every answerable question has a relevant chunk in the top ${v.failures.k}.`)}\n`;
  const lists = v.misses[0]!.ranks.map((r) => r.name);
  const { shown, summary, after } = firstRows(v.misses, "in diagnostics.json, every miss with its ranks and evidence");
  const rows = shown.map((m) => [m.question, m.kind, m.anchor ?? "—", ...lists.map((n) => m.ranks.find((r) => r.name === n)?.cell ?? ""), m.failure, m.fix ?? "—", whyWithProposal(m)]);
  const table = renderTable([{ header: "question" }, { header: "kind" }, { header: "anchor" }, ...lists.map((n) => ({ header: n, align: "right" as const })), { header: "failure" }, { header: "fix" }, { header: "why" }], rows, "markdown");
  return details(`Misses: ${v.name} (${v.misses.length} of ${v.failures.overall.answerable}, no relevant chunk in the top ${v.failures.k}${summary})`, table + after);
}

/** How many items of each failure class are listed. */
export const WORST_PER_CLASS = 10;

const CLASS_TITLES: Record<FailureClass, string> = {
  "retrieval-failure": "retrieval failures (the relevant chunk never reached the context)",
  "generation-failure": "generation failures (it did, and the answer still failed)",
  "invented-answer": "invented answers (unanswerable questions answered anyway)",
};

function retrievalCell(it: ItemRecord): string {
  const rank = it.firstRelevantRank === null ? "not retrieved" : `first relevant at ${it.firstRelevantRank}`;
  return it.miss ? `${rank}; ${it.miss.failure}` : rank;
}

/**
 * The ten worst items of each failure class per variant (src/report/items/worst.ts):
 * question, answer excerpt and the judge's reason, the rows a reviewer reads first.
 */
export function worstSection(report: ReportJson, items: readonly ItemRecord[]): string {
  const out: string[] = ["## Worst items by failure class", "", md(`The ${WORST_PER_CLASS} worst of each class per variant; every item is in items.csv and in the HTML report's explorer.`), ""];
  for (const v of report.variants) {
    for (const cls of FAILURE_CLASSES) {
      const all = items.filter((i) => i.variant === v.name && i.outcome === cls).length;
      if (all === 0) continue;
      const rows = worstItems(items, v.name, cls, WORST_PER_CLASS).map((it) => [
        it.question,
        shorten(it.text, 80),
        it.answer === null ? "(no answer)" : shorten(it.answer, 140),
        shorten(failingReasons(it) || it.because, 220),
        retrievalCell(it),
      ]);
      out.push(`### ${md(`${v.name}: ${all} ${CLASS_TITLES[cls]}${all > rows.length ? `, the ${rows.length} worst` : ""}`)}`, "");
      out.push(renderTable([{ header: "question" }, { header: "text" }, { header: "answer" }, { header: "judge's reason" }, { header: "retrieval" }], rows, "markdown"), "");
    }
  }
  return out.join("\n");
}

/**
 * Renders report.md; with the run's items, the worst items of each failure
 * class come right after the search-or-answering section.
 *
 * @example
 * writeFileSync("report.md", renderReportMarkdown(report, items));
 */
export function renderReportMarkdown(report: ReportJson, items?: readonly ItemRecord[]): string {
  const out: string[] = [
    `# ragjudge: ${md(report.name)}`,
    "",
    `${md(`${report.time} · ${questionCounts(report)} · judge: ${report.judge.label}`)} · evaluation ${markdownCode(report.folder)}`,
    "",
    ...headline(report),
    "",
    searchOrAnswerSection(report, "markdown"),
    ...(items ? [worstSection(report, items)] : []),
    claimsSection(report, "markdown"),
    ...report.variants.map(perQuestion),
    "",
    retrievalSection(report, "markdown"),
    diagnosticsSection(report, "markdown"),
    ...report.variants.map(misses),
    "",
    judgeSection(report, "markdown"),
    confidenceSection(report),
    gateSection(report, "markdown"),
    ...(report.panel ? [panelSection(report.panel, "markdown", report.config.file)] : []),
  ];
  if (report.warnings.length) {
    out.push(details(plural(report.warnings.length, "input warning"), report.warnings.map((w) => `- ${md(w)}`).join("\n")));
  }
  return out.join("\n").replace(/\n{3,}/g, "\n\n");
}
