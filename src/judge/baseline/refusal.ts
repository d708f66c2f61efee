import { normalise } from "../../golden/normalise.js";
import { splitSentences, stripMarkers } from "../../golden/citations.js";
import { analyse } from "./tokens.js";

/**
 * Refusal detection ("the information is not available") for the not-found
 * rubric and for correctness (a refusal is never a correct answer), in
 * English, Hindi (Devanagari) and romanised Hindi.
 *
 * Phrases must refer to information, an answer or the sources, not merely
 * contain a negation: "casual leave is not available to interns" is an
 * answer, "this information is not available" is a refusal. Patterns are
 * written in normal form and matched against {@link normalise}d text (Devanagari
 * nukta letters decompose under NFKC, so the patterns are normalised too).
 */

/** Word boundaries that understand Devanagari and accented Latin (JavaScript's `\b` is ASCII-only). */
const B = "(?<![\\p{L}\\p{M}\\p{N}])";
const E = "(?![\\p{L}\\p{M}\\p{N}])";

const INFO_EN = "(?:information|info|details?|data|answers?|mentions?|records?|specifics)";
const SOURCES_EN = "(?:documents?|docs|context|sources?|passages?|texts?|excerpts?|references?|materials?|knowledge base|records|policy|policies|search results|results)";
const NEG_AUX = "(?:do not|don't|does not|doesn't|did not|didn't|cannot|can't|could not|couldn't|was unable to|were unable to|am unable to|are unable to|am not able to|was not able to)";
const FOUND = "(?:available|found|provided|given|present|mentioned|specified|known|included|stated|listed)";

const ENGLISH = [
  `${B}(?:i|we) ${NEG_AUX} (?:find|locate|see|determine|answer|confirm|tell|say|know|identify)${E}`,
  `${B}(?:i|we) (?:do not|don't) (?:have|see) (?:any |enough |the |that |this |specific |relevant )*${INFO_EN}${E}`,
  `${B}(?:i|we) (?:do not|don't) know${E}`,
  `${B}unable to (?:find|locate|answer|determine|confirm|provide)${E}`,
  `${B}(?:cannot|can't|could not|couldn't) (?:be )?(?:answer|answered|determined|found)${E}`,
  `${B}(?:no|not enough|insufficient|not sufficient) (?:relevant |specific |such |further |additional )*${INFO_EN}(?: (?:is|was|are|were))? (?:available|found|provided|given|about|on|regarding|related|concerning|for|in|to)${E}`,
  `${B}(?:there is|there's|there are) no (?:relevant |specific |such )*${INFO_EN}${E}`,
  `${B}${INFO_EN} (?:is|are|was|were) (?:unfortunately )?not ${FOUND}${E}`,
  `${B}${INFO_EN} (?:is|are|was|were) unavailable${E}`,
  `${B}${INFO_EN} (?:could not|cannot|can't) be (?:found|provided|determined|located)${E}`,
  `${B}(?:the |these |this |provided |given |available |retrieved |supplied )*${SOURCES_EN} (?:do not|does not|did not|don't|doesn't|didn't) (?:contain|mention|say|specify|include|provide|cover|state|address|discuss|have|give|list|answer|explain|describe|define)${E}`,
  // "...; they don't say who won in 2023": in an answer, "they"/"it" not saying refers to the sources.
  `${B}(?:they|it) (?:do not|does not|don't|doesn't) (?:say|mention|specify|state|explain|describe|cover)${E}`,
  `${B}not (?:mentioned|specified|stated|provided|available|found|covered|given|listed|included|addressed|present|described|explained|defined|discussed) (?:in|within|by) (?:the |these |this |provided |given |available |retrieved |any )*${SOURCES_EN}${E}`,
  `${B}not enough (?:context|information|data)${E}`,
  `^(?:not found|no answer|unknown|n/?a|none found|no information|no data|answer not found|information not found|not available)[.!]?$`,
];

const HINDI_INFO = "(?:जानकारी|सूचना|उत्तर|जवाब|विवरण|डेटा|उल्लेख|ज़िक्र|जिक्र)";
const HINDI = [
  // "जानकारी उपलब्ध नहीं है", "उत्तर नहीं मिला", "इस बारे में जानकारी नहीं दी गई"
  `${HINDI_INFO}(?:\\s+\\S+){0,3}?\\s+(?:उपलब्ध\\s+)?नहीं\\s+(?:है|हैं|मिली|मिला|मिले|मिल|दी|दिया|दिए|बताया|किया)${E}`,
  `${HINDI_INFO}(?:\\s+\\S+){0,3}?\\s+उपलब्ध\\s+नहीं${E}`,
  `${B}(?:(?:पता|मालूम)\\s+नहीं|नहीं\\s+(?:पता|मालूम))${E}`,
  `${B}(?:उल्लेख|ज़िक्र|जिक्र)\\s+नहीं${E}`,
  `${B}नहीं\\s+(?:मिल\\s+(?:सकी|सका|पाई|पाया)|मिली|मिला|बताया\\s+गया)${E}`,
  // "दस्तावेज़ों में ... कीमत नहीं दी गई है": the documents do not give or state it.
  `${B}(?:दस्तावेज़|दस्तावेज|स्रोत|नीति|संदर्भ)\\S*\\s+में(?:\\s+\\S+){0,10}?\\s+नहीं\\s+(?:दी|दिया|दिए|बताया|बताई|बताए|लिखा|लिखी|लिखे)${E}`,
];

