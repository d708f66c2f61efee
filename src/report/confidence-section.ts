import { confidenceLines, reliabilityRows } from "../calibration/confidence-render.js";
import { escapeMarkdown } from "../golden/escape.js";
import { renderTable } from "../retrieval/diagnostics/table.js";
import type { ReportJson } from "./schema.js";

/**
 * report.md's verdict-confidence section: for each rubric whose judge gave
 * a P(yes) on labelled items, ROC AUC, ECE and Brier, the dev-chosen
 * threshold's held-out kappa beside the judge's own, and the reliability
 * diagram as a table (the HTML report draws it). Empty when no rubric has one.
 */
export function confidenceSection(report: ReportJson): string {
  const rubrics = report.rubrics.filter((r) => r.calibration?.confidence);
  if (rubrics.length === 0) return "";
  const out = ["## Verdict confidence", "", escapeMarkdown("How well each judge's P(yes) ranks and matches the gate's labels (held-out); the threshold is chosen on dev labels only."), ""];
  for (const r of rubrics) {
    const c = r.calibration!.confidence!;
    out.push(`### ${escapeMarkdown(`${r.rubric} (fingerprint ${r.fingerprint.slice(0, 12)})`)}`, "");
    out.push(...confidenceLines(c, r.calibration!.kappa).map((l) => `- ${escapeMarkdown(l.replace(/\s{2,}/g, " "))}`), "");
    const rows = reliabilityRows(c);
    if (rows.length > 1) out.push(renderTable(rows[0]!.map((header, i) => ({ header, ...(i > 0 ? { align: "right" as const } : {}) })), rows.slice(1), "markdown"), "");
  }
  return out.join("\n");
}
