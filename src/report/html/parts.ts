import { escapeHtml as esc } from "./escape.js";

/** A table cell: text (escaped), with an optional class (`n` right-aligns numbers). */
export interface Cell {
  text: string;
  cls?: string;
  /** Pre-escaped HTML (for badges); never user text. */
  html?: string;
}

/** Plain text or a cell. */
export type CellLike = string | Cell;

function cellHtml(c: CellLike, tag: "td" | "th"): string {
  const cell = typeof c === "string" ? { text: c } : c;
  const cls = cell.cls ? ` class="${esc(cell.cls)}"` : "";
  return `<${tag}${cls}>${cell.html ?? esc(cell.text)}</${tag}>`;
}

/**
 * An HTML table; every text cell is escaped (answers, anchors and reasons
 * may hold HTML).
 *
 * @example
 * table(["kind", { text: "n", cls: "n" }], [["lexical", { text: "16", cls: "n" }]])
 */
export function table(head: readonly CellLike[], rows: readonly (readonly CellLike[])[]): string {
  return `<table><thead><tr>${head.map((h) => cellHtml(h, "th")).join("")}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => cellHtml(c, "td")).join("")}</tr>`).join("")}</tbody></table>`;
}

/** A right-aligned numeric cell. */
export function n(text: string | number): Cell {
  return { text: String(text), cls: "n" };
}

/** The trust badge shown before every pass rate. */
export function trustBadge(trusted: boolean): string {
  return `<span class="badge ${trusted ? "trusted" : "untrusted"}">${trusted ? "trusted" : "untrusted"}</span>`;
}

/** A figure around an inline SVG chart, with an escaped caption. */
export function figure(svg: string, caption: string): string {
  return `<figure><figcaption>${esc(caption)}</figcaption>${svg}</figure>`;
}

/** A section with an id (for the table of contents), a title and a one-line lede. */
export function section(id: string, title: string, lede: string, body: string): string {
  const [open, close] = sectionShell(id, title, lede);
  return open + body + close;
}

/** {@link section}'s markup before and after its body, for a body written in pieces. */
export function sectionShell(id: string, title: string, lede: string): [string, string] {
  return [`<section id="${esc(id)}"><h2>${esc(title)}</h2><p class="lede">${esc(lede)}</p>`, "</section>"];
}

/** A short string made safe for an id or a data-chart name. */
export function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "x";
}
