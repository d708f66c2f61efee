import { splitSentences } from "../../golden/citations.js";
import { digitRuns } from "./numbers.js";
import { addSpelledAndGlued, termOf, tokenise } from "./tokens.js";

/**
 * Alignment of one claim with its references, for the learned support model
 * (support-model.ts): where in the references the claim's words, numbers and
 * names occur, which passage matches it best, and how much of it is copied
 * verbatim. Everything here is a count a reader can check by hand, in any
 * script: Devanagari and romanised Hindi go through the same tokeniser as
 * English (stemming and name detection only touch Latin letters).
 */

/** One term of a text in reading order: a content word (stemmed), a number (canonical) or a code. */
interface Term {
  kind: "word" | "number" | "code";
  value: string;
  /** The token as written (lower case), for reasons: "donated", not its stem "donat". */
  token: string;
}

/** A text as the alignment reads it. */
interface Terms {
  terms: Term[];
  /** Every token, stop words included (for verbatim runs). */
  tokens: string[];
  negated: boolean;
  /** Content words written with a capital inside the text (not its first word): names. */
  names: Set<string>;
}

/** Raw tokens, case kept, for spotting names (same pattern as the tokeniser's). */
const RAW_TOKEN = /\p{N}+(?:[.,]\p{N}+)*(?![\p{L}\p{M}\p{N}])|[\p{L}\p{M}\p{N}]+/gu;

/**
 * Visits the terms of a text's tokens in reading order, each classified by
 * {@link termOf} (the one definition of a number, a code and a content
 * word). Returns whether a negation occurs. A visitor rather than a list, so
 * indexing a reference builds its sets without a Term object per token.
 */
function eachTerm(tokens: readonly string[], visit: (kind: Term["kind"], value: string, token: string) => void): boolean {
  let negated = false;
  for (const token of tokens) {
    const t = termOf(token);
    if (t.negation) negated = true;
    if (t.kind !== undefined) visit(t.kind, t.value, token);
  }
  return negated;
}

/** Reads a text's terms; `names` also spots capitalised words (needed of claims only). */
function readTerms(text: string, names = false): Terms {
  const tokens = tokenise(text);
  const capitalised = new Set<string>();
  if (names) {
    (text.normalize("NFKC").match(RAW_TOKEN) ?? []).forEach((t, i) => {
      if (i > 0 && /^\p{Lu}\p{Script=Latin}*$/u.test(t)) capitalised.add(t.toLowerCase());
    });
  }
  const terms: Term[] = [];
  const found = new Set<string>();
  const negated = eachTerm(tokens, (kind, value, token) => {
    terms.push({ kind, value, token });
    if (kind === "word" && capitalised.has(token)) found.add(value);
  });
  return { terms, tokens, negated, names: found };
}

/** A passage of the references: up to {@link PASSAGE_SENTENCES} consecutive sentences of one reference. */
export interface Passage {
  /** Index of the reference (chunk) it comes from. */
  source: number;
  text: string;
  negated: boolean;
}

/** A passage is one or two consecutive sentences: a claim usually restates one sentence, sometimes joins two. */
export const PASSAGE_SENTENCES = 2;

/** Membership in a set of terms. */
export interface Lookup {
  has(term: string): boolean;
}

/** What the references state, indexed once per set of references and shared by every claim checked against them. */
export interface ReferenceIndex {
  words: Lookup;
  numbers: Lookup;
  codes: Lookup;
  /** Whether content words `a` then `b` stand next to each other in a reference sentence (no number or code between them). */
  adjacent(a: string, b: string): boolean;
  /** Each reference's tokens joined as {@link joinRun} joins them, for verbatim runs ({@link hasRun}). */
  runs: readonly string[];
  /** The references' sentences, reference by reference: what passages are made of ({@link bestPassage}). */
  chunks: readonly ChunkIndex[];
}

