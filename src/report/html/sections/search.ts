import { OUTCOME_LABELS, outcomeColumns, plural, untrustedAnswerRubrics } from "../../format.js";
import type { ReportJson, TabJson, VariantJson } from "../../schema.js";
import { OUTCOMES, type Outcome } from "../../search-or-answer.js";
import { stackedShares } from "../charts.js";
import { escapeHtml as esc } from "../escape.js";
import { figure, n, section, slug, table, trustBadge } from "../parts.js";

/** One colour per outcome, the same in every chart: green passes, red failures, amber doubts. */
const OUTCOME_COLORS: Record<Outcome, string> = {
  ok: "#16a34a",
  "retrieval-failure": "#dc2626",
  "generation-failure": "#7c3aed",
  "ok-without-retrieval": "#f59e0b",
  "correct-not-found": "#0891b2",
  "invented-answer": "#be123c",
  unjudged: "#94a3b8",
};

function variantBlock(v: VariantJson, untrusted: boolean): string {
  const s = v.searchOrAnswer;
  const rows: [string, TabJson][] = [["overall", s.overall], ...s.byKind.map((k) => [k.key, k.tab] as [string, TabJson])];
  const used = OUTCOMES.filter((o) => rows.some(([, t]) => t.counts[o] > 0));
  const chart = stackedShares(
    `Search or answering by kind: ${v.name}`,
    used.map((o) => OUTCOME_LABELS[o]),
    rows.map(([label, t]) => ({ label, counts: used.map((o) => t.counts[o]) })),
    `search-or-answer-${slug(v.name)}`,
    used.map((o) => OUTCOME_COLORS[o]),
  );
  const cols = outcomeColumns(rows.map(([, t]) => t));
  const tab = table(["group", n("n"), ...cols.map((o) => n(OUTCOME_LABELS[o]))], rows.map(([g, t]) => [g, n(t.n), ...cols.map((o) => n(t.counts[o]))]));
  const perQuestion = table(
    ["question", "kind", "relevant chunk in context", "outcome", "verdicts"],
    s.questions.map((q) => [q.id, q.kind, q.relevantInContext === null ? "—" : q.relevantInContext ? "yes" : "no", { text: OUTCOME_LABELS[q.outcome], cls: `outcome ${q.outcome}` }, q.because]),
  );
  const tags = s.byTag.length
    ? `<details><summary>By tag (${s.byTag.length} tags)</summary>${table(["tag", n("n"), ...cols.map((o) => n(OUTCOME_LABELS[o]))], s.byTag.map((t) => [t.key, n(t.tab.n), ...cols.map((o) => n(t.tab.counts[o]))]))}</details>`
    : "";
  return `<h3>${esc(v.name)} <span class="muted" style="font-weight:400">(context: top ${v.contextK} chunks given to the generator)</span></h3>`
    + `<div class="diagnosis">${untrusted ? `${trustBadge(false)} ` : ""}${esc(s.diagnosis)}</div>`
    + tab
    + figure(chart, "share of questions by outcome, overall and by kind")
    + tags
    + `<details><summary>Per question (${esc(plural(s.questions.length, "question"))})</summary>${perQuestion}</details>`;
}

/**
 * The first section: did each answer fail at search or at answering? The
 * cross-tab per variant as a stacked chart and a table, the diagnosis, the
 * breakdown by tag and every question's outcome.
 */
export function searchSection(report: ReportJson): string {
  const untrusted = untrustedAnswerRubrics(report);
  const note = untrusted.length ? `<div class="note">These outcomes rest on untrusted rubrics (${esc(untrusted.join(", "))}): read them as indicative until the judge is calibrated against labels.</div>` : "";
  return section(
    "search-or-answer",
    "Search or answering",
    "For every answerable question: did a relevant chunk reach the context, and was the answer correct and faithful? Unanswerable questions by their “not found” outcome.",
    note + report.variants.map((v) => variantBlock(v, untrusted.length > 0)).join(""),
  );
}
