import { describe, expect, it } from "vitest";
import { readCompletion } from "../../../src/judge/transport/completion.js";

describe("readCompletion (shared by the online client and batch collect/import)", () => {
  const body = (content: string | null, extra: Record<string, unknown> = {}) => ({ model: "m-1", usage: { prompt_tokens: 10, completion_tokens: 3 }, choices: [{ message: { content, refusal: null }, finish_reason: "stop", ...extra }] });

  it("reads a verdict with the served model and usage", () => {
    expect(readCompletion(body('{"reason":"r","verdict":"no"}'))).toEqual({ ok: true, reply: { reason: "r", verdict: "no" }, via: "json", servedModel: "m-1", usage: { prompt: 10, completion: 3 } });
  });

  it("names each failure's kind, so the client retries only what asking again can fix", () => {
    expect(readCompletion("text")).toMatchObject({ ok: false, kind: "bad-response" });
    expect(readCompletion({ choices: [] })).toMatchObject({ ok: false, kind: "bad-response", cause: "bad-response: no choices[0].message in the reply" });
    expect(readCompletion({ choices: [{ message: { content: null, refusal: "No." }, finish_reason: "stop" }] })).toMatchObject({ ok: false, kind: "refusal", cause: "refusal: No." });
    expect(readCompletion(body('{"reason":"r', { finish_reason: "length" }))).toMatchObject({ ok: false, kind: "truncated", servedModel: "m-1" });
    expect(readCompletion(body('{"reason":"a","verdict":"yes"} {"reason":"b","verdict":"no"}'))).toMatchObject({ ok: false, kind: "parse", cause: "parse: the reply gives both verdicts (yes and no)" });
  });

  it("redacts the given secrets from the reason and a refusal", () => {
    expect(readCompletion(body('{"reason":"key sk-live-ABCDEF123456 ok","verdict":"yes"}'), ["sk-live-ABCDEF123456"])).toMatchObject({ ok: true, reply: { reason: "key [redacted] ok" } });
    expect(readCompletion({ choices: [{ message: { content: null, refusal: "not with key abcd-SECRET" } }] }, ["abcd-SECRET"])).toMatchObject({ cause: "refusal: not with key [redacted]" });
  });
});