/**
 * Tokens joined with a separator before, between and after them. Tokens are
 * runs of letters, marks and digits (with `.` or `,` inside numbers), never
 * the separator, so a run of tokens occurs consecutively in a text exactly
 * when its joined form is a substring of the text's: one native search per
 * reference instead of a map of every token's positions built per chunk.
 */
const SEP = "\u0001";
function joinRun(tokens: readonly string[]): string {
  return tokens.length === 0 ? SEP : SEP + tokens.join(SEP) + SEP;
}

/** Between two runs of adjacent content words in {@link ChunkIndex.pairs}: no pair spans it. */
const BREAK = "\u0002";

/** True when the tokens `run` occur consecutively in one of the references. */
function hasRun(refs: ReferenceIndex, run: readonly string[]): boolean {
  const needle = joinRun(run);
  for (const r of refs.runs) if (r.includes(needle)) return true;
  return false;
}

/** One sentence of a reference. */
interface Sentence {
  text: string;
  /** Its content words (stemmed) in reading order, repeats kept. */
  words: readonly string[];
  negated: boolean;
}

/**
 * One reference as the alignment reads it. Lists and strings rather than a
 * set per passage and per word pair: a run indexes tens of thousands of
 * chunks and checks a few claims against each, so the index is what costs,
 * and the few lookups a claim makes can afford a scan.
 */
interface ChunkIndex {
  words: ReadonlySet<string>;
  numbers: ReadonlySet<string>;
  codes: ReadonlySet<string>;
  sentences: readonly Sentence[];
  /**
   * Each run of content words with no sentence end, number or code between
   * them, joined by SEP with SEP around it, the runs joined by BREAK: words a
   * and b are adjacent exactly when SEP a SEP b SEP occurs.
   */
  pairs: string;
  runs: string;
}

/**
 * Indexed chunks by text. A run judges the same chunk many times (every
 * answer whose context holds it, every citation of it), so each text is read
 * once; the cache forgets everything past {@link CACHE_LIMIT} texts.
 */
const cache = new Map<string, ChunkIndex>();
const CACHE_LIMIT = 4096;

function indexChunk(text: string): ChunkIndex {
  const hit = cache.get(text);
  if (hit) return hit;
  const words = new Set<string>();
  const numbers = new Set<string>();
  const codes = new Set<string>();
  const sentences: Sentence[] = [];
  const tokens: string[] = [];
  let pairs = "";
  let run = "";
  const endRun = () => {
    if (run) pairs += (pairs ? BREAK : "") + run + SEP;
    run = "";
  };
  for (const sentence of splitSentences(text)) {
    const own = tokenise(sentence);
    for (const t of own) tokens.push(t);
    const sw: string[] = [];
    const negated = eachTerm(own, (kind, value) => {
      if (kind === "word") {
        words.add(value);
        sw.push(value);
        run += SEP + value;
        return;
      }
      endRun();
      if (kind === "number") numbers.add(value);
      else {
        codes.add(value);
        for (const d of digitRuns(value)) numbers.add(d);
      }
    });
    endRun();
    sentences.push({ text: sentence, words: sw, negated });
  }
  addSpelledAndGlued(tokens, numbers, codes);
  const idx: ChunkIndex = { words, numbers, codes, sentences, pairs, runs: joinRun(tokens) };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, idx);
  return idx;
}

/** Indexes the references (chunk texts) a claim is checked against. */
export function indexReferences(texts: readonly string[]): ReferenceIndex {
  const chunks = texts.map(indexChunk);
  const runs = chunks.map((c) => c.runs);
  const adjacent = (a: string, b: string) => {
    const needle = SEP + a + SEP + b + SEP;
    return chunks.some((c) => c.pairs.includes(needle));
  };
  if (chunks.length === 1) return { ...chunks[0]!, adjacent, runs, chunks };
  // A view over the chunks' sets rather than a copy: each claim asks about a few dozen terms.
  const union = (key: "words" | "numbers" | "codes"): Lookup => ({ has: (x) => chunks.some((c) => c[key].has(x)) });
  return { words: union("words"), numbers: union("numbers"), codes: union("codes"), adjacent, runs, chunks };
}

