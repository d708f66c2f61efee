import { InputError } from "../golden/errors.js";
import type { LocatedLabel } from "./labels.js";

/**
 * Checks on a labels folder's history that its schema cannot make, because
 * they relate labels to each other or to the clock. Each closes a way to talk
 * the trust gate round without editing a draw:
 *
 * - two annotator names that read the same ("asha", "аsha" with a Cyrillic а,
 *   "as‍ha" with a zero-width joiner) would be two people outvoting the real
 *   one in a majority;
 * - a label dated in the future would supersede every label given after it
 *   (the later label wins, by time), so an honest relabelling could never
 *   replace it.
 */

/** Clock skew a label's time may have over this machine's clock before it is refused. */
export const FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;

/**
 * Look-alikes of Latin letters and digits, mapped to the lower-case letter
 * they pass for. Looked up before lower-casing, so capitals count as they
 * print: Greek capital Eta looks like H, though its lower case does not look
 * like h; capital I looks like l.
 */
const LOOKALIKES: Readonly<Record<string, string>> = {
  // Cyrillic, lower and upper case
  "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j", "к": "k", "ӏ": "l", "м": "m", "н": "h", "о": "o", "р": "p",
  "ԛ": "q", "с": "c", "т": "t", "у": "y", "ԝ": "w", "х": "x", "ѕ": "s", "ԁ": "d", "ɡ": "g", "ь": "b",
  "А": "a", "В": "b", "Е": "e", "Ё": "e", "Һ": "h", "І": "l", "Ї": "i", "Ј": "j", "К": "k", "Ӏ": "l", "М": "m", "Н": "h", "О": "o", "Р": "p",
  "Ԛ": "q", "С": "c", "Т": "t", "У": "y", "Ԝ": "w", "Х": "x", "Ѕ": "s",
  // Greek, lower and upper case
  "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w",
  "Α": "a", "Β": "b", "Ε": "e", "Ζ": "z", "Η": "h", "Ι": "l", "Κ": "k", "Μ": "m", "Ν": "n", "Ο": "o", "Ρ": "p", "Τ": "t", "Υ": "y", "Χ": "x",
  // Latin capitals, digits and signs that pass for another letter
  "I": "l", "0": "o", "1": "l", "|": "l",
};

/**
 * Characters that print as nothing: format characters (zero-width joiners
 * and spaces, direction marks, the soft hyphen) and every other default-
 * ignorable one (the combining grapheme joiner, variation selectors, the
 * Hangul filler).
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
const INVISIBLES = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * The form two names share when they read the same: NFKC, lower case,
 * invisible characters dropped, look-alikes mapped to the letters they pass
 * for.
 *
 * @example
 * nameSkeleton("Аsha") === nameSkeleton("asha") // true (Cyrillic А)
 */
export function nameSkeleton(name: string): string {
  let out = "";
  for (const ch of name.normalize("NFKC").replace(INVISIBLES, "")) out += LOOKALIKES[ch] ?? LOOKALIKES[ch.toLowerCase()] ?? ch.toLowerCase();
  // i, I, l and 1 pass for one another in many faces: one letter for all (so "Ivy" and "ivy" stay one name)
  return out.replace(/i/g, "l");
}

/** "U+200D" for a character. */
function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * The label history's problems (see the module comment), one InputError each,
 * naming the file, line and field: an annotator name with an invisible
 * character, an annotator whose name reads like another's (reported where
 * the second name first appears), and a time in the future beyond
 * {@link FUTURE_SLACK_MS}.
 */
export function labelHistoryProblems(history: readonly LocatedLabel[], now = Date.now()): InputError[] {
  const problems: InputError[] = [];
  const firstOf = new Map<string, { name: string; at: LocatedLabel }>();
  const reported = new Set<string>();
  for (const l of history) {
    const name = l.value.annotator;
    const hidden = INVISIBLE.exec(name);
    if (hidden && !reported.has(name)) {
      reported.add(name);
      problems.push(new InputError(l.file, l.line, "annotator", `${JSON.stringify(name)} holds an invisible character (${codePoint(hidden[0])}): a name must read as what it is`));
    }
    const skeleton = nameSkeleton(name);
    const first = firstOf.get(skeleton);
    if (!first) firstOf.set(skeleton, { name, at: l });
    else if (first.name !== name && !reported.has(name)) {
      reported.add(name);
      problems.push(new InputError(l.file, l.line, "annotator", `${JSON.stringify(name)} reads like ${JSON.stringify(first.name)} (${first.at.file}:${first.at.line}) but is another name: two annotators whose names look the same are refused (one person, one spelling: write the same name in both places)`));
    }
    const t = Date.parse(l.value.time);
    if (t > now + FUTURE_SLACK_MS) {
      problems.push(new InputError(l.file, l.line, "time", `${l.value.time} is in the future (this machine's clock says ${new Date(now).toISOString()}): a later time supersedes every label given before it, so a future one could never be replaced`));
    }
  }
  return problems;
}
