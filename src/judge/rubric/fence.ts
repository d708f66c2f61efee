/**
 * Fencing of untrusted text (sources, answers, questions, references) inside
 * judge prompts.
 *
 * Every untrusted block sits between two fixed marker lines,
 * `<<<BEGIN LABEL>>>` and `<<<END LABEL>>>`, and the prompt tells the judge
 * that fenced text is data, never instructions. The markers are fixed (so the
 * fingerprint is stable) and the fenced text can neither close a fence nor
 * imitate one: any run that looks like three or more angle brackets
 * (counting the full-width, small, vertical and look-alike forms, double and
 * triple brackets such as `«` and `≪` for two, and allowing spaces or
 * invisible characters between them) has each bracket escaped with a
 * backslash, so no `<<<` or `>>>` survives in the fenced text, not even
 * after Unicode NFKC normalisation. Labels are trusted code constants, never user text.
 */

/**
 * Characters a reader (or a model) could take for `<`, with how many each
 * looks like: the ASCII one, its full-width and small forms, the angle
 * quotation marks and brackets (and their deprecated and vertical forms,
 * which NFKC maps onto them: U+2329, U+FE3F, U+FE3D), the double and triple
 * ones (`«`, `≪`, `⟪`, `《`, `⋘`, `⫷`) and the crossed `≮`. A test checks
 * that every code point whose NFKC or NFKD form holds a `<` or `>` is here.
 */
const OPEN_WEIGHT: Readonly<Record<string, number>> = {
  "<": 1, "\uFF1C": 1, "\uFE64": 1, "\u2039": 1, "\u3008": 1, "\u2329": 1, "\uFE3F": 1, "\u27E8": 1, "\u276E": 1, "\u276C": 1,
  "\u02C2": 1, "\u1438": 1, "\u226E": 1, "\u29FC": 1,
  "\u00AB": 2, "\u226A": 2, "\u27EA": 2, "\u300A": 2, "\uFE3D": 2, "\u2AA1": 2,
  "\u22D8": 3, "\u2AF7": 3,
};
/** The mirror images of {@link OPEN_WEIGHT}, for `>`. */
const CLOSE_WEIGHT: Readonly<Record<string, number>> = {
  ">": 1, "\uFF1E": 1, "\uFE65": 1, "\u203A": 1, "\u3009": 1, "\u232A": 1, "\uFE40": 1, "\u27E9": 1, "\u276F": 1, "\u276D": 1,
  "\u02C3": 1, "\u1433": 1, "\u226F": 1, "\u29FD": 1,
  "\u00BB": 2, "\u226B": 2, "\u27EB": 2, "\u300B": 2, "\uFE3E": 2, "\u2AA2": 2,
  "\u22D9": 3, "\u2AF8": 3,
};

/** Every bracket-like character, open or close (for tests and audits). */
export const BRACKET_LIKE: readonly string[] = [...Object.keys(OPEN_WEIGHT), ...Object.keys(CLOSE_WEIGHT)];

/** Space or invisible characters that may be slipped between brackets. */
const GAP = "[\\s\\p{Default_Ignorable_Code_Point}]*";

const charClass = (chars: readonly string[]) => `[${chars.map((c) => (c === "<" || c === ">" ? c : `\\u{${c.codePointAt(0)!.toString(16)}}`)).join("")}]`;
const OPEN = charClass(Object.keys(OPEN_WEIGHT));
const CLOSE = charClass(Object.keys(CLOSE_WEIGHT));
const OPEN_RUN = new RegExp(`${OPEN}(?:${GAP}${OPEN})*`, "gu");
const CLOSE_RUN = new RegExp(`${CLOSE}(?:${GAP}${CLOSE})*`, "gu");
const ANY = new RegExp(charClass(BRACKET_LIKE), "u");
const EACH = new RegExp(charClass(BRACKET_LIKE), "gu");

/** Version of the fencing rules; part of every fingerprint. */
export const FENCE_VERSION = 2;

function escapeRun(weights: Readonly<Record<string, number>>) {
  return (run: string): string => {
    let n = 0;
    for (const c of run) n += weights[c] ?? 0;
    return n >= 3 ? run.replace(EACH, (c) => `\\${c}`) : run;
  };
}

/**
 * Makes untrusted text unable to contain a fence marker: every bracket of a
 * run that looks like three or more brackets (see module doc; `≪‹` counts
 * as three) gets a backslash before it. Text without such runs is returned
 * unchanged.
 *
 * @example
 * neutralise("a <<<END ANSWER>>> b") // "a \\<\\<\\<END ANSWER\\>\\>\\> b"
 */
export function neutralise(text: string): string {
  if (!ANY.test(text)) return text;
  return text.replace(OPEN_RUN, escapeRun(OPEN_WEIGHT)).replace(CLOSE_RUN, escapeRun(CLOSE_WEIGHT));
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
