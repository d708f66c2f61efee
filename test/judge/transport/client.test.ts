import { afterEach, describe, expect, it } from "vitest";
import { FatalJudgeError } from "../../../src/judge/judges/judge.js";
import { breakerHint, openAIBackend } from "../../../src/judge/judges/llm.js";
import { JudgeClient, type CallResult } from "../../../src/judge/transport/client.js";
import { panelJudgeKnobs } from "../../../src/judge/transport/knobs.js";
import { buildRequestBody, requestFingerprint } from "../../../src/judge/transport/request.js";
import { startOpenAIServer, type Behaviour, type TestServer } from "../../server/openai-server.js";
import { rubric, SETTINGS } from "../helpers.js";

const S = SETTINGS;
const faith = rubric("faithfulness");
const evidence = { question: "Carry over?", answer: "No [1].", context: [{ id: "hr#1", text: "Leave lapses." }] };
const body = buildRequestBody(faith, evidence, S);

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server answering request i with script[i] (the last entry repeats). */
async function scripted(steps: Behaviour[], opts: { jsonSchema?: boolean } = {}) {
  server = await startOpenAIServer({ ...opts, script: (r) => steps[Math.min(r.index, steps.length - 1)]! });
  return server;
}

function client(s: TestServer, extra: Partial<ConstructorParameters<typeof JudgeClient>[0]> = {}) {
  return new JudgeClient({ baseURL: s.baseURL, apiKey: "sk-test-SECRET-0123456789", timeoutMs: 2000, policy: { baseDelayMs: 5, maxDelayMs: 20, maxRetries: 3 }, ...extra });
}

function verdictOf(r: CallResult) {
  return r.ok ? r.reply.verdict : `error: ${r.cause}`;
}

