import { displayPath } from "../golden/errors.js";
import { escapeMarkdown as md, markdownCode, plainLine, plainText } from "../golden/escape.js";
import { basisNoun } from "./basis.js";
import type { CalibrationReport, RubricCalibration } from "./calibrate.js";
import { confidenceLines, reliabilityRows } from "./confidence-render.js";
import type { AgreementFigures } from "./figures.js";
import { gateInterval, skippedText } from "./gate.js";
import { fixed, fixedOrNa as num, interval as ci, pValue as pval } from "./format.js";
import { firstLabel, type LabelledItem } from "./labels.js";
import { recordKey, type RecordWrite } from "./record.js";
import type { CohenKappa } from "./stats/index.js";
import { explainUninformative, shortUninformative } from "./uninformative.js";
import { shorten } from "../retrieval/diagnostics/table.js";

/**
 * Renders a calibration report for people (aligned text or Markdown) and for
 * programs (JSON). Undefined figures print as "n/a" with their reason, never
 * as NaN or 0.
 */

export type Format = "table" | "json" | "md";

/**
 * Where each calibration record went, by {@link recordKey}: a path (written), or
 * what {@link writeRecordIfChanged} did (`unchanged` when only its time would have changed).
 */
export type RecordFiles = ReadonlyMap<string, string | RecordWrite>;

function recordWrite(files: RecordFiles, r: RubricCalibration): RecordWrite | undefined {
  const w = files.get(recordKey(r.record));
  return typeof w === "string" ? { file: w, status: "written" } : w;
}

/** Lays out rows as aligned columns (first column left, the rest right-aligned). */
function columns(rows: string[][], indent = "  "): string[] {
  const widths: number[] = [];
  rows = rows.map((r) => r.map(plainLine));
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) => indent + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ").trimEnd());
}

/** A GitHub table; every cell is escaped (reasons, ids and names are user text). */
function mdTable(rows: string[][]): string[] {
  const [head, ...body] = rows;
  const line = (r: string[]) => `| ${r.map(md).join(" | ")} |`;
  return [line(head!), `|${head!.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`, ...body.map(line)];
}

/** Kappa with its interval for a table cell; a zero-width interval from a constant side says so instead of "[0.00, 0.00]", and an undefined kappa says why. */
export function kappaCell(f: AgreementFigures): string {
  if (f.kappa.kappa === null) return `n/a (${undefinedWhy(f)})`;
  if (f.kappaCiUninformative) return `${num(f.kappa.kappa)}, CI not informative (${shortUninformative(f.kappaCiUninformative)})`;
  // The gate's interval (asymptotic joined with goodness-of-fit), so perfect agreement never reads [1.00, 1.00].
  const honest = gateInterval({ kappa: f.kappa.kappa, kappaSe: f.kappa.se, kappaCi: f.kappa.ci, level: f.kappa.level, kappaGofCi: f.kappaGof.ci });
  return `${num(f.kappa.kappa)} ${ci(honest ?? f.kappa.ci)}`;
}

/** Why kappa is undefined, in a few words for a table cell (an undefined figure is never a bare n/a). */
function undefinedWhy(f: AgreementFigures): string {
  const c = f.confusion;
  if (c.count === 0) return "no labels";
  if (c.fp === 0 && c.fn === 0 && c.tn === 0) return "labels and verdicts all 'yes'";
  if (c.tp === 0 && c.fp === 0 && c.fn === 0) return "labels and verdicts all 'no'";
  return f.kappa.reasons.kappa ?? "undefined";
}

/** At perfect agreement the asymptotic SE is 0, which is not certainty: the goodness-of-fit interval is the one that says how sure. */
function perfectNote(f: AgreementFigures): string {
  const c = f.confusion;
  return f.kappa.kappa !== null && f.kappa.ci !== null && c.fp + c.fn === 0 ? ` (the asymptotic interval has zero width because no label disagrees with the judge, which is not certainty; the goodness-of-fit interval on ${f.n} labels is the honest one)` : "";
}

/** Cohen's kappa between two annotators; a constant annotator makes the interval not informative, said by name. */
function cohenText(annotators: readonly string[], k: CohenKappa): string {
  if (k.kappa === null) return `undefined (${k.reasons.kappa})`;
  const yesNo = ["yes", "no"] as const;
  const constant = [k.constant.rater1, k.constant.rater2]
    .map((c, i) => (c === null ? null : `${annotators[i]} gave only '${yesNo[c]}'`))
    .filter((x): x is string => x !== null);
  if (constant.length) return `${num(k.kappa)}, CI not informative: ${constant.join(" and ")} (kappa is 0 by convention; the zero-width interval is not certainty)`;
  return `${num(k.kappa)} ${ci(k.ci)}`;
}

