import { num, pct, plural, questionCounts, readableTime, trustedJudgeRubrics } from "../../format.js";
import type { ReportJson } from "../../schema.js";
import { escapeHtml as esc } from "../escape.js";
import { trustBadge } from "../parts.js";

/**
 * The top of the page: the evaluation's name and provenance, then one card
 * per variant (main retrieval figures and answer outcomes), one for the
 * judge's trust and one for the gate. Untrusted rubrics are named there
 * without their numbers: an untrusted rubric is never a headline figure.
 */
export function headerHtml(report: ReportJson): string {
  return `<header class="top"><h1><span class="brand">ragjudge</span> · ${esc(report.name)}</h1>`
    + `<div class="meta">${esc(readableTime(report.time))} · ${esc(questionCounts(report))} · `
    + `judge: ${esc(report.judge.label)} · evaluation <code>${esc(report.folder)}</code></div></header>`;
}

/** The headline cards. */
export function overviewHtml(report: ReportJson): string {
  const cards: string[] = [];
  for (const v of report.variants) {
    const c = v.searchOrAnswer.overall.counts;
    const main = v.retrieval.main;
    const first = main[1] ?? main[0]!;
    const answerable = v.searchOrAnswer.questions.filter((x) => x.answerable).length;
    cards.push(`<div class="card"><h3>${esc(v.name)}</h3><div class="big">${esc(first)} ${num(v.retrieval.overall.values[first])}</div>`
      + `<div class="sub">${main.filter((m) => m !== first).map((m) => `${esc(m)} ${num(v.retrieval.overall.values[m])}`).join(" · ")}</div>`
      + `<dl class="kv" style="margin-top:8px"><dt>answers ok</dt><dd>${c.ok + c["ok-without-retrieval"]} of ${answerable}</dd>`
      + `<dt>retrieval failures</dt><dd>${c["retrieval-failure"]}</dd><dt>generation failures</dt><dd>${c["generation-failure"]}</dd>`
      + `<dt>correct “not found”</dt><dd>${c["correct-not-found"]} of ${v.searchOrAnswer.questions.length - answerable}</dd></dl></div>`);
  }
  const trusted = trustedJudgeRubrics(report);
  const untrusted = report.gate.untrusted;
  const trustedList = trusted.map((r) => `<dt>${esc(r.rubric)}</dt><dd>${r.variants.map((v) => `${esc(v.variant)} ${pct(v.raw.value)}`).join(" · ")}</dd>`).join("");
  cards.push(`<div class="card"><h3>Judge trust</h3><div class="big">${trusted.length} of ${trusted.length + untrusted.length} <span style="font-size:14px;font-weight:500">rubrics trusted</span></div>`
    + (trustedList ? `<dl class="kv">${trustedList}</dl>` : "")
    + (untrusted.length ? `<div class="sub" style="margin-top:6px">${trustBadge(false)} ${esc(untrusted.join(", "))}: rates shown below, never as headline figures.</div>` : "")
    + `</div>`);
  const g = report.gate;
  const result = g.failures.length ? `<span class="badge fail">FAIL</span>` : `<span class="badge pass">PASS</span>`;
  cards.push(`<div class="card"><h3>Gate ${result}</h3><div class="sub">${g.floors.length ? esc(`${g.floors.filter((f) => !f.passed).length} of ${g.floors.length} floors missed`) : "no floors configured"}`
    + ` · ${g.requireTrusted ? "trust required" : "trust not required"}</div>`
    + (g.failures.length ? `<ul>${g.failures.map((f) => `<li>${esc(f)}</li>`).join("")}</ul>` : "")
    + `<div class="sub" style="margin-top:6px">${esc(report.judgeTotals.judgments + " verdicts, " + plural(report.judgeTotals.errors, "error") + "; " + report.judgeTotals.costNote)}</div></div>`);
  return `<div class="cards">${cards.join("")}</div>`;
}

