import { describe, expect, it } from "vitest";
import { buildRequestBody, requestFingerprint, requestTemplate, type RequestSettings } from "../../../src/judge/transport/request.js";
import { rubric, SETTINGS } from "../helpers.js";

const S = SETTINGS;
const faith = rubric("faithfulness");
const evidence = { question: "Carry over?", answer: "No [1].", context: [{ id: "hr#1", text: "Leave lapses." }] };

describe("buildRequestBody", () => {
  it("sends temperature 0, a seed, max_tokens and a strict json_schema by default", () => {
    const body = buildRequestBody(faith, evidence, S);
    expect(Object.keys(body)).toEqual(["model", "messages", "temperature", "seed", "max_tokens", "response_format"]);
    expect(body).toMatchObject({ model: "judge-model", temperature: 0, seed: 0, max_tokens: 512 });
    expect(body.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "verdict", strict: true } });
    expect(body.messages.map((m) => m.role)).toEqual(["system", "user"]);
  });

  it("omits each parameter set to null, and response_format in text mode", () => {
    const body = buildRequestBody(faith, evidence, { ...S, temperature: null, seed: null, maxTokens: null, responseMode: "text" });
    expect(Object.keys(body)).toEqual(["model", "messages"]);
  });

  it("is deterministic", () => {
    expect(JSON.stringify(buildRequestBody(faith, evidence, S))).toBe(JSON.stringify(buildRequestBody(faith, evidence, S)));
  });
});

describe("requestFingerprint", () => {
  const fp = requestFingerprint(faith, S);

  it("is a SHA-256 that does not depend on the evidence", () => {
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(requestTemplate(faith, S))).toContain("{{answer}}");
    expect(JSON.stringify(requestTemplate(faith, S))).not.toContain("Leave lapses");
  });

  it("changes with the model, every parameter, the response mode and the prompt", () => {
    const variants: RequestSettings[] = [
      { ...S, model: "other-model" },
      { ...S, temperature: null },
      { ...S, temperature: 0.2 },
      { ...S, seed: null },
      { ...S, seed: 1 },
      { ...S, maxTokens: 256 },
      { ...S, responseMode: "text" },
    ];
    const fps = variants.map((v) => requestFingerprint(faith, v));
    expect(new Set([fp, ...fps]).size).toBe(variants.length + 1);
    expect(requestFingerprint({ ...faith, user: faith.user + "\nBe strict." }, S)).not.toBe(fp);
    expect(requestFingerprint({ ...faith, version: "2" }, S)).not.toBe(fp);
    expect(requestFingerprint(rubric("correctness"), S)).not.toBe(fp);
  });

  it("covers both cases of a rubric with cases", () => {
    const nf = rubric("not-found");
    const t = JSON.stringify(requestTemplate(nf, S));
    expect(t).toContain("DO contain");
    expect(t).toContain("do NOT contain");
    expect(requestFingerprint({ ...nf, cases: { ...nf.cases!, unanswerable: "changed {{x}}" } }, S)).not.toBe(requestFingerprint(nf, S));
  });
});
