import { escapeMarkdown, plainLine } from "../../golden/escape.js";

/** Where the diagnostics are printed: a terminal (aligned plain text) or a Markdown report. */
export type TextFormat = "terminal" | "markdown";

/** One column of a table. */
export interface Column {
  header: string;
  align?: "left" | "right";
}

// made on first use: creating a Segmenter loads ICU data (some 15 ms), which a run that never shortens text should not pay
let segmenter: Intl.Segmenter | undefined;
const graphemes = (): Intl.Segmenter => (segmenter ??= new Intl.Segmenter("und", { granularity: "grapheme" }));

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]$/u;
const WIDE = /^[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]$/u;

/**
 * Terminal display width, as terminals count it (wcwidth): combining and
 * format characters take no column, East Asian wide characters and emoji
 * take two, everything else one. So a Devanagari anchor with vowel signs
 * lines up with a Latin one.
 *
 * @example
 * displayWidth("हिन्दी") // 5 (the virama takes no column)
 */
export function displayWidth(s: string): number {
  let n = 0;
  for (const ch of s) n += ZERO_WIDTH.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
  return n;
}

/**
 * Shortens text to at most `max` columns ({@link displayWidth}) on one line,
 * never splitting a grapheme cluster, cutting at a word boundary when one is
 * near and marking the cut with "…".
 *
 * @example
 * shorten("unused casual leave cannot be carried forward to the next year", 30) // "unused casual leave cannot be…"
 */
export function shorten(text: string, max: number): string {
  const one = text.replace(/\s+/gu, " ").trim();
  if (displayWidth(one) <= max) return one;
  let cut = "";
  let width = 0;
  let next = "";
  for (const { segment } of graphemes().segment(one)) {
    const w = displayWidth(segment);
    if (width + w > max - 1) {
      next = segment;
      break;
    }
    cut += segment;
    width += w;
  }
  const space = cut.lastIndexOf(" ");
  if (next !== " " && space >= cut.length * 0.6) cut = cut.slice(0, space);
  return cut.trimEnd() + "…";
}

/**
 * A list in a sentence: "a", "a and b", "a, b and c" (or "or").
 *
 * @example
 * joinWords(["bm25", "vector", "fused"], "or") // "bm25, vector or fused"
 */
export function joinWords(items: readonly string[], word: "and" | "or" = "and"): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} ${word} ${items[items.length - 1]}`;
}

function pad(s: string, width: number, align: "left" | "right"): string {
  const fill = " ".repeat(Math.max(0, width - displayWidth(s)));
  return align === "right" ? fill + s : s + fill;
}


/**
 * Renders rows under headers: space-aligned columns with a dashed rule for
 * the terminal (cells on one line, control characters removed), a pipe
 * table for Markdown (every cell through {@link escapeMarkdown}: cells hold
 * user text, ids, anchors and reasons).
 *
 * @example
 * // public as renderTextTable
 * renderTable([{header:"kind"},{header:"n",align:"right"}], [["lexical","16"]], "terminal")
 * // "kind      n\n-------  --\nlexical  16"
 */
export function renderTable(columns: readonly Column[], rows: readonly (readonly string[])[], format: TextFormat): string {
  if (format === "markdown") {
    const line = (cells: readonly string[]) => `| ${cells.map(escapeMarkdown).join(" | ")} |`;
    const rule = `|${columns.map((c) => (c.align === "right" ? "---:" : ":---")).join("|")}|`;
    return [line(columns.map((c) => c.header)), rule, ...rows.map(line)].join("\n");
  }
  rows = rows.map((r) => r.map(plainLine));
  const widths = columns.map((c, i) => Math.max(displayWidth(c.header), ...rows.map((r) => displayWidth(r[i] ?? ""))));
  const line = (cells: readonly string[]) =>
    columns
      .map((c, i) => pad(cells[i] ?? "", widths[i]!, c.align ?? "left"))
      .join("  ")
      .trimEnd();
  return [line(columns.map((c) => c.header)), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}
