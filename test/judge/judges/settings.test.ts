import { describe, expect, it } from "vitest";
import { RagjudgeConfig } from "../../../src/golden/schema/config.js";
import { resolveBatchEndpoint } from "../../../src/judge/batch/api.js";
import { HOW_TO_CONFIGURE, resolveJudge } from "../../../src/judge/judges/settings.js";
import { JudgeSetupError, LOOPBACK_DUMMY_KEY, isLoopback } from "../../../src/judge/transport/endpoint.js";

const base = { golden: "g.jsonl", variants: [{ name: "v", output: "o.jsonl", chunks: "c.jsonl" }] };
const cfg = (judge?: unknown) => RagjudgeConfig.parse(judge === undefined ? base : { ...base, judge });

describe("resolveJudge", () => {
  it("explains how to configure a judge when there is none, instead of falling back", () => {
    expect(() => resolveJudge(cfg(), {}, {})).toThrow(JudgeSetupError);
    expect(() => resolveJudge(cfg(), {}, {})).toThrow(HOW_TO_CONFIGURE);
  });

  it("selects the baseline from the config or the flag", () => {
    expect(resolveJudge(cfg({ kind: "baseline" }), {}, {}).kind).toBe("baseline");
    expect(resolveJudge(cfg({ kind: "openai", model: "m" }), { judge: "baseline" }, {}).kind).toBe("baseline");
    expect(() => resolveJudge(cfg(), { judge: "baseline", model: "m" }, {})).toThrow(/takes no LLM options \(got --model\)/);
    expect(() => resolveJudge(cfg(), { judge: "gpt" }, {})).toThrow(/--judge must be/);
  });

  it("takes the key only from the environment, with a dummy for loopback servers", () => {
    const remote = resolveJudge(cfg({ kind: "openai", model: "m" }), {}, { OPENAI_API_KEY: "sk-env" });
    expect(remote).toMatchObject({ kind: "openai", apiKey: "sk-env", keySource: "OPENAI_API_KEY", baseURL: "https://api.openai.com/v1" });
    expect(() => resolveJudge(cfg({ kind: "openai", model: "m" }), {}, {})).toThrow(/set the environment variable OPENAI_API_KEY/);
    const local = resolveJudge(cfg(), { model: "m", baseUrl: "http://127.0.0.1:8000/v1/" }, {});
    expect(local).toMatchObject({ apiKey: LOOPBACK_DUMMY_KEY, baseURL: "http://127.0.0.1:8000/v1" });
    const named = resolveJudge(cfg({ kind: "openai", model: "m", apiKeyEnv: "MY_KEY" }), {}, { MY_KEY: "k2", OPENAI_API_KEY: "k1" });
    expect(named).toMatchObject({ apiKey: "k2", keySource: "MY_KEY" });
  });

  it("uses OPENAI_BASE_URL when neither flag nor config sets a base URL", () => {
    expect(resolveJudge(cfg({ kind: "openai", model: "m" }), {}, { OPENAI_BASE_URL: "http://localhost:11434/v1" })).toMatchObject({ baseURL: "http://localhost:11434/v1", apiKey: LOOPBACK_DUMMY_KEY });
  });

  it("defaults temperature 0 and seed 0, each omittable by config null or --no-x", () => {
    const d = resolveJudge(cfg({ kind: "openai", model: "m" }), {}, { OPENAI_API_KEY: "k" });
    expect(d).toMatchObject({ temperature: 0, seed: 0, maxTokens: 512, responseFormat: "json_schema", concurrency: 8, repeats: 1, maxRetries: 4 });
    expect(resolveJudge(cfg({ kind: "openai", model: "m", temperature: null, seed: null }), {}, { OPENAI_API_KEY: "k" })).toMatchObject({ temperature: null, seed: null });
    expect(resolveJudge(cfg({ kind: "openai", model: "m" }), { temperature: false, seed: false, maxTokens: false }, { OPENAI_API_KEY: "k" })).toMatchObject({ temperature: null, seed: null, maxTokens: null });
    expect(resolveJudge(cfg({ kind: "openai", model: "m" }), { temperature: 0.3, seed: 7, concurrency: 32, repeats: 3 }, { OPENAI_API_KEY: "k" })).toMatchObject({ temperature: 0.3, seed: 7, concurrency: 32, repeats: 3 });
  });

  it("needs a model and a real URL", () => {
    expect(() => resolveJudge(cfg(), { judge: "openai" }, { OPENAI_API_KEY: "k" })).toThrow(/needs a model/);
    expect(() => resolveJudge(cfg(), { model: "m", baseUrl: "localhost:8000" }, { OPENAI_API_KEY: "k" })).toThrow(/http or https|not a URL/);
  });

  it("recognises loopback hosts", () => {
    expect(["http://localhost:1/v1", "http://127.0.0.1:1", "http://127.1.2.3", "http://[::1]:8000/v1"].map(isLoopback)).toEqual([true, true, true, true]);
    expect(["http://10.0.0.1", "https://api.openai.com/v1", "http://localhost.evil.com", "nope"].map(isLoopback)).toEqual([false, false, false, false]);
  });
});

describe("resolveBatchEndpoint", () => {
  it("finds the endpoint and key as the online judge does, but never without a key for a remote endpoint", () => {
    const judge = { kind: "openai", model: "m", baseUrl: "https://llm.example.org/v1", apiKeyEnv: "MY_KEY" };
    expect(resolveBatchEndpoint(cfg(judge), {}, { MY_KEY: "k2" })).toEqual({ baseURL: "https://llm.example.org/v1", apiKey: "k2", keySource: "MY_KEY" });
    expect(resolveBatchEndpoint(cfg(), { baseUrl: "http://127.0.0.1:8000/v1/" }, {})).toEqual({ baseURL: "http://127.0.0.1:8000/v1", apiKey: LOOPBACK_DUMMY_KEY, keySource: "none (loopback server)" });
    expect(resolveBatchEndpoint(cfg({ kind: "baseline" }), {}, { OPENAI_API_KEY: "k1" })).toMatchObject({ baseURL: "https://api.openai.com/v1", keySource: "OPENAI_API_KEY" });
    expect(() => resolveBatchEndpoint(cfg(judge), {}, {})).toThrow(/no API key: set the environment variable MY_KEY/);
    expect(() => resolveBatchEndpoint(cfg(), { baseUrl: "https://u:p@host/v1" }, {})).toThrow(/batch base URL must not contain a user name/);
  });

  it("a dry run of the online judge needs no key, and says none was set", () => {
    const s = resolveJudge(cfg({ kind: "openai", model: "m" }), {}, {}, { keyless: true });
    expect(s).toMatchObject({ kind: "openai", keySource: "none (OPENAI_API_KEY is not set; nothing is sent)" });
  });
});
