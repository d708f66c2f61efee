import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { escapeMarkdown, plainLine, plainText } from "../golden/escape.js";
import { panelSection } from "./panel/render.js";
import { renderTable, type Column, type TextFormat } from "../retrieval/diagnostics/table.js";
import { drawLines, estimateText, gateResult, headlineVerdicts, interval, num, OUTCOME_LABELS, outcomeColumns, plural, questionCounts, readableTime, trustHeadline, trustedRate, unitWord, untrustedAnswerRubrics } from "./format.js";
import { costLine } from "../judge/schedule/cost.js";
import { claimsSection } from "./claims.js";
import type { ReportJson, RubricJson, TabJson, VariantJson } from "./schema.js";

/**
 * The run's terminal summary (stdout of `ragjudge run`, and summary.txt):
 * search or answering first, then retrieval by kind, pool recall and failure
 * kinds, judge pass rates with the trust state on every line, corrected
 * rates, errors, uncited answers, tokens and cost, the gate, and the folder.
 */

/**
 * Text that may hold user strings (names, ids, messages, reasons), as it may
 * stand in the format: escaped for Markdown (src/golden/escape.ts), on one
 * line without control characters for the terminal.
 */
export function safeText(text: string, format: TextFormat): string {
  return format === "markdown" ? escapeMarkdown(text) : plainLine(text);
}

function title(text: string, format: TextFormat): string {
  return format === "markdown" ? `## ${escapeMarkdown(text)}` : `${plainLine(text)}\n${"=".repeat(Math.min(78, text.length))}`;
}

/** A status line: a list item in Markdown (so lines do not run together), plain text in the terminal. */
function item(text: string, format: TextFormat): string {
  return format === "markdown" ? `- ${escapeMarkdown(text)}` : plainLine(text);
}

/** The cross-tab of one variant: rows overall then each kind, a column per outcome. */
export function crossTabTable(v: VariantJson, format: TextFormat): string {
  const s = v.searchOrAnswer;
  const rows: [string, TabJson][] = [["overall", s.overall], ...s.byKind.map((k) => [k.key, k.tab] as [string, TabJson])];
  const cols = outcomeColumns(rows.map(([, t]) => t));
  const columns: Column[] = [{ header: "group" }, { header: "n", align: "right" }, ...cols.map((o) => ({ header: OUTCOME_LABELS[o], align: "right" as const }))];
  return renderTable(columns, rows.map(([g, t]) => [g, String(t.n), ...cols.map((o) => String(t.counts[o]))]), format);
}

/** Search or answering, per variant, with its diagnosis and the trust caveat. */
export function searchOrAnswerSection(report: ReportJson, format: TextFormat): string {
  const out: string[] = [title("Search or answering", format), ""];
  const untrusted = untrustedAnswerRubrics(report);
  const mark = untrusted.length ? " (untrusted)" : "";
  for (const v of report.variants) {
    out.push(`${format === "markdown" ? "### " : ""}${safeText(`${v.name} (relevant chunk in the top-${v.contextK} context given to the generator? answer ${v.searchOrAnswer.answerRubrics.join(" and ") || "(no answer rubric)"}?)`, format)}`, "");
    out.push(crossTabTable(v, format), "");
    out.push(`${format === "markdown" ? `**Diagnosis${mark}:** ` : `diagnosis${mark}: `}${safeText(v.searchOrAnswer.diagnosis, format)}`, "");
  }
  if (untrusted.length) out.push(`${format === "markdown" ? "> These" : "note: these"} outcomes rest on untrusted rubrics (${safeText(untrusted.join(", "), format)}): read them as indicative until the judge is calibrated against labels.`, "");
  return out.join("\n");
}

/** Question ids joined, the first `max` of them and how many more (all are in report.json). */
function idList(ids: readonly string[], max: number): string {
  if (ids.length <= max) return ids.join(", ");
  return max > 0 ? `${ids.slice(0, max).join(", ")} and ${ids.length - max} more (report.json lists them all)` : "listed in report.json";
}

/**
 * Retrieval by kind: the main measures of every variant, overall then per
 * kind; the question ids of its notes, the first `listMax` of them.
 */