/**
 * The passage holding the most of `words` (distinct content words of a
 * claim): passages in order, reference by reference, each sentence then that
 * sentence with the next; the first of the shortest text among those holding
 * the most wins. Which words a sentence holds is a bit set (`width` 32-bit
 * words per sentence, one array per reference); a passage's is the OR of its
 * sentences'.
 */
function bestPassage(refs: ReferenceIndex, words: readonly string[]): { best?: Passage; found: number } {
  const at = new Map<string, number>();
  words.forEach((w, i) => at.set(w, i));
  const width = Math.max(1, Math.ceil(words.length / 32));
  let best: { source: number; at: number; k: number } | undefined;
  let bestFound = 0;
  let bestLength = 0;
  refs.chunks.forEach((c, source) => {
    const held = new Uint32Array(c.sentences.length * width);
    c.sentences.forEach((s, i) => {
      for (const w of s.words) {
        const x = at.get(w);
        if (x !== undefined) held[i * width + (x >>> 5)]! |= 1 << (x & 31);
      }
    });
    for (let i = 0; i < c.sentences.length; i++) {
      for (let k = 1; k <= PASSAGE_SENTENCES && i + k <= c.sentences.length; k++) {
        let found = 0;
        for (let b = 0; b < width; b++) {
          let m = 0;
          for (let j = i; j < i + k; j++) m |= held[j * width + b]!;
          found += popcount(m);
        }
        let length = -1; // joined with one space between sentences
        for (let j = i; j < i + k; j++) length += c.sentences[j]!.text.length + 1;
        if (!best || found > bestFound || (found === bestFound && length < bestLength)) {
          best = { source, at: i, k };
          bestFound = found;
          bestLength = length;
        }
      }
    }
  });
  if (!best) return { found: 0 };
  const of = refs.chunks[best.source]!.sentences.slice(best.at, best.at + best.k);
  return { best: { source: best.source, text: of.map((s) => s.text).join(" "), negated: of.some((s) => s.negated) }, found: bestFound };
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n++;
  return n;
}

/**
 * The features of the support model, in the order of its weights. Each is
 * defined where it is computed ({@link alignClaim}) and documented for users
 * in {@link FEATURE_DOCS}. Numbers and codes are not a feature: a claim
 * stating one that no reference states is unsupported by rule, before the
 * model is asked (see rubrics/learnedSupport.ts).
 */
export const FEATURES = [
  "coverage", "passageCoverage", "copiedShare", "bigramShare", "newWordCoverage",
  "nameGap", "negationMismatch", "claimLength",
] as const;
export type FeatureName = (typeof FEATURES)[number];
export type Features = Record<FeatureName, number>;

/** One line per feature, for reasons, `--help`-style tables and the README. */
export const FEATURE_DOCS: Readonly<Record<FeatureName, string>> = {
  coverage: "share of the claim's distinct content words found anywhere in the references",
  passageCoverage: "share of them found in the best-matching passage (one or two consecutive sentences of one reference)",
  copiedShare: "share of the claim's tokens, stop words included, inside a run of three tokens found verbatim in a reference",
  bigramShare: "share of the claim's adjacent content-word pairs found adjacent in a reference sentence",
  newWordCoverage: "share of the claim's content words that are not in the question found in the references",
  nameGap: "share of the claim's names (capitalised words after its first) missing from the references",
  negationMismatch: "1 when exactly one of the claim and its best-matching passage is negated, else 0",
  claimLength: "ln(1 + number of distinct content words of the claim)",
};

