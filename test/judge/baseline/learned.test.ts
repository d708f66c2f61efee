/**
 * The learned support model as the default baseline for faithfulness and
 * citation accuracy (src/judge/baseline/rubrics/learnedSupport.ts, model.ts).
 */
import { describe, expect, it } from "vitest";
import type { Evidence } from "../../../src/golden/schema/items.js";
import { FEATURES, alignClaim, indexReferences } from "../../../src/judge/baseline/align.js";
import {
  DEFAULT_THRESHOLDS, SUPPORT_MODEL, baselineFingerprint, baselineJudge, createBaselineJudge, supportProbability,
} from "../../../src/judge/baseline/index.js";
import { checkModel } from "../../../src/judge/baseline/model.js";

// Invented example text (no third-party data).
const leave = { id: "hr-leave#1", text: "You accrue 1.5 days of earned leave for every completed month of service, which adds up to 18 days in a full year. Apply in Saathi using form EL-7." };
const casual = { id: "hr-leave#2", heading: "Casual leave", text: "You get 8 days of casual leave a year. Unused casual leave lapses on 31 December; it is neither carried forward nor encashed." };
const context = [leave, casual];
const faith = (answer: string): Evidence => ({ question: "How much earned leave do I get?", answer, context });
const cite = (sentence: string, cited = leave): Evidence => ({ question: "How much earned leave do I get?", sentence, cited });

