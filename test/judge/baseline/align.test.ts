import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FEATURES, FEATURE_DOCS, alignClaim, indexReferences, type ClaimAlignment } from "../../../src/judge/baseline/align.js";
import { sha256 } from "../../../src/golden/hash.js";
import { alignCases } from "./align-cases.js";

// Invented text (no third-party data).
const REFS = [
  "You accrue 1.5 days of earned leave for every completed month of service. That adds up to 18 days in a full year.",
  "Casual leave lapses on 31 December. It is not carried forward. Ask Priya Sharma in HR about form EL-7.",
];
const idx = indexReferences(REFS);
const align = (claim: string, question = "How much leave do I get?") => alignClaim(claim, question, idx);

describe("alignClaim", () => {
  it("measures a claim copied from one sentence as fully covered and copied", () => {
    const a = align("You accrue 1.5 days of earned leave for every completed month of service.");
    expect(a.features).toMatchObject({ coverage: 1, passageCoverage: 1, bigramShare: 1, nameGap: 0, negationMismatch: 0 });
    expect(a.features.copiedShare).toBe(1);
    expect(a.missingWords).toEqual([]);
    expect(a.missingNumbers).toEqual([]);
    expect(a.best).toMatchObject({ source: 0, text: "You accrue 1.5 days of earned leave for every completed month of service." });
  });

  it("names the claim's missing words as written, and its missing numbers and codes", () => {
    const a = align("Unused earned leave can be donated to colleagues, up to 15 days, on form EL9.");
    expect(a.missingWords).toEqual(["unused", "donated", "colleagues"]);
    expect(a.missingNumbers).toEqual(["15", "el9"]);
    expect(align("Use form EL7.").missingNumbers).toEqual([]); // the reference's EL-7, glued
    expect(a.features.coverage).toBeCloseTo(4 / 7, 12); // earn, leav, day, form found of 7 distinct content words
  });

  it("the best passage is the window holding the most claim words, across two sentences when the claim joins them", () => {
    const a = align("Casual leave lapses on 31 December and is not carried forward.");
    expect(a.best?.source).toBe(1);
    expect(a.best?.text).toBe("Casual leave lapses on 31 December. It is not carried forward.");
    expect(a.features.passageCoverage).toBe(1);
    expect(a.features.negationMismatch).toBe(0);
    expect(align("Casual leave lapses on 31 December.").best?.text).toBe("Casual leave lapses on 31 December.");
  });

  it("spots a negation the best passage lacks, and names missing from the references", () => {
    expect(align("Earned leave does not add up to 18 days in a full year.").features.negationMismatch).toBe(1);
    const a = align("Ask Priya Sharma or Rahul Verma in HR.");
    expect(a.missingNames).toEqual(["rahul", "verma"]);
    expect(a.features.nameGap).toBeCloseTo(2 / 5, 12); // Priya, Sharma, Rahul, Verma, HR
  });

  it("counts only the claim's words that are not in the question as new", () => {
    expect(align("Casual leave lapses on 31 December.", "When does casual leave lapse?").features.newWordCoverage).toBe(1);
    expect(align("Casual leave becomes sabbatical.", "What happens to casual leave?").features.newWordCoverage).toBe(0);
  });

  it("does not check a list marker's number", () => {
    const a = align("1. You accrue 1.5 days of earned leave.");
    expect(a.missingNumbers).toEqual([]);
    expect(align("4.").words + align("4.").numbers).toBe(0);
  });

  it("gives finite features in [0, 1] (claimLength: a log count) on empty and odd input", () => {
    for (const claim of ["", "   ", "!!!", "a", "1234", "EL-7", "x".repeat(500)]) {
      for (const refs of [[], [""], ["1234 EL-7"]]) {
        const f = alignClaim(claim, "", indexReferences(refs)).features;
        for (const name of FEATURES) {
          expect(Number.isFinite(f[name])).toBe(true);
          if (name !== "claimLength") expect(f[name]).toBeGreaterThanOrEqual(0);
          if (name !== "claimLength") expect(f[name]).toBeLessThanOrEqual(1);
        }
      }
    }
  });

  it("every feature is documented", () => {
    for (const name of FEATURES) expect(FEATURE_DOCS[name].length).toBeGreaterThan(20);
  });
});