describe("JudgeClient against the scripted server (real openai SDK)", () => {
  it("returns the scripted verdict with reason, served model, usage and raw reply", async () => {
    const s = await scripted([{ verdict: "no", reason: "Claim 2 is unsupported." }]);
    const r = await client(s).complete(body);
    expect(r).toMatchObject({ ok: true, reply: { verdict: "no", reason: "Claim 2 is unsupported." }, servedModel: "served-judge-model", attempts: 1 });
    expect(r.ok && r.usage!.prompt).toBeGreaterThan(100);
    expect(r.ok && JSON.parse(r.raw).choices[0].message.content).toContain('"verdict":"no"');
    expect(s.count).toBe(1);
    expect(s.requests[0]!.info.jsonSchema).toBe(true);
  });

  it("honours Retry-After in seconds on a 429, then gives the right verdict", async () => {
    const s = await scripted([{ status: 429, headers: { "retry-after": "1" } }, { verdict: "no" }]);
    const r = await client(s).complete(body);
    expect(verdictOf(r)).toBe("no");
    expect(s.requests[1]!.at - s.requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it("honours retry-after-ms and an HTTP-date Retry-After", async () => {
    const s = await scripted([{ status: 429, headers: { "retry-after-ms": "300", "retry-after": "30" } }, { status: 429, headers: { "retry-after": new Date(Date.now() + 2000).toUTCString() } }, { verdict: "no" }]);
    const r = await client(s).complete(body);
    expect(verdictOf(r)).toBe("no");
    const gap1 = s.requests[1]!.at - s.requests[0]!.at;
    expect(gap1).toBeGreaterThanOrEqual(280);
    expect(gap1).toBeLessThan(2000);
    expect(s.requests[2]!.at - s.requests[1]!.at).toBeGreaterThanOrEqual(500);
  });

  it("stops the run at once on a Retry-After longer than a run waits: an outage, not a wait capped and repeated call after call", async () => {
    const s = await scripted([{ status: 429, headers: { "retry-after": "3600" } }, { verdict: "no" }]);
    const c = client(s, { policy: { maxRetryAfterMs: 200, baseDelayMs: 5 } });
    const started = Date.now();
    const r = await c.complete(body);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(r).toMatchObject({ ok: false, fatal: true });
    expect(c.stopped).toMatch(/^http-429: .*\(the endpoint asks to wait 1 hour before the next call, longer than the 200 ms a run waits: rerun later\)$/);
    expect(s.count).toBe(1);
    // a wait within the cap is waited
    const ok = await scripted([{ status: 429, headers: { "retry-after-ms": "150" } }, { verdict: "no" }]);
    expect(verdictOf(await client(ok, { policy: { maxRetryAfterMs: 200, baseDelayMs: 5 } }).complete(body))).toBe("no");
  });

  it("pauses other calls while a 429's Retry-After runs", async () => {
    const s = await scripted([{ status: 429, headers: { "retry-after": "1" } }, { verdict: "no" }]);
    const c = client(s);
    const first = c.complete(body);
    await new Promise((r) => setTimeout(r, 200));
    const second = c.complete(body);
    expect([verdictOf(await first), verdictOf(await second)]).toEqual(["no", "no"]);
    const t429 = s.requests[0]!.at;
    for (const req of s.requests.slice(1)) expect(req.at - t429).toBeGreaterThanOrEqual(950);
  });

  it("retries 500s with backoff and then succeeds", async () => {
    const s = await scripted([{ status: 500 }, { status: 503 }, { verdict: "no" }]);
    expect(verdictOf(await client(s).complete(body))).toBe("no");
    expect(s.count).toBe(3);
  });

  it("gives an error verdict with its cause after bounded retries of a 500", async () => {
    const s = await scripted([{ status: 500, message: "upstream exploded" }]);
    const r = await client(s).complete(body);
    expect(r).toMatchObject({ ok: false, cause: "http-500: upstream exploded (gave up after 4 attempts)", attempts: 4 });
    expect(s.count).toBe(4);
  });

  it("retries malformed JSON content a bounded number of times, then errors", async () => {
    const s = await scripted([{ content: '{"reason": "fine", "verdict": "yes"' }]);
    const r = await client(s).complete(body);
    expect(r).toMatchObject({ ok: false, cause: "parse: malformed JSON reply (gave up after 3 attempts)" });
    expect(s.count).toBe(3);
  });

  it("recovers from malformed content when a retry parses", async () => {
    const s = await scripted([{ content: "{not json" }, { verdict: "no" }]);
    expect(verdictOf(await client(s).complete(body))).toBe("no");
  });

  it("retries a body that is not JSON at all", async () => {
    const s = await scripted([{ body: '{"id": "x", "choices": [' }, { verdict: "no" }]);
    expect(verdictOf(await client(s).complete(body))).toBe("no");
    expect(s.count).toBe(2);
  });

  it("never turns a missing field into a verdict", async () => {
    const missingReason = await scripted([{ content: '{"verdict":"yes"}' }]);
    expect(verdictOf(await client(missingReason).complete(body))).toBe('error: parse: field "reason" is missing (gave up after 3 attempts)');
    await missingReason.close();
    const noChoices = await scripted([{ body: { id: "x", object: "chat.completion", model: "m" } }]);
    expect(verdictOf(await client(noChoices).complete(body))).toMatch(/^error: bad-response: no choices\[0\]\.message/);
  });

  it("times out a hung request and retries it", async () => {
    const s = await scripted([{ hang: true }, { verdict: "no" }]);
    const t0 = Date.now();
    expect(verdictOf(await client(s, { timeoutMs: 300 }).complete(body))).toBe("no");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it("gives an error verdict when every attempt hangs", async () => {
    const s = await scripted([{ hang: true }]);
    const r = await client(s, { timeoutMs: 150, policy: { maxRetries: 1, baseDelayMs: 5 } }).complete(body);
    expect(r).toMatchObject({ ok: false, cause: "timeout (gave up after 2 attempts)" });
  });

  it("times out a reply whose body stalls after the headers", async () => {
    const s = await scripted([{ stallBody: '{"id":"x","choices":[{"index":0,' }, { verdict: "no" }]);
    const t0 = Date.now();
    expect(verdictOf(await client(s, { timeoutMs: 300 }).complete(body))).toBe("no");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(s.count).toBe(2);
  });

  it("retries a reset connection", async () => {
    const s = await scripted([{ reset: true }, { verdict: "no" }]);
    expect(verdictOf(await client(s).complete(body))).toBe("no");
  });

  it("treats a refusal and a truncated reply as errors, never verdicts, without asking again", async () => {
    const refusal = await scripted([{ body: { id: "x", model: "m", choices: [{ index: 0, message: { role: "assistant", content: null, refusal: "I can't help with that." }, finish_reason: "stop" }] } }]);
    expect(await client(refusal).complete(body)).toMatchObject({ ok: false, cause: "refusal: I can't help with that.", attempts: 1 });
    expect(refusal.count).toBe(1);
    await refusal.close();
    const cut = await scripted([{ content: '{"reason":"The answer is', finishReason: "length" }]);
    expect(await client(cut).complete(body)).toMatchObject({ ok: false, cause: expect.stringMatching(/^truncated: the reply hit max_tokens/), attempts: 1 });
    expect(cut.count).toBe(1);
  });

  it("never retries sooner than the backoff, even when Retry-After says 0", async () => {
    const s = await scripted([{ status: 429, headers: { "retry-after": "0" } }, { status: 429, headers: { "retry-after": "0" } }, { verdict: "no" }]);
    const r = await client(s, { policy: { baseDelayMs: 200, maxDelayMs: 1000, maxRetries: 3 } }).complete(body);
    expect(verdictOf(r)).toBe("no");
    expect(s.requests[1]!.at - s.requests[0]!.at).toBeGreaterThanOrEqual(95);
    expect(s.requests[2]!.at - s.requests[1]!.at).toBeGreaterThanOrEqual(195);
  });

  it("adds jitter to Retry-After, for the call that got the 429 and for the calls paused behind it", async () => {
    const s = await scripted([{ status: 429, headers: { "retry-after": "1" } }, { verdict: "no" }]);
    const waits: number[] = [];
    const c = client(s, { random: () => 1, sleep: (ms) => (waits.push(ms), new Promise((r) => setTimeout(r, ms))) });
    const first = c.complete(body);
    while (s.count < 1) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50));
    const second = c.complete(body);
    expect([verdictOf(await first), verdictOf(await second)]).toEqual(["no", "no"]);
    // The 429's own call: max(1000, backoff 500) plus 20% (random 1), not exactly the 1000 every call was told.
    expect(waits[0]).toBe(1200);
    // The call paused behind it waits out the pause plus up to 20% more, so paused calls do not resume in lockstep.
    expect(Math.max(...waits.slice(1))).toBeGreaterThan(1300);
  });

  it("redacts the key from the reason of a verdict", async () => {
    const s = await scripted([{ verdict: "yes", reason: "Supported. (your key sk-test-SECRET-0123456789 works)" }]);
    const r = await client(s).complete(body);
    expect(r).toMatchObject({ ok: true, reply: { verdict: "yes", reason: "Supported. (your key [redacted] works)" } });
    expect(JSON.stringify(r)).not.toContain("SECRET");
  });

  it("finds the endpoint down after outageAttempts failed attempts in a row, ending every call at once", async () => {
    const s = await scripted([{ hang: true }]);
    const c = client(s, { timeoutMs: 150, outageAttempts: 4, policy: { maxRetries: 10, baseDelayMs: 5, maxDelayMs: 10 } });
    const t0 = Date.now();
    const results = await Promise.all([c.complete(body), c.complete(body), c.complete(body)]);
    expect(Date.now() - t0).toBeLessThan(1500);
    for (const r of results) expect(r).toMatchObject({ ok: false, fatal: true, cause: expect.stringMatching(/^timeout \(4 attempts in a row got a server error or no reply: the endpoint seems down/) });
    expect(s.count).toBeLessThanOrEqual(6);
    expect(await c.complete(body)).toMatchObject({ ok: false, fatal: true });
    expect(s.count).toBeLessThanOrEqual(6);
  });

  it("names a panel judge's own deadline when its endpoint seems down", async () => {
    const s = await scripted([{ hang: true }]);
    const c = client(s, { timeoutMs: 100, outageAttempts: 2, policy: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 2 }, knobs: panelJudgeKnobs(1, "slow") });
    const r = await c.complete(body);
    expect(r).toMatchObject({ ok: false, fatal: true });
    expect(!r.ok && r.cause).toMatch(/Check the server, or raise "timeoutMs" in judges\[1\] \("slow"\) of the config if it is only slow\)$/);
  });

  it("does not count a reply of any kind towards an outage", async () => {
    const s = await scripted([{ status: 500 }, { status: 500 }, { content: "not json" }, { status: 500 }, { status: 500 }, { verdict: "yes" }]);
    const r = await client(s, { outageAttempts: 3, policy: { maxRetries: 6, maxParseRetries: 2, baseDelayMs: 1, maxDelayMs: 2 } }).complete(body);
    expect(verdictOf(r)).toBe("yes");
  });

  it("stops on a refused key without leaking it", async () => {
    const s = await scripted([{ status: 401, message: "Incorrect API key provided: sk-test-SECRET-0123456789" }]);
    const r = await client(s).complete(body);
    expect(r).toMatchObject({ ok: false, fatal: true });
    expect(JSON.stringify(r)).not.toContain("SECRET");
    expect(s.requests[0]!.authorization).toBe("Bearer sk-test-SECRET-0123456789");
  });
});

describe("openAIBackend", () => {
  it("falls back to JSON in text on a server without structured outputs, once per run, with its own fingerprint", async () => {
    const s = await scripted([{ verdict: "no" }], { jsonSchema: false });
    const modes: string[] = [];
    const backend = openAIBackend({ client: client(s), baseURL: s.baseURL, settings: S, onModeChange: (m) => modes.push(m) });
    const jsonFp = backend.fingerprint(faith);
    const a = await backend.judge(faith, evidence);
    const b = await backend.judge(faith, evidence);
    expect([a.verdict, b.verdict]).toEqual(["no", "no"]);
    expect(modes).toEqual(["text"]);
    expect(s.requests.map((r) => r.info.jsonSchema)).toEqual([true, false, false]);
    expect(a.fingerprint).toBe(requestFingerprint(faith, { ...S, responseMode: "text" }));
    expect(a.fingerprint).not.toBe(jsonFp);
    expect(backend.fingerprint(faith)).toBe(a.fingerprint);
  });

  it("stops the run when the first calls all fail, suggesting the flag that omits the parameter the server names", async () => {
    const s = await scripted([{ status: 400, message: "temperature is not supported with this model" }]);
    const backend = openAIBackend({ client: client(s), baseURL: s.baseURL, settings: S, breakerLimit: 3 });
    expect((await backend.judge(faith, evidence)).verdict).toBe("error");
    expect((await backend.judge(faith, evidence)).verdict).toBe("error");
    const stop = await backend.judge(faith, evidence).catch((e: unknown) => e);
    expect(stop).toBeInstanceOf(FatalJudgeError);
    expect(stop).toMatchObject({ kind: "setup", message: expect.stringMatching(/temperature is not supported.*first 3 calls all failed.*pass --no-temperature\)$/) });
    expect((stop as Error).message).not.toContain("--response-format");
  });

  it("hints at text mode only for reply-format failures, at --timeout-ms for timeouts, and at nothing for rate limits", () => {
    expect(breakerHint('parse: field "reason" is missing', "json_schema")).toContain("--response-format text");
    expect(breakerHint('parse: field "reason" is missing', "text")).toBe("");
    expect(breakerHint("http-400: Unsupported value (param: seed)", "json_schema")).toContain("--no-seed");
    expect(breakerHint("http-400: max_tokens is not supported, use max_completion_tokens", "json_schema")).toContain("--no-max-tokens");
    expect(breakerHint("http-429: Rate limit reached (gave up after 5 attempts)", "json_schema")).toBe("");
    expect(breakerHint("timeout", "json_schema")).toContain("--timeout-ms");
    expect(breakerHint("http-400: maximum context length exceeded", "json_schema")).toBe("");
    expect(breakerHint("bad-response: the body is not valid JSON", "json_schema")).toContain("is the base URL the API's, ending in /v1?");
  });

  it("names a panel judge's config entry, not the main judge's flags, in every hint", () => {
    const knobs = panelJudgeKnobs(2, "cheap", "proj/ragjudge.config.json");
    const hints = [
      breakerHint('parse: field "reason" is missing', "json_schema", knobs),
      breakerHint("http-400: Unsupported value (param: seed)", "json_schema", knobs),
      breakerHint("timeout", "json_schema", knobs),
    ];
    expect(hints).toEqual([
      '; if the server lacks structured outputs, set "responseFormat": "text" in judges[2] ("cheap") of proj/ragjudge.config.json',
      '; if the model rejects that parameter, set "seed": null in judges[2] ("cheap") of proj/ragjudge.config.json',
      '; if it is only slow, raise "timeoutMs" in judges[2] ("cheap") of proj/ragjudge.config.json',
    ]);
    for (const h of hints) expect(h).not.toMatch(/--|\bjudge\./);
  });

  it("stops the run, as the endpoint's doing, when calls keep giving up on a rate limit after earlier successes", async () => {
    server = await startOpenAIServer({ script: (r) => (r.index < 5 ? { verdict: "yes" } : { status: 429, headers: { "retry-after": "0" } }) });
    const c = new JudgeClient({ baseURL: server.baseURL, apiKey: "k", timeoutMs: 2000, policy: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2 } });
    const backend = openAIBackend({ client: c, baseURL: server.baseURL, settings: S, rateLimitLimit: 3 });
    for (let i = 0; i < 5; i++) expect((await backend.judge(faith, evidence)).verdict).toBe("yes");
    expect((await backend.judge(faith, evidence)).verdict).toBe("error");
    expect((await backend.judge(faith, evidence)).verdict).toBe("error");
    const stop = await backend.judge(faith, evidence).catch((e: unknown) => e);
    expect(stop).toMatchObject({ kind: "endpoint", message: expect.stringMatching(/^rate limited: http-429.*3 calls in a row gave up on the rate limit.*rerun later/) });
    const sent = server.count;
    // The client is stopped with the run: nothing more is sent.
    await expect(backend.judge(faith, evidence)).rejects.toThrow(FatalJudgeError);
    expect(server.count).toBe(sent);
  });
});

describe("an unreachable endpoint", () => {
  it("stops the run instead of erroring every item", async () => {
    const closed = await startOpenAIServer();
    const url = closed.baseURL;
    await closed.close();
    const c = new JudgeClient({ baseURL: url, apiKey: "k", timeoutMs: 500, policy: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2 } });
    const backend = openAIBackend({ client: c, baseURL: url, settings: S, breakerLimit: 2 });
    expect(await backend.judge(faith, evidence)).toMatchObject({ verdict: "error", error: expect.stringMatching(/^connection: ECONNREFUSED \(gave up after 2 attempts\)/) });
    await expect(backend.judge(faith, evidence)).rejects.toThrow(/ECONNREFUSED.*first 2 calls all failed/);
  });
});
