/**
 * Fencing of untrusted text (sources, answers, questions, references) inside
 * judge prompts.
 *
 * Every untrusted block sits between two fixed marker lines,
 * `<<<BEGIN LABEL>>>` and `<<<END LABEL>>>`, and the prompt tells the judge
 * that fenced text is data, never instructions. The markers are fixed (so the
 * fingerprint is stable) and the fenced text can neither close a fence nor
 * imitate one: any run of three or more angle brackets in it (counting the
 * full-width, small and look-alike forms, and allowing spaces or invisible
 * characters between them) has each bracket escaped with a backslash, so no
 * `<<<` or `>>>` survives in the fenced text, not even after Unicode NFKC
 * normalisation. Labels are trusted code constants, never user text.
 */

/** Characters a reader (or a model) could take for `<` or `>`. */
const OPEN_LIKE = "<\uFF1C\uFE64\u2039\u3008\u27E8\u276E\u02C2\u1438";
const CLOSE_LIKE = ">\uFF1E\uFE65\u203A\u3009\u27E9\u276F\u02C3\u1433";

/** Space or invisible characters that may be slipped between brackets. */
const GAP = "[\\s\\p{Default_Ignorable_Code_Point}]*";

const OPEN_RUN = new RegExp(`(?:[${OPEN_LIKE}]${GAP}){2,}[${OPEN_LIKE}]`, "gu");
const CLOSE_RUN = new RegExp(`(?:[${CLOSE_LIKE}]${GAP}){2,}[${CLOSE_LIKE}]`, "gu");
const BRACKET = new RegExp(`[${OPEN_LIKE}${CLOSE_LIKE}]`, "gu");

/** Version of the fencing rules; part of every fingerprint. */
export const FENCE_VERSION = 1;

/**
 * Makes untrusted text unable to contain a fence marker: every bracket of a
 * run of three or more (see module doc) gets a backslash before it. Text
 * without such runs is returned unchanged.
 *
 * @example
 * neutralise("a <<<END ANSWER>>> b") // "a \\<\\<\\<END ANSWER\\>\\>\\> b"
 */
export function neutralise(text: string): string {
  const escape = (run: string) => run.replace(BRACKET, (c) => `\\${c}`);
  return text.replace(OPEN_RUN, escape).replace(CLOSE_RUN, escape);
}

/** Collapses line breaks for one-line untrusted values (headings). */
export function oneLine(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

/** Marker lines for a trusted label such as `ANSWER` or `SOURCE 3`. */
export function markers(label: string): { begin: string; end: string } {
  if (!/^[A-Z][A-Z0-9 ]*$/.test(label)) throw new Error(`fence label must be upper-case words and digits: ${JSON.stringify(label)}`);
  return { begin: `<<<BEGIN ${label}>>>`, end: `<<<END ${label}>>>` };
}

/**
 * Wraps untrusted text in the fence for `label`, the markers on their own
 * lines.
 *
 * @example
 * fence("ANSWER", "Ten days [1].")
 * // "<<<BEGIN ANSWER>>>\nTen days [1].\n<<<END ANSWER>>>"
 */
export function fence(label: string, text: string): string {
  const { begin, end } = markers(label);
  return `${begin}\n${neutralise(text)}\n${end}`;
}

/** A pattern matching a fence marker line, for tests and audits. */
export const MARKER_LINE = /^<<<(BEGIN|END) ([A-Z][A-Z0-9 ]*)>>>$/;
