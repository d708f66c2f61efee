import { num, plural } from "../../format.js";
import type { ReportJson } from "../../schema.js";
import { groupedBars } from "../charts.js";
import { escapeHtml as esc } from "../escape.js";
import { figure, n, section, slug, table } from "../parts.js";

/**
 * Retrieval by kind: one bar chart per main measure (Hit@k, R@k, RR, nDCG@k)
 * with the variants side by side, the table of the same figures, and pool
 * recall beside final recall.
 */
export function retrievalSection(report: ReportJson): string {
  const main = report.variants[0]?.retrieval.main ?? [];
  const kinds = [...new Set(report.variants.flatMap((v) => v.retrieval.byKind.map((g) => g.key)))];
  const groups = ["overall", ...kinds];
  const valueOf = (v: ReportJson["variants"][number], group: string, m: string): number | null => {
    const g = group === "overall" ? v.retrieval.overall : v.retrieval.byKind.find((x) => x.key === group);
    return g?.values[m] ?? null;
  };
  const charts = main.map((m) => figure(
    groupedBars(`${m} by kind`, report.variants.map((v) => v.name), groups.map((g) => ({ label: g, values: report.variants.map((v) => valueOf(v, g, m)) })), `retrieval-${slug(m)}`),
    `${m} by kind (answerable questions)`,
  ));
  const rows = report.variants.flatMap((v) => [
    [{ text: v.name, cls: "" }, "overall", n(v.retrieval.overall.n), ...main.map((m) => n(num(v.retrieval.overall.values[m], 4)))],
    ...v.retrieval.byKind.map((g) => ["", g.key, n(g.n), ...main.map((m) => n(num(g.values[m], 4)))]),
  ]);
  const pool = table(
    ["variant", "pool list", n("pool recall"), n("final recall"), n("never found"), n("found, ranked out")],
    report.variants.map((v) => {
      const p = v.pool;
      if (!p.available || !p.overall) return [v.name, { text: `unavailable: ${p.reason ?? ""}`, cls: "muted" }, "", "", "", ""];
      return [v.name, `${p.list}@${p.depth}`, n(num(p.overall.poolRecall)), n(`R@${p.k} ${num(p.overall.finalRecall)}`), n(p.overall.notInPool ?? "n/a"), n(p.overall.inPoolNotInTopK ?? "n/a")];
    }),
  );
  const unanswerable = report.variants[0]?.retrieval.unanswerable ?? 0;
  return section(
    "retrieval",
    `Retrieval by kind (k = ${report.config.mainK})`,
    `Did search find the right chunks? Means over answerable questions; ${plural(unanswerable, "unanswerable question")} left out.`,
    `<div class="grid2">${charts.join("")}</div>`
      + table(["variant", "group", n("n"), ...main.map((m) => n(m))], rows)
      + `<h3>Pool recall</h3><p class="muted">The pool list at depth ${esc(String(report.config.poolDepth))} is the ceiling any reranker can reach: “never found” questions were missed by the first stage, “found, ranked out” ones were found and then ranked below the top k.</p>`
      + pool,
  );
}
