import { afterEach, describe, expect, it, vi } from "vitest";
import { startOpenAIServer, type TestServer } from "../../server/openai-server.js";
import { ALL_RUBRICS, fixtureInputs, SETTINGS, tempDir } from "../helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * Fresh copies of the modules, with every request for the SDK counted: the
 * count says whether a run asked for it at all, where its module state
 * alone could lag behind an import still in progress.
 */
async function fresh() {
  vi.resetModules();
  const asked = { n: 0 };
  vi.doMock("../../../src/judge/transport/sdk.js", async (original) => {
    const real = await original<typeof import("../../../src/judge/transport/sdk.js")>();
    return { ...real, loadSdk: () => (asked.n++, real.loadSdk()) };
  });
  const [run, llm, client, cache] = await Promise.all([
    import("../../../src/judge/schedule/run.js"),
    import("../../../src/judge/judges/llm.js"),
    import("../../../src/judge/transport/client.js"),
    import("../../../src/judge/schedule/cache.js"),
  ]);
  return { asked, ...run, ...llm, ...client, ...cache };
}

async function judgeOnce(s: TestServer, dir: string) {
  const m = await fresh();
  const cache = m.JudgeCache.open(dir);
  const client = new m.JudgeClient({ baseURL: s.baseURL, apiKey: "k", timeoutMs: 2000 });
  const backend = m.openAIBackend({ client, baseURL: s.baseURL, settings: SETTINGS, cache });
  const { items } = fixtureInputs(ALL_RUBRICS).itemSet;
  const r = await m.runJudge({ items, backend, cache, repeats: 1, concurrency: 4 });
  cache.close();
  return { asked: m.asked.n, errors: r.judgments.filter((j) => j.verdict === "error").length };
}

describe("the openai SDK is loaded at the first request", () => {
  it("a run with misses loads it and judges through it; a cached rerun never loads it", async () => {
    server = await startOpenAIServer({ script: () => ({ verdict: "yes" }) });
    const dir = tempDir();
    const first = await judgeOnce(server, dir);
    expect(first.asked).toBeGreaterThan(0);
    expect(server.count).toBeGreaterThan(0);
    expect(first.errors).toBe(0);

    server.resetCount();
    const second = await judgeOnce(server, dir);
    expect(server.count).toBe(0);
    expect(second.asked).toBe(0);
    expect(second.errors).toBe(0);
  });
});
