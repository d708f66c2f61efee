import { headlineVerdicts, num, pct, plural, questionCounts, readableTime, trustedJudgeRubrics, untrustedAnswerRubrics } from "../../format.js";
import type { ReportJson } from "../../schema.js";
import { escapeHtml as esc } from "../escape.js";
import { trustBadge } from "../parts.js";

/** The top of the page: the evaluation's name and provenance. */
export function headerHtml(report: ReportJson): string {
  return `<header class="top"><h1><span class="brand">ragjudge</span> · ${esc(report.name)}</h1>`
    + `<div class="meta">${esc(readableTime(report.time))} · ${esc(questionCounts(report))} · `
    + `judge: ${esc(report.judge.label)} · evaluation <code>${esc(report.folder)}</code></div></header>`;
}

/**
 * The headline: first the search-or-answering verdict of each variant (the
 * diagnosis when the rubrics it rests on are trusted, else "not decided"
 * with what retrieval alone says), then the cards. No untrusted rubric's
 * figure is a headline: answer outcomes appear in a card only when their
 * rubrics are trusted, untrusted rubrics are named without numbers, and the
 * gate badge says what it checked and is green only when nothing it did not
 * check is untrusted.
 */
export function overviewHtml(report: ReportJson): string {
  const verdicts = headlineVerdicts(report);
  const verdict = `<section id="verdict" class="verdict"><h2>Search or answering</h2><ul class="verdicts">`
    + verdicts.map((v) => `<li class="${v.decided ? "decided" : "undecided"}">${v.decided ? "" : `${trustBadge(false)} `}${esc(v.text)}</li>`).join("")
    + `</ul></section>`;
  const cards: string[] = [];
  const answersTrusted = untrustedAnswerRubrics(report).length === 0;
  for (const v of report.variants) {
    const c = v.searchOrAnswer.overall.counts;
    const main = v.retrieval.main;
    const first = main[1] ?? main[0]!;
    const answerable = v.searchOrAnswer.questions.filter((x) => x.answerable).length;
    const outcomes = answersTrusted
      ? `<dl class="kv" style="margin-top:8px"><dt>answers ok</dt><dd>${c.ok + c["ok-without-retrieval"]} of ${answerable}</dd>`
        + `<dt>retrieval failures</dt><dd>${c["retrieval-failure"]}</dd><dt>generation failures</dt><dd>${c["generation-failure"]}</dd>`
        + `<dt>correct “not found”</dt><dd>${c["correct-not-found"]} of ${v.searchOrAnswer.questions.length - answerable}</dd></dl>`
      : `<div class="sub" style="margin-top:8px">answer outcomes: not shown here, their rubrics are untrusted (see Search or answering)</div>`;
    cards.push(`<div class="card"><h3>${esc(v.name)}</h3><div class="big">${esc(first)} ${num(v.retrieval.overall.values[first])}</div>`
      + `<div class="sub">${main.filter((m) => m !== first).map((m) => `${esc(m)} ${num(v.retrieval.overall.values[m])}`).join(" · ")}</div>`
      + outcomes + `</div>`);
  }
  const trusted = trustedJudgeRubrics(report);
  const untrusted = report.gate.untrusted;
  const trustedList = trusted.map((r) => `<dt>${esc(r.rubric)}</dt><dd>${r.variants.map((v) => `${esc(v.variant)} ${pct(v.raw.value)}`).join(" · ")}</dd>`).join("");
  cards.push(`<div class="card"><h3>Judge trust</h3><div class="big">${trusted.length} of ${trusted.length + untrusted.length} <span style="font-size:14px;font-weight:500">rubrics trusted</span></div>`
    + (trustedList ? `<dl class="kv">${trustedList}</dl>` : "")
    + (untrusted.length ? `<div class="sub" style="margin-top:6px">${trustBadge(false)} ${esc(untrusted.join(", "))}: rates shown below, never as headline figures.</div>` : "")
    + `</div>`);
  const g = report.gate;
  cards.push(`<div class="card"><h3>Gate ${gateBadge(report)}</h3><div class="sub">${esc(g.floors.length ? `${g.floors.filter((f) => !f.passed).length} of ${g.floors.length} floors missed` : "no floors configured")}${g.untrusted.length ? esc(` · ${plural(g.untrusted.length, "rubric")} untrusted${g.requireTrusted ? "" : " (run with --require-trusted to fail on them)"}`) : ""}</div>`
    + (g.failures.length ? `<ul>${g.failures.map((f) => `<li>${esc(f)}</li>`).join("")}</ul>` : "")
    + `<div class="sub" style="margin-top:6px">${esc(report.judgeTotals.judgments + " verdicts, " + plural(report.judgeTotals.errors, "error") + "; " + report.judgeTotals.costNote)}</div></div>`);
  return verdict + `<div class="cards">${cards.join("")}</div>`;
}

/**
 * The gate's badge: red FAIL; green PASS only when the gate checked trust or
 * every rubric is trusted; otherwise amber, saying it checked floors only
 * and trust was not required.
 */
export function gateBadge(report: ReportJson): string {
  const g = report.gate;
  if (g.badge === "fail") return `<span class="badge fail">FAIL</span>`;
  if (g.badge === "partial") return `<span class="badge partial">PASS: ${esc(g.checked)}</span>`;
  return `<span class="badge pass">PASS: ${esc(g.checked)}</span>`;
}