export function retrievalSection(report: ReportJson, format: TextFormat, listMax = Infinity): string {
  const main = report.variants[0]?.retrieval.main ?? [];
  const rows: string[][] = [];
  for (const v of report.variants) {
    const r = v.retrieval;
    rows.push([v.name, "overall", String(r.overall.n), ...main.map((m) => num(r.overall.values[m], 4))]);
    for (const g of r.byKind) rows.push([format === "markdown" ? v.name : "", g.key, String(g.n), ...main.map((m) => num(g.values[m], 4))]);
  }
  const columns: Column[] = [{ header: "variant" }, { header: "group" }, { header: "n", align: "right" }, ...main.map((m) => ({ header: m, align: "right" as const }))];
  const unanswerable = report.variants[0]?.retrieval.unanswerable ?? 0;
  const notes: string[] = [];
  if (unanswerable) notes.push(`${plural(unanswerable, "unanswerable question")} left out of every retrieval mean (judged by not-found instead)`);
  for (const v of report.variants) {
    if (v.retrieval.missing.length) notes.push(`${v.name}: ${plural(v.retrieval.missing.length, "question")} without an output line scored 0: ${idList(v.retrieval.missing, listMax)}`);
    if (v.retrieval.noRelevant.length) notes.push(`${v.name}: no chunk holds the anchor of ${listMax > 0 ? idList(v.retrieval.noRelevant, listMax) : `${plural(v.retrieval.noRelevant.length, "question")}, listed in report.json,`} (scored 0; see ragjudge validate)`);
  }
  const prefix = format === "markdown" ? "- " : "note: ";
  return [title(`Retrieval by kind (k = ${report.config.mainK})`, format), "", renderTable(columns, rows, format), "", ...notes.map((n) => prefix + safeText(n, format)), ...(notes.length ? [""] : [])].join("\n");
}

function failureLine(v: VariantJson): string {
  const f = v.failures;
  const counts = f.overall.counts.filter((c) => c.count > 0).map((c) => `${c.failure} ${c.count}`);
  const undecidable = f.undecidable.length ? ` (not decidable here: ${f.undecidable.map((u) => u.failure).join(", ")})` : "";
  return `misses at top ${f.k}: ${f.overall.misses} of ${f.overall.answerable}${counts.length ? `: ${counts.join(", ")}` : ""}${undecidable}`;
}

function poolLine(v: VariantJson): string {
  const p = v.pool;
  if (!p.available || !p.overall) return `pool recall unavailable: ${p.reason ?? "no answerable question"}`;
  const o = p.overall;
  return `pool recall ${p.list}@${p.depth} ${num(o.poolRecall)} beside R@${p.k} ${num(o.finalRecall)}: ${plural(o.notInPool ?? 0, "question")} never found by the first stage, ${o.inPoolNotInTopK ?? 0} found and then ranked out of the top ${p.k}`;
}

/** Pool recall and the failure-kind distribution of the misses, with the recommendation. */
export function diagnosticsSection(report: ReportJson, format: TextFormat): string {
  const out: string[] = [title("Pool recall and failure kinds", format), ""];
  for (const v of report.variants) {
    const t = (x: string) => safeText(x, format);
    if (format === "markdown") out.push(`- **${t(v.name)}**: ${t(poolLine(v))}.`, `  - ${t(failureLine(v))}.`, `  - Recommendation: ${t(v.failures.recommendation)}`);
    else out.push(`${t(v.name)}: ${t(poolLine(v))}`, `  ${t(failureLine(v))}`, `  recommendation: ${t(v.failures.recommendation)}`);
  }
  return out.join("\n") + "\n";
}

/** The verdict lines every report opens with (see `headlineVerdicts`). */
export function verdictLines(report: ReportJson, format: TextFormat): string[] {
  return headlineVerdicts(report).map((v) => (format === "markdown" ? `- ${v.decided ? "" : "**untrusted** "}${v.text}` : `verdict: ${v.decided ? "" : "(untrusted) "}${v.text}`));
}