describe("the support model", () => {
  it("is a short sum: pYes is the logistic of the intercept plus weight x feature", () => {
    const f = alignClaim("You get 8 days of casual leave a year.", "q", indexReferences([casual.text])).features;
    let logit = SUPPORT_MODEL.intercept;
    SUPPORT_MODEL.features.forEach((name, i) => (logit += SUPPORT_MODEL.weights[i]! * f[name]));
    expect(supportProbability(SUPPORT_MODEL, f)).toBeCloseTo(1 / (1 + Math.exp(-logit)), 15);
  });

  it("ships one finite weight per known feature, its data named beside them", () => {
    expect(() => checkModel(SUPPORT_MODEL)).not.toThrow();
    expect(SUPPORT_MODEL.features).toEqual(FEATURES);
    expect(SUPPORT_MODEL.data.source).toMatch(/AttributionBench/);
    expect(SUPPORT_MODEL.data.split).toMatch(/development split/);
    expect(SUPPORT_MODEL.data.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(SUPPORT_MODEL.threshold).toBe(0.5);
  });

  it("refuses a model that does not fit its features", () => {
    expect(() => createBaselineJudge(DEFAULT_THRESHOLDS, { support: "learned", model: { ...SUPPORT_MODEL, weights: [1] } })).toThrow(/1 weights for 8 features/);
    expect(() => createBaselineJudge(DEFAULT_THRESHOLDS, { support: "learned", model: { ...SUPPORT_MODEL, features: [...FEATURES.slice(0, 7), "vibes" as never] } })).toThrow(/unknown feature "vibes"/);
    expect(() => createBaselineJudge(DEFAULT_THRESHOLDS, { support: "learned", model: { ...SUPPORT_MODEL, intercept: Number.NaN } })).toThrow(/finite/);
    expect(() => createBaselineJudge(DEFAULT_THRESHOLDS, { support: "learned", model: { ...SUPPORT_MODEL, threshold: 1 } })).toThrow(/threshold/);
  });
});

describe("citation-accuracy by the support model", () => {
  it("passes a sentence its cited chunk states, with pYes and the best passage in the reason", () => {
    const v = baselineJudge("citation-accuracy", cite("Earned leave adds up to 18 days in a full year [hr-leave#1]."));
    expect(v.verdict).toBe("yes");
    expect(v.pYes).toBeGreaterThanOrEqual(SUPPORT_MODEL.threshold);
    expect(v.reason).toMatch(/^Chunk hr-leave#1 supports the sentence \(support model pYes 0\.\d\d >= 0\.50\): the chunk has all its content words and numbers; best-matching passage \(hr-leave#1\): "You accrue 1\.5 days/);
  });

  it("fails a sentence the cited chunk does not state, naming the words it lacks", () => {
    const v = baselineJudge("citation-accuracy", cite("Unused casual leave lapses every December and cannot be encashed.", leave));
    expect(v.verdict).toBe("no");
    expect(v.pYes).toBeLessThan(SUPPORT_MODEL.threshold);
    expect(v.reason).toMatch(/^Chunk hr-leave#1 does not support the sentence \(support model pYes 0\.\d\d < 0\.50\): the chunk lacks unused, casual, lapses, december, encashed/);
    expect(baselineJudge("citation-accuracy", cite("Unused casual leave lapses every December and cannot be encashed.", casual)).verdict).toBe("yes");
  });

  it("a number or code the chunk does not state fails by rule, with pYes 0", () => {
    for (const sentence of ["Earned leave adds up to 15 days in a full year.", "Apply in Saathi using form EL9."]) {
      const v = baselineJudge("citation-accuracy", cite(sentence));
      expect(v).toMatchObject({ verdict: "no", pYes: 0 });
      expect(v.reason).toMatch(/lacks (15|el9) \(numbers and codes must occur as written: unsupported by rule\)/);
    }
    expect(baselineJudge("citation-accuracy", cite("Apply in Saathi using form EL7.")).verdict).toBe("yes");
  });
});

describe("faithfulness by the support model", () => {
  it("passes an answer whose every sentence the context states; pYes is that of the weakest claim", () => {
    const answer = "You accrue 1.5 days of earned leave every month [1]. You get 8 days of casual leave a year [2].";
    const v = baselineJudge("faithfulness", faith(answer));
    expect(v.verdict).toBe("yes");
    expect(v.reason).toMatch(/^All 2 claims are supported by the context \(support model: lowest pYes 0\.\d\d, s[12], threshold 0\.50\)\.$/);
    const each = ["You accrue 1.5 days of earned leave every month [1].", "You get 8 days of casual leave a year [2]."].map((s) => baselineJudge("faithfulness", faith(s)).pYes!);
    expect(v.pYes).toBe(Math.min(...each));
  });

  it("fails an unsupported sentence, names it, what the context lacks and the best-matching passage", () => {
    const v = baselineJudge("faithfulness", faith("You accrue 1.5 days of earned leave every month. Unused leave can be donated to colleagues in need."));
    expect(v.verdict).toBe("no");
    expect(v.reason).toMatch(/^1 of 2 claims unsupported by the context \(support model pYes < 0\.50\): s2 "Unused leave can be donated to colleagues in need\." \(pYes 0\.\d\d\): the context lacks donated, colleagues, need \(\d+% of its content words\); best-matching passage \(hr-leave#2\): "/);
    expect(v.reason).not.toContain("s1");
    expect(v.pYes).toBeLessThan(0.5);
  });

  it("fails a number the context does not state, however many words match", () => {
    const v = baselineJudge("faithfulness", faith("You accrue 2 days of earned leave for every completed month of service."));
    expect(v).toMatchObject({ verdict: "no", pYes: 0 });
    expect(v.reason).toContain("lacks 2 (numbers and codes must occur as written");
  });

  it("skips refusals, courtesy lines and list markers; no checkable claim is yes without a pYes", () => {
    const v = baselineJudge("faithfulness", faith("Sure. 1. You accrue 1.5 days of earned leave every month. The documents do not say whether it can be donated."));
    expect(v.verdict).toBe("yes");
    expect(v.reason).toMatch(/^Its one claim is supported/);
    const none = baselineJudge("faithfulness", faith("Sure!"));
    expect(none).toEqual({ verdict: "yes", reason: "The answer makes no checkable claim (no sentence with enough content words, a number or a code)." });
  });

  it("an empty context supports nothing", () => {
    const v = baselineJudge("faithfulness", { question: "q", answer: "You get 8 days of casual leave.", context: [] });
    expect(v.verdict).toBe("no");
    expect(v.reason).toContain("there is no reference passage");
  });

  it("judges Hindi and romanised Hindi answers against context in the same language", () => {
    const hindi = [{ id: "c", text: "हर साल आपको 8 दिन की आकस्मिक छुट्टी मिलती है।" }];
    const yes = baselineJudge("faithfulness", { question: "कितनी छुट्टी मिलती है?", answer: "आपको हर साल ८ दिन की आकस्मिक छुट्टी मिलती है।", context: hindi });
    expect(yes.verdict).toBe("yes");
    expect(baselineJudge("faithfulness", { question: "q", answer: "आपको हर साल 12 दिन की आकस्मिक छुट्टी मिलती है।", context: hindi })).toMatchObject({ verdict: "no", pYes: 0 });
    expect(baselineJudge("faithfulness", { question: "q", answer: "कर्मचारियों को मुफ़्त जिम सदस्यता और बीमा मिलता है।", context: hindi }).verdict).toBe("no");
    const roman = [{ id: "r", text: "Har saal aapko 8 din ki casual chhutti milti hai. Bachi hui chhutti agle saal nahi jaati." }];
    expect(baselineJudge("faithfulness", { question: "q", answer: "Aapko har saal 8 din ki casual chhutti milti hai.", context: roman }).verdict).toBe("yes");
    expect(baselineJudge("faithfulness", { question: "q", answer: "Office mein gym aur swimming pool ki membership free milti hai.", context: roman }).verdict).toBe("no");
    for (const v of [yes, baselineJudge("citation-accuracy", { question: "q", sentence: "यह नीति सभी पर लागू है।", cited: hindi[0]! })]) {
      expect(v.pYes).toBeGreaterThanOrEqual(0);
      expect(v.pYes).toBeLessThanOrEqual(1);
    }
  });
});

describe("fingerprints", () => {
  const rule = { support: "rule" } as const;

  it("the previous rule keeps the fingerprint it always had (its calibrations stay valid)", () => {
    expect(baselineFingerprint("faithfulness", DEFAULT_THRESHOLDS, rule)).toBe("0db4794a352f15b4f292cf9fa850674766cfe0fddc2e749a254c8e484256c0c2");
    expect(baselineFingerprint("citation-accuracy", DEFAULT_THRESHOLDS, rule).slice(0, 12)).toBe("88cf9895e9d9");
  });

  it("the learned model's weights, features and threshold are part of the fingerprint of the rubrics it decides", () => {
    const f = baselineFingerprint("faithfulness");
    expect(f).not.toBe(baselineFingerprint("faithfulness", DEFAULT_THRESHOLDS, rule));
    const weights = [...SUPPORT_MODEL.weights];
    weights[0] = weights[0]! + 1e-6;
    for (const model of [{ ...SUPPORT_MODEL, weights }, { ...SUPPORT_MODEL, threshold: 0.6 }, { ...SUPPORT_MODEL, version: SUPPORT_MODEL.version + 1 }]) {
      expect(baselineFingerprint("faithfulness", DEFAULT_THRESHOLDS, { support: "learned", model })).not.toBe(f);
      expect(baselineFingerprint("citation-accuracy", DEFAULT_THRESHOLDS, { support: "learned", model })).not.toBe(baselineFingerprint("citation-accuracy"));
    }
    // Provenance notes do not change a verdict, so they do not change the fingerprint.
    expect(baselineFingerprint("faithfulness", DEFAULT_THRESHOLDS, { support: "learned", model: { ...SUPPORT_MODEL, fit: { ...SUPPORT_MODEL.fit, method: "x" } } })).toBe(f);
  });

  it("rubrics the model does not decide keep their fingerprints", () => {
    for (const rubric of ["not-found", "correctness", "anchor-ambiguity"]) {
      expect(baselineFingerprint(rubric)).toBe(baselineFingerprint(rubric, DEFAULT_THRESHOLDS, rule));
    }
    expect(baselineFingerprint("not-found").slice(0, 12)).toBe("33b3f9d6d0fb");
  });
});
