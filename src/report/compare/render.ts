import { renderTable, type TextFormat } from "../../retrieval/diagnostics/table.js";
import { num, OUTCOME_LABELS, signed } from "../format.js";
import type { ChangedQuestion, Comparison, GroupComparison, McNemarResult, PairedDelta } from "./compare.js";
import { trustCell, trustNotes } from "./render-trust.js";

/** Output formats of `ragjudge compare`. */
export type CompareFormat = "table" | "md" | "json";

/** At most this many changed questions are listed in text formats (JSON lists all). */
export const CHANGED_SHOWN = 20;

const ci = (p: PairedDelta) => (p.ci ? `[${signed(p.ci.lo)}, ${signed(p.ci.hi)}]` : `(${p.ciReason ?? "no interval"})`);
const flag = (p: PairedDelta) => (p.direction === "worse" ? "WORSE" : p.direction === "better" ? "better" : "");
const mc = (m: McNemarResult | null) => (m ? `b=${m.b} c=${m.c} p=${m.p < 0.001 ? m.p.toExponential(1) : m.p.toFixed(3)} (${m.test})` : "");

function heading(text: string, format: TextFormat): string {
  return format === "markdown" ? `### ${text}` : `${text}\n${"-".repeat(Math.min(78, text.length))}`;
}

function metricsTable(c: Comparison, format: TextFormat): string {
  const rows = c.metrics.map((m) => [m.metric, String(m.n), num(m.meanA), num(m.meanB), signed(m.difference), ci(m), flag(m), mc(m.mcnemar)]);
  return renderTable(
    [{ header: "metric" }, { header: "n", align: "right" }, { header: "A", align: "right" }, { header: "B", align: "right" }, { header: "B - A", align: "right" }, { header: "95% CI", align: "right" }, { header: "direction" }, { header: "McNemar" }],
    rows,
    format,
  );
}

function verdictsTable(c: Comparison, format: TextFormat): string {
  const rows = [c.answers, ...c.rubrics].map((v) => {
    const name = v.measure === "answer" ? "answer right (search or answering)" : v.measure;
    if (v.refused !== null || !v.paired) return [name, trustCell(v), "", "", "", `refused: ${v.refused ?? "not compared"}`, "", ""];
    const p = v.paired;
    return [name, trustCell(v), String(p.n), num(p.meanA), num(p.meanB), `${signed(p.difference)} ${ci(p)}`, flag(p), mc(v.mcnemar)];
  });
  return renderTable(
    [{ header: "pass rate" }, { header: "trust" }, { header: "n", align: "right" }, { header: "A", align: "right" }, { header: "B", align: "right" }, { header: "B - A [95% CI]" }, { header: "direction" }, { header: "McNemar" }],
    rows,
    format,
  );
}

function groupsTable(c: Comparison, format: TextFormat): { table: string; hidden: number } {
  // The headline metric and the answer outcome as columns; rubric groups appear in the regressions line and the JSON.
  const measures = [...new Set(c.groups.map((g) => g.measure))].filter((m) => m === c.metric || m === "answer");
  const keys = [...new Map(c.groups.map((g) => [`${g.by}\u0000${g.group}`, g])).values()];
  const shown: GroupComparison[][] = [];
  let hidden = 0;
  for (const k of keys) {
    const row = measures.map((m) => c.groups.find((g) => g.by === k.by && g.group === k.group && g.measure === m)).filter((g): g is GroupComparison => !!g);
    if (row.length === 0) continue;
    const big = row.some((g) => g.paired.n >= c.minGroup);
    if (!big && !row.some((g) => g.regressed)) {
      hidden++;
      continue;
    }
    shown.push(row);
  }
  const cell = (g: GroupComparison | undefined) => (g ? `${signed(g.paired.difference)} ${g.paired.ci ? `[${signed(g.paired.ci.lo)}, ${signed(g.paired.ci.hi)}]` : `(n = ${g.paired.n}: too few)`}${g.regressed ? " REGRESSED" : ""}` : "");
  const rows = shown.map((row) => {
    const g0 = row[0]!;
    return [`${g0.by} ${g0.group}`, String(Math.max(...row.map((g) => g.paired.n))), ...measures.map((m) => cell(row.find((g) => g.measure === m)))];
  });
  const table = renderTable([{ header: "group" }, { header: "n", align: "right" }, ...measures.map((m) => ({ header: `${m === "answer" ? "answer right" : m} B - A [95% CI]` }))], rows, format);
  return { table, hidden };
}

