/**
 * Function words the baseline judge ignores when it measures overlap: they
 * occur in almost any text, so matching them says nothing about whether a
 * source supports a claim. Three groups, because ragjudge's users write in
 * English, in Hindi (Devanagari) and in romanised Hindi, often mixed.
 *
 * Entries are in {@link normalise}d form (lower case, NFKC). Negation words
 * are stop words too: they carry no topic, and the correctness rubric checks
 * polarity separately through {@link NEGATIONS}.
 *
 * Deliberately left out: romanised "main" ("I"/"in"), which is also the English
 * content word "main"; number words, which the tokeniser turns into digits.
 */

const ENGLISH = `
a about above after again against all almost along already also although always am among an and another any anybody
anyone anything are aren around as at be became because become been before being below between both but by can
cannot could couldn did didn do does doesn doing don done down during each either else etc even ever every for
from further get gets getting give given go goes going got had hadn has hasn have haven having he her here hers
herself him himself his how however i if in into is isn it its itself just least less let like made make makes
many may me might more most much must my myself neither no nor not now of off often on once only or other others
otherwise our ours ourselves out over own per please quite rather really said same say says shall she should
shouldn since so some something still such than that the their theirs them themselves then there therefore
these they this those though through thus to too under until up upon us use used uses using very via was wasn
we well were weren what whatever when whenever where whereas whether which while who whom whose why will with
within without won would wouldn yes yet you your yours yourself yourselves ie eg
`;

const HINDI_DEVANAGARI = `
का की के को से में पर है हैं था थे थी थीं हो होता होती होते होना हुआ हुई हुए और या एवं तथा भी तो ही ने
यह ये वह वे इस इन उस उन इसे उसे इसका उसका इसकी उसकी इसके उसके जो जिस जिन जिसे कि क्या कौन कैसे कब कहाँ कहां
क्यों कितना कितने कितनी लिए लिये साथ द्वारा तक बाद पहले आप मैं हम तुम मेरा मेरी मेरे हमारा हमारी हमारे
आपका आपकी आपके अपना अपनी अपने कर करें करना करते करता करती किया किए किये कोई कुछ सकता सकते सकती
जा जाता जाती जाते जाना रहा रहे रही एक नहीं न मत ना हाँ हां जी
`;

const ROMANISED_HINDI = `
ka ki ke ko se mein mai mei par hai hain hoon hun tha the thi ho hota hoti hote hona hua hui hue aur ya evam
bhi toh hi ne yeh ye woh wo vo is in us un jo jis jin kya kaun kaise kab kahan kahaan kyun kyon kitna kitne kitni
liye liya saath dwara tak baad pehle aap hum tum mera meri mere hamara hamari hamare aapka aapki aapke apna apni
apne kar karen karein karna karte karta karti kiya kiye koi kuch sakta sakte sakti ja jata jati jate jana raha
rahe rahi nahi nahin nhi mat na haan han ji
`;

function words(list: string): string[] {
  return list.split(/\s+/u).filter((w) => w.length > 0).map((w) => w.normalize("NFKC"));
}

/** Every stop word of the three groups, normalised. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  ...words(ENGLISH),
  ...words(HINDI_DEVANAGARI),
  ...words(ROMANISED_HINDI),
]);

/**
 * Words that negate a statement, in the three languages. The correctness
 * rubric compares whether the answer and the reference are negated, since
 * "leave can be carried forward" and "leave cannot be carried forward" share
 * every content word. Contractions (`don't`) are detected by the tokeniser.
 */
export const NEGATIONS: ReadonlySet<string> = new Set(
  words(`
  no not never none nothing neither nor cannot
  नहीं न ना मत
  nahi nahin nhi mat
  `),
);

/** True for a word the overlap measures should ignore. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}
