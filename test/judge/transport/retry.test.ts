import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RETRY_POLICY, backoffMs, classifyError, retryAfterMs, retryWaitMs, waitInWords, waitTooLong } from "../../../src/judge/transport/retry.js";
import { loadSdk } from "../../../src/judge/transport/sdk.js";

// classifyError looks for the SDK's error classes only once the judge client has loaded the SDK.
beforeAll(() => loadSdk());

const policy = DEFAULT_RETRY_POLICY;

function apiError(status: number, headers: Record<string, string> = {}, message = "boom", param?: string) {
  return APIError.generate(status, { error: { message, param } }, undefined, new Headers(headers));
}

describe("retryAfterMs", () => {
  it("reads retry-after-ms first, then Retry-After seconds or HTTP date", () => {
    expect(retryAfterMs({ "retry-after-ms": "250", "retry-after": "9" })).toBe(250);
    expect(retryAfterMs({ "retry-after": "2" })).toBe(2000);
    expect(retryAfterMs({ "retry-after": "0.5" })).toBe(500);
    const now = Date.parse("Wed, 21 Oct 2026 07:27:58 GMT");
    expect(retryAfterMs({ "retry-after": "Wed, 21 Oct 2026 07:28:00 GMT" }, now)).toBe(2000);
    expect(retryAfterMs(new Headers({ "retry-after": "3" }))).toBe(3000);
  });

  it("never returns a negative wait, and ignores unreadable values", () => {
    expect(retryAfterMs({ "retry-after": "Wed, 21 Oct 2015 07:28:00 GMT" })).toBe(0);
    expect(retryAfterMs({ "retry-after": "soon" })).toBeUndefined();
    expect(retryAfterMs({ "retry-after-ms": "-5", "retry-after": "1" })).toBe(1000);
    expect(retryAfterMs({})).toBeUndefined();
  });
});

describe("backoffMs", () => {
  it("doubles per retry within jitter bounds and is capped", () => {
    expect(backoffMs(1, policy, () => 0)).toBe(250);
    expect(backoffMs(1, policy, () => 1)).toBe(500);
    expect(backoffMs(3, policy, () => 1)).toBe(2000);
    expect(backoffMs(30, policy, () => 1)).toBe(policy.maxDelayMs);
    for (let i = 0; i < 50; i++) {
      const w = backoffMs(2, policy);
      expect(w).toBeGreaterThanOrEqual(500);
      expect(w).toBeLessThanOrEqual(1000);
    }
  });
});

describe("retryWaitMs", () => {
  it("never retries sooner than the backoff, even when Retry-After says 0", () => {
    expect(retryWaitMs(1, 0, policy, () => 0)).toBe(250);
    expect(retryWaitMs(3, 0, policy, () => 0)).toBe(1000);
    expect(retryWaitMs(1, undefined, policy, () => 0)).toBe(250);
  });

  it("waits at least Retry-After, plus up to 20% jitter so calls told the same wait spread out", () => {
    expect(retryWaitMs(1, 1000, policy, () => 0)).toBe(1000);
    expect(retryWaitMs(1, 1000, policy, () => 1)).toBe(1200);
    const waits = new Set(Array.from({ length: 50 }, () => retryWaitMs(1, 1000, policy)));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(1000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(1200);
    expect(waits.size).toBeGreaterThan(10);
  });
});

describe("classifyError", () => {
  it("retries 429 with the server's wait, capped, and pauses everyone", () => {
    expect(classifyError(apiError(429, { "retry-after": "2" }), false, policy)).toMatchObject({ action: "retry", waitMs: 2000, rateLimited: true });
    expect(classifyError(apiError(429, { "retry-after": "3600" }), false, policy)).toMatchObject({ action: "retry", waitMs: policy.maxRetryAfterMs });
    expect(classifyError(apiError(429), false, policy)).toMatchObject({ action: "retry", waitMs: undefined, rateLimited: true });
  });

  it("retries 5xx, 408, 409, timeouts and resets", () => {
    for (const s of [500, 502, 503, 504, 408, 409]) expect(classifyError(apiError(s), false, policy)).toMatchObject({ action: "retry", transport: true });
    expect(classifyError(new APIConnectionTimeoutError(), false, policy)).toEqual({ action: "retry", cause: "timeout", transport: true });
    expect(classifyError(new Error("aborted"), true, policy)).toEqual({ action: "retry", cause: "timeout", transport: true });
    const reset = new APIConnectionError({ cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }) });
    expect(classifyError(reset, false, policy)).toEqual({ action: "retry", cause: "connection: ECONNRESET", transport: true });
    expect(classifyError(new SyntaxError("Unexpected token"), false, policy).action).toBe("retry");
    // A 429 is the server answering: not an outage.
    expect(classifyError(apiError(429), false, policy)).not.toHaveProperty("transport");
  });

  it("obeys x-should-retry: false", () => {
    expect(classifyError(apiError(503, { "x-should-retry": "false" }), false, policy).action).toBe("fail");
  });

  it("switches to text mode on a 400 about response_format", () => {
    expect(classifyError(apiError(400, {}, "response_format json_schema is not supported"), false, policy).action).toBe("text-mode");
    expect(classifyError(apiError(400, {}, "Invalid value", "response_format"), false, policy).action).toBe("text-mode");
    expect(classifyError(apiError(400, {}, "maximum context length exceeded"), false, policy).action).toBe("fail");
    // The parameter a 400 names is kept in the cause, for the hint that omits it.
    expect(classifyError(apiError(400, {}, "Unsupported value", "temperature"), false, policy)).toMatchObject({ action: "fail", cause: "http-400: Unsupported value (param: temperature)" });
  });

  it("stops the run on a refused key or an unknown model", () => {
    expect(classifyError(apiError(401), false, policy).action).toBe("fatal");
    expect(classifyError(apiError(403), false, policy).action).toBe("fatal");
    expect(classifyError(apiError(404, {}, "model not found"), false, policy)).toMatchObject({ action: "fatal", cause: expect.stringContaining("/v1") });
  });
});

describe("waits in words, one wording for the verdicts' client and claim extraction", () => {
  it("says milliseconds, seconds, minutes or hours as people read them", () => {
    expect([200, 1000, 60_000, 119_000, 150_000, 5_400_000, 3_600_000, 7_200_000, 9_000_000, 86_400_000].map(waitInWords)).toEqual([
      "200 ms", "1 s", "60 s", "119 s", "3 minutes", "90 minutes", "1 hour", "2 hours", "2.5 hours", "24 hours",
    ]);
  });

  it("stops on a Retry-After longer than a run waits, and only then", () => {
    expect(waitTooLong("http-429: slow down", 3_600_000, DEFAULT_RETRY_POLICY)).toBe("http-429: slow down (the endpoint asks to wait 1 hour before the next call, longer than the 60 s a run waits: rerun later)");
    expect(waitTooLong("http-429: slow down", 60_000, DEFAULT_RETRY_POLICY)).toBeUndefined();
    expect(waitTooLong("http-429: slow down", undefined, DEFAULT_RETRY_POLICY)).toBeUndefined();
  });
});
