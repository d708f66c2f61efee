import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ItemKey } from "../../../src/golden/schema/items.js";
import { openAIBackend } from "../../../src/judge/judges/llm.js";
import { CACHE_FILE, JudgeCache } from "../../../src/judge/schedule/cache.js";
import { runJudge } from "../../../src/judge/schedule/run.js";
import { JudgeClient } from "../../../src/judge/transport/client.js";
import { startOpenAIServer, type Behaviour, type RequestInfo, type TestServer } from "../../server/openai-server.js";
import { ALL_RUBRICS, fixtureInputs, SETTINGS, tempDir } from "../helpers.js";

const S = SETTINGS;
const ALL = ALL_RUBRICS;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What each request gets, from its content alone (so arrival order does not matter): verdicts, a 500, an unreadable reply, a 400. */
function script(r: RequestInfo): Behaviour {
  const h = createHash("sha256").update(r.user).digest()[0]! % 10;
  if (h === 0) return { status: 500, message: "upstream overloaded" };
  if (h === 1) return { content: "not json at all" };
  if (h === 2) return { status: 400, message: "bad request: invalid messages" };
  return { verdict: h % 2 ? "yes" : "no", reason: `scripted ${h}` };
}

/** Every verdict row in the cache, ordered, without the commit time (nor the server's clock in the raw reply). */
function rows(dir: string): unknown[] {
  const db = new Database(join(dir, CACHE_FILE), { readonly: true });
  try {
    return db.prepare("SELECT * FROM verdicts ORDER BY fingerprint, input_hash, repeat").all()
      .map((r) => {
        const row = r as { raw: string | null };
        return { ...row, time: undefined, raw: row.raw?.replace(/"created":\d+/, '"created":0') };
      });
  } finally {
    db.close();
  }
}

describe("the lean transport and group commit change nothing", () => {
  const { itemSet } = fixtureInputs(ALL);

  it("copies every field of an item's key into its judgments (run.ts lists them one by one)", () => {
    expect(Object.keys(ItemKey.shape)).toEqual(["variant", "question", "rubric", "unit"]);
  });

  it("gives the same judgments and cache rows as the global fetch with one commit per verdict", async () => {
    server = await startOpenAIServer({ latencyMs: 2, script });
    const run = async (old: boolean) => {
      const dir = tempDir();
      const cache = JudgeCache.open(dir);
      const client = new JudgeClient({ baseURL: server!.baseURL, apiKey: "k", timeoutMs: 5000, policy: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2 }, random: () => 0.5, ...(old ? { fetch: globalThis.fetch } : {}) });
      const backend = openAIBackend({ client, baseURL: server!.baseURL, settings: S, cache, breakerLimit: 1000 });
      const r = await runJudge({ items: itemSet.items, backend, cache, repeats: 2, concurrency: 6, ...(old ? { commitBatch: 1 } : {}) });
      cache.close();
      return { judgments: r.judgments.map(({ time: _t, ...rest }) => rest), rows: rows(dir), progress: { ...r.progress, startedAt: 0 } };
    };
    const before = await run(true);
    const after = await run(false);
    expect(after.judgments).toEqual(before.judgments);
    expect(after.rows).toEqual(before.rows);
    expect(after.progress).toEqual(before.progress);
    // The script reached every branch: verdicts both ways and errors of each kind.
    const causes = new Set(before.judgments.filter((j) => j.verdict === "error").map((j) => j.error!.split(":")[0]));
    expect([...causes].sort()).toEqual(["http-400", "http-500", "parse"]);
    expect(new Set(before.judgments.map((j) => j.verdict))).toEqual(new Set(["yes", "no", "error"]));
  });
});
