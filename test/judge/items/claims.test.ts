import { describe, expect, it } from "vitest";
import { hashJson } from "../../../src/golden/hash.js";
import type { Judgment } from "../../../src/golden/schema/items.js";
import { citedClaims, expandClaims, isClaimUnit, splitClaims } from "../../../src/judge/items/claims.js";
import { deriveVerdict, withDerivedVerdicts } from "../../../src/judge/items/derive-claims.js";
import { loadJudgeInputs } from "../../../src/judge/items/inputs.js";
import { fixtureConfig, fixtureInputs } from "../helpers.js";

describe("splitClaims", () => {
  it("splits a multi-sentence answer into sentences, citation markers stripped", () => {
    expect(splitClaims("No. Unused casual leave lapses on 31 December [1]. You get 12 days of casual leave per year [2].")).toEqual([
      "No.",
      "Unused casual leave lapses on 31 December.",
      "You get 12 days of casual leave per year.",
    ]);
    expect(splitClaims("Reset it in the portal [it#0; it#1]! Is that all [1, 3]?")).toEqual(["Reset it in the portal!", "Is that all?"]);
  });

  it("makes one claim of each list item, bullets and numbers stripped", () => {
    const answer = "You can claim:\n- travel up to INR 500 [1]\n* meals [2]\n• hotels\n1. taxis [3]\n2) trains";
    expect(splitClaims(answer)).toEqual(["You can claim:", "travel up to INR 500", "meals", "hotels", "taxis", "trains"]);
  });

  it("leaves out pieces that say nothing (a lone marker, punctuation)", () => {
    expect(splitClaims("Leave lapses [1]. [2] ... ")).toEqual(["Leave lapses."]);
    expect(splitClaims("[1]")).toEqual([]);
  });

  it("splits Hindi at the danda and keeps the danda", () => {
    expect(splitClaims("अर्जित अवकाश 45 दिन तक आगे ले जा सकते हैं [1]। मंज़ूरी मैनेजर देता है [2]।")).toEqual([
      "अर्जित अवकाश 45 दिन तक आगे ले जा सकते हैं।",
      "मंज़ूरी मैनेजर देता है।",
    ]);
  });

  it("splits romanised Hindi like English", () => {
    expect(splitClaims("Aapko saal mein 12 casual leave milti hain [1]. Yeh 31 December ko lapse ho jaati hain [2].")).toEqual([
      "Aapko saal mein 12 casual leave milti hain.",
      "Yeh 31 December ko lapse ho jaati hain.",
    ]);
  });

  it("does not cut after initials, common abbreviations or a list's number", () => {
    expect(splitClaims("B.J. Thomas sang it in the U.S. Virgin Islands. Dr. Rao agreed.")).toEqual(["B.J. Thomas sang it in the U.S. Virgin Islands.", "Dr. Rao agreed."]);
    expect(splitClaims("New Jersey v. T.L.O. was decided in 1985. 5. Justice Wanjala sat. No. It is Series No. 2.")).toEqual(["New Jersey v. T.L.O. was decided in 1985.", "Justice Wanjala sat.", "No.", "It is Series No. 2."]);
    expect(splitClaims("Steps:\n1.\nOpen the portal\n2.")).toEqual(["Steps:", "Open the portal"]);
  });

  it("names claim units c1, c2, ... only", () => {
    expect(["c1", "c12"].every(isClaimUnit)).toBe(true);
    expect(["c0", "answer", "s1:x", "c", "c01"].some(isClaimUnit)).toBe(false);
  });
});

describe("citedClaims", () => {
  const item = (answer: string) => ({ key: { variant: "v", question: "q", rubric: "faithfulness", unit: "answer" }, evidence: { question: "?", answer } }) as never;
  const of = (answer: string, citations?: { sentence: string; chunks: string[] }[]) =>
    citedClaims([{ name: "v", outputs: new Map([["q", { id: "q", retrieved: [], answer, ...(citations ? { citations } : {}) }]]) } as never])(item(answer));

  it("takes the explicit citation sentences when together they are the whole answer", () => {
    expect(of("Dr. Rao approves leave, e.g. sick leave [1].", [{ sentence: "Dr. Rao approves leave, e.g. sick leave.", chunks: ["a"] }])).toEqual(["Dr. Rao approves leave, e.g. sick leave."]);
    expect(of("A is 1.  B is 2.", [{ sentence: "A is 1.", chunks: ["a"] }, { sentence: "B is 2.", chunks: ["b"] }])).toEqual(["A is 1.", "B is 2."]);
  });

  it("takes the pipeline's own claims first, markers stripped", () => {
    const line = { id: "q", retrieved: [], answer: "A is 1. B is 2.", claims: ["A is 1 [1].", "B is 2.", "[2]"], citations: [{ sentence: "A is 1. B is 2.", chunks: ["a"] }] };
    expect(citedClaims([{ name: "v", outputs: new Map([["q", line]]) } as never])(item(line.answer))).toEqual(["A is 1.", "B is 2."]);
  });

  it("leaves the splitter to decide when a sentence is not among the citations, or there are none", () => {
    expect(of("A is 1. B is 2.", [{ sentence: "A is 1.", chunks: ["a"] }])).toBeUndefined();
    expect(of("A is 1. B is 2.")).toBeUndefined();
  });
});

