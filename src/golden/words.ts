import { normalise } from "./normalise.js";

/**
 * The words of a text as a search engine would match them: what the miss
 * analysis reads to tell whether a question's words sit in the anchor's chunk
 * or across a cut from it (seed 000's chunk-boundary), and how many words an
 * anchor has (the 6-to-20-word rule). One tokeniser, one stop list and one
 * light stemmer, so "carried" in a chunk meets "carry" in a question.
 *
 * Languages: English, Hindi in Devanagari and romanised Hindi (the scripts
 * ragjudge's example and users mix). Kept short on purpose: a stop list that
 * removes topic words would hide the very overlap the analysis looks for.
 */

/** A run of letters, combining marks (Devanagari matras and virama) and digits. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

const STOP_LIST = [
  // English function words and the words every question is made of.
  "a an the and or but nor so if then than that this these those there here of in on at to from by for with without",
  "into onto over under about above below between through during before after since until upon within via per as",
  "is are was were be been being am do does did done doing have has had having will would shall should can could",
  "may might must not no yes it its it's he she they them their theirs we us our you your yours i me my mine who",
  "whom whose which what when where why how whether also just only very too any all each every some such other",
  "more most much many few less least own same both either neither get gets got getting let lets",
  "because don doesn didn isn aren wasn weren cannot won wouldn shouldn couldn haven hasn",
  // Hindi (Devanagari) postpositions, auxiliaries, pronouns and question words.
  "का की के को से में पर है हैं था थे थी हो होता होती होते और या भी तो ही ने यह ये वह वे इस इन उस उन जो कि",
  "क्या कौन कैसे कब कहाँ कहां क्यों कितना कितने कितनी लिए साथ तक बाद पहले आप मैं हम मेरा मेरी मेरे अपना अपनी",
  "अपने कर करें करना करते करता करती किया कोई किसी कुछ सकता सकते सकती जाता जाती जाते नहीं न अगर जब तब",
  // Romanised Hindi.
  "ka ki ke ko se mein mai par hai hain hoon tha the thi ho hota hoti hote aur ya bhi toh hi ne yeh ye woh wo",
  "jo kya kaun kaise kab kahan kyun kitna kitne kitni liye saath tak baad pehle aap hum mera meri mere apna",
  "apni apne kar karna karte karta karti kiya koi kisi kuch sakta sakte sakti nahi nahin agar jab",
].join(" ");

/** Every stop word, in {@link normalise}d form. */
export const STOP_WORDS: ReadonlySet<string> = new Set(STOP_LIST.split(" ").filter(Boolean).map((w) => normalise(w)));

/**
 * Lower-cased, normalised word tokens of a text, in reading order
 * (punctuation splits: "self-service" is two words, "ERR-4031" is "err" and
 * "4031").
 *
 * @example
 * wordTokens("Unused  earned-leave, 45 days") // ["unused", "earned", "leave", "45", "days"]
 */
export function wordTokens(text: string): string[] {
  return normalise(text).match(WORD) ?? [];
}

/**
 * A light English stemmer (plurals, -ied, -ing, -ed, final e) so that
 * "carried", "carries" and "carry" meet. Only plain Latin-letter words longer
 * than three letters are touched; Devanagari and digits stay as written.
 *
 * @example
 * stemWord("carried") // "carry"
 * stemWord("leaves")  // "leav"
 */
export function stemWord(word: string): string {
  if (!/^[a-z]+$/u.test(word) || word.length <= 3) return word;
  let w = word;
  if (/(?:ies|ied)$/u.test(w) && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(?:ss|us|is)$/u.test(w)) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 4) w = w.slice(0, -2);
  if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** A token worth matching: not a stop word, not a single Latin letter. */
function isContent(token: string): boolean {
  return !STOP_WORDS.has(token) && !/^[a-z]$/u.test(token);
}

/**
 * The content words of a text: stem -> the first form it was written in,
 * in reading order. Stems are what texts are compared on; the written forms
 * are what a report shows.
 *
 * @example
 * contentWords("How many leaves can I carry over?") // Map { "leav" => "leaves", "carry" => "carry" }
 */
export function contentWords(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of wordTokens(text)) {
    const s = contentStem(t);
    if (s !== null && !out.has(s)) out.set(s, t);
  }
  return out;
}

/** The stems of a text's content words, for look-ups. */
export function stemSet(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of wordTokens(text)) {
    const s = contentStem(t);
    if (s !== null) out.add(s);
  }
  return out;
}

/**
 * {@link stemWord} of a content token, null for a stop word or single
 * letter, remembered per token: the miss analysis reads the same chunk words
 * for thousands of questions, and a text's vocabulary is far smaller than
 * its word count. Forgotten wholesale past a bound, so an odd corpus cannot
 * grow it without limit.
 */
function contentStem(token: string): string | null {
  let s = STEMS.get(token);
  if (s === undefined) {
    if (STEMS.size >= MAX_STEMS) STEMS.clear();
    STEMS.set(token, (s = isContent(token) ? stemWord(token) : null));
  }
  return s;
}
const STEMS = new Map<string, string | null>();
const MAX_STEMS = 200_000;

/** A word starting at the search position, not preceded by a word character (the tokens {@link wordTokens} gives). */
const WORD_AT = /(?<![\p{L}\p{M}\p{N}])[\p{L}\p{M}\p{N}]+/uy;

/**
 * Whether a normalised text has a content word whose stem is `stem`: the
 * same answer as `stemSet(text).has(stem)` for `norm = normalise(text)`,
 * without tokenising and stemming every word of the text. A stem is a
 * prefix of each word it comes from, or that prefix plus "y" for an
 * "-ies"/"-ied" word ({@link stemWord}), so only the words that start with
 * that prefix are read and stemmed (the miss analysis asks about a
 * question's few stems in thousands of chunks; most words never match).
 *
 * @example
 * hasStem(normalise("Leaves are carried forward"), "carry") // true
 * hasStem("carrot cake", "carry") // false
 */
export function hasStem(norm: string, stem: string): boolean {
  const prefix = stem.length > 1 && stem.endsWith("y") ? stem.slice(0, -1) : stem;
  if (prefix === "") return false;
  for (let at = norm.indexOf(prefix); at !== -1; at = norm.indexOf(prefix, at + 1)) {
    WORD_AT.lastIndex = at;
    const m = WORD_AT.exec(norm);
    if (m !== null && contentStem(m[0]) === stem) return true;
  }
  return false;
}

/**
 * How many words a phrase has, as a person counts them: white-space
 * separated pieces holding a letter or a digit ("Rs 1,500 a day" is four;
 * a lone dash is none).
 *
 * @example
 * wordCount("Unused earned leave can be carried forward") // 7
 */
export function wordCount(text: string): number {
  return normalise(text).split(" ").filter((t) => /[\p{L}\p{N}]/u.test(t)).length;
}
