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

/** What one token is to the baseline (see {@link termOf}). */
export interface TokenTerm {
  /** The token is a negation word. */
  negation: boolean;
  /** A number (canonical), a code (as written) or a content word (stemmed, number words as digits); absent for a stop word or a single Latin letter. */
  kind?: "number" | "code" | "word";
  /** The number's canonical form, the code, or the word's stem; "" when there is no kind. */
  value: string;
}

/** Tokens classified so far; forgotten past {@link TERMS_LIMIT} (a corpus's vocabulary is mostly a few thousand words). */
const terms = new Map<string, TokenTerm>();
const TERMS_LIMIT = 65_536;

/**
 * The one definition of what a token is to the baseline: a number
 * (`canonicalNumber`), else a code (`isCode`), else a content word unless it
 * is a stop word or a single Latin letter (initials and list labels), and
 * whether it negates. Remembered per token: a run classifies millions of
 * tokens from a vocabulary of thousands, and the regexes of number, code and
 * stem ran for every one of them.
 *
 * @example
 * termOf("policies") // { negation: false, kind: "word", value: "policy" }
 * termOf("1,500")    // { negation: false, kind: "number", value: "1500" }
 * termOf("not")      // { negation: true, value: "" }
 */
export function termOf(token: string): Readonly<TokenTerm> {
  const hit = terms.get(token);
  if (hit) return hit;
  const negation = NEGATIONS.has(token);
  const num = canonicalNumber(token);
  const t: TokenTerm =
    num !== undefined ? { negation, kind: "number", value: num }
    : isCode(token) ? { negation, kind: "code", value: token }
    : isStopWord(token) || isSingleLetter(token) ? { negation, value: "" }
    : { negation, kind: "word", value: NUMBER_WORDS.get(token) ?? stem(token) };
  if (terms.size >= TERMS_LIMIT) terms.clear();
  terms.set(token, t);
  return t;
}

/** `/^[a-z]$/u.test(token)` without the regex: single Latin letters are initials or list labels, not content. */
function isSingleLetter(token: string): boolean {
  if (token.length !== 1) return false;
  const c = token.charCodeAt(0);
  return c >= 97 && c <= 122;
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
    const t = termOf(token);
    if (t.negation) negated = true;
    if (t.kind === "number") numbers.add(t.value);
    else if (t.kind === "code") codes.add(t.value);
    else if (t.kind === "word") words.add(t.value);
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
