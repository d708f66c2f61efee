import { normalise } from "../../golden/normalise.js";
import { NUMBER_WORDS, canonicalNumber, digitRuns, hasNumberChar, isCode, toAsciiDigits } from "./numbers.js";
import { NEGATIONS, isStopWord } from "./stopwords.js";

/**
 * What the baseline judge sees of a text: its content words (stemmed), the
 * numbers and codes it states, and whether it is negated. Every field is in
 * first-seen order without duplicates, so reasons list words in reading order.
 */
export interface Analysis {
  /** Content words: not stop words, light-stemmed (Latin script), number words as digits. */
  words: string[];
  /** Numbers written in digits, canonical (see `canonicalNumber`). */
  numbers: string[];
  /** Codes (tokens mixing letters and digits), as written. */
  codes: string[];
  /** A negation word or a `n't` contraction occurs. */
  negated: boolean;
}

/**
 * A digit run with optional `.`/`,` groups, not glued to a letter (`10am` is
 * a code, not 10); else a run of letters, combining marks (Devanagari
 * matras and virama) and digits.
 */
const TOKEN = /\p{N}+(?:[.,]\p{N}+)*(?![\p{L}\p{M}\p{N}])|[\p{L}\p{M}\p{N}]+/gu;

/**
 * Lower-cased, normalised tokens of a text, with contractions expanded
 * (`can't` -> `cannot`, `don't` -> `do not`) and possessive `'s` dropped.
 * Every comparison of the baseline goes through this, and so through
 * {@link normalise}.
 *
 * @example
 * tokenise("Employees can't carry 1,500 days' leave") // ["employees","cannot","carry","1,500","days","leave"]
 */
export function tokenise(text: string): string[] {
  const t = toAsciiDigits(normalise(text))
    .replace(/[\u2018\u2019\u02bc`]/gu, "'")
    .replace(/\bcan't\b/gu, "cannot")
    .replace(/\bwon't\b/gu, "will not")
    .replace(/n't\b/gu, " not")
    .replace(/'s\b/gu, "")
    .replace(/'/gu, " ");
  return t.match(TOKEN) ?? [];
}

/**
 * A deliberately light English stemmer (plural, -ing, -ed, -ly, final e) so
 * that "provides", "provided" and "providing" meet. Applied to claim and
 * source alike, so over-stemming only merges words, it never loses a match.
 * Only plain Latin-letter words are touched: romanised Hindi suffixes are not
 * English inflections, and Devanagari is left as written.
 *
 * @example
 * stem("policies") // "policy"
 * stem("providing") // "provid"
 */
export function stem(word: string): string {
  if (!/^[a-z]+$/u.test(word) || word.length <= 3) return word;
  let w = word;
  if (w.endsWith("ies") && w.length > 4) w = w.slice(0, -3) + "y";
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(?:ss|us|is)$/u.test(w)) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith("ly") && w.length > 4) w = w.slice(0, -2);
  if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** True for a token worth matching: single Latin letters are initials or list labels, not content. */
function meaningful(token: string): boolean {
  return !(token.length === 1 && /^[a-z]$/u.test(token));
}

/**
 * Analyses a text for overlap scoring.
 *
 * @example
 * analyse("You get 18 days of earned leave, not 15, on form A4.")
 * // { words: ["day", "earn", "leav", "form"], numbers: ["18", "15"], codes: ["a4"], negated: true }
 */
export function analyse(text: string): Analysis {
  const words = new Set<string>();
  const numbers = new Set<string>();
  const codes = new Set<string>();
  let negated = false;
  for (const token of tokenise(text)) {
    if (NEGATIONS.has(token)) negated = true;
    const num = canonicalNumber(token);
    if (num !== undefined) {
      numbers.add(num);
      continue;
    }
    if (isCode(token)) {
      codes.add(token);
      continue;
    }
    if (isStopWord(token) || !meaningful(token)) continue;
    words.add(NUMBER_WORDS.get(token) ?? stem(token));
  }
  return { words: [...words], numbers: [...numbers], codes: [...codes], negated };
}

/**
 * Everything the sources state, as sets, for checking claims against them.
 * Besides the plain analysis it records the digits inside codes and number
 * words as numbers, and each adjacent token pair glued together as a code, so
 * that a claim's `hr204` is found in a source's `HR-204` or `HR 204`.
 */
export interface SourceIndex {
  words: ReadonlySet<string>;
  numbers: ReadonlySet<string>;
  codes: ReadonlySet<string>;
}

/** Builds the {@link SourceIndex} of one or several source texts. */
export function indexSources(texts: readonly string[]): SourceIndex {
  const words = new Set<string>();
  const numbers = new Set<string>();
  const codes = new Set<string>();
  for (const text of texts) {
    const a = analyse(text);
    for (const w of a.words) words.add(w);
    for (const n of a.numbers) numbers.add(n);
    for (const c of a.codes) {
      codes.add(c);
      for (const d of digitRuns(c)) numbers.add(d);
    }
    addSpelledAndGlued(tokenise(text), numbers, codes);
  }
  return { words, numbers, codes };
}

/**
 * What a source states beyond its plain analysis: number words as digits
 * ("three" states 3) and each adjacent token pair glued together as a code,
 * so that a claim's `hr204` is found in a source's `HR-204` or `HR 204`.
 */
export function addSpelledAndGlued(tokens: readonly string[], numbers: Set<string>, codes: Set<string>): void {
  // A pair holds a digit when either token does: each token is asked once, and no pair is glued unless it becomes a code.
  let digit = tokens.length > 0 && hasNumberChar(tokens[0]!);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const asWord = NUMBER_WORDS.get(t);
    if (asWord !== undefined) numbers.add(asWord);
    if (i + 1 === tokens.length) break;
    const next = tokens[i + 1]!;
    const nextDigit = hasNumberChar(next);
    if (digit || nextDigit) codes.add((t + next).replace(/[.,]/gu, ""));
    digit = nextDigit;
  }
}