const NAHI = "(?:nahi|nahin|nahee|nahīn|nhi)";
const INFO_ROM = "(?:jaankari|jankari|jaankaari|jankaari|jānkārī|maloomat|malumat|soochna|suchna|information|info|jawab|jawaab|uttar|details?|zikr|jikr|zikar|ullekh)";
const ROMANISED = [
  // "jaankari uplabdh nahi hai", "iske baare mein jankari available nahin"
  `${B}${INFO_ROM}(?:\\s+\\S+){0,3}?\\s+(?:uplabdh|uplabd|upalabdh|available)\\s+${NAHI}${E}`,
  // "jawab nahi mila", "jaankari nahi hai"
  `${B}${INFO_ROM}(?:\\s+\\S+){0,3}?\\s+${NAHI}\\s+(?:hai|he|h|mili|mila|mile|mil|di|diya|diye|milti|milta)${E}`,
  `${B}${NAHI}\\s+(?:mili|mila|mil\\s+(?:saki|saka|payi|paya|pai))${E}`,
  `${B}(?:(?:pata|maloom|malum|maaloom)\\s+${NAHI}|${NAHI}\\s+(?:pata|maloom|malum|maaloom))${E}`,
  `${B}(?:ullekh|zikr|jikr|zikar)\\s+${NAHI}${E}`,
  // "kuch nahi likha", "nahi bataya gaya": nothing written or stated (about the documents).
  `${B}${NAHI}\\s+(?:likha|likhi|likhe|bataya|batayi|batai|bataaya)${E}`,
];

const PATTERNS: readonly RegExp[] = [...ENGLISH, ...HINDI, ...ROMANISED].map((p) => new RegExp(p.normalize("NFKC"), "u"));

/** Contrastive connectors: text after one of them, following a refusal, may still answer ("not stated, but it is usually 5 days"). */
const CONTRAST = new RegExp(
  "(?:^|[\\s,;:(])(?:but|however|although|though|that said|lekin|magar|parantu|kintu|लेकिन|मगर|परंतु|परन्तु|किंतु|किन्तु)(?=[\\s,;:]|$)".normalize("NFKC"),
  "gu",
);

/** Text as the patterns expect it: normalised, curly apostrophes straightened, citation markers removed. */
function prepare(text: string): string {
  return normalise(stripMarkers(text)).replace(/[\u2018\u2019\u02bc`]/gu, "'");
}

/** True when the text contains a refusal phrase. */
export function hasRefusalPhrase(text: string): boolean {
  const t = prepare(text);
  return t.length > 0 && PATTERNS.some((p) => p.test(t));
}

/** The outcome of refusal detection, with the phrase found for the reason. */
export interface RefusalResult {
  refused: boolean;
  /** The sentence holding the refusal phrase. */
  phrase?: string;
  /** A refusal followed by "but ..." and a substantive statement: an answer, not a refusal. */
  hedged?: string;
}

/**
 * Decides whether an answer refuses. An answer refuses when one of its
 * sentences holds a refusal phrase, unless the refusal is hedged: after it
 * comes a contrastive connector ("but", "however", "lekin", "लेकिन") followed
 * by a statement with at least `hedgeMinWords` content words or a number,
 * which is answering after all ("the documents don't say, but it is usually
 * 5 days" invents or gives an answer; it does not say "not available").
 *
 * @example
 * detectRefusal("Yeh jaankari uplabdh nahi hai.", 3).refused // true
 * detectRefusal("दस्तावेज़ों में यह जानकारी नहीं मिली।", 3).refused // true
 * detectRefusal("Casual leave is not available to interns.", 3).refused // false
 */
export function detectRefusal(answer: string, hedgeMinWords: number): RefusalResult {
  const sentences = splitSentences(answer);
  const at = sentences.findIndex((s) => hasRefusalPhrase(s));
  if (at < 0) return { refused: false };
  const phrase = sentences[at]!;
  const after = prepare(sentences.slice(at).join(" "));
  const firstMatch = PATTERNS.map((p) => p.exec(after)).filter((m) => m !== null).sort((a, b) => a.index - b.index)[0];
  const from = firstMatch ? firstMatch.index + firstMatch[0].length : 0;
  for (const m of after.slice(from).matchAll(CONTRAST)) {
    const rest = after.slice(from + m.index + m[0].length);
    const clause = splitSentences(rest)[0] ?? "";
    if (hasRefusalPhrase(clause)) continue;
    const a = analyse(clause);
    if (a.words.length >= hedgeMinWords || a.numbers.length > 0) return { refused: false, phrase, hedged: clause };
  }
  return { refused: true, phrase };
}
