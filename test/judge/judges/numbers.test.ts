import { describe, expect, it } from "vitest";
import { BOUNDS } from "../../../src/golden/bounds.js";
import { RagjudgeConfig } from "../../../src/golden/schema/config.js";
import type { Judge } from "../../../src/judge/judges/judge.js";
import { llmBackend } from "../../../src/judge/judges/llm.js";
import { resolveJudge, type JudgeFlags, type OpenAISettings } from "../../../src/judge/judges/settings.js";
import { runJudge } from "../../../src/judge/schedule/run.js";
import { JudgeClient } from "../../../src/judge/transport/client.js";

// The judge's numbers from code (a library caller's), held to the bounds of their flags (golden/bounds.ts).
const SAFE = Number.MAX_SAFE_INTEGER;
const config = RagjudgeConfig.parse({ golden: "g.jsonl", variants: [{ name: "v", output: "o.jsonl", chunks: "c.jsonl" }], judge: { kind: "openai", model: "m" } });
const ENV = { OPENAI_API_KEY: "k" };
const TOO_BIG: JudgeFlags[] = [{ concurrency: 2 ** 32 }, { repeats: 26 }, { temperature: 2.5 }, { seed: -1 }, { maxTokens: 0 }, { timeoutMs: 2 ** 31 }, { maxRetries: 101 }, { concurrency: 1.5 }];
const EDGES: JudgeFlags[] = [
  { concurrency: 1, repeats: 1, temperature: 0, seed: 0, maxTokens: 1, timeoutMs: 1, maxRetries: 0 },
  { concurrency: 1024, repeats: 25, temperature: 2, seed: SAFE, maxTokens: SAFE, timeoutMs: BOUNDS.timeoutMs.max, maxRetries: 100 },
];
const settings = (over: Partial<OpenAISettings> = {}): OpenAISettings => ({ ...(resolveJudge(config, {}, ENV) as OpenAISettings), ...over });
const idle: Judge = {
  name: "idle", kind: "llm", label: "idle", covers: ["nothing"], cached: false, repeatable: true, maxConcurrency: Infinity,
  fingerprint: () => "idle", template: () => ({}), judge: async () => ({ verdict: "yes", reason: "", fingerprint: "idle" }),
};

describe("the judge's numbers from a library call", () => {
  it("resolveJudge refuses flags outside their bounds with a RangeError, whichever judge they are for", () => {
    for (const flags of TOO_BIG) expect(() => resolveJudge(config, flags, ENV), JSON.stringify(flags)).toThrow(RangeError);
    expect(() => resolveJudge(config, { concurrency: 2 ** 32 }, ENV)).toThrow("concurrency: 4294967296 is out of range: expected a whole number from 1 to 1,024");
    expect(() => resolveJudge(config, { judge: "baseline", concurrency: 0 }, ENV)).toThrow(RangeError);
  });

  it("resolveJudge takes the edges of every bound, and --no-x's false", () => {
    for (const flags of EDGES) expect(resolveJudge(config, flags, ENV)).toMatchObject(flags);
    expect(resolveJudge(config, { temperature: false, seed: false, maxTokens: false }, ENV)).toMatchObject({ temperature: null, seed: null, maxTokens: null });
  });

  it("llmBackend refuses settings built in code outside the bounds, and takes the edges", () => {
    for (const over of TOO_BIG) expect(() => llmBackend(settings(over as Partial<OpenAISettings>)), JSON.stringify(over)).toThrow(RangeError);
    for (const over of EDGES) expect(llmBackend(settings(over as Partial<OpenAISettings>)).kind).toBe("llm");
  });

  it("JudgeClient refuses a timeout past Node's timer limit and too many retries", () => {
    const client = (timeoutMs: number, maxRetries?: number) => new JudgeClient({ baseURL: "http://127.0.0.1:9/v1", apiKey: "x", timeoutMs, ...(maxRetries === undefined ? {} : { policy: { maxRetries } }) });
    expect(() => client(2 ** 31)).toThrow("timeoutMs: 2147483648 is out of range: expected a whole number from 1 to 2,147,483,647");
    expect(() => client(0)).toThrow(RangeError);
    expect(() => client(1000, 101)).toThrow(/^maxRetries: 101 is out of range/);
    expect(client(1, 0).policy.maxRetries).toBe(0);
    expect(client(BOUNDS.timeoutMs.max, 100).policy.maxRetries).toBe(100);
  });

  it("runJudge refuses repeats and concurrency outside their bounds before running, and takes the edges", async () => {
    await expect(runJudge({ items: [], backend: idle, repeats: 26, concurrency: 1 })).rejects.toThrow(/^repeats: 26 is out of range/);
    await expect(runJudge({ items: [], backend: idle, repeats: 1, concurrency: 2 ** 32 })).rejects.toThrow(RangeError);
    await expect(runJudge({ items: [], backend: idle, repeats: 0, concurrency: 1 })).rejects.toThrow(RangeError);
    for (const [repeats, concurrency] of [[1, 1], [25, 1024]] as const) expect((await runJudge({ items: [], backend: idle, repeats, concurrency })).judgments).toEqual([]);
  });
});
