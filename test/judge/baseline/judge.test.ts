import { describe, expect, it } from "vitest";
import { hashJson } from "../../../src/golden/hash.js";
import type { Evidence } from "../../../src/golden/schema/items.js";
import {
  BASELINE_RUBRICS, BASELINE_VERSION, BaselineEvidenceError, DEFAULT_THRESHOLDS, UnknownBaselineRubricError,
  baselineFingerprint, baselineJudge, createBaselineJudge, isBaselineRubric,
} from "../../../src/judge/baseline/index.js";

// Invented example text (no third-party data).
const leave = { id: "hr-leave#1", text: "You accrue 1.5 days of earned leave for every completed month of service, which adds up to 18 days in a full year. Apply in Saathi using form EL-7." };
const casual = { id: "hr-leave#2", heading: "Casual leave", text: "You get 8 days of casual leave a year. Unused casual leave lapses on 31 December; it is neither carried forward nor encashed." };
const context = [leave, casual];

/** The previous word-coverage rule for faithfulness and citation accuracy, kept for measurement. */
const rule = createBaselineJudge(DEFAULT_THRESHOLDS, { support: "rule" });

const faith = (answer: string): Evidence => ({ question: "How much earned leave do I get?", answer, context });
const cite = (sentence: string, cited = leave): Evidence => ({ question: "q", sentence, cited });

describe("faithfulness by the previous coverage rule (support: rule)", () => {
  it("passes an answer whose every sentence is in the context", () => {
    const v = rule("faithfulness", faith("You accrue 1.5 days of earned leave every month [1]. That adds up to 18 days in a full year [1]."));
    expect(v.verdict).toBe("yes");
    expect(v.reason).toMatch(/All 2 claims are supported/);
  });

  it("fails an unsupported sentence and names it", () => {
    const v = rule("faithfulness", faith("You accrue 1.5 days of earned leave every month. Unused leave can be donated to colleagues in need."));
    expect(v.verdict).toBe("no");
    expect(v.reason).toMatch(/^1 of 2 claims unsupported/);
    expect(v.reason).toContain('s2 "Unused leave can be donated to colleagues in need."');
    expect(v.reason).toMatch(/missing: donat, colleagu, need/);
    expect(v.reason).not.toContain("s1");
  });

  it("fails a number the context does not state, however many words match", () => {
    const v = rule("faithfulness", faith("You accrue 2 days of earned leave for every completed month of service."));
    expect(v.verdict).toBe("no");
    expect(v.reason).toContain("number 2 not found");
  });

  it("fails a code the context does not state", () => {
    expect(rule("faithfulness", faith("Apply in Saathi using form EL7.")).verdict).toBe("yes");
    const v = rule("faithfulness", faith("Apply in Saathi using form EL9."));
    expect(v.verdict).toBe("no");
    expect(v.reason).toContain("code el9 not found");
  });

  it("matches number words against digits and headings as part of a chunk", () => {
    const ctx = [{ id: "c", heading: "Sick leave certificate", text: "A certificate is required for absences longer than two consecutive working days." }];
    const e: Evidence = { question: "q", answer: "A sick leave certificate is required for absences longer than 2 consecutive working days.", context: ctx };
    expect(rule("faithfulness", e).verdict).toBe("yes");
  });

  it("skips refusals and sentences too short to check", () => {
    const v = rule("faithfulness", faith("Sure. You accrue 1.5 days of earned leave every month. The documents do not say whether it can be donated."));
    expect(v.verdict).toBe("yes");
    expect(v.reason).toMatch(/one claim/);
    expect(rule("faithfulness", faith("Sure!")).reason).toMatch(/no checkable claim/);
  });

  it("a claim is supported from 60% of its content words found (the tuned threshold)", () => {
    // Content words: accru, day, earn, leav, payout -> 4 of 5 found (80%); with two unknown of 5 -> 60%; three unknown -> 40%.
    const ctx = [{ id: "c", text: "You accrue days of earned leave." }];
    const at = (answer: string) => rule("faithfulness", { question: "q", answer, context: ctx }).verdict;
    expect(at("You accrue days of earned leave payouts.")).toBe("yes");
    expect(at("You accrue days of earned bonus payouts.")).toBe("yes");
    expect(at("You accrue days of unpaid bonus payouts.")).toBe("no");
  });

  it("an empty context supports nothing", () => {
    expect(rule("faithfulness", { question: "q", answer: "You get 8 days of casual leave.", context: [] }).verdict).toBe("no");
  });

  it("checks Devanagari answers against Devanagari context", () => {
    const ctx = [{ id: "c", text: "हर साल आपको 8 दिन की आकस्मिक छुट्टी मिलती है।" }];
    expect(rule("faithfulness", { question: "q", answer: "आपको हर साल ८ दिन की आकस्मिक छुट्टी मिलती है।", context: ctx }).verdict).toBe("yes");
    expect(rule("faithfulness", { question: "q", answer: "आपको हर साल 12 दिन की आकस्मिक छुट्टी मिलती है।", context: ctx }).verdict).toBe("no");
  });
});

