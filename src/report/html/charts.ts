import { num } from "../format.js";
import { escapeHtml as esc } from "./escape.js";

/**
 * Small server-side SVG charts for the self-contained HTML report: no
 * script, no network, no chart library at view time. Each returns an `<svg>`
 * string with a `<title>` for accessibility and `data-chart` for tests.
 */

const FONT = `font-family="system-ui, sans-serif" font-size="12"`;
const PALETTE = ["#2563eb", "#16a34a", "#d97706", "#dc2626", "#7c3aed", "#0891b2", "#64748b"];

/**
 * Approximate width in pixels of a label at the charts' 12px font (about
 * 7px a character), so margins fit the longest label instead of clipping it.
 */
function textWidth(text: string, size = 12): number {
  return Math.ceil([...text].length * size * 0.58);
}

/** The left margin that fits every label, within [min, 320]. */
function labelMargin(labels: readonly string[], min: number): number {
  return Math.min(320, Math.max(min, ...labels.map((l) => textWidth(l) + 16)));
}

/** One group of bars (a kind) with one value per series (a variant). */
export interface BarGroup {
  label: string;
  /** One value per series, in [0, 1] (null = not available). */
  values: (number | null)[];
}

/**
 * Grouped horizontal bars on a 0..1 axis (retrieval by kind, raw versus
 * corrected pass rates).
 */
