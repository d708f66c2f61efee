/** Recognising a server that refuses the log-probability parameters, and the request that asks for them. */
import { describe, expect, it } from "vitest";
import { asksLogprobs, rejectsLogprobs, TOP_LOGPROBS } from "../../../src/judge/transport/logprobs.js";
import { buildRequestBody, requestTemplate, type RequestSettings } from "../../../src/judge/transport/request.js";
import { rubric } from "../helpers.js";

const S: RequestSettings = { model: "m", temperature: 0, seed: 0, maxTokens: 512, responseMode: "json_schema" };
const ev = { question: "q", answer: "a", context: [{ id: "c1", text: "t" }] };

describe("log-probabilities on the wire", () => {
  it("are asked with logprobs and top_logprobs only when the settings say so; the template then names the rule's version", () => {
    const faith = rubric("faithfulness");
    const on = buildRequestBody(faith, ev, { ...S, logprobs: true });
    expect(on).toMatchObject({ logprobs: true, top_logprobs: TOP_LOGPROBS });
    expect(asksLogprobs(on)).toBe(true);
    const off = buildRequestBody(faith, ev, S);
    expect("logprobs" in off || "top_logprobs" in off).toBe(false);
    expect(requestTemplate(faith, { ...S, logprobs: true })).toHaveProperty("logprobsVersion", 1);
    expect(requestTemplate(faith, S)).not.toHaveProperty("logprobsVersion");
  });

  it("a 400 or 422 naming the parameter, to a request that sent it, is a refusal; nothing else is", () => {
    const on = buildRequestBody(rubric("faithfulness"), ev, { ...S, logprobs: true });
    const off = buildRequestBody(rubric("faithfulness"), ev, S);
    expect(rejectsLogprobs(on, { action: "fail", cause: "http-400: logprobs is not supported by this model (param: logprobs)" })).toBe(true);
    expect(rejectsLogprobs(on, { action: "fail", cause: "http-422: top_logprobs must be <= 0 when max_logprobs is 0" })).toBe(true);
    expect(rejectsLogprobs(on, { action: "text-mode", cause: "http-400: Log probabilities are not available for this model" })).toBe(true);
    expect(rejectsLogprobs(off, { action: "fail", cause: "http-400: logprobs is not supported" })).toBe(false);
    expect(rejectsLogprobs(on, { action: "retry", cause: "http-500: logprobs crashed" })).toBe(false);
    expect(rejectsLogprobs(on, { action: "text-mode", cause: "http-400: response_format json_schema is not supported" })).toBe(false);
  });
});
