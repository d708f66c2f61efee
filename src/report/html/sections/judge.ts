import { basisSuffix, drawLines, estimateText, interval, num, pct, plural, unitWord, usd } from "../../format.js";
import type { ReportJson, RubricJson, RubricVariantJson } from "../../schema.js";
import { confusionMatrix, intervals, type IntervalRow } from "../charts.js";
import { escapeHtml as esc } from "../escape.js";
import { confidenceBlock } from "./confidence.js";
import { figure, n, section, slug, table, trustBadge } from "../parts.js";

/**
 * Kappa against the gate threshold. Only trusted rubrics get a point and an
 * interval: an untrusted rubric's kappa (1.00 on a handful of labels, say)
 * is never drawn beyond the threshold line; its row says why it is
 * untrusted, and its figures are in its block below.
 */
function kappaChart(report: ReportJson): string {
  const rubrics = report.rubrics.filter((r) => r.judge !== "rule");
  if (rubrics.length === 0) return "";
  const rows: IntervalRow[] = rubrics.map((r) => {
    const label = r.servedModel && rubrics.some((o) => o !== r && o.rubric === r.rubric) ? `${r.rubric} (${r.servedModel})` : r.rubric;
    if (!r.trust.trusted) {
      return { label, estimate: null, low: null, high: null, threshold: r.trust.thresholds.kappaLower, text: `untrusted: ${r.trust.reason ?? "not calibrated"}` };
    }
    return { label, estimate: r.calibration?.kappa ?? r.trust.kappa, low: r.trust.ci?.lo ?? null, high: r.trust.ci?.hi ?? null, threshold: r.trust.thresholds.kappaLower };
  });
  const lows = rows.map((r) => r.low ?? 0);
  const domain: [number, number] = [Math.max(-1, Math.min(0, ...lows)), 1];
  return figure(intervals("Cohen's kappa with its 95% interval against the gate threshold", rows, domain, "kappa"), "Cohen's kappa of each trusted rubric's judge against the gate labels with the gate's 95% interval (asymptotic and goodness-of-fit, whichever is wider); the orange mark is the threshold for the lower bound. Untrusted rubrics are not plotted: each row says why");
}

function ratesChart(r: RubricJson): string {
  const tag = r.trust.trusted ? "" : " (untrusted)";
  const rows: IntervalRow[] = r.variants.flatMap((v) => [
    { label: `${v.variant}: raw${v.pairs ? " answers" : ""}${tag}`, estimate: v.raw.value, low: v.raw.ci?.lo ?? null, high: v.raw.ci?.hi ?? null },
    ...(v.pairs ? [{ label: `${v.variant}: raw pairs${tag}`, estimate: v.pairs.raw.value, low: v.pairs.raw.ci?.lo ?? null, high: v.pairs.raw.ci?.hi ?? null }] : []),
    ...correctionRows(v.pairs ? `${v.variant} pairs` : v.variant, v.pairs ?? v),
  ]);
  return figure(intervals(`Raw and corrected pass rates: ${r.rubric}`, rows, [0, 1], `pass-rates-${slug(r.rubric)}-${r.fingerprint.slice(0, 8)}`), "pass rate with its 95% interval: raw (Wilson), Rogan-Gladen and PPI corrections");
}

/** Rogan-Gladen and PPI rows of the rates chart; a not-informative interval is not drawn. */
function correctionRows(label: string, f: Pick<RubricVariantJson, "roganGladen" | "ppi">): IntervalRow[] {
  return ([["Rogan-Gladen", f.roganGladen], ["PPI", f.ppi]] as const).map(([name, e]) => ({
    label: `${label}: ${name}`, estimate: e.estimate, low: e.uninformative ? null : e.ci?.lo ?? null, high: e.uninformative ? null : e.ci?.hi ?? null,
    ...(e.estimate === null ? { text: "n/a" } : e.uninformative ? { text: `${num(e.estimate)} (not informative)` } : {}),
  }));
}

function calibrationBlock(r: RubricJson): string {
  const c = r.calibration;
  if (!c) return `<p class="muted">No gate labels pair with this judge's verdicts, so there is no confusion matrix or kappa yet. Label a random sample (<code>ragjudge sample --random</code>, then <code>ragjudge review</code>).</p>`;
  const matrix = figure(confusionMatrix(`Confusion matrix: ${r.rubric}`, c.confusion, `confusion-${slug(r.rubric)}-${r.fingerprint.slice(0, 8)}`), `judge against ${r.trust.basis}${c.skipped ? `; the "label" cells include ${c.skipped} skipped drawn item${c.skipped === 1 ? "" : "s"}, each counted as a disagreement` : ""}`);
  const kv = `<dl class="kv"><dt>gate labels</dt><dd>${c.n} (${c.labelYes} yes / ${c.labelNo} no)${c.judgeErrors ? `, ${c.judgeErrors} judge errors counted as disagreements` : ""}${c.skipped ? `, ${c.skipped} drawn item${c.skipped === 1 ? "" : "s"} with no counting label counted as ${c.skipped === 1 ? "a disagreement" : "disagreements"}` : ""}</dd>`
    + `<dt>based on</dt><dd>${esc(r.trust.basis)}</dd>`
    + `<dt>agreement</dt><dd>${num(c.agreement, 2)}</dd><dt>TPR / TNR</dt><dd>${num(c.tpr, 2)} / ${num(c.tnr, 2)}</dd>`
    + `<dt>kappa</dt><dd>${num(c.kappa, 2)} ${interval(c.kappaCi)} (the gate's interval), ${interval(c.asymptoticCi)} asymptotic, ${interval(c.bootstrapCi)} bootstrap</dd>`
    + `<dt>threshold</dt><dd>lower bound ≥ ${num(r.trust.thresholds.kappaLower, 2)}, n ≥ ${r.trust.thresholds.minLabels} with ≥ ${r.trust.thresholds.minPerClass} of each label</dd>`
    + `<dt>record</dt><dd><code>${esc(c.record)}</code></dd></dl>`;
  return `<div class="grid2"><div>${matrix}</div><div>${kv}</div></div>${confidenceBlock(r)}`;
}

