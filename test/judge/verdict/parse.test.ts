import { describe, expect, it } from "vitest";
import { z } from "zod";
import { VERDICT_JSON_SCHEMA, VerdictReply, parseReply } from "../../../src/judge/verdict/parse.js";

const ok = (verdict: "yes" | "no", reason: string) => ({ ok: true, reply: { reason, verdict } });

describe("parseReply", () => {
  it("reads a structured reply", () => {
    expect(parseReply('{"reason":"All claims are in source 2.","verdict":"yes"}')).toMatchObject(ok("yes", "All claims are in source 2."));
  });

  it("reads JSON wrapped in a Markdown code fence", () => {
    expect(parseReply('```json\n{"reason":"r","verdict":"no"}\n```')).toMatchObject(ok("no", "r"));
  });

  it("accepts an unambiguous verdict in another case", () => {
    expect(parseReply('{"reason":"r","verdict":" Yes "}')).toMatchObject(ok("yes", "r"));
  });

  it("reads a JSON verdict inside prose, the last one when several agree", () => {
    const text = 'First thought: {"reason":"looks wrong","verdict":"no"}. On reflection the date is wrong too.\n{"reason":"the date is wrong","verdict":"no"}';
    expect(parseReply(text)).toMatchObject({ ...ok("no", "the date is wrong"), via: "embedded-json" });
    expect(parseReply('Here you go:\n```json\n{"reason":"r","verdict":"no"}\n```')).toMatchObject({ ...ok("no", "r"), via: "embedded-json" });
  });

  it("fails closed when JSON objects in the reply disagree, or prose outside them contradicts them", () => {
    const both = { ok: false, cause: "parse: the reply gives both verdicts (yes and no)" };
    expect(parseReply('{"reason":"a","verdict":"yes"}\n{"reason":"b","verdict":"no"}')).toEqual(both);
    expect(parseReply('First thought: {"reason":"looks fine","verdict":"yes"}. On reflection the date is wrong.\n{"reason":"the date is wrong","verdict":"no"}')).toEqual(both);
    expect(parseReply('{"reason":"r","verdict":"yes"}\nActually, verdict: no')).toEqual(both);
    expect(parseReply('{"verdict": yes}\n{"reason":"r","verdict":"no"}')).toEqual(both);
    // A verdict phrase inside the object's own reason is part of the reason, not a second verdict.
    expect(parseReply('Done. {"reason":"the answer says verdict: yes but is unsupported","verdict":"no"}')).toMatchObject(ok("no", "the answer says verdict: yes but is unsupported"));
  });

  it("ignores braces inside strings when looking for JSON", () => {
    expect(parseReply('Note {not json}. {"reason":"a } brace","verdict":"no"}')).toMatchObject(ok("no", "a } brace"));
  });

  it("reads a text reply whose last line is a verdict line, the text before it being the reason", () => {
    expect(parseReply("Claim 2 says 12 days; the source says 10.\nVerdict: no")).toEqual({ ok: true, reply: { reason: "Claim 2 says 12 days; the source says 10.", verdict: "no" }, via: "verdict-line" });
    expect(parseReply("**Reason:** all good.\n**Verdict:** yes")).toMatchObject({ ok: true, reply: { verdict: "yes" }, via: "verdict-line" });
    expect(parseReply("All claims are in source 1.\nFinal verdict = NO.")).toMatchObject({ ok: true, reply: { verdict: "no" } });
    expect(parseReply("I must give a verdict: yes or no.\nThe source says 10 days, not 12.\nVerdict: no")).toMatchObject({ ok: true, reply: { verdict: "no" } });
  });

  it("fails closed on verdict lines that disagree, and on verdict phrases that are not the last line", () => {
    const both = { ok: false, cause: "parse: the reply gives both verdicts (yes and no)" };
    const none = { ok: false, cause: "parse: no verdict found in the reply" };
    expect(parseReply("Claim 1 is supported.\nVerdict: yes\nWait, claim 2 is not.\n**Verdict:** no")).toEqual(both);
    expect(parseReply("I need to give a verdict: yes or no. The answer claims 12 days but the source says 10.")).toEqual(none);
    expect(parseReply("Verdict: yes. Note the source says the verdict: no refunds.")).toEqual(none);
    expect(parseReply("Reason r.\nVerdict: yes, mostly, but no for claim 2")).toEqual(none);
    expect(parseReply("Verdict: no\nThe source says 10 days.")).toEqual(none);
    expect(parseReply("The claim is unsupported.\nFinal answer: no")).toEqual(none);
  });

  it("fails closed on an empty or blank reason", () => {
    expect(parseReply('{"reason":"","verdict":"yes"}')).toEqual({ ok: false, cause: 'parse: field "reason" is empty' });
    expect(parseReply('{"reason":"  ","verdict":"no"}')).toEqual({ ok: false, cause: 'parse: field "reason" is empty' });
    expect(parseReply("verdict: no")).toEqual({ ok: false, cause: 'parse: field "reason" is missing' });
  });

  it("fails closed on a missing field instead of guessing", () => {
    expect(parseReply('{"verdict":"yes"}')).toEqual({ ok: false, cause: 'parse: field "reason" is missing' });
    expect(parseReply('{"reason":"r"}')).toEqual({ ok: false, cause: 'parse: field "verdict" is missing' });
    expect(parseReply('Reasoning... {"verdict":"yes","why":"x"}')).toEqual({ ok: false, cause: 'parse: field "reason" is missing' });
  });

  it("fails closed on a verdict outside yes/no", () => {
    for (const v of ['"maybe"', '"partially"', "true", "1", '"yes, mostly"']) {
      const r = parseReply(`{"reason":"r","verdict":${v}}`);
      expect(r.ok).toBe(false);
    }
  });

  it("fails closed on malformed or truncated JSON, even if it names a verdict", () => {
    expect(parseReply('{"reason": "The answer is supported", "verdict": "yes"')).toEqual({ ok: false, cause: "parse: malformed JSON reply" });
    expect(parseReply('{"reason": "x", "verdict": yes}')).toEqual({ ok: false, cause: "parse: malformed JSON reply" });
  });

  it("fails closed on empty, non-object and verdict-free replies", () => {
    expect(parseReply("")).toEqual({ ok: false, cause: "parse: empty reply" });
    expect(parseReply(null)).toEqual({ ok: false, cause: "parse: empty reply" });
    expect(parseReply("[1,2]")).toEqual({ ok: false, cause: "parse: the reply is JSON but not an object" });
    expect(parseReply("I think the answer is fine.")).toEqual({ ok: false, cause: "parse: no verdict found in the reply" });
    expect(parseReply("yes")).toEqual({ ok: false, cause: "parse: no verdict found in the reply" });
  });

  it("does not read 'verdict' words without a separator as a verdict", () => {
    expect(parseReply("I cannot reach a verdict no matter how I read it.").ok).toBe(false);
  });
});

describe("VERDICT_JSON_SCHEMA", () => {
  it("is the strict schema of the zod reply, reason first, without $schema", () => {
    expect(VERDICT_JSON_SCHEMA).toEqual({
      type: "object",
      properties: { reason: { type: "string" }, verdict: { type: "string", enum: ["yes", "no"] } },
      required: ["reason", "verdict"],
      additionalProperties: false,
    });
    expect(Object.keys(VERDICT_JSON_SCHEMA.properties as object)).toEqual(["reason", "verdict"]);
    expect(VerdictReply).toBeInstanceOf(z.ZodObject);
  });
});