/** The alignment of one claim: its features and the evidence a reason names. */
export interface ClaimAlignment {
  features: Features;
  /** Distinct content words of the claim (stemmed). */
  words: number;
  /** Distinct numbers and codes of the claim. */
  numbers: number;
  /** Content words of the claim no reference has, as written in the claim. */
  missingWords: string[];
  /** Numbers and codes of the claim that no reference states. */
  missingNumbers: string[];
  missingNames: string[];
  /** The passage holding the most of the claim's content words (the shortest on ties); absent without references. */
  best?: Passage;
}

const share = (found: number, of: number): number => (of === 0 ? 1 : found / of);

/**
 * A list marker opening a claim ("1.", "2)", "(3)", "-", "•"): layout, not
 * something the claim states, so its number is not checked against the
 * references. A sentence that is only a marker ("4." split off a numbered
 * list item) makes no claim at all.
 */
const LIST_MARKER = /^\s*(?:\(?\p{N}{1,3}[.)]|[-•*–])(?:\s+|$)/u;

/** The question's content words, for the last question asked: every claim of an answer is aligned against the same one. */
let lastQuestion: { text: string; words: ReadonlySet<string> } | undefined;
function askedWords(question: string): ReadonlySet<string> {
  if (lastQuestion?.text !== question) lastQuestion = { text: question, words: new Set(readTerms(question).terms.filter((t) => t.kind === "word").map((t) => t.value)) };
  return lastQuestion.words;
}

/** Aligns one claim (a sentence) with indexed references; `question` tells the claim's new words from the restated ones. */
export function alignClaim(claim: string, question: string, refs: ReferenceIndex): ClaimAlignment {
  const c = readTerms(claim.replace(LIST_MARKER, ""), true);
  const distinct = (kind: Term["kind"]) => [...new Set(c.terms.filter((t) => t.kind === kind).map((t) => t.value))];
  const words = distinct("word");
  const numbers = distinct("number");
  const codes = distinct("code");
  const missingWords = words.filter((w) => !refs.words.has(w));
  const written = new Map<string, string>();
  for (const t of c.terms) if (!written.has(t.value)) written.set(t.value, t.token);
  const missingNumbers = [...numbers.filter((n) => !refs.numbers.has(n)), ...codes.filter((x) => !refs.codes.has(x))];
  const names = [...c.names];
  const missingNames = names.filter((n) => !refs.words.has(n));

  const { best, found: bestFound } = bestPassage(refs, words);

  // Adjacent content words, a number or code between them breaking the pair (as in the index).
  let pairs = 0;
  let pairsFound = 0;
  for (let i = 0; i + 1 < c.terms.length; i++) {
    const [x, y] = [c.terms[i]!, c.terms[i + 1]!];
    if (x.kind !== "word" || y.kind !== "word") continue;
    pairs++;
    if (refs.adjacent(x.value, y.value)) pairsFound++;
  }

  const tokens = c.tokens;
  const copied = new Uint8Array(tokens.length);
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (hasRun(refs, tokens.slice(i, i + 3))) copied[i] = copied[i + 1] = copied[i + 2] = 1;
  }
  let copiedCount = 0;
  for (const x of copied) copiedCount += x;

  const asked = askedWords(question);
  const newWords = words.filter((w) => !asked.has(w));

  const features: Features = {
    coverage: share(words.length - missingWords.length, words.length),
    passageCoverage: best ? share(bestFound, words.length) : words.length === 0 ? 1 : 0,
    copiedShare: tokens.length === 0 ? 0 : copiedCount / tokens.length,
    bigramShare: share(pairsFound, pairs),
    newWordCoverage: share(newWords.filter((w) => refs.words.has(w)).length, newWords.length),
    nameGap: names.length === 0 ? 0 : missingNames.length / names.length,
    negationMismatch: best !== undefined && best.negated !== c.negated ? 1 : 0,
    claimLength: Math.log1p(words.length),
  };
  return { features, words: words.length, numbers: numbers.length + codes.length, missingWords: missingWords.map((w) => written.get(w) ?? w), missingNumbers, missingNames: missingNames.map((w) => written.get(w) ?? w), best };
}
