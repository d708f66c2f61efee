/**
 * The one text normalisation used everywhere ragjudge matches text: anchors
 * against chunks, answers against refusal phrases, labels against evidence.
 * Having a single definition is the point: two subtly different
 * normalisations would make a chunk relevant in one command and not in another.
 *
 * Steps, in order (seed 000, "case-insensitive and whitespace-normalised"):
 * 1. Unicode NFKC, so composed and decomposed accents, full-width forms and
 *    Devanagari nukta sequences compare equal;
 * 2. lower case (locale-independent `toLowerCase`);
 * 3. every run of Unicode white space (`\s` with the `u` flag: spaces, tabs,
 *    line breaks, no-break and ideographic spaces) becomes one ASCII space;
 * 4. trim.
 *
 * @example
 * normalise("  Cafe\u0301  AU\u00A0Lait\n") // "café au lait"
 */
export function normalise(text: string): string {
  // ASCII is its own NFKC form and its only white space is \t \n \v \f \r and " ": lower case and
  // single inner spaces are all there is to do (500,000 chunks are mostly such text; a heading
  // joined to its chunk by a line break is too).
  if (isAscii(text)) {
    const lower = text.toLowerCase();
    return ASCII_SPACE.test(lower) || lower.includes("  ") || lower.startsWith(" ") || lower.endsWith(" ") ? lower.replace(/\s+/g, " ").trim() : lower;
  }
  return text.normalize("NFKC").toLowerCase().replace(/\s+/gu, " ").trim();
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Whether every character of the text is ASCII: the test behind the fast
 * paths that ASCII text allows (its own NFKC form, one grapheme a character
 * but CR LF, UTF-8 bytes in JavaScript's string order).
 *
 * @example
 * isAscii("leave policy") // true
 * isAscii("café") // false
 */
export function isAscii(text: string): boolean {
  return ASCII.test(text);
}
/** White space of ASCII other than the space (what `\s` adds to " " there). */
const ASCII_SPACE = /[\t\n\v\f\r]/;

/**
 * Number of non-overlapping occurrences of `needle` in `haystack`, both
 * compared after {@link normalise}. Used to check that an anchor occurs
 * exactly once in its document.
 *
 * @example
 * countOccurrences("A b. a  B.", "a b") // 2
 */
export function countOccurrences(haystack: string, needle: string): number {
  const h = normalise(haystack);
  const n = normalise(needle);
  if (n.length === 0) return 0;
  let count = 0;
  let at = h.indexOf(n);
  while (at !== -1) {
    count++;
    at = h.indexOf(n, at + n.length);
  }
  return count;
}