describe("alignClaim on Hindi and romanised Hindi", () => {
  const hindi = indexReferences(["हर साल आपको 8 दिन की आकस्मिक छुट्टी मिलती है। बची हुई छुट्टी 31 दिसंबर को समाप्त हो जाती है।"]);
  const roman = indexReferences(["Har saal aapko 8 din ki casual chhutti milti hai. Bachi hui chhutti agle saal nahi jaati."]);

  it("aligns Devanagari words and digits (Devanagari digits match ASCII ones)", () => {
    const a = alignClaim("आपको हर साल ८ दिन की आकस्मिक छुट्टी मिलती है।", "कितनी छुट्टी मिलती है?", hindi);
    expect(a.features).toMatchObject({ coverage: 1, passageCoverage: 1, nameGap: 0 });
    expect(a.missingNumbers).toEqual([]);
    expect(a.best?.text).toBe("हर साल आपको 8 दिन की आकस्मिक छुट्टी मिलती है।");
    const b = alignClaim("आपको हर साल 12 दिन की छुट्टी मिलती है।", "", hindi);
    expect(b.missingNumbers).toEqual(["12"]);
    const c = alignClaim("कर्मचारी घर से काम कर सकते हैं।", "", hindi);
    expect(c.features.coverage).toBe(0);
    expect(c.missingWords.length).toBeGreaterThan(0);
  });

  it("aligns romanised Hindi without treating its words as English names or stems", () => {
    const a = alignClaim("Aapko har saal 8 din ki casual chhutti milti hai.", "", roman);
    expect(a.features).toMatchObject({ coverage: 1, nameGap: 0 });
    expect(a.features.copiedShare).toBeGreaterThan(0.5);
    const b = alignClaim("Aapko gym ki membership free milti hai.", "", roman);
    expect(b.features.coverage).toBeLessThan(0.5);
    expect(b.missingWords).toEqual(expect.arrayContaining(["gym", "membership", "free"]));
  });
});

describe("alignClaim on 1,500 seeded cases", () => {
  const fixture = JSON.parse(readFileSync(new URL("../../fixtures/judge/align-cases.json", import.meta.url), "utf8")) as { seed: number; n: number; first: unknown[]; sha256: string[] };
  const view = (a: ClaimAlignment) => ({
    features: a.features, words: a.words, numbers: a.numbers, missingWords: a.missingWords, missingNumbers: a.missingNumbers, missingNames: a.missingNames,
    best: a.best ? { source: a.best.source, text: a.best.text, negated: a.best.negated } : null,
  });

  it("gives every case exactly the alignment the implementation before the index rewrite gave", () => {
    const cases = alignCases(fixture.n, fixture.seed);
    const got = cases.map((c) => view(alignClaim(c.claim, c.question, indexReferences(c.refs))));
    expect(got.slice(0, fixture.first.length)).toEqual(fixture.first);
    const differing = got.map((v, i) => (sha256(JSON.stringify(v)).slice(0, 16) === fixture.sha256[i] ? -1 : i)).filter((i) => i >= 0);
    // On a failure, the first differing case and what it gives now:
    expect(differing.length ? { case: differing[0], input: cases[differing[0]!], now: got[differing[0]!] } : null).toBeNull();
  });

  it("covers what the alignment reads: claims over 31 distinct words, no references, negation mismatches, missing numbers and names", () => {
    const got = alignCases(fixture.n, fixture.seed).map((c) => alignClaim(c.claim, c.question, indexReferences(c.refs)));
    expect(got.filter((a) => a.words > 31).length).toBeGreaterThan(50);
    expect(got.filter((a) => !a.best).length).toBeGreaterThan(50);
    expect(got.filter((a) => a.features.negationMismatch === 1).length).toBeGreaterThan(50);
    expect(got.filter((a) => a.missingNumbers.length && a.features.coverage > 0).length).toBeGreaterThan(50);
    expect(got.filter((a) => a.missingNames.length).length).toBeGreaterThan(50);
    expect(got.filter((a) => a.features.passageCoverage > 0 && a.features.passageCoverage < 1).length).toBeGreaterThan(100);
  });
});