function rubricTable(r: RubricJson, format: TextFormat): string {
  const columns: Column[] = [
    { header: "variant" }, { header: "pass rate", align: "right" }, { header: "95% CI", align: "right" },
    { header: unitWord(r), align: "right" }, { header: "by rule", align: "right" }, { header: "errors", align: "right" },
    { header: "Rogan-Gladen", align: "right" }, { header: "PPI", align: "right" },
  ];
  const rows = r.variants.map((v) => [
    v.variant, trustedRate(r, v.raw.value), interval(v.raw.ci, true), String(v.pass + v.fail), String(v.rulePass + v.ruleFail), String(v.errors),
    estimateText(v.roganGladen), estimateText(v.ppi),
  ]);
  for (const v of r.variants) {
    const p = v.pairs;
    if (p) rows.push([`${v.variant}: ${r.unit === "claim" ? "claims" : "citation pairs"} supported`, trustedRate(r, p.raw.value), interval(p.raw.ci, true), `${p.pass + p.fail} ${r.unit === "claim" ? "claims" : "pairs"}`, String(p.rulePass + p.ruleFail), String(p.errors), estimateText(p.roganGladen), estimateText(p.ppi)]);
  }
  return renderTable(columns, rows, format);
}

function rubricExtras(r: RubricJson, report: ReportJson): string[] {
  const out: string[] = [];
  const nf = r.variants.filter((v) => v.notFound);
  if (nf.length) {
    out.push(`correct "not found" (unanswerable): ${nf.map((v) => `${v.variant} ${r.trust.trusted ? "" : "untrusted "}${v.notFound!.correct}/${v.notFound!.unanswerable}`).join(", ")}`);
    out.push(`false refusals (answerable, lower is better): ${nf.map((v) => `${v.variant} ${r.trust.trusted ? "" : "untrusted "}${v.notFound!.refused}/${v.notFound!.answerable}`).join(", ")}`);
  }
  const unc = r.variants.filter((v) => v.uncited !== null);
  if (unc.length) out.push(`uncited answers: ${unc.map((v) => `${v.variant} ${v.uncited}`).join(", ")} (${report.config.requireCitations ? "failing: citations are required" : "not counted: citations are not required"})`);
  const reasons = [...new Set(r.variants.flatMap((v) => {
    const f = v.pairs ?? v;
    return [
      f.roganGladen.estimate === null ? `Rogan-Gladen n/a: ${f.roganGladen.reason}` : null, f.ppi.estimate === null ? `PPI n/a: ${f.ppi.reason}` : null,
      f.roganGladen.uninformative ? `${v.variant}: Rogan-Gladen interval not informative: ${f.roganGladen.uninformative}` : null,
      f.ppi.uninformative ? `${v.variant}: PPI interval not informative: ${f.ppi.uninformative}` : null,
    ];
  }).filter((x): x is string => x !== null))];
  out.push(...reasons, ...drawLines(r));
  for (const n of r.trust.notes) out.push(n);
  return out;
}

/**
 * Where the rubrics came from as a reader of a shared report can use it: the
 * packaged defaults without the install path, or the team's folder relative
 * to the config's folder (as the config names it), not a path on the machine
 * that ran it.
 */
function rubricsWhere(report: ReportJson, src: { dir: string; packaged: boolean }): string {
  if (src.packaged) return "the packaged defaults";
  const rel = relative(dirname(resolve(report.config.file)), resolve(src.dir)).split(sep).join("/");
  return rel.startsWith("../") || isAbsolute(rel) ? src.dir : `${rel || "."}/ (beside the config)`;
}

