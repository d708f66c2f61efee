import { join } from "node:path";
import { openAIBackend } from "../../../src/judge/judges/llm.js";
import { batchClient, type BatchEndpoint } from "../../../src/judge/batch/api.js";
import { exportBatch } from "../../../src/judge/batch/export.js";
import type { BatchLimits } from "../../../src/judge/batch/format.js";
import { BatchStore } from "../../../src/judge/batch/store.js";
import { submitExport, type SubmitOptions } from "../../../src/judge/batch/submit.js";
import { JudgeCache } from "../../../src/judge/schedule/cache.js";
import { JudgeClient } from "../../../src/judge/transport/client.js";
import type { Item } from "../../../src/judge/items/items.js";
import type { RequestInfo } from "../../server/openai-server.js";
import { FIXTURE, fixtureInputs, tempDir } from "../helpers.js";
import { SETTINGS } from "../helpers.js";

export const CONFIG = join(FIXTURE, "ragjudge.config.json");
export { SETTINGS };
export const ALL_RUBRICS = ["anchor-ambiguity", "citation-accuracy", "correctness", "faithfulness", "not-found"];

/** The scripted judge's verdict: "no" when the prompt mentions the invented gym or the 10-day hotel rule. */
export function truth(r: RequestInfo): "yes" | "no" {
  return /gym|10 days ahead/.test(r.user) ? "no" : "yes";
}

/** Every fixture item, all rubrics. */
export function allItems(): Item[] {
  return fixtureInputs(ALL_RUBRICS).itemSet.items;
}

/** A cache, its batch store, an SDK client for `baseURL`, and an export of `items` in `parts` files. */
export function setup(baseURL: string, opts: { items?: Item[]; limits?: BatchLimits } = {}) {
  const dir = tempDir("ragjudge-batch-");
  const cache = JudgeCache.open(dir);
  const store = BatchStore.open(cache);
  const client = new JudgeClient({ baseURL, apiKey: "k", timeoutMs: 2000, policy: { maxRetries: 0 } });
  const backend = openAIBackend({ client, baseURL, settings: SETTINGS, cache });
  const { plan, result } = exportBatch({ items: opts.items ?? allItems(), backend, cache, repeats: 1, file: join(dir, "judge.jsonl"), limits: opts.limits });
  const endpoint: BatchEndpoint = { baseURL, apiKey: "k", keySource: "test" };
  return { dir, cache, store, plan, files: result.parts.map((p) => p.file), endpoint, sdk: batchClient(endpoint, { maxRetries: 0 }) };
}

/**
 * Submits `file` with the SDK client, endpoint and store of a {@link setup}:
 * `extra` adds limits or the crash hook a test needs.
 *
 * @example
 * await expect(submitFile(t, t.files[0]!, { onStep: crashAt("created") })).rejects.toThrow(Crash);
 */
export function submitFile(t: Pick<SubmitOptions, "sdk" | "endpoint" | "store">, file: string, extra: Pick<SubmitOptions, "limits" | "onStep"> = {}) {
  return submitExport({ sdk: t.sdk, endpoint: t.endpoint, store: t.store, file, ...extra });
}
