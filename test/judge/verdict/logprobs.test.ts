/**
 * The rule reading P(yes) from token log-probabilities: the JSON verdict
 * field located in the token stream, renormalised over yes/no variants, and
 * no pYes (never a guess) whenever the rule cannot be applied.
 */
import { describe, expect, it } from "vitest";
import { pYesFromLogprobs, verdictValueOffset, type TokenLogprob } from "../../../src/judge/verdict/logprobs.js";
import { tokenLogprobs } from "../../server/logprobs.js";

const tok = (token: string, alts: [string, number][] = []): TokenLogprob => ({
  token,
  logprob: alts.find(([t]) => t === token)?.[1] ?? -0.01,
  top_logprobs: alts.map(([t, p]) => ({ token: t, logprob: Math.log(p) })),
});

/** Tokens of `parts`, with the alternatives given for the part at `at`. */
function stream(parts: string[], at: number, alts: [string, number][]): TokenLogprob[] {
  return parts.map((p, i) => (i === at ? { ...tok(p), logprob: Math.log(alts.find(([t]) => t === p)?.[1] ?? 0.5), top_logprobs: alts.map(([t, q]) => ({ token: t, logprob: Math.log(q) })) } : tok(p)));
}

describe("verdictValueOffset", () => {
  it("finds the value of the last verdict key, never one inside a string or in prose", () => {
    const whole = '{"reason":"says \\"verdict\\": \\"no\\" here","verdict":"yes"}';
    expect(whole.slice(verdictValueOffset(whole))).toBe('yes"}');
    const prose = 'I think "verdict": "no" is wrong.\n{"reason":"r","verdict": "yes"}';
    expect(prose.slice(verdictValueOffset(prose))).toBe('yes"}');
    expect(verdictValueOffset("Reason.\nVerdict: yes")).toBe(-1);
    expect(verdictValueOffset('{"reason":"r","verdict":true}')).toBe(-1);
  });
});

describe("pYesFromLogprobs", () => {
  const content = '{"reason":"The source says 45 days.","verdict":"yes"}';
  const parts = ['{"', "reason", '":"', "The", " source", " says", " ", "45", " days", '."', ",", '"', "verdict", '":"', "yes", '"}'];
  const at = parts.indexOf("yes");

  it("renormalises exp(logprob) over the yes and no variants, ignoring other words", () => {
    const r = pYesFromLogprobs(content, stream(parts, at, [["yes", 0.6], ["Yes", 0.1], ["no", 0.2], ["No", 0.05], ["maybe", 0.05]]), "yes");
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.pYes).toBeCloseTo(0.7 / 0.95, 12);
  });

  it("reads a verdict token that carries its opening quote, comparing alternatives after the same prefix", () => {
    const p2 = [...parts.slice(0, at - 1), '":', '"no', '"}'];
    const c2 = content.replace('"yes"', '"no"');
    const r = pYesFromLogprobs(c2, stream(p2, p2.length - 2, [['"no', 0.7], ['"yes', 0.2], ['"Yes', 0.05], ["yes", 0.05]]), "no");
    expect(r).toEqual({ ok: true, pYes: expect.closeTo(0.25 / 0.95, 12) });
  });

  it("gives 1 when no 'no' variant is among the alternatives (the mass beyond the top k is unknown)", () => {
    const r = pYesFromLogprobs(content, stream(parts, at, [["yes", 0.9], ["Yes", 0.05]]), "yes");
    expect(r).toEqual({ ok: true, pYes: 1 });
  });

  it("counts a duplicated alternative once (the chosen token is usually listed too)", () => {
    const r = pYesFromLogprobs(content, stream(parts, at, [["yes", 0.5], ["yes", 0.5], ["no", 0.5]]), "yes");
    expect(r).toEqual({ ok: true, pYes: 0.5 });
  });

  it("has no pYes, with the cause, whenever the rule cannot be applied", () => {
    const alts: [string, number][] = [["yes", 0.8], ["no", 0.2]];
    expect(pYesFromLogprobs(content, [], "yes")).toEqual({ ok: false, cause: "no token log-probabilities in the reply" });
    expect(pYesFromLogprobs(content, null, "yes").ok).toBe(false);
    const line = "The source says 45 days.\nVerdict: yes";
    expect(pYesFromLogprobs(line, [tok(line)], "yes")).toEqual({ ok: false, cause: "no JSON verdict field in the reply" });
    expect(pYesFromLogprobs(content, stream(parts.slice(1), at - 1, alts), "yes")).toEqual({ ok: false, cause: "the tokens do not spell the reply" });
    const split = [...parts.slice(0, at), "y", "es", '"}'];
    expect(pYesFromLogprobs(content, stream(split, at, [["y", 0.8], ["n", 0.2]]), "yes")).toMatchObject({ ok: false, cause: expect.stringMatching(/does not hold the whole verdict word/) });
    expect(pYesFromLogprobs(content, stream(parts, at, alts), "no")).toEqual({ ok: false, cause: "the verdict token says yes, the reply no" });
  });

  it("maps through token bytes when a reason in Devanagari is cut mid-character", () => {
    const c = JSON.stringify({ reason: "स्रोत में 45 दिन लिखा है।", verdict: "no" });
    const tokens = tokenLogprobs(c, 0.2, 5);
    expect(tokens.some((t) => t.token.includes("\ufffd"))).toBe(true);
    expect(tokens.map((t) => t.token).join("")).not.toBe(c);
    const r = pYesFromLogprobs(c, tokens, "no");
    expect(r).toEqual({ ok: true, pYes: expect.closeTo(0.2, 12) });
    // Without bytes the texts do not spell the reply: no pYes rather than a guess.
    expect(pYesFromLogprobs(c, tokens.map(({ bytes: _b, ...t }) => t), "no")).toEqual({ ok: false, cause: "the tokens do not spell the reply" });
  });

  it("reads the test server's stream of an embedded JSON reply (JSON in the text)", () => {
    const c = 'Let me check the material.\n{"reason":"All claims are in source 2.","verdict":"yes"}';
    expect(pYesFromLogprobs(c, tokenLogprobs(c, 0.83, 5), "yes")).toEqual({ ok: true, pYes: expect.closeTo(0.83, 12) });
    // top_logprobs 2: only yes and Yes (or no) are seen; the renormalisation is over what is seen.
    expect(pYesFromLogprobs(c, tokenLogprobs(c, 0.83, 1), "yes")).toEqual({ ok: true, pYes: 1 });
  });
});