function figureRows(label: string, items: { name: string; f: AgreementFigures }[]): string[][] {
  return [[label, "n", "agreement", "TPR", "TNR", "kappa [95% CI]", "AC1"], ...items.map(({ name, f }) => [
    name, String(f.n), num(f.rates.agreement), num(f.rates.tpr), num(f.rates.tnr), kappaCell(f), num(f.ac1.ac1),
  ])];
}

/** The sections of one rubric as (title, rows) for either text layout. */
function sections(r: RubricCalibration): { title: string; lines?: string[]; rows?: string[][] }[] {
  const g = r.gate;
  const pct = Math.round(g.kappa.level * 100);
  const out: { title: string; lines?: string[]; rows?: string[][] }[] = [];
  if (!r.hasLabels) {
    const pr = r.passRates;
    return [{
      title: "no labels for this judge",
      lines: [
        "no label pairs with these verdicts (item and input hash): label a random sample to calibrate this judge",
        `raw pass rate ${num(pr.raw.value, 3)} ${ci(pr.raw.ci, 3)} (Wilson; ${pr.judged} judged${pr.errors ? `, ${pr.errors} errors left out` : ""})`,
      ],
    }];
  }
  const sample = [
    `${g.n} gate labels (drawn by recorded draws${r.declared ? `, ${r.declared} of them declared random, not drawn by ragjudge` : ""}; held-out split "${r.heldout}", labels with no split are dev${r.weighted ? `; weighted by 1/inclusion probability, effective n ${num(g.nEffective, 1)}${g.skipped ? ` with the ${g.skipped} skipped` : ""}` : ""}): ${g.labelYes} yes / ${g.labelNo} no`,
  ];
  for (const d of r.draws) {
    const cov = d.coverage === null ? "no drawn held-out item among these verdicts" : `${d.labelled} of ${d.drawn} drawn held-out items labelled (${Math.round(100 * d.coverage)}%)`;
    sample.push(`draw ${d.id} (drawn for ${d.annotator}): ${cov}; ${d.counts ? "counts" : d.covers ? "does not count until more of it is labelled" : `does not count: ${d.why}`}${d.skipTest ? `; skip test p = ${fixed(d.skipTest.p, 3)}` : ""}`);
  }
  for (const e of r.errorAnalysis) {
    const one = e.figures.n === 1;
    sample.push(`${e.figures.n} ${one ? e.what.replace(/\blabels\b/, "label") : e.what} ${one ? "is" : "are"} not in the gate: ${e.why}; see error analysis`);
  }
  if (g.judgeErrors) sample.push(`${g.judgeErrors} judge error(s) counted as disagreements`);
  if (g.skipped) sample.push(skippedText(g.skipped).replace(/^; /, ""));
  if (r.ties) sample.push(`${r.ties} tied item(s) await adjudication`);
  const boot = g.bootstrap;
  const bootText = boot ? (boot.ci ? `${ci(boot.ci)} bootstrap (${boot.reps} reps, seed ${boot.seed}${boot.undefinedReps ? `, ${boot.undefinedReps} undefined` : ""})` : `bootstrap n/a (${boot.reason})`) : "";
  const flat = g.kappaCiUninformative;
  const kappaLine = g.kappa.kappa === null
    ? `kappa      undefined: ${g.kappa.reasons.kappa}`
    : flat
      ? `kappa      ${num(g.kappa.kappa)}  ${pct}% CI not informative, asymptotic and bootstrap alike: ${explainUninformative(flat)}; no test`
      : `kappa      ${num(g.kappa.kappa)}  95% CI ${ci(r.trust.ci)} (the gate's: asymptotic ${ci(g.kappa.ci)}${g.kappa.ci ? "" : ` (${g.kappa.reasons.ci})`} joined with goodness-of-fit ${ci(g.kappaGof.ci)}), ${pct}% ${bootText}; z ${num(g.kappa.z)}, p ${pval(g.kappa.p)}${perfectNote(g)}`;
  out.push({
    title: `agreement with ${basisNoun(r.basis)}`,
    lines: [
      ...sample,
      `agreement  ${num(g.rates.agreement)}   TPR ${num(g.rates.tpr)}   TNR ${num(g.rates.tnr)}`,
      kappaLine,
      `paradox    prevalence index ${num(g.paradox.prevalenceIndex)}, bias index ${num(g.paradox.biasIndex)}, PABAK ${num(g.paradox.pabak)}, AC1 ${num(g.ac1.ac1)} ${ci(g.ac1.ci)}`,
    ],
  });
  const c = g.confusion;
  const w = (v: number) => (Number.isInteger(v) ? String(v) : fixed(v, 1));
  out.push({ title: g.skipped ? `confusion matrix (its "label" cells include the ${g.skipped} skipped drawn item${g.skipped === 1 ? "" : "s"}, each as a disagreement)` : "confusion matrix", rows: [["", "label yes", "label no"], ["judge yes", w(c.tp), w(c.fp)], ["judge no", w(c.fn), w(c.tn)]] });
  const pr = r.passRates;
  const rg = pr.roganGladen;
  out.push({
    title: "pass rate",
    lines: [
      `raw           ${num(pr.raw.value, 3)} ${ci(pr.raw.ci, 3)} (Wilson; ${pr.judged} judged${pr.errors ? `, ${pr.errors} errors left out` : ""})`,
      rg.estimate === null
        ? `Rogan-Gladen  n/a (${rg.reason})`
        : `Rogan-Gladen  ${num(rg.estimate, 3)} ${rg.bootstrap.ci ? ci(rg.bootstrap.ci, 3) : `(interval n/a: ${rg.bootstrap.reason})`}${rg.clipped ? ` (clipped from ${num(rg.unclipped, 3)})` : ""}${pr.roganGladenUninformative ? `; interval not informative: ${pr.roganGladenUninformative}` : ""}`,
      pr.ppi.estimate === null
        ? `PPI           n/a (${pr.ppi.reasons.estimate})`
        : `PPI           ${num(pr.ppi.estimate, 3)} ${pr.ppi.ci ? ci(pr.ppi.ci, 3) : `(interval n/a: ${pr.ppi.reasons.ci})`} (${pr.labelled} labelled)${pr.ppiUninformative ? `; interval not informative: ${pr.ppiUninformative}` : ""}`,
    ],
  });
  if (r.confidence) {
    out.push({ title: "verdict confidence: the judge's P(yes) against the gate labels", lines: confidenceLines(r.confidence, g.kappa.kappa) });
    if (r.confidence.n > 0) out.push({ title: "reliability diagram (gate labels)", rows: reliabilityRows(r.confidence) });
  }
  if (r.perAnnotator.length > 1 || (r.perAnnotator.length === 1 && r.annotatorAgreement)) {
    out.push({ title: "judge against each annotator", rows: figureRows("annotator", r.perAnnotator.map((a) => ({ name: a.annotator, f: a.figures }))) });
  }
  if (r.annotatorAgreement) {
    const h = r.annotatorAgreement;
    const lines = [`${h.annotators.join(", ")} overlap on ${h.overlap} item(s); raw agreement ${num(h.agreement)}`];
    if (h.cohen) lines.push(`Cohen's kappa ${cohenText(h.annotators, h.cohen)}`);
    if (h.fleiss) lines.push(`Fleiss' kappa ${h.fleiss.kappa === null ? `undefined (${h.fleiss.reasons.kappa})` : num(h.fleiss.kappa)}`);
    lines.push(`Krippendorff's alpha ${h.krippendorff.alpha === null ? `undefined (${h.krippendorff.reasons.alpha})` : num(h.krippendorff.alpha)}`);
    lines.push(`(the judge's kappa ${num(g.kappa.kappa)}${flat ? " (interval not informative)" : ""} beside the annotators': the ceiling it can reach)`);
    const allHuman = r.basis.human > 0 && r.basis.human === g.n;
    out.push({ title: allHuman ? "human-human agreement" : `agreement among annotators (${basisNoun(r.basis)})`, lines });
  }
  if (r.breakdowns.length) {
    out.push({ title: "by kind and tag (gate labels)", rows: figureRows("group", r.breakdowns.map((b) => ({ name: `${b.by} ${b.value}`, f: b.figures }))) });
  }
  if (r.errorAnalysis.length) {
    out.push({
      title: "error analysis: labels not in the gate (see why; kappa only where selection does not distort it)",
      rows: [["labels", "n", "agreement", "kappa [95% CI]", "judge yes / label no", "judge no / label yes", "why not in the gate"], ...r.errorAnalysis.map((e) => [
        e.excluded, String(e.figures.n), num(e.figures.rates.agreement), e.kind === "split" ? kappaCell(e.figures) : e.kind === "draw" ? "selection unknown" : "distorted",
        w(e.figures.confusion.fp), w(e.figures.confusion.fn), e.why,
      ])],
    });
  }
  const dis = [...r.disagreements, ...r.errorAnalysis.flatMap((e) => e.disagreements)];
  if (dis.length) {
    const shown = dis.slice(0, 10);
    out.push({
      title: `disagreements${dis.length > shown.length ? ` (first ${shown.length} of ${dis.length}; --format json lists all)` : ""}`,
      rows: [["item", "judge", "label", "judge's reason"], ...shown.map((d) => [
        `${d.variant}/${d.question}/${d.unit}`, d.verdict, d.label, shorten(d.reason, 70),
      ])],
    });
  }
  if (r.warnings.length) out.push({ title: "warnings", lines: r.warnings });
  return out;
}