/** Judge pass rates with the trust state on every line, corrected rates, errors, uncited answers, tokens and cost. */
export function judgeSection(report: ReportJson, format: TextFormat): string {
  const out: string[] = [title("Judge pass rates and trust", format), ""];
  const src = report.inputs.rubricsSource;
  out.push(item(`judge: ${report.judge.label}`, format));
  if (src) out.push(item(`rubrics: ${report.inputs.rubrics.map((r) => r.name).join(", ")} from ${rubricsWhere(report, src)}`, format));
  out.push(item(`labels: ${report.inputs.labels.dir} (${report.inputs.labels.files.length ? plural(report.inputs.labels.files.reduce((a, f) => a + f.labels, 0), "label") + " in " + plural(report.inputs.labels.files.length, "file") : "no label files"})`, format), "");
  const bullet = format === "markdown" ? "- " : "  ";
  for (const r of report.rubrics) {
    out.push(format === "markdown" ? `### ${escapeMarkdown(trustHeadline(r))}` : plainLine(trustHeadline(r)), "");
    if (r.variants.length) out.push(rubricTable(r, format), "");
    const extras = rubricExtras(r, report);
    if (extras.length) out.push(...extras.map((e) => bullet + safeText(e, format)), "");
  }
  if (report.rubrics.length === 0) out.push("no rubric was judged", "");
  const t = report.judgeTotals;
  out.push(item(`verdicts: ${t.judgments} (${t.rule} by rule, ${t.cached} from cache), ${plural(t.errors, "error")}${t.errors ? " (not counted as yes or no; rerun to retry them)" : ""}`, format));
  for (const [cause, n] of t.errorCauses) out.push(`${format === "markdown" ? "  - " : "  "}${safeText(`error x${n}: ${cause}`, format)}`);
  out.push(item(costLine({ calls: t.calls, prompt: t.promptTokens, completion: t.completionTokens, cost: t.cost, note: t.costNote }), format));
  out.push("", `${format === "markdown" ? "> Pass" : "note: pass"} rates count answers (questions for a question rubric) with a yes/no verdict; citation accuracy's answer passes when every citation is supported, and its sentence-citation pairs (the unit its labels and corrections are on) are the "citation pairs supported" row; Rogan-Gladen takes the judge's TPR and TNR from all its gate labels, PPI the variant's own gate labels; rule verdicts are exact and never corrected.`);
  return out.join("\n") + "\n";
}

/** Floors, the trust gate and the result line. */
export function gateSection(report: ReportJson, format: TextFormat): string {
  const g = report.gate;
  const out: string[] = [title("Gate", format), ""];
  if (g.floors.length === 0) out.push(item('floors: none configured (set "floors" in the config, or pass --fail-under R@10=0.7)', format));
  else {
    const measures = [...new Set(g.floors.map((f) => `${f.measure} >= ${f.min}`))];
    for (const m of measures) {
      const fs = g.floors.filter((f) => `${f.measure} >= ${f.min}` === m);
      out.push(item(`floor ${m}: ${fs.map((f) => `${f.variant} ${num(f.value, 4)} ${f.passed ? "ok" : "MISSED"}`).join("; ")}`, format));
    }
  }
  const rubrics = [...new Set(report.rubrics.map((r) => r.rubric))];
  out.push(item(g.untrusted.length
    ? `trust: ${g.untrusted.length} of ${rubrics.length} rubrics untrusted: ${g.untrusted.join(", ")}${g.requireTrusted ? " (--require-trusted: failing)" : " (--require-trusted would fail)"}`
    : `trust: every rubric trusted (${rubrics.length})`, format));
  out.push(item(`checked: ${g.checked}`, format));
  out.push(item(`result: ${gateResult(report)}`, format));
  return out.join("\n") + "\n";
}

/** Options of {@link renderTerminal}. */
export interface TerminalOptions {
  /** The evaluation folder as the user should read it. */
  folder: string;
}

/**
 * The whole terminal summary, plain text (no colour codes, so it reads the
 * same in a CI log and in summary.txt).
 */
export function renderTerminal(report: ReportJson, opts: TerminalOptions): string {
  const head = [
    plainLine(`ragjudge run: ${report.name} (${readableTime(report.time)})`),
    plainLine(`${questionCounts(report)}; variants ${report.variants.map((v) => v.name).join(", ")}`),
    "",
  ];
  const warn = report.warnings.length ? [`${plural(report.warnings.length, "input warning")} (citation problems and notes; see validation.json)`, ""] : [];
  const sections = [
    head.join("\n"),
    [...verdictLines(report, "terminal"), ""].join("\n"),
    searchOrAnswerSection(report, "terminal"),
    retrievalSection(report, "terminal"),
    diagnosticsSection(report, "terminal"),
    judgeSection(report, "terminal"),
    claimsSection(report, "terminal"),
    gateSection(report, "terminal"),
    ...(report.panel ? [panelSection(report.panel, "terminal", report.config.file)] : []),
  ];
  // User text reached lines through names and messages: no control character may reach a terminal.
  return plainText([...sections, ...warn, `evaluation folder: ${opts.folder}/ (report.html, report.md, report.json, junit.xml, summary.txt, items.csv)\n`].join("\n"));
}
