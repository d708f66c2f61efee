import { displayPath, InputError } from "../golden/errors.js";
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

/** An annotator name the labels folder already uses, and where it first does (a labels file's line, or a draw's manifest). */
export interface NameInUse {
  name: string;
  file: string;
  line?: number;
}

/** `labels/asha.jsonl:1` for a name's place, as the user reads paths. */
function placeOf(n: NameInUse): string {
  return `${displayPath(n.file)}${n.line === undefined ? "" : `:${n.line}`}`;
}

/**
 * Every annotator name in a label history, each at its first line, then
 * the names the draws were drawn for that no label uses yet, at their
 * manifests: who `sample` or `plan --budget` queued for counts as in use
 * before they label anything, so a typo at the first review is caught too.
 */
export function namesInUse(history: readonly LocatedLabel[], draws: readonly { file: string; draw: { annotator: string } }[] = []): NameInUse[] {
  const out = new Map<string, NameInUse>();
  for (const l of history) if (!out.has(l.value.annotator)) out.set(l.value.annotator, { name: l.value.annotator, file: l.file, line: l.line });
  for (const d of draws) if (!out.has(d.draw.annotator)) out.set(d.draw.annotator, { name: d.draw.annotator, file: d.file });
  return [...out.values()];
}

/**
 * The name in use that `name` reads like without being it (`Asha` beside
 * `asha`, a Cyrillic а): the first of `inUse` that reads like it, unless
 * that is `name` itself; undefined when none does. So with labels listed
 * before draws ({@link namesInUse}), a name that labelled stands against
 * a look-alike that a draw was only drawn for. What a command that writes
 * under a name must refuse before writing: once both names have labels,
 * every command that reads the folder refuses it (see
 * {@link labelHistoryProblems}).
 *
 * @example
 * lookalikeOf("Asha", [{ name: "asha", file: "labels/asha.jsonl", line: 1 }])?.name // "asha"
 */
export function lookalikeOf(name: string, inUse: readonly NameInUse[]): NameInUse | undefined {
  const skeleton = nameSkeleton(name);
  const first = inUse.find((n) => nameSkeleton(n.name) === skeleton);
  return first?.name === name ? undefined : first;
}

/**
 * Says that a name about to be written reads like one in use, for the
 * commands that refuse it before writing; `use` is how to write the name
 * in use instead (`use --annotator asha`).
 *
 * @example
 * lookalikeWords("Asha", { name: "asha", file: "labels/asha.jsonl", line: 1 }, "use --annotator asha")
 * // '"Asha" reads like "asha", an annotator already in labels/asha.jsonl:1, but is another name: ...'
 */
export function lookalikeWords(name: string, existing: NameInUse, use: string): string {
  return `${JSON.stringify(name)} reads like ${JSON.stringify(existing.name)}, an annotator already in ${placeOf(existing)}, but is another name: two annotators whose names look the same are refused, and nothing was written (one person, one spelling: ${use}; for someone else, choose a name that reads differently)`;
}

/** One annotator name as a label history uses it: where it first appears, and its earliest label's time. */
interface NameSeen {
  name: string;
  at: LocatedLabel;
  /** Reading-order position of {@link at}. */
  order: number;
  /** Earliest label time under this name, in ms (the Label schema makes every time parse). */
  first: number;
  firstTime: string;
}

/**
 * The label history's problems (see the module comment), one InputError each,
 * naming the file, line and field: an annotator name with an invisible
 * character, an annotator whose name reads like another's, and a time in the
 * future beyond {@link FUTURE_SLACK_MS}. Of two names that read alike, the
 * one whose first label is later is reported, at its first line, as the
 * likely typo of the other (the capital typed once in `review --annotator
 * Asha`, after weeks of `asha`); when their first labels are as old, which
 * is the typo cannot be told, and the wording blames neither. Problems come
 * in reading order.
 */
export function labelHistoryProblems(history: readonly LocatedLabel[], now = Date.now()): InputError[] {
  const problems: { order: number; error: InputError }[] = [];
  const names = new Map<string, NameSeen>();
  const invisible = new Set<string>();
  history.forEach((l, order) => {
    const name = l.value.annotator;
    const t = Date.parse(l.value.time);
    const seen = names.get(name);
    if (!seen) {
      names.set(name, { name, at: l, order, first: t, firstTime: l.value.time });
      const hidden = INVISIBLE.exec(name);
      if (hidden) {
        invisible.add(name);
        problems.push({ order, error: new InputError(l.file, l.line, "annotator", `${JSON.stringify(name)} holds an invisible character (${codePoint(hidden[0])}): a name must read as what it is`) });
      }
    } else if (t < seen.first) {
      seen.first = t;
      seen.firstTime = l.value.time;
    }
    if (t > now + FUTURE_SLACK_MS) {
      problems.push({ order, error: new InputError(l.file, l.line, "time", `${l.value.time} is in the future (this machine's clock says ${new Date(now).toISOString()}): a later time supersedes every label given before it, so a future one could never be replaced`) });
    }
  });
  const bySkeleton = new Map<string, NameSeen[]>();
  for (const n of names.values()) {
    if (invisible.has(n.name)) continue;
    const k = nameSkeleton(n.name);
    (bySkeleton.get(k) ?? bySkeleton.set(k, []).get(k)!).push(n);
  }
  for (const group of bySkeleton.values()) {
    if (group.length < 2) continue;
    // the name that labelled first stands; of names as old, the one read first
    const kept = group.reduce((a, b) => (b.first < a.first ? b : a));
    for (const n of group) {
      if (n === kept) continue;
      problems.push({ order: n.order, error: new InputError(n.at.file, n.at.line, "annotator", n.first > kept.first ? likelyTypo(n, kept) : sameAge(n, kept)) });
    }
  }
  return problems.sort((a, b) => a.order - b.order).map((p) => p.error);
}

/** Two names that read alike, the first labels of `n` later than those of `kept`'s: `n` is the likely typo. */
function likelyTypo(n: NameSeen, kept: NameSeen): string {
  const q = JSON.stringify;
  return `${q(n.name)} reads like ${q(kept.name)} (${placeOf({ name: kept.name, file: kept.at.file, line: kept.at.line })}), who labelled first (${kept.firstTime}; ${q(n.name)} from ${n.firstTime}), so ${q(n.name)} is likely a typo of it: two annotators whose names look the same are refused (one person, one spelling: write ${q(kept.name)} for ${q(n.name)} as the annotator)`;
}

/** Two names that read alike whose first labels are as old: which is the typo cannot be told. */
function sameAge(n: NameSeen, kept: NameSeen): string {
  return `${JSON.stringify(n.name)} reads like ${JSON.stringify(kept.name)} (${placeOf({ name: kept.name, file: kept.at.file, line: kept.at.line })}) but is another name: two annotators whose names look the same are refused (one person, one spelling: write the same name in both places)`;
}