function heading(r: RubricCalibration): string {
  const g = r.group;
  const who = g.judge === "baseline" ? "baseline judge (offline, no LLM)" : `llm ${g.models.join(", ") || "(model not recorded)"}`;
  const served = g.servedModel ? ` served as ${g.servedModel}` : "";
  return `${g.rubric} · ${who}${served} · fingerprint ${g.fingerprint.slice(0, 12)} · ${g.items} judged items`;
}

const UNPAIRED_LISTED = 5;

function unpairedLines(items: LabelledItem[], what: string, plural: string): string[] {
  const lines = items.slice(0, UNPAIRED_LISTED).map((i) => {
    const l = firstLabel(i);
    return `${l.file}:${l.line}: ${i.key.variant}/${i.key.question}/${i.key.rubric}/${i.key.unit}: ${what}`;
  });
  if (items.length > UNPAIRED_LISTED) lines.push(`... and ${items.length - UNPAIRED_LISTED} more ${plural} (--format json lists them all)`);
  return lines;
}

/** Renders the report as aligned terminal text. */
export function renderTable(report: CalibrationReport, written: RecordFiles = new Map()): string {
  const out: string[] = [];
  for (const r of report.rubrics) {
    out.push(heading(r));
    out.push(`  ${r.trust.trusted ? "TRUSTED" : "UNTRUSTED"} ${r.trust.message.replace(/^(un)?trusted: /, "")}`);
    for (const s of sections(r)) {
      out.push("", `  ${s.title}`);
      if (s.lines) out.push(...s.lines.map((l) => `    ${l}`));
      if (s.rows) out.push(...columns(s.rows, "    "));
    }
    const rec = recordWrite(written, r);
    if (rec) out.push("", rec.status === "unchanged" ? `  record unchanged (only its time would differ): ${displayPath(rec.file)}` : `  record written: ${displayPath(rec.file)}`);
    out.push("");
  }
  if (report.rubrics.length === 0) out.push("nothing to calibrate", "");
  out.push(...summaryLines(report));
  return plainText(out.join("\n").replace(/\n+$/, "") + "\n");
}