function rubricBlock(r: RubricJson, report: ReportJson): string {
  const state = r.judge === "rule" ? "decided by rule only" : `fingerprint <code>${esc(r.fingerprint.slice(0, 12))}</code>${r.servedModel ? `, served as ${esc(r.servedModel)}` : ""}`;
  const head = `<h3>${esc(r.rubric)} ${trustBadge(r.trust.trusted)} <span class="muted" style="font-weight:400">${state}</span></h3>`
    + `<p>${esc(r.trust.message)}${basisSuffix(r) ? ` <span class="muted">${esc(basisSuffix(r))}</span>` : ""}</p>`;
  const rows = r.variants.map((v) => [
    v.variant,
    { text: "", html: `${trustBadge(r.trust.trusted)} ${esc(pct(v.raw.value))}`, cls: "n" },
    n(interval(v.raw.ci, true)), n(v.pass + v.fail), n(v.rulePass + v.ruleFail), n(v.errors),
    n(estimateText(v.roganGladen)),
    n(estimateText(v.ppi)),
  ]);
  for (const v of r.variants) {
    const p = v.pairs;
    if (!p) continue;
    rows.push([`${v.variant}: ${r.unit === "claim" ? "claims" : "citation pairs"} supported`, { text: "", html: `${trustBadge(r.trust.trusted)} ${esc(pct(p.raw.value))}`, cls: "n" }, n(interval(p.raw.ci, true)), n(`${p.pass + p.fail} ${r.unit === "claim" ? "claims" : "pairs"}`), n(p.rulePass + p.ruleFail), n(p.errors), n(estimateText(p.roganGladen)), n(estimateText(p.ppi))]);
  }
  const extras: string[] = [];
  for (const v of r.variants) {
    if (v.notFound) extras.push(`${v.variant}: correct “not found” ${v.notFound.correct}/${v.notFound.unanswerable} unanswerable; false refusals ${v.notFound.refused}/${v.notFound.answerable} answerable`);
    if (v.uncited !== null) extras.push(`${v.variant}: ${plural(v.uncited, "uncited answer")} (${report.config.requireCitations ? "failing: citations required" : "not counted: citations not required"})`);
  }
  for (const v of r.variants) {
    const f = v.pairs ?? v;
    if (f.roganGladen.estimate === null && f.roganGladen.reason) extras.push(`${v.variant}: Rogan-Gladen n/a: ${f.roganGladen.reason}`);
    if (f.roganGladen.uninformative) extras.push(`${v.variant}: Rogan-Gladen interval not informative: ${f.roganGladen.uninformative}`);
    if (f.ppi.uninformative) extras.push(`${v.variant}: PPI interval not informative: ${f.ppi.uninformative}`);
  }
  extras.push(...drawLines(r), ...r.trust.notes);
  const body = r.variants.length
    ? table(["variant", n("pass rate"), n("95% CI"), n(unitWord(r)), n("by rule"), n("errors"), n("Rogan-Gladen"), n("PPI")], rows) + (r.judge === "rule" ? "" : ratesChart(r))
    : `<p class="muted">No items.</p>`;
  return `<div class="rubric">${head}${r.judge === "rule" ? "" : calibrationBlock(r)}${body}${extras.length ? `<ul class="muted">${[...new Set(extras)].map((e) => `<li>${esc(e)}</li>`).join("")}</ul>` : ""}</div>`;
}

/**
 * The judge section: kappa against the gate threshold for every rubric,
 * then per rubric its trust state and basis (author, imported or human
 * labels), confusion matrix, raw versus corrected pass rates, and counts.
 */
export function judgeSection(report: ReportJson): string {
  const t = report.judgeTotals;
  const totals = `<p class="muted">${esc(`${t.judgments} verdicts (${t.rule} by rule, ${t.cached} from cache), ${plural(t.errors, "error")}${t.errors ? " (not counted as yes or no)" : ""}; ${t.calls} calls, ${t.promptTokens} prompt + ${t.completionTokens} completion tokens; cost ${usd(t.cost)} (${t.costNote}).`)}</p>`
    + (t.errorCauses.length ? `<ul>${t.errorCauses.map(([c, k]) => `<li>${esc(`error x${k}: ${c}`)}</li>`).join("")}</ul>` : "");
  return section(
    "judge",
    "Judge pass rates and trust",
    `Judge: ${report.judge.label}. A rubric's rates are trusted only once its exact judge agrees with gate labels (random frames): kappa's 95% lower bound at or above the threshold.`,
    kappaChart(report) + report.rubrics.map((r) => rubricBlock(r, report)).join("") + totals,
  );
}