describe("citation-accuracy by the previous coverage rule (support: rule)", () => {
  it("passes a sentence its cited chunk supports", () => {
    const v = rule("citation-accuracy", cite("Earned leave adds up to 18 days in a full year [hr-leave#1]."));
    expect(v).toEqual({ verdict: "yes", reason: "Chunk hr-leave#1 contains 100% of the sentence's content words and all its numbers and codes." });
  });

  it("fails a sentence supported by another chunk than the one cited", () => {
    const sentence = "Unused casual leave lapses on 31 December.";
    expect(rule("citation-accuracy", cite(sentence, casual)).verdict).toBe("yes");
    const v = rule("citation-accuracy", cite(sentence, leave));
    expect(v.verdict).toBe("no");
    expect(v.reason).toMatch(/^Chunk hr-leave#1 does not support the sentence: .*number 31 not found/);
  });

  it("fails a number mismatch", () => {
    expect(rule("citation-accuracy", cite("Earned leave adds up to 20 days in a full year.")).verdict).toBe("no");
  });
});

describe("correctness", () => {
  const ref = "No. Unused casual leave cannot be carried forward to the next year.";
  const corr = (answer: string | undefined, reference = ref): Evidence => ({ question: "Can I carry forward casual leave?", reference, answer });

  it("passes an answer stating the reference's facts", () => {
    expect(baselineJudge("correctness", corr("No, unused casual leave is not carried forward to the next year; it lapses.")).verdict).toBe("yes");
  });

  it("fails an answer contradicting the reference with the opposite yes/no", () => {
    const v = baselineJudge("correctness", corr("Yes, unused casual leave can be carried forward to the next year."));
    expect(v.verdict).toBe("no");
    expect(v.reason).toBe('The answer says "yes" where the reference says "no".');
  });

  it("fails an answer contradicting the reference by negation", () => {
    const v = baselineJudge("correctness", corr("Unused casual leave can be carried forward to the next year."));
    expect(v.verdict).toBe("no");
    expect(v.reason).toMatch(/contradicts the reference: the reference is negated/);
  });

  it("fails a different number", () => {
    const v = baselineJudge("correctness", corr("You get 10 days of casual leave a year.", "You get 8 days of casual leave a year."));
    expect(v.verdict).toBe("no");
    expect(v.reason).toContain("8");
  });

  it("fails an answer missing the reference's facts", () => {
    const v = baselineJudge("correctness", corr("Please ask your manager about it.", "You get 8 days of casual leave a year."));
    expect(v.verdict).toBe("no");
  });

  it("a refusal or no answer is not correct", () => {
    expect(baselineJudge("correctness", corr("I could not find this in the documents.")).verdict).toBe("no");
    expect(baselineJudge("correctness", corr("Yeh jaankari uplabdh nahi hai.")).reason).toMatch(/refuses/);
    expect(baselineJudge("correctness", corr(undefined)).reason).toMatch(/no answer/);
    expect(baselineJudge("correctness", corr("   ")).verdict).toBe("no");
  });
});

describe("not-found", () => {
  const nf = (answer: string | undefined, answerable: boolean): Evidence => ({ question: "Is gym membership reimbursed?", answer, answerable });

  it.each([
    ["English", "I could not find this information in the documents."],
    ["Devanagari", "दस्तावेज़ों में यह जानकारी नहीं मिली।"],
    ["romanised Hindi", "Yeh jaankari uplabdh nahi hai."],
  ])("unanswerable + %s refusal -> yes", (_, answer) => {
    const v = baselineJudge("not-found", nf(answer, false));
    expect(v.verdict).toBe("yes");
    expect(v.reason).toMatch(/says the information is not available/);
  });

  it("unanswerable + invented answer -> no", () => {
    const v = baselineJudge("not-found", nf("Yes, gym membership is reimbursed up to 2,000 rupees a month.", false));
    expect(v.verdict).toBe("no");
    expect(v.reason).toMatch(/never says the information is not available/);
  });

  it("unanswerable + refusal hedged with an invented answer -> no", () => {
    const v = baselineJudge("not-found", nf("The documents do not say, but it is usually reimbursed up to 2,000 rupees.", false));
    expect(v.verdict).toBe("no");
    expect(v.reason).toMatch(/answers anyway/);
  });

  it("answerable + false refusal -> no", () => {
    const v = baselineJudge("not-found", nf("मुझे इसकी जानकारी उपलब्ध नहीं है।", true));
    expect(v.verdict).toBe("no");
    expect(v.reason).toMatch(/^False "not found"/);
  });

  it("answerable + answer -> yes, including an answer that mentions unavailability of something else", () => {
    expect(baselineJudge("not-found", nf("Yes, up to 2,000 rupees a month.", true)).verdict).toBe("yes");
    expect(baselineJudge("not-found", nf("Gym reimbursement is not available to interns.", true)).verdict).toBe("yes");
  });

  it("an empty answer is wrong either way", () => {
    expect(baselineJudge("not-found", nf("", true)).verdict).toBe("no");
    expect(baselineJudge("not-found", nf(undefined, false)).verdict).toBe("no");
  });
});

describe("anchor-ambiguity", () => {
  const question = "How many days of casual leave do I get?";
  const related = { id: "a", text: "Casual leave cannot be taken for more than three consecutive working days." };
  const answering = { id: "b", text: "Every employee gets 8 days of casual leave a year, credited on 1 January." };

  it("yes when a candidate states the reference's facts", () => {
    const v = baselineJudge("anchor-ambiguity", { question, reference: "8 days a year, credited on 1 January.", candidates: [related, answering] });
    expect(v.verdict).toBe("yes");
    expect(v.reason).toMatch(/^Chunk b /);
  });

  it("no when candidates are only on the topic (the reference's number is missing)", () => {
    const v = baselineJudge("anchor-ambiguity", { question, reference: "8 days a year, credited on 1 January.", candidates: [related] });
    expect(v.verdict).toBe("no");
    expect(v.reason).toMatch(/lacks 8, 1/);
  });

  it("without a reference, falls back to the question's words", () => {
    expect(baselineJudge("anchor-ambiguity", { question: "When is casual leave credited?", candidates: [answering] }).verdict).toBe("yes");
    expect(baselineJudge("anchor-ambiguity", { question: "When is the travel allowance paid?", candidates: [answering] }).verdict).toBe("no");
  });

  it("no candidates -> no", () => {
    expect(baselineJudge("anchor-ambiguity", { question, candidates: [] }).verdict).toBe("no");
  });
});

describe("the judge", () => {
  it("implements exactly the five rubrics", () => {
    expect(BASELINE_RUBRICS).toEqual(["anchor-ambiguity", "citation-accuracy", "correctness", "faithfulness", "not-found"]);
    expect(isBaselineRubric("faithfulness")).toBe(true);
    expect(isBaselineRubric("toString")).toBe(false);
  });

  it("throws for an unknown rubric, naming it and the known ones", () => {
    expect(() => baselineJudge("tone", faith("x"))).toThrow(UnknownBaselineRubricError);
    expect(() => baselineJudge("toString", faith("x"))).toThrow(/no rule for rubric "toString".*faithfulness/);
    expect(() => baselineFingerprint("tone")).toThrow(UnknownBaselineRubricError);
  });

  it("throws BaselineEvidenceError when the rubric's evidence is missing", () => {
    expect(() => baselineJudge("correctness", { question: "q", answer: "a" })).toThrow(BaselineEvidenceError);
    expect(() => baselineJudge("not-found", { question: "q", answer: "a" })).toThrow(/needs evidence.answerable/);
    expect(() => baselineJudge("faithfulness", { question: "q", answer: "a" })).toThrow(/needs evidence.context/);
    expect(() => baselineJudge("citation-accuracy", { question: "q", sentence: "a" })).toThrow(/needs evidence.cited/);
    expect(() => baselineJudge("anchor-ambiguity", { question: "q" })).toThrow(/needs evidence.candidates/);
  });

  it("is deterministic and does not modify the evidence", () => {
    const cases: [string, Evidence][] = [
      ["faithfulness", faith("You accrue 1.5 days a month. Leave can be donated.")],
      ["citation-accuracy", cite("Earned leave adds up to 18 days.")],
      ["correctness", { question: "q", reference: "8 days.", answer: "You get 8 days." }],
      ["not-found", { question: "q", answer: "Yeh jaankari uplabdh nahi hai.", answerable: false }],
      ["anchor-ambiguity", { question: "How many days of casual leave?", candidates: context }],
    ];
    for (const [rubric, e] of cases) {
      const before = hashJson(e);
      const first = baselineJudge(rubric, e);
      for (let i = 0; i < 3; i++) expect(baselineJudge(rubric, structuredClone(e))).toEqual(first);
      expect(createBaselineJudge()(rubric, e)).toEqual(first);
      expect(hashJson(e)).toBe(before);
    }
  });

  it("has a fingerprint per rubric that changes with the thresholds", () => {
    const f = baselineFingerprint("faithfulness");
    expect(f).toMatch(/^[0-9a-f]{64}$/);
    expect(baselineFingerprint("faithfulness")).toBe(f);
    expect(baselineFingerprint("citation-accuracy")).not.toBe(f);
    expect(baselineFingerprint("faithfulness", { ...DEFAULT_THRESHOLDS, supportCoverage: 0.7 })).not.toBe(f);
    expect(BASELINE_VERSION).toMatch(/^\S+$/);
  });

  it("other thresholds change verdicts; invalid ones are refused", () => {
    const e = faith("You accrue 1.5 days of earned leave and unpaid sabbaticals.");
    expect(createBaselineJudge({ ...DEFAULT_THRESHOLDS, supportCoverage: 1 }, { support: "rule" })("faithfulness", e).verdict).toBe("no");
    expect(createBaselineJudge({ ...DEFAULT_THRESHOLDS, supportCoverage: 0.3 }, { support: "rule" })("faithfulness", e).verdict).toBe("yes");
    expect(() => createBaselineJudge({ ...DEFAULT_THRESHOLDS, supportCoverage: 1.5 })).toThrow(RangeError);
    expect(() => createBaselineJudge({ ...DEFAULT_THRESHOLDS, hedgeMinWords: 2.5 })).toThrow(RangeError);
  });
});