function changedTable(c: Comparison, format: TextFormat): string {
  const list = c.changed.slice(0, CHANGED_SHOWN);
  const o = (x: ChangedQuestion["outcomeA"]) => (x ? OUTCOME_LABELS[x] : "—");
  const rows = list.map((q) => [q.id, q.kind, `${o(q.outcomeA)} → ${o(q.outcomeB)}`, q.answerChange < 0 ? "worse" : q.answerChange > 0 ? "better" : "", `${num(q.metricA)} → ${num(q.metricB)}`, signed(q.metricDelta)]);
  const table = renderTable([{ header: "question" }, { header: "kind" }, { header: "outcome A → B" }, { header: "answer" }, { header: `${c.metric} A → B` }, { header: "delta", align: "right" }], rows, format);
  const more = c.changed.length > list.length ? `\n${format === "markdown" ? "\n" : ""}... and ${c.changed.length - list.length} more (--format json lists all)` : "";
  return table + more;
}

/** One comparison as aligned text or Markdown, ending with the verdict line. */
export function renderComparisonText(c: Comparison, format: TextFormat): string {
  const out: string[] = [];
  const t = format === "markdown" ? "## " : "";
  out.push(`${t}compare: A = ${c.a.evaluation}#${c.a.variant}, B = ${c.b.evaluation}#${c.b.variant}`);
  out.push(`${format === "markdown" ? "\n" : ""}same golden set (sha256 ${c.golden.slice(0, 12)}); paired over questions; 95% seeded bootstrap intervals (seed ${c.seed}, ${c.reps} resamples); groups under ${c.minGroup} questions get no interval`, "");
  out.push(heading("Retrieval (answerable questions)", format), "", metricsTable(c, format), "");
  out.push(heading("Answers and judge pass rates (per question)", format), "", verdictsTable(c, format), "");
  const notes = trustNotes(c, format);
  if (notes.length) out.push(...(format === "markdown" ? notes.flatMap((n) => [n, ""]) : [...notes, ""]));
  const { table, hidden } = groupsTable(c, format);
  out.push(heading("By kind and tag (flagged only when the interval lies below zero)", format), "", table);
  if (hidden) out.push("", `${hidden} group${hidden === 1 ? "" : "s"} with fewer than ${c.minGroup} questions not shown (no interval; --format json lists them)`);
  const rubricGroups = c.groups.filter((g) => g.regressed && g.measure !== c.metric && g.measure !== "answer");
  out.push("", `rubric pass rates by kind and tag: ${rubricGroups.length ? `regressed: ${rubricGroups.map((g) => `${g.by} ${g.group} ${g.measure} ${signed(g.paired.difference)} [${signed(g.paired.ci!.lo)}, ${signed(g.paired.ci!.hi)}] (n = ${g.paired.n})`).join("; ")}` : "no group regressed"} (--format json lists every group)`);
  out.push("");
  out.push(heading(`Questions whose outcome or ${c.metric} changed (worst first): ${c.changed.length}`, format), "", c.changed.length ? changedTable(c, format) : "none", "");
  out.push(format === "markdown" ? `**${c.verdict}**` : c.verdict);
  return out.join("\n") + "\n";
}

/**
 * Renders comparisons in the chosen format: aligned text (table), Markdown
 * (md), or one JSON document `{comparisons: [...]}`.
 */
export function renderComparisons(cs: readonly Comparison[], format: CompareFormat): string {
  if (format === "json") return JSON.stringify({ comparisons: cs }, null, 2) + "\n";
  return cs.map((c) => renderComparisonText(c, format === "md" ? "markdown" : "terminal")).join("\n");
}
