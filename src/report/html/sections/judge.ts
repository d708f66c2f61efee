import { basisSuffix, interval, num, pct, plural, unitWord, usd } from "../../format.js";
import type { ReportJson, RubricJson } from "../../schema.js";
import { confusionMatrix, intervals, type IntervalRow } from "../charts.js";
import { escapeHtml as esc } from "../escape.js";
import { figure, n, section, slug, table, trustBadge } from "../parts.js";

function kappaChart(report: ReportJson): string {
  const rubrics = report.rubrics.filter((r) => r.judge !== "rule");
  if (rubrics.length === 0) return "";
  const rows: IntervalRow[] = rubrics.map((r) => ({
    label: r.rubric,
    estimate: r.calibration?.kappa ?? null,
    low: r.calibration?.kappaCi?.lo ?? null,
    high: r.calibration?.kappaCi?.hi ?? null,
    threshold: r.trust.thresholds.kappaLower,
    ...(r.calibration ? {} : { text: "no labels" }),
  }));
  const lows = rows.map((r) => r.low ?? 0);
  const domain: [number, number] = [Math.max(-1, Math.min(0, ...lows)), 1];
  return figure(intervals("Cohen's kappa with its 95% interval against the gate threshold", rows, domain, "kappa"), "Cohen's kappa of each rubric's judge against the gate labels, 95% asymptotic interval; the orange mark is the gate's threshold for the lower bound");
}

function ratesChart(r: RubricJson): string {
  const rows: IntervalRow[] = r.variants.flatMap((v) => [
    { label: `${v.variant}: raw${r.trust.trusted ? "" : " (untrusted)"}`, estimate: v.raw.value, low: v.raw.ci?.lo ?? null, high: v.raw.ci?.hi ?? null },
    { label: `${v.variant}: Rogan-Gladen`, estimate: v.roganGladen.estimate, low: v.roganGladen.ci?.lo ?? null, high: v.roganGladen.ci?.hi ?? null, ...(v.roganGladen.estimate === null ? { text: "n/a" } : {}) },
    { label: `${v.variant}: PPI`, estimate: v.ppi.estimate, low: v.ppi.ci?.lo ?? null, high: v.ppi.ci?.hi ?? null, ...(v.ppi.estimate === null ? { text: "n/a" } : {}) },
  ]);
  return figure(intervals(`Raw and corrected pass rates: ${r.rubric}`, rows, [0, 1], `pass-rates-${slug(r.rubric)}-${r.fingerprint.slice(0, 8)}`), "pass rate with its 95% interval: raw (Wilson), Rogan-Gladen and PPI corrections");
}

function calibrationBlock(r: RubricJson): string {
  const c = r.calibration;
  if (!c) return `<p class="muted">No gate labels pair with this judge's verdicts, so there is no confusion matrix or kappa yet. Label a random sample (<code>ragjudge sample --random</code>, then <code>ragjudge review</code>).</p>`;
  const matrix = figure(confusionMatrix(`Confusion matrix: ${r.rubric}`, c.confusion, `confusion-${slug(r.rubric)}-${r.fingerprint.slice(0, 8)}`), `judge against ${r.trust.basis}`);
  const kv = `<dl class="kv"><dt>gate labels</dt><dd>${c.n} (${c.labelYes} yes / ${c.labelNo} no)${c.judgeErrors ? `, ${c.judgeErrors} judge errors counted as disagreements` : ""}</dd>`
    + `<dt>based on</dt><dd>${esc(r.trust.basis)}</dd>`
    + `<dt>agreement</dt><dd>${num(c.agreement, 2)}</dd><dt>TPR / TNR</dt><dd>${num(c.tpr, 2)} / ${num(c.tnr, 2)}</dd>`
    + `<dt>kappa</dt><dd>${num(c.kappa, 2)} ${interval(c.kappaCi)} asymptotic, ${interval(c.bootstrapCi)} bootstrap</dd>`
    + `<dt>threshold</dt><dd>lower bound ≥ ${num(r.trust.thresholds.kappaLower, 2)}, n ≥ ${r.trust.thresholds.minLabels} with ≥ ${r.trust.thresholds.minPerClass} of each label</dd>`
    + `<dt>record</dt><dd><code>${esc(c.record)}</code></dd></dl>`;
  return `<div class="grid2"><div>${matrix}</div><div>${kv}</div></div>`;
}

function rubricBlock(r: RubricJson, report: ReportJson): string {
  const state = r.judge === "rule" ? "decided by rule only" : `fingerprint <code>${esc(r.fingerprint.slice(0, 12))}</code>`;
  const head = `<h3>${esc(r.rubric)} ${trustBadge(r.trust.trusted)} <span class="muted" style="font-weight:400">${state}</span></h3>`
    + `<p>${esc(r.trust.message)}${basisSuffix(r) ? ` <span class="muted">${esc(basisSuffix(r))}</span>` : ""}</p>`;
  const rows = r.variants.map((v) => [
    v.variant,
    { text: "", html: `${trustBadge(r.trust.trusted)} ${esc(pct(v.raw.value))}`, cls: "n" },
    n(interval(v.raw.ci, true)), n(v.pass + v.fail), n(v.rulePass + v.ruleFail), n(v.errors),
    n(v.roganGladen.estimate === null ? "n/a" : `${pct(v.roganGladen.estimate)} ${interval(v.roganGladen.ci, true)}`),
    n(v.ppi.estimate === null ? "n/a" : `${pct(v.ppi.estimate)} ${interval(v.ppi.ci, true)}`),
  ]);
  const extras: string[] = [];
  for (const v of r.variants) {
    if (v.notFound) extras.push(`${v.variant}: correct “not found” ${v.notFound.correct}/${v.notFound.unanswerable} unanswerable; false refusals ${v.notFound.refused}/${v.notFound.answerable} answerable`);
    if (v.uncited !== null) extras.push(`${v.variant}: ${plural(v.uncited, "uncited answer")} (${report.config.requireCitations ? "failing: citations required" : "not counted: citations not required"})`);
  }
  for (const v of r.variants) {
    if (v.roganGladen.estimate === null && v.roganGladen.reason) extras.push(`${v.variant}: Rogan-Gladen n/a: ${v.roganGladen.reason}`);
  }
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
