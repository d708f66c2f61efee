import { costText } from "../../calibration/panel.js";
import { escapeHtml as esc } from "../html/escape.js";
import { n, section, table, trustBadge } from "../html/parts.js";
import { panelRubricLines } from "./render.js";
import type { PanelJson } from "./schema.js";

/** The judge panel's section of report.html: one table per rubric, its agreement lines and the recommendation. */
export function panelHtml(panel: PanelJson | undefined): string {
  if (!panel) return "";
  const body = panel.rubrics.map((p) => {
    const rows = p.rows.map((r) => [
      r.judge,
      r.kappa === null ? "n/a" : `${r.kappa.toFixed(2)}${r.ci ? ` [${r.ci.lo.toFixed(2)}, ${r.ci.hi.toFixed(2)}]` : ""}`,
      n(r.n),
      n(r.tpr === null ? "n/a" : r.tpr.toFixed(2)),
      n(r.tnr === null ? "n/a" : r.tnr.toFixed(2)),
      { text: r.trusted ? "trusted" : "untrusted", html: trustBadge(r.trusted) },
      n(costText(r.usdPer1000)),
      n(r.medianLatencyMs === null ? "n/a" : `${Math.round(r.medianLatencyMs)} ms`),
      n(`${r.errors}`),
    ]);
    const lines = panelRubricLines(p).slice(0, -1);
    const rec = p.recommendation;
    return `<h3>${esc(p.rubric)}</h3>${table(["judge", "kappa [95% CI]", n("n"), n("TPR"), n("TNR"), "trust", n("cost"), n("median latency"), n("errors")], rows)}<ul>${lines.map((l) => `<li>${esc(l)}</li>`).join("")}</ul><p class="panel-recommendation"><strong>${esc(rec)}</strong></p>`;
  }).join("");
  return section("panel", "Judge panel", `${panel.judges.length} judges (${panel.judges.map((j) => j.name).join(", ")}) calibrated against the same labels, side by side.`, body);
}
