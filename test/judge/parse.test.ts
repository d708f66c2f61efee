import { describe, expect, it } from "vitest";
import { z } from "zod";
import { VERDICT_JSON_SCHEMA, VerdictReply, parseReply } from "../../src/judge/parse.js";

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

  it("binds to the LAST JSON verdict in prose", () => {
    const text = 'First thought: {"reason":"looks fine","verdict":"yes"}. On reflection the date is wrong.\n{"reason":"the date is wrong","verdict":"no"}';
    expect(parseReply(text)).toMatchObject({ ...ok("no", "the date is wrong"), via: "embedded-json" });
  });

  it("ignores braces inside strings when looking for JSON", () => {
    expect(parseReply('Note {not json}. {"reason":"a } brace","verdict":"no"}')).toMatchObject(ok("no", "a } brace"));
  });

  it("binds to the LAST verdict line when there is no JSON", () => {
    expect(parseReply("Claim 1 is supported.\nVerdict: yes\nWait, claim 2 is not.\n**Verdict:** no")).toMatchObject({ ok: true, reply: { verdict: "no" }, via: "verdict-line" });
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
