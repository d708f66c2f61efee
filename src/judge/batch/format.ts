import { z } from "zod";
import type { CacheKey } from "../schedule/cache.js";

/** The one endpoint batch mode uses: every judge call is a chat completion. */
export const BATCH_URL = "/v1/chat/completions";

/** The completion window the OpenAI Batch API accepts (the only one it offers). */
export const COMPLETION_WINDOW = "24h";

/**
 * Per-file limits of an input file. The defaults are the OpenAI Batch API's
 * (50,000 requests, 200 MB; the byte limit counted in decimal megabytes to
 * stay under it whichever megabyte the API means). Other providers differ,
 * and tests use tiny ones, so every function takes them as a parameter.
 */
export interface BatchLimits {
  maxRequests: number;
  maxBytes: number;
}

/** The OpenAI Batch API's per-file limits. */
export const BATCH_LIMITS: BatchLimits = { maxRequests: 50_000, maxBytes: 200_000_000 };

const HEX64 = "[0-9a-f]{64}";
const CUSTOM_ID = new RegExp(`^(${HEX64})-(${HEX64})-(\\d+)$`);

/**
 * The `custom_id` of a batch request: the cache key it fills, written as
 * `<fingerprint>-<input hash>-<repeat>`. Results come back under this id,
 * so a verdict lands in the cache exactly where the online path would have
 * put it.
 *
 * @example
 * customIdOf(cacheKey(fp, inputHash, 0)) // "3f2a…-9c1d…-0"
 */
export function customIdOf(key: CacheKey): string {
  return `${key.fingerprint}-${key.inputHash}-${key.repeat}`;
}

/** The cache key a ragjudge `custom_id` names; undefined for any other id. */
export function keyOfCustomId(id: string): CacheKey | undefined {
  const m = CUSTOM_ID.exec(id);
  if (!m) return undefined;
  const repeat = Number(m[3]);
  return Number.isSafeInteger(repeat) ? { fingerprint: m[1]!, inputHash: m[2]!, repeat } : undefined;
}

/**
 * One line of a batch input file (OpenAI Batch API and vLLM's
 * `run_batch`): a chat-completions request under its `custom_id`. Checked at
 * submit time so a hand-edited or foreign file fails before any upload.
 */
export const BatchInputLine = z.strictObject({
  custom_id: z.string().min(1),
  method: z.literal("POST"),
  url: z.literal(BATCH_URL),
  body: z.looseObject({
    model: z.string().min(1),
    messages: z.array(z.unknown()).min(1),
  }),
});
export type BatchInputLine = z.infer<typeof BatchInputLine>;

/**
 * One line of a batch output or error file, as both the OpenAI Batch API and
 * vLLM's batch runner write it: `{id, custom_id, response: {status_code,
 * request_id, body}, error}`. `response` is null for requests that never ran
 * (expired, cancelled); vLLM puts a string or an error object in `error`.
 * A line with neither a response nor an error says nothing and is refused.
 */
export const BatchOutputLine = z
  .looseObject({
    id: z.string().nullish(),
    custom_id: z.string().min(1),
    response: z
      .looseObject({
        status_code: z.number().int(),
        request_id: z.string().nullish(),
        body: z.unknown().optional(),
      })
      .nullish(),
    error: z.unknown().optional(),
  })
  .refine((l) => (l.response !== null && l.response !== undefined) || (l.error !== null && l.error !== undefined), {
    message: "the line has neither a response nor an error",
    path: ["response"],
  });
export type BatchOutputLine = z.infer<typeof BatchOutputLine>;

/**
 * The name of part `index` (1-based) of an export: the first part is `file`
 * itself, later ones insert `.<n>` before a `.jsonl` extension
 * (`judge.jsonl`, `judge.2.jsonl`, …) or append it otherwise
 * (`calls`, `calls.2`, …).
 *
 * @example
 * partName("out/judge.jsonl", 3) // "out/judge.3.jsonl"
 */
export function partName(file: string, index: number): string {
  if (index <= 1) return file;
  const m = /^(.*)(\.jsonl?)$/i.exec(file);
  return m ? `${m[1]}.${index}${m[2]}` : `${file}.${index}`;
}
