/**
 * Text processing shared by the example retrievers: one tokenizer and one
 * stop-word list for English, Hindi (Devanagari) and romanised Hindi, so that
 * BM25, the n-gram vectors, the reranker and the golden-set checks all agree
 * on what a "word" is.
 */

/**
 * A token: letters, marks (Devanagari vowel signs and viramas are marks) and
 * digits, with internal `-`, `_`, `.`, `/` or `:` joining parts, so that
 * identifiers such as `ERR-4031`, `kosh_test_`, `3.9.1`, `--dry-run` and
 * `statements:read` stay whole. Leading and trailing joiners are dropped.
 */
const TOKEN = /[\p{L}\p{M}\p{N}]+(?:[-_./:][\p{L}\p{M}\p{N}]+)*/gu;

/** Joiners inside a compound token. */
const JOINER = /[-_./:]/u;

/**
 * Function words removed before indexing and matching. English, Hindi in
 * Devanagari, and romanised Hindi. Kept short on purpose: a stop list that
 * removes content words (numbers, "not") hides real differences.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  // English
  "a", "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at",
  "be", "because", "been", "before", "being", "between", "both", "but", "by", "can", "could", "did",
  "do", "does", "doing", "done", "down", "during", "each", "else", "even", "ever", "every", "few",
  "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his",
  "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "let", "may", "me", "might",
  "more", "most", "must", "my", "myself", "no", "nor", "of", "on", "once", "one's", "only", "or",
  "other", "our", "ours", "out", "over", "own", "same", "shall", "she", "should", "so", "some",
  "such", "than", "that", "the", "their", "theirs", "them", "then", "there", "these", "they", "this",
  "those", "through", "to", "too", "under", "until", "up", "us", "very", "was", "we", "were", "what",
  "when", "where", "which", "while", "who", "whom", "whose", "why", "will", "with", "would", "you",
  "your", "yours", "yourself", "s", "t", "don't", "doesn't", "isn't", "aren't", "i'm", "what's",
  "it's", "there's", "i've", "i'd", "we're", "they're", "can't", "won't", "didn't", "am", "many",
  "much", "get", "gets", "got",
  // Hindi (Devanagari)
  "का", "के", "की", "को", "में", "से", "पर", "है", "हैं", "था", "थे", "थी", "हो", "होता", "होती",
  "होते", "और", "या", "भी", "तो", "ही", "यह", "वह", "ये", "वे", "इस", "उस", "इन", "उन", "एक",
  "लिए", "कि", "जो", "क्या", "कैसे", "कब", "कहाँ", "कौन", "किस", "किसी", "कोई", "मैं", "मेरे", "मेरा",
  "मेरी", "हम", "आप", "आपके", "आपका", "आपकी", "अपने", "अपना", "अपनी", "तक", "साथ", "बाद", "पहले",
  "कितने", "कितना", "कितनी", "रहा", "रही", "रहे", "गया", "गई", "गए", "जाता", "जाती", "जाते", "करना",
  "करते", "करती", "कर", "सकते", "सकता", "सकती", "द्वारा", "अगर", "जब", "लेकिन", "नहीं", "होगा", "होगी",
  // Romanised Hindi
  "hai", "hain", "ka", "ke", "ki", "ko", "mein", "me", "se", "par", "pe", "aur", "ya", "bhi", "toh",
  "to", "hi", "yeh", "ye", "woh", "wo", "jo", "kya", "kaise", "kab", "kahan", "kaun", "kitne",
  "kitna", "kitni", "mera", "meri", "mere", "hum", "aap", "tak", "wala", "wale", "wali",
  "koi", "kuch", "agar", "nahi", "nahin", "ho", "hota", "hoti", "hote", "tha", "thi", "the", "karna",
  "karte", "kar", "sakte", "sakta", "raha", "rahi", "rahe", "gaya", "gayi", "liye", "baad", "pehle",
  "usse", "isse", "jaata", "jaati", "milta", "milti", "milte", "padta", "padti",
]);

/**
 * Lower-cased, NFKC-normalised tokens of a text, in order, stop words kept.
 *
 * @example
 * rawTokens("Run `tunnelctl up --tcp-fallback`.") // ["run", "tunnelctl", "up", "tcp-fallback"]
 */
export function rawTokens(text: string): string[] {
  return text.normalize("NFKC").toLowerCase().match(TOKEN) ?? [];
}

/** True for tokens that carry no content (stop words, single characters). */
export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token) || (Array.from(token).length === 1 && !/\p{N}/u.test(token));
}

/**
 * The index terms of one token: none for a stop word; for a compound
 * identifier the whole token and its content parts (`err-4031` gives
 * `err-4031`, `err`, `4031`), so that both "ERR-4031" and "4031" find it.
 */
export function indexTerms(token: string): string[] {
  if (isStopWord(token)) return [];
  if (!JOINER.test(token)) return [token];
  const parts = token.split(JOINER).filter((p) => p !== "" && !isStopWord(p));
  return [token, ...parts.filter((p) => p !== token)];
}

/** Content tokens of a text: {@link rawTokens} without stop words. */
export function contentTokens(text: string): string[] {
  return rawTokens(text).filter((t) => !isStopWord(t));
}

/**
 * A crude English suffix stripper (plural, -ing, -ed, -ly, -ies, -ment),
 * enough to treat "leave"/"leaves" or "bank"/"banking" as one word when
 * checking that a conceptual question shares no content word with its
 * passage, and for the reranker's term matching. Non-Latin words are
 * returned unchanged.
 *
 * @example
 * crudeStem("banking") // "bank"
 */
export function crudeStem(word: string): string {
  if (!/^[a-z][a-z'-]*$/.test(word) || word.length <= 4) return word.replace(/'s$/, "");
  let w = word.replace(/'s$/, "");
  for (const [suffix, repl] of [
    ["ies", "y"], ["ing", ""], ["edly", ""], ["ed", ""], ["ly", ""], ["ment", ""], ["es", ""], ["s", ""],
  ] as const) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, w.length - suffix.length) + repl;
      break;
    }
  }
  // "leave" and "leav" (from "leaving") should meet: drop a final silent e.
  if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

/** Stemmed content words of a text, as a set. */
export function contentStems(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of contentTokens(text)) for (const term of indexTerms(t)) out.add(crudeStem(term));
  return out;
}
