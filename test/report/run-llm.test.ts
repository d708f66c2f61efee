import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runEvaluation } from "../../src/report/evaluation.js";
import { startOpenAIServer, type TestServer } from "../server/openai-server.js";
import { exampleCopy } from "./helpers.js";

/** `ragjudge run` with the LLM judge, against a scripted OpenAI-compatible server on 127.0.0.1. */
describe("runEvaluation with an LLM judge", () => {
  let server: TestServer;
  beforeAll(async () => {
    // "no" for every third request, so both verdicts occur.
    server = await startOpenAIServer({ script: (r) => ({ verdict: r.index % 3 === 0 ? "no" : "yes", reason: "scripted" }) });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("judges through the shared cache, counts tokens and cost, and writes no key", async () => {
    const copy = exampleCopy((c) => {
      c.judge = { kind: "openai", model: "judge-model", baseUrl: server.baseURL, concurrency: 4 };
      c.prices = { "judge-model": { input: 2, output: 8 } };
    });
    const cacheDir = join(copy.dir, "cache");
    const first = await runEvaluation({ config: copy.config, cacheDir });
    const t = first.report.judgeTotals;
    expect(first.report.judge).toMatchObject({ kind: "openai", model: "judge-model", baseUrl: server.baseURL });
    expect(t.calls).toBe(server.count);
    expect(t.calls).toBeGreaterThan(100);
    expect(t.promptTokens).toBeGreaterThan(0);
    expect(t.cost).toBeCloseTo((t.promptTokens * 2 + t.completionTokens * 8) / 1e6, 12);
    expect(first.summary).toMatch(/tokens: \d+ calls, \d+ prompt \+ \d+ completion; cost: \$\d+\.\d{4}/);
    for (const r of first.report.rubrics) {
      expect(r.judge).toBe("llm");
      expect(r.model).toBe("judge-model");
      expect(r.trust.trusted).toBe(false);
    }
    const config = readFileSync(join(first.folder, "config.json"), "utf8");
    expect(config).toContain('"keySource": "none (loopback server)"');
    expect(config).not.toMatch(/apiKey|ragjudge-no-key-loopback/);

    // A second run reads every verdict from the cache: no call, no cost, same verdicts.
    const before = server.count;
    const second = await runEvaluation({ config: copy.config, cacheDir });
    expect(server.count).toBe(before);
    expect(second.report.judgeTotals.calls).toBe(0);
    expect(second.report.judgeTotals.cost).toBe(0);
    expect(second.report.judgeTotals.cached).toBe(second.report.judgeTotals.judgments - second.report.judgeTotals.rule);
    expect(second.report.variants.map((v) => v.searchOrAnswer.overall)).toEqual(first.report.variants.map((v) => v.searchOrAnswer.overall));
  });
});
