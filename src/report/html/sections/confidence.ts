import { confidenceLines } from "../../../calibration/confidence-render.js";
import { num } from "../../format.js";
import type { ConfidenceJson } from "../../schema-confidence.js";
import type { RubricJson } from "../../schema.js";
import { escapeHtml as esc } from "../escape.js";
import { figure, slug } from "../parts.js";

/**
 * The HTML report's verdict-confidence block of a rubric: the figures as a
 * list (the same lines as calibrate and report.md) and the reliability
 * diagram as inline SVG (no script): one point per non-empty bin at its mean
 * P(yes) and its share labelled yes, sized by its items, against the
 * diagonal a calibrated judge would follow.
 */

const FONT = `font-family="system-ui, sans-serif" font-size="12"`;

/** The reliability diagram of one rubric's judge as an `<svg>` with `data-chart`. */
export function reliabilityDiagram(title: string, c: ConfidenceJson, id: string): string {
  const size = 220;
  const left = 48;
  const top = 14;
  const bottom = 40;
  const x = (v: number) => left + v * size;
  const y = (v: number) => top + (1 - v) * size;
  const bins = c.reliability.bins.filter((b) => b.n > 0 && b.meanScore !== null && b.observed !== null);
  const most = Math.max(1, ...bins.map((b) => b.n));
  const parts: string[] = [];
  const w = left + size + 16;
  const h = top + size + bottom;
  parts.push(`<svg data-chart="${esc(id)}" role="img" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" ${FONT}>`);
  parts.push(`<title>${esc(title)}</title>`);
  parts.push(`<rect x="${left}" y="${top}" width="${size}" height="${size}" fill="none" stroke="#cbd5e1"/>`);
  for (const t of [0, 0.5, 1]) {
    parts.push(`<text x="${x(t)}" y="${top + size + 16}" text-anchor="middle" font-size="10">${t}</text>`);
    parts.push(`<text x="${left - 6}" y="${y(t) + 4}" text-anchor="end" font-size="10">${t}</text>`);
  }
  parts.push(`<text x="${x(0.5)}" y="${top + size + 32}" text-anchor="middle">mean P(yes) of the bin</text>`);
  parts.push(`<text transform="translate(12 ${y(0.5)}) rotate(-90)" text-anchor="middle">share labelled yes</text>`);
  parts.push(`<line class="diagonal" x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#94a3b8" stroke-dasharray="4 3"/>`);
  if (bins.length > 1) parts.push(`<polyline fill="none" stroke="#2563eb" stroke-width="1.5" points="${bins.map((b) => `${x(b.meanScore!).toFixed(1)},${y(b.observed!).toFixed(1)}`).join(" ")}"/>`);
  for (const b of bins) {
    const r = 3 + 7 * Math.sqrt(b.n / most);
    const tip = `P(yes) [${num(b.lo, 1)}, ${num(b.hi, 1)}${b.hi === 1 ? "]" : ")"}: ${b.n} item${b.n === 1 ? "" : "s"}, mean P(yes) ${num(b.meanScore, 2)}, share labelled yes ${num(b.observed, 2)}`;
    parts.push(`<circle class="bin" cx="${x(b.meanScore!).toFixed(1)}" cy="${y(b.observed!).toFixed(1)}" r="${r.toFixed(1)}" fill="rgba(37,99,235,0.55)" stroke="#1e3a8a"><title>${esc(tip)}</title></circle>`);
  }
  parts.push("</svg>");
  return parts.join("");
}

/** The block under a rubric's confusion matrix; empty when its judge gave no P(yes). */
export function confidenceBlock(r: RubricJson): string {
  const c = r.calibration?.confidence;
  if (!c) return "";
  const lines = confidenceLines(c, r.calibration!.kappa).map((l) => `<li>${esc(l.replace(/\s{2,}/g, " "))}</li>`).join("");
  const chart = c.reliability.n > 0
    ? figure(reliabilityDiagram(`Reliability diagram: ${r.rubric}`, c, `reliability-${slug(r.rubric)}-${r.fingerprint.slice(0, 8)}`), `the judge's P(yes) against the gate labels, one point per tenth of P(yes) sized by its items (n ${c.reliability.n}); on the dashed diagonal P(yes) would match the share labelled yes`)
    : "";
  return `<div class="grid2 confidence"><div>${chart}</div><div><h4>Verdict confidence</h4><ul>${lines}</ul></div></div>`;
}
