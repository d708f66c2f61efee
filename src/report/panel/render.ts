import { escapeMarkdown } from "../../golden/escape.js";
import { renderTable, type Column } from "../../retrieval/diagnostics/table.js";
import { costText, kappaText } from "../../calibration/panel.js";
import { shellArg } from "../next.js";
import type { PanelJson } from "./schema.js";

/**
 * The judge panel's section of the terminal summary and report.md: per
 * rubric, every judge side by side (kappa with its interval, TPR/TNR, trust,
 * cost per 1,000 verdicts, median latency, error rate), the agreement
 * between judges beside people's, the split items, a cascade's escalations,
 * and the recommendation line.
 */

type Format = "terminal" | "markdown";
type PanelRubric = PanelJson["rubrics"][number];
type PanelRow = PanelRubric["rows"][number];

const pct = (x: number | null) => (x === null ? "n/a" : `${(100 * x).toFixed(x > 0 && x < 0.1 ? 1 : 0)}%`);
const rate = (x: number | null) => (x === null ? "n/a" : x.toFixed(2));
const num = (x: number | null) => (x === null ? "n/a" : x.toFixed(2));

const COLUMNS: Column[] = [
  { header: "judge" }, { header: "kappa [95% CI]" }, { header: "n", align: "right" }, { header: "TPR", align: "right" }, { header: "TNR", align: "right" },
  { header: "trust" }, { header: "cost per 1,000", align: "right" }, { header: "median latency", align: "right" }, { header: "errors", align: "right" },
];

function cells(r: PanelRow): string[] {
  return [
    r.judge, kappaText(r.kappa, r.ci), String(r.n), rate(r.tpr), rate(r.tnr), r.trusted ? "trusted" : "untrusted",
    r.usdPer1000 === null ? "unknown" : `$${r.usdPer1000.toFixed(r.usdPer1000 > 0 && r.usdPer1000 < 0.01 ? 4 : 2)}`,
    r.medianLatencyMs === null ? "n/a" : `${Math.round(r.medianLatencyMs)} ms`,
    `${r.errors} (${pct(r.errorRate)})`,
  ];
}

/**
 * The `--config FILE` the panel-splits command must repeat: none for the
 * default `ragjudge.config.json` of the working folder, else the config the
 * run read (as the report records it, relative to where it ran), so the
 * printed command works as printed from the same folder.
 */
export function configArgsFor(file: string | undefined): string {
  if (file === undefined || file === "ragjudge.config.json") return "";
  return ` --config ${shellArg(file)}`;
}

/** Lines below a rubric's table: agreement, splits, escalations, trust reasons, the recommendation. */
export function panelRubricLines(p: PanelRubric, configFile?: string): string[] {
  const out: string[] = [];
  const people = p.humans ? `; people: alpha ${num(p.humans.alpha)} on ${p.humans.overlap} items labelled twice` : "; people: no human-human figure (no item labelled by two people)";
  out.push(`agreement between judges: Krippendorff's alpha ${num(p.alpha)} over ${p.alphaUnits} items${people}`);
  if (p.pairs.length) out.push(`pairwise Cohen's kappa: ${p.pairs.map((x) => `${x.a}~${x.b} ${num(x.kappa)} (n ${x.n})`).join(", ")}`);
  out.push(`split items (judges gave both yes and no): ${p.splits}${p.splits ? ` (review them: ragjudge sample --panel-splits --annotator NAME${configArgsFor(configFile)}; never counted by the trust gate)` : ""}`);
  for (const r of p.rows) {
    if (r.escalation) {
      const e = r.escalation;
      const sampled = e.sampled ? `; on its sample the two judges disagreed on ${e.sampled.disagreeing} of ${e.sampled.items}` : "";
      out.push(`cascade ${r.judge}: escalated ${e.total} of ${r.verdicts} (${pct(e.rate)}: ${e.uncertain} uncertain, ${e.error} error, ${e.sample} sample)${sampled}; ${costText(r.usdPer1000)}`);
    }
    if (r.stopped) out.push(`${r.judge} stopped: ${r.stopped}`);
  }
  out.push(`=> ${p.recommendation}`);
  return out;
}

/**
 * The section as text for the terminal or Markdown.
 *
 * @example
 * panelSection(report.panel, "terminal", report.config.file)
 */
export function panelSection(panel: PanelJson | undefined, format: Format, configFile?: string): string {
  if (!panel) return "";
  const names = panel.judges.map((j) => `${j.name} (${j.members.length ? `${j.kind} of ${j.members.join(", ")}` : j.kind}${j.model ? ` ${j.model}` : ""})`).join(", ");
  const out: string[] = [];
  if (format === "markdown") out.push("## Judge panel", "", escapeMarkdown(`${panel.judges.length} judges: ${names}. Each is calibrated against the same labels; the panel's verdicts are in ${panel.judgments}.`), "");
  else out.push(`Judge panel: ${panel.judges.length} judges: ${names}`);
  for (const p of panel.rubrics) {
    if (format === "markdown") {
      out.push(`### ${escapeMarkdown(p.rubric)}`, "", renderTable(COLUMNS, p.rows.map(cells), "markdown"), "", ...panelRubricLines(p, configFile).slice(0, -1).map((l) => `- ${escapeMarkdown(l)}`), "", `**${escapeMarkdown(p.recommendation)}**`, "");
    } else {
      out.push(`  ${p.rubric}`, ...renderTable(COLUMNS, p.rows.map(cells), "terminal").split("\n").map((l) => `    ${l}`), ...panelRubricLines(p, configFile).map((l) => `    ${l}`));
    }
  }
  return out.join("\n") + "\n";
}
