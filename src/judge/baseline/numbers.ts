/**
 * Numbers and codes for the baseline judge. A claim that says "15 days" when
 * the source says "18 days" shares every word with it; only the number tells
 * them apart. So numbers and codes are checked exactly, never by overlap.
 *
 * - A **number** is a run of digits, optionally with thousands separators or a
 *   decimal part (`1,00,000`, `2,500`, `1.5`), or an ordinal (`3rd`).
 *   Devanagari digits count as digits (`१८` is `18`).
 * - A **code** is one token mixing letters and digits (`a4`, `h1n1`, `iso9001`,
 *   `10am`): an identifier that must appear as written.
 */

const DEVANAGARI_ZERO = 0x0966;

/**
 * Replaces Devanagari digits with ASCII ones (NFKC leaves them alone), so that
 * `१८ दिन` and `18 days` share the number 18.
 *
 * @example
 * toAsciiDigits("१८ दिन") // "18 दिन"
 */
export function toAsciiDigits(text: string): string {
  return text.replace(/[\u0966-\u096F]/gu, (d) => String(d.charCodeAt(0) - DEVANAGARI_ZERO));
}

/** Grouped thousands, Western (`12,500`) or Indian (`1,25,000`), with an optional decimal part. */
const GROUPED = /^\d{1,3}(?:,\d{2,3})+(?:\.\d+)?$/u;
const PLAIN = /^\d+(?:\.\d+)?$/u;
const ORDINAL = /^(\d+)(?:st|nd|rd|th)$/u;

/**
 * The canonical form of a number token, or `undefined` when the token is not
 * one: separators dropped, trailing decimal zeros dropped, leading zeros kept
 * for integers (`007` is an identifier as much as a number).
 *
 * @example
 * canonicalNumber("1,25,000") // "125000"
 * canonicalNumber("1.50")     // "1.5"
 * canonicalNumber("3rd")      // "3"
 * canonicalNumber("v2")       // undefined
 */
export function canonicalNumber(token: string): string | undefined {
  // Every form starts with an ASCII digit (\d is ASCII even with the u flag): most tokens are words, and skip three regexes here.
  const first = token.charCodeAt(0);
  if (!(first >= 48 && first <= 57)) return undefined;
  const ord = ORDINAL.exec(token);
  if (ord) return ord[1];
  let t = token;
  if (GROUPED.test(t)) t = t.replace(/,/gu, "");
  if (!PLAIN.test(t)) return undefined;
  if (!t.includes(".")) return t;
  const [whole, frac] = t.split(".") as [string, string];
  const f = frac.replace(/0+$/u, "");
  return f ? `${whole}.${f}` : whole;
}

/**
 * Number words (English) and the digits they stand for, so that a source
 * saying "three working days" supports a claim saying "3 working days".
 * Romanised Hindi number words are left out: "do" (two) is also English "do".
 */
export const NUMBER_WORDS: ReadonlyMap<string, string> = new Map(
  [
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty",
  ]
    .flatMap((s) => s.split(" "))
    .map((w, i): [string, string] => [w, String(i)])
    .concat([
      ["thirty", "30"], ["forty", "40"], ["fifty", "50"], ["sixty", "60"],
      ["seventy", "70"], ["eighty", "80"], ["ninety", "90"], ["hundred", "100"],
    ]),
);

/** True for a token that mixes letters and digits: an identifier to match as written. */
export function isCode(token: string): boolean {
  return hasNumberChar(token) && /\p{L}/u.test(token) && canonicalNumber(token) === undefined;
}

/**
 * `/\p{N}/u.test(token)`, answered by a scan of the character codes while
 * they are ASCII (the regex only for a token with a non-ASCII character):
 * the baseline asks it of every token of every reference, most of them plain
 * words.
 */
export function hasNumberChar(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
    if (c >= 128) return /\p{N}/u.test(token);
  }
  return false;
}

/**
 * The runs of digits inside a code, as numbers. A source that writes
 * `covid19` or `10am` still states 19 or 10.
 *
 * @example
 * digitRuns("iso9001") // ["9001"]
 */
export function digitRuns(token: string): string[] {
  return [...token.matchAll(/\d+/gu)].map((m) => m[0]);
}