describe("expandClaims on the judge fixture", () => {
  const answerSet = fixtureInputs(["faithfulness", "correctness"]).itemSet;
  const claimSet = expandClaims(answerSet, { unit: "claim" });

  it("changes nothing with unit answer (the default)", () => {
    expect(expandClaims(answerSet, { unit: "answer" })).toBe(answerSet);
    const cfg = fixtureConfig();
    expect(cfg.config.faithfulnessUnit).toBe("answer");
  });

  it("replaces each faithfulness answer item with its claims, each with its own input hash over claim and context", () => {
    const q1 = claimSet.items.filter((i) => i.key.variant === "bm25" && i.key.question === "q1" && i.key.rubric === "faithfulness");
    expect(q1.map((i) => i.key.unit)).toEqual(["c1", "c2", "c3"]);
    const answer = answerSet.items.find((i) => i.key.variant === "bm25" && i.key.question === "q1" && i.key.rubric === "faithfulness")!;
    for (const c of q1) {
      expect(c.inputHash).toBe(hashJson(c.evidence));
      expect(c.evidence).toEqual({ ...answer.evidence, answer: c.claim!.text });
      expect(c.claim).toMatchObject({ answerHash: answer.inputHash, of: 3 });
    }
    expect(q1[1]!.evidence.answer).toBe("Unused casual leave lapses on 31 December.");
    expect(new Set(q1.map((i) => i.inputHash)).size).toBe(3);
    // Other rubrics are untouched.
    expect(claimSet.items.filter((i) => i.key.rubric === "correctness")).toEqual(answerSet.items.filter((i) => i.key.rubric === "correctness"));
  });

  it("gives a one-sentence answer without markers the answer item's input hash", () => {
    const [a] = expandClaims({ items: [{ ...answerSet.items.find((i) => i.key.rubric === "faithfulness")!, evidence: { question: "q", answer: "Leave lapses.", context: [] }, inputHash: hashJson({ question: "q", answer: "Leave lapses.", context: [] }) }], skipped: [] }, { unit: "claim" }).items;
    expect(a!.key.unit).toBe("c1");
    expect(a!.inputHash).toBe(hashJson({ question: "q", answer: "Leave lapses.", context: [] }));
  });

  it("takes the claims from claimsOf when it gives them, an answer without claims passing by rule", () => {
    const set = expandClaims(answerSet, { unit: "claim", claimsOf: (it) => (it.key.question === "q1" ? ["one", "two"] : it.key.question === "q2" ? [] : undefined) });
    const f = set.items.filter((i) => i.key.rubric === "faithfulness" && i.key.variant === "bm25");
    expect(f.filter((i) => i.key.question === "q1").map((i) => i.evidence.answer)).toEqual(["one", "two"]);
    expect(f.find((i) => i.key.question === "q2")).toMatchObject({ key: { unit: "answer" }, rule: { verdict: "yes", rule: "no-claims" } });
  });

  it("is what loadJudgeInputs builds under faithfulnessUnit claim", () => {
    const cfg = fixtureConfig();
    const resolved = { ...cfg, config: { ...cfg.config, faithfulnessUnit: "claim" as const } };
    const { itemSet } = loadJudgeInputs(resolved, { rubrics: ["faithfulness", "correctness"] });
    expect(itemSet.items.map((i) => [i.key, i.inputHash])).toEqual(claimSet.items.map((i) => [i.key, i.inputHash]));
  });
});

const base = { variant: "v", question: "q", rubric: "faithfulness", fingerprint: "fp", judge: "baseline" as const, repeat: 0, cached: false, time: "2026-12-01T00:00:00.000Z" };

describe("derived answer verdicts", () => {
  it("is yes iff every claim is supported, no when one is not, error when none is no but one errored", () => {
    expect(deriveVerdict([{ unit: "c1", verdict: "yes", reason: "" }, { unit: "c2", verdict: "yes", reason: "" }])).toEqual({ verdict: "yes", reason: "every claim is supported (2 claims)" });
    const no = deriveVerdict([{ unit: "c1", verdict: "yes", reason: "" }, { unit: "c2", verdict: "no", reason: "the sources say 45", claim: "30 days" }, { unit: "c3", verdict: "error", reason: "", error: "timeout" }]);
    expect(no.verdict).toBe("no");
    expect(no.reason).toBe('unsupported: c2: "30 days": the sources say 45 (and c3 not judged: error)');
    expect(deriveVerdict([{ unit: "c1", verdict: "yes", reason: "" }, { unit: "c2", verdict: "error", reason: "", error: "timeout" }])).toEqual({ verdict: "error", reason: "", error: "claims: c2: timeout" });
  });

  it("attaches claim texts and appends one derived answer verdict per answer and repeat", () => {
    const set = expandClaims(fixtureInputs(["faithfulness"]).itemSet, { unit: "claim" });
    const claims = set.items.filter((i) => i.claim && i.key.variant === "bm25" && i.key.question === "q1");
    const judgments: Judgment[] = claims.map((c, i) => ({ ...base, ...c.key, inputHash: c.inputHash, verdict: i === 1 ? "no" : "yes", reason: i === 1 ? "not in the sources" : "stated" }));
    const out = withDerivedVerdicts(set.items, judgments);
    expect(out.slice(0, 3).map((j) => j.claim)).toEqual(claims.map((c) => c.claim!.text));
    const derived = out.filter((j) => j.derived);
    expect(derived).toHaveLength(1);
    expect(derived[0]).toMatchObject({ unit: "answer", inputHash: claims[0]!.claim!.answerHash, verdict: "no", fingerprint: "fp", derived: "claims" });
    expect(derived[0]!.reason).toBe('unsupported: c2: "Unused casual leave lapses on 31 December.": not in the sources');
    // Not every claim judged: no answer verdict.
    expect(withDerivedVerdicts(set.items, judgments.slice(0, 2)).filter((j) => j.derived)).toEqual([]);
  });
});
