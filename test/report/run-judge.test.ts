import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JudgeCache } from "../../src/judge/schedule/cache.js";
import { runEvaluation } from "../../src/report/evaluation.js";
import { startOpenAIServer } from "../server/openai-server.js";
import { exampleCopy } from "./helpers.js";

/** The judge step of `ragjudge run` (src/report/run-judge.ts) against a scripted server on 127.0.0.1. */
describe("the judge step of ragjudge run", () => {
  it("holds the cache as 'ragjudge run': a second run is told which command holds it (it said 'ragjudge judge')", async () => {
    const server = await startOpenAIServer({ latencyMs: 50, script: () => ({ verdict: "yes" }) });
    try {
      const copy = exampleCopy((c) => {
        c.judge = { kind: "openai", model: "judge-model", baseUrl: server.baseURL, concurrency: 2 };
      });
      const cacheDir = join(copy.dir, "cache");
      const run = runEvaluation({ config: copy.config, cacheDir });
      while (server.count === 0) await new Promise((r) => setTimeout(r, 10));
      const other = JudgeCache.open(cacheDir);
      try {
        expect(() => other.acquireLease("ragjudge judge")).toThrow(/in use by another ragjudge run \(ragjudge run, pid \d+, since/);
      } finally {
        other.close();
      }
      await run;
    } finally {
      await server.close();
    }
  }, 60_000);
});
