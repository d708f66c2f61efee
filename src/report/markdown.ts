import { renderTable } from "../retrieval/diagnostics/table.js";
import { gateResult, OUTCOME_LABELS, plural, pct, questionCounts, retrievalHeadline, trustedJudgeRubrics, untrustedAnswerRubrics } from "./format.js";
import type { ReportJson, VariantJson } from "./schema.js";
import { diagnosticsSection, gateSection, judgeSection, retrievalSection, searchOrAnswerSection, verdictLines } from "./terminal.js";

/**
 * The Markdown report (report.md), for a pull-request comment or a CI job
 * summary: the same sections as the terminal summary as GitHub tables, the
 * per-question outcomes and the misses in collapsed blocks.
 */

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
      ? `| ${v.name} | ${retrievalHeadline(v)} | ${c.ok + c["ok-without-retrieval"]} | ${c["retrieval-failure"]} | ${c["generation-failure"]} |`
      : `| ${v.name} | ${retrievalHeadline(v)} | ${answerable.filter((q) => q.relevantInContext === true).length} of ${answerable.length} |`);
  }
  const trusted = trustedJudgeRubrics(report);
  const untrusted = report.gate.untrusted;
  out.push("");
  if (trusted.length) out.push(`Trusted pass rates: ${trusted.map((r) => `${r.rubric} ${r.variants.map((v) => `${v.variant} ${pct(v.raw.value)}`).join(", ")}`).join("; ")}.`);
  if (untrusted.length) out.push(`Untrusted rubrics (not headline figures until calibrated): ${untrusted.join(", ")}.`);
  out.push(`Gate: ${gateResult(report)}.`);
  return out;
}

function perQuestion(v: VariantJson): string {
  const rows = v.searchOrAnswer.questions.map((q) => [q.id, q.kind, q.relevantInContext === null ? "—" : q.relevantInContext ? "yes" : "no", OUTCOME_LABELS[q.outcome], q.because]);
  const table = renderTable([{ header: "question" }, { header: "kind" }, { header: "relevant in context" }, { header: "outcome" }, { header: "verdicts" }], rows, "markdown");
  return `<details><summary>Per question: ${v.name} (${plural(rows.length, "question")})</summary>\n\n${table}\n\n</details>\n`;
}

function misses(v: VariantJson): string {
  if (v.misses.length === 0) return `No misses for ${v.name}: every answerable question has a relevant chunk in the top ${v.failures.k}.\n`;
  const lists = v.misses[0]!.ranks.map((r) => r.name);
  const rows = v.misses.map((m) => [m.question, m.kind, m.anchor ?? "—", ...lists.map((n) => m.ranks.find((r) => r.name === n)?.cell ?? ""), m.failure, m.fix ?? "—", m.why]);
  const table = renderTable([{ header: "question" }, { header: "kind" }, { header: "anchor" }, ...lists.map((n) => ({ header: n, align: "right" as const })), { header: "failure" }, { header: "fix" }, { header: "why" }], rows, "markdown");
  return `<details><summary>Misses: ${v.name} (${v.misses.length} of ${v.failures.overall.answerable}, no relevant chunk in the top ${v.failures.k})</summary>\n\n${table}\n\n</details>\n`;
}

/**
 * Renders report.md.
 *
 * @example
 * writeFileSync("report.md", renderReportMarkdown(report));
 */
export function renderReportMarkdown(report: ReportJson): string {
  const out: string[] = [
    `# ragjudge: ${report.name}`,
    "",
    `${report.time} · ${questionCounts(report)} · judge: ${report.judge.label} · evaluation \`${report.folder}\``,
    "",
    ...headline(report),
    "",
    searchOrAnswerSection(report, "markdown"),
    ...report.variants.map(perQuestion),
    "",
    retrievalSection(report, "markdown"),
    diagnosticsSection(report, "markdown"),
    ...report.variants.map(misses),
    "",
    judgeSection(report, "markdown"),
    gateSection(report, "markdown"),
  ];
  if (report.warnings.length) {
    out.push(`<details><summary>${plural(report.warnings.length, "input warning")}</summary>\n`, ...report.warnings.map((w) => `- ${w.replace(/\|/g, "\\|")}`), "\n</details>\n");
  }
  return out.join("\n").replace(/\n{3,}/g, "\n\n");
}
