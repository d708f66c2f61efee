/**
 * Making user text safe in the text formats ragjudge writes. Questions,
 * answers, chunk text, judge reasons, ids, names: all of it comes from
 * users or from a model, and may hold markup, table syntax, terminal control
 * sequences or spreadsheet formulas. Every writer of Markdown, plain text and
 * CSV goes through these (HTML has its own, src/report/html/escape.ts).
 */

/** C0 and C1 control characters (tab and line breaks aside) and the bidirectional overrides that can reorder a line. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * Text for a terminal or a .txt file: control characters (an escape
 * sequence can recolour or rewrite a terminal) and bidirectional overrides
 * become U+FFFD; line breaks stay.
 *
 * @example
 * plainText("ok\u001b[2J") // "ok\uFFFD[2J"
 */
export function plainText(text: string): string {
  return text.replace(CONTROL, "\uFFFD");
}

/**
 * One line of plain text: {@link plainText}, with every run of white space
 * (line breaks included) as one space, so a value cannot start a line of
 * its own in a table or a list.
 */
export function plainLine(text: string): string {
  return plainText(text).replace(/\s+/gu, " ");
}

/**
 * Text placed in Markdown (a table cell, a list item, a heading), shown
 * literally once rendered: HTML-significant characters become entities (so
 * `</td></tr></table>` or `<img onerror=...>` in a judge's reason stays text
 * on GitHub), Markdown punctuation is backslash-escaped (no emphasis, link,
 * image, code span or table cell is opened; `#` only where it starts the
 * text), and line breaks become spaces.
 *
 * @example
 * escapeMarkdown("a | b </td> *c* [x](y)") // "a \\| b &lt;/td&gt; \\*c\\* \\[x\\](y)"
 */
export function escapeMarkdown(text: string): string {
  return plainLine(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/[\\`*_[\]|~$]/g, (c) => `\\${c}`)
    // A leading # would open a heading where the text starts a list item; elsewhere it is plain text ("hr#1").
    .replace(/^#/, "\\#");
}

/**
 * A Markdown code span holding `text` verbatim: fenced by more backticks
 * than the longest run inside it (padded when it starts or ends with one),
 * on one line. Only for text without `|` inside tables (GitHub splits cells
 * on it even in code).
 *
 * @example
 * markdownCode("a`b") // "``a`b``"
 */
export function markdownCode(text: string): string {
  const one = plainLine(text);
  const longest = Math.max(0, ...(one.match(/`+/g) ?? []).map((r) => r.length));
  const fence = "`".repeat(longest + 1);
  const pad = one.startsWith("`") || one.endsWith("`") ? " " : "";
  return `${fence}${pad}${one}${pad}${fence}`;
}

/**
 * Cells that a spreadsheet would run as a formula start with one of these
 * (OWASP's list for CSV injection): `=`, `+`, `-`, `@`, a tab or a carriage return.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/u;

/**
 * A CSV cell made inert against formula injection: a value a spreadsheet
 * would run as a formula gets a leading `'`, which spreadsheets show as text.
 * A value that already starts with quotes before such a character gets one
 * more, so {@link restoreCsvCell} gives back exactly the original.
 *
 * @example
 * neutraliseCsvCell("=HYPERLINK(\"http://x\")") // "'=HYPERLINK(\"http://x\")"
 * neutraliseCsvCell("-1 point")                 // "'-1 point"
 */
export function neutraliseCsvCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * The inverse of {@link neutraliseCsvCell}, for reading back a CSV that
 * ragjudge wrote (or a spreadsheet saved from it).
 *
 * @example
 * restoreCsvCell("'-1 point") // "-1 point"
 */
export function restoreCsvCell(value: string): string {
  return /^'+[=+\-@\t\r]/u.test(value) ? value.slice(1) : value;
}