function summaryLines(report: CalibrationReport): string[] {
  const out = report.warnings.map((w) => `warning: ${w}`);
  out.push(...unpairedLines(report.unpaired.stale, "stale (evidence changed since labelling)", "stale labels"));
  out.push(...unpairedLines(report.unpaired.unknownItem, "no judgment for this item", "labels for items no judgment covers"));
  return out;
}

/** Renders the report as Markdown (for a pull request or a docs page). */
export function renderMarkdown(report: CalibrationReport, written: RecordFiles = new Map()): string {
  const out: string[] = ["# Calibration", ""];
  for (const r of report.rubrics) {
    out.push(`## ${md(heading(r))}`, "", `**${r.trust.trusted ? "Trusted" : "Untrusted"}**: ${md(r.trust.message.replace(/^(un)?trusted: /, ""))}`, "");
    for (const s of sections(r)) {
      out.push(`### ${md(s.title)}`, "");
      if (s.lines) out.push(...s.lines.map((l) => `- ${md(l.replace(/\s{2,}/g, " "))}`), "");
      if (s.rows) out.push(...mdTable(s.rows.map((row, i) => (i === 0 && row[0] === "" ? ["", ...row.slice(1)] : row))), "");
    }
    const rec = recordWrite(written, r);
    if (rec) out.push(`Record${rec.status === "unchanged" ? " (unchanged: only its time would differ)" : ""}: ${markdownCode(rec.file)}`, "");
  }
  const summary = summaryLines(report);
  if (summary.length) out.push("## Warnings", "", ...summary.map((l) => `- ${md(l)}`), "");
  return out.join("\n");
}

function unpairedJson(items: LabelledItem[]) {
  return items.map((i) => {
    const l = firstLabel(i);
    return { ...i.key, inputHash: i.inputHash, file: l.file, line: l.line };
  });
}

/** The report as one JSON document (records included; nulls keep their reasons). */
export function renderJson(report: CalibrationReport, written: RecordFiles = new Map()): string {
  return JSON.stringify({
    rubrics: report.rubrics.map((r) => {
      const rec = recordWrite(written, r);
      return { ...r, recordFile: rec?.file ?? null, recordStatus: rec?.status ?? null };
    }),
    unpaired: {
      stale: unpairedJson(report.unpaired.stale),
      relabelled: unpairedJson(report.unpaired.relabelled),
      unknownItem: unpairedJson(report.unpaired.unknownItem),
      unknownRubric: unpairedJson(report.unpaired.unknownRubric),
    },
    grouping: report.grouping,
    warnings: report.warnings,
  }, null, 2) + "\n";
}