export function groupedBars(title: string, series: string[], groups: BarGroup[], id: string): string {
  const barH = 14;
  const gap = 10;
  const left = labelMargin(groups.map((g) => g.label), 90);
  const width = 420;
  const groupH = series.length * barH + gap;
  const legendStep = Math.max(110, ...series.map((s) => textWidth(s) + 36));
  const legendH = 24;
  const height = legendH + groups.length * groupH + 24;
  const parts: string[] = [];
  parts.push(`<svg data-chart="${esc(id)}" role="img" viewBox="0 0 ${left + width + 70} ${height}" width="${left + width + 70}" height="${height}" ${FONT}>`);
  parts.push(`<title>${esc(title)}</title>`);
  series.forEach((s, i) => {
    const x = left + i * legendStep;
    parts.push(`<rect x="${x}" y="4" width="12" height="12" fill="${PALETTE[i % PALETTE.length]}"/><text x="${x + 16}" y="14">${esc(s)}</text>`);
  });
  groups.forEach((g, gi) => {
    const y0 = legendH + gi * groupH;
    parts.push(`<text x="${left - 8}" y="${y0 + (series.length * barH) / 2 + 4}" text-anchor="end">${esc(g.label)}</text>`);
    g.values.forEach((v, si) => {
      const y = y0 + si * barH;
      const w = v === null ? 0 : Math.max(0, Math.min(1, v)) * width;
      parts.push(`<rect class="bar" x="${left}" y="${y}" width="${w.toFixed(1)}" height="${barH - 2}" fill="${PALETTE[si % PALETTE.length]}"><title>${esc(`${g.label} ${series[si]}: ${num(v)}`)}</title></rect>`);
      parts.push(`<text x="${left + w + 4}" y="${y + barH - 4}" font-size="10">${num(v)}</text>`);
    });
  });
  const axisY = legendH + groups.length * groupH;
  parts.push(`<line x1="${left}" y1="${axisY}" x2="${left + width}" y2="${axisY}" stroke="#94a3b8"/>`);
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<text x="${left + t * width}" y="${axisY + 14}" text-anchor="middle" font-size="10">${t}</text>`);
  }
  parts.push("</svg>");
  return parts.join("");
}

/**
 * A 2x2 confusion matrix as a heat map: rows = people's label, columns = the
 * judge's verdict.
 */
export function confusionMatrix(title: string, m: { tp: number; fn: number; fp: number; tn: number }, id: string): string {
  const cell = 70;
  const left = 110;
  const top = 40;
  const max = Math.max(1, m.tp, m.fn, m.fp, m.tn);
  const cells: [number, number, number, string][] = [
    [0, 0, m.tp, "people yes, judge yes"],
    [0, 1, m.fn, "people yes, judge no"],
    [1, 0, m.fp, "people no, judge yes"],
    [1, 1, m.tn, "people no, judge no"],
  ];
  const parts: string[] = [];
  parts.push(`<svg data-chart="${esc(id)}" role="img" viewBox="0 0 ${left + 2 * cell + 10} ${top + 2 * cell + 10}" width="${left + 2 * cell + 10}" height="${top + 2 * cell + 10}" ${FONT}>`);
  parts.push(`<title>${esc(title)}</title>`);
  parts.push(`<text x="${left + cell}" y="14" text-anchor="middle">judge</text>`);
  parts.push(`<text x="${left + cell / 2}" y="32" text-anchor="middle">yes</text><text x="${left + 1.5 * cell}" y="32" text-anchor="middle">no</text>`);
  parts.push(`<text x="${left - 38}" y="${top + cell + 4}" text-anchor="end">people</text>`);
  parts.push(`<text x="${left - 8}" y="${top + cell / 2 + 4}" text-anchor="end">yes</text><text x="${left - 8}" y="${top + 1.5 * cell + 4}" text-anchor="end">no</text>`);
  for (const [r, c, v, label] of cells) {
    const agree = r === c;
    const alpha = 0.15 + 0.75 * (v / max);
    const color = agree ? `rgba(22,163,74,${alpha.toFixed(2)})` : `rgba(220,38,38,${alpha.toFixed(2)})`;
    parts.push(`<rect class="cell" x="${left + c * cell}" y="${top + r * cell}" width="${cell - 2}" height="${cell - 2}" fill="${color}"><title>${esc(`${label}: ${v}`)}</title></rect>`);
    parts.push(`<text x="${left + c * cell + cell / 2}" y="${top + r * cell + cell / 2 + 5}" text-anchor="middle" font-size="16">${v}</text>`);
  }
  parts.push("</svg>");
  return parts.join("");
}

/** One row of an interval chart: a point estimate and its interval. */
export interface IntervalRow {
  label: string;
  estimate: number | null;
  low: number | null;
  high: number | null;
  /** A threshold line drawn for this row (the gate's kappa lower bound). */
  threshold?: number;
  /** Text shown at the right instead of the figures (for example "no labels"). */
  text?: string;
}

/**
 * Point estimates with intervals on a shared axis (kappa with its 95%
 * interval against the gate threshold; paired differences in a comparison).
 */
export function intervals(title: string, rows: IntervalRow[], domain: [number, number], id: string): string {
  const left = labelMargin(rows.map((r) => r.label), 110);
  const width = 380;
  const rowH = 26;
  const right = Math.max(90, ...rows.map((r) => textWidth(r.text ?? "0.000 [0.000, 0.000]", 10) + 12));
  const top = 10;
  const height = top + rows.length * rowH + 28;
  const [lo, hi] = domain;
  const x = (v: number) => left + ((Math.max(lo, Math.min(hi, v)) - lo) / (hi - lo)) * width;
  const parts: string[] = [];
  parts.push(`<svg data-chart="${esc(id)}" role="img" viewBox="0 0 ${left + width + right} ${height}" width="${left + width + right}" height="${height}" ${FONT}>`);
  parts.push(`<title>${esc(title)}</title>`);
  if (lo < 0 && hi > 0) parts.push(`<line x1="${x(0)}" y1="${top}" x2="${x(0)}" y2="${height - 24}" stroke="#94a3b8" stroke-dasharray="3,3"/>`);
  rows.forEach((r, i) => {
    const y = top + i * rowH + rowH / 2;
    parts.push(`<text x="${left - 8}" y="${y + 4}" text-anchor="end">${esc(r.label)}</text>`);
    if (r.threshold !== undefined) parts.push(`<line x1="${x(r.threshold)}" y1="${y - 10}" x2="${x(r.threshold)}" y2="${y + 10}" stroke="#d97706" stroke-width="2"><title>threshold ${r.threshold}</title></line>`);
    if (r.low !== null && r.high !== null) parts.push(`<line class="interval" x1="${x(r.low)}" y1="${y}" x2="${x(r.high)}" y2="${y}" stroke="#2563eb" stroke-width="3"/>`);
    if (r.estimate !== null) parts.push(`<circle cx="${x(r.estimate)}" cy="${y}" r="5" fill="#1e3a8a"><title>${esc(`${r.label}: ${num(r.estimate)} [${num(r.low)}, ${num(r.high)}]`)}</title></circle>`);
    const text = r.text ?? (r.estimate === null ? "undefined" : `${num(r.estimate)} [${num(r.low)}, ${num(r.high)}]`);
    parts.push(`<text x="${left + width + 6}" y="${y + 4}" font-size="10">${esc(text)}</text>`);
  });
  const axisY = height - 22;
  parts.push(`<line x1="${left}" y1="${axisY}" x2="${left + width}" y2="${axisY}" stroke="#94a3b8"/>`);
  for (let i = 0; i <= 4; i++) {
    const v = lo + ((hi - lo) * i) / 4;
    parts.push(`<text x="${x(v)}" y="${axisY + 14}" text-anchor="middle" font-size="10">${Number(v.toFixed(2))}</text>`);
  }
  parts.push("</svg>");
  return parts.join("");
}

/**
 * A stacked 100% bar per group (the search-or-answering cross-tab, failure
 * kinds). `colors` gives each category its colour (default: the palette in
 * order), so a failure reads red wherever it appears.
 */
export function stackedShares(title: string, categories: string[], groups: { label: string; counts: number[] }[], id: string, colors: readonly string[] = PALETTE): string {
  const left = labelMargin(groups.map((g) => `${g.label} (n=${g.counts.reduce((a, b) => a + b, 0)})`), 90);
  const width = 540;
  const barH = 18;
  const legendStep = Math.max(120, ...categories.map((c) => textWidth(c) + 24));
  const perRow = Math.max(1, Math.floor((width + 10) / legendStep));
  const legendRows = Math.ceil(categories.length / perRow);
  const top = 8 + legendRows * 18;
  const height = top + groups.length * (barH + 8) + 10;
  const parts: string[] = [];
  parts.push(`<svg data-chart="${esc(id)}" role="img" viewBox="0 0 ${left + width + 20} ${height}" width="${left + width + 20}" height="${height}" ${FONT}>`);
  parts.push(`<title>${esc(title)}</title>`);
  categories.forEach((c, i) => {
    const x = left + (i % perRow) * legendStep;
    const y = 4 + Math.floor(i / perRow) * 18;
    parts.push(`<rect x="${x}" y="${y}" width="12" height="12" fill="${colors[i % colors.length]}"/><text x="${x + 16}" y="${y + 10}">${esc(c)}</text>`);
  });
  groups.forEach((g, gi) => {
    const y = top + gi * (barH + 8);
    const total = g.counts.reduce((a, b) => a + b, 0);
    parts.push(`<text x="${left - 8}" y="${y + barH - 5}" text-anchor="end">${esc(`${g.label} (n=${total})`)}</text>`);
    let x = left;
    g.counts.forEach((c, ci) => {
      if (c === 0 || total === 0) return;
      const w = (c / total) * width;
      parts.push(`<rect class="bar" x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${barH}" fill="${colors[ci % colors.length]}"><title>${esc(`${g.label}: ${categories[ci]} ${c}`)}</title></rect>`);
      if (w > 18) parts.push(`<text x="${(x + w / 2).toFixed(1)}" y="${y + barH - 5}" text-anchor="middle" fill="#fff" font-size="10">${c}</text>`);
      x += w;
    });
  });
  parts.push("</svg>");
  return parts.join("");
}
