import { describe, expect, it } from "vitest";
import { stemSet, stemWord, wordTokens } from "../../../src/golden/words.js";
import { ChunkStems, describeEvidence, emptyEvidence } from "../../../src/retrieval/diagnostics/text.js";
import { mulberry32 } from "../../helpers/seeded.js";

// words that exercise every stemming rule, cases, stop words, digits, Devanagari and NFKC forms
const VOCAB = ["carried", "carries", "carry", "Carrying", "leaves", "leave", "LEAVE", "classes", "class", "bus", "analysis", "dayed", "day", "days", "studies", "study", "the", "of", "a", "x", "45", "ERR-4031", "self-service", "मानक", "नियम", "ｆｕｌｌ", "Café", "cafe\u0301", "ied", "flies", "fly", "sing", "singing", "sings", "eyed", "eye", "\u{20000}carry", "\u{1F600}carry", "carry\u{20000}", "\u{1D49C}leaves", "a\u0301carried"];

describe("ChunkStems", () => {
  it("answers exactly as the chunk's stem sets do, for every stem of the vocabulary (astral letters and emoji beside a word, words run together)", () => {
    const next = mulberry32(20261202);
    const stems = [...new Set(VOCAB.flatMap((w) => wordTokens(w)).map(stemWord)), "carr", "lea", "stud", "fl", "y"];
    for (let i = 0; i < 2_000; i++) {
      const pick = (n: number) => Array.from({ length: n }, () => VOCAB[Math.floor(next() * VOCAB.length)]).join(next() < 0.45 ? " " : next() < 0.9 ? ", " : "");
      const chunk = next() < 0.3 ? { text: pick(8) } : { text: pick(8), heading: pick(3) };
      const c = new ChunkStems(chunk);
      const text = stemSet(chunk.text);
      const heading = chunk.heading ? stemSet(chunk.heading) : new Set<string>();
      const all = stemSet(`${chunk.heading ?? ""} ${chunk.text}`);
      for (const s of stems) {
        expect(c.inText(s), `${s} in ${JSON.stringify(chunk)}`).toBe(text.has(s));
        expect(c.inHeading(s), `${s} in heading of ${JSON.stringify(chunk)}`).toBe(heading.has(s));
        expect(c.has(s), `${s} in ${JSON.stringify(chunk)}`).toBe(all.has(s));
      }
    }
  });
});

describe("describeEvidence", () => {
  it("says the anchor's chunk holds every word when it does, not that no chunk beside it holds 'the others'", () => {
    const all = { ...emptyEvidence(["warranty", "frame"]), anchorChunks: ["w#1"], inAnchorChunk: ["warranty", "frame"] };
    expect(describeEvidence(all)).toBe('the anchor\'s chunk w#1 holds every one of the question\'s words ("warranty" and "frame")');
    const some = { ...all, inAnchorChunk: ["warranty"] };
    expect(describeEvidence(some)).toBe('the anchor\'s chunk w#1 holds "warranty" of the question\'s words; no chunk beside it holds the others');
  });
});
