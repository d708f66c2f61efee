import { z } from "zod";

/** The offline lexical judge: deterministic, no model, labelled as a baseline everywhere. */
export const BaselineJudgeConfig = z.strictObject({ kind: z.literal("baseline") });

/**
 * A model behind any OpenAI-compatible endpoint. The API key comes only from
 * the environment (`OPENAI_API_KEY`, or the variable named by `apiKeyEnv`);
 * it is never written anywhere. `temperature` and `seed` default to 0 and 0;
 * set either to `null` to omit it from the request (some models reject them).
 */
export const OpenAIJudgeConfig = z.strictObject({
  kind: z.literal("openai"),
  model: z.string().min(1),
  baseUrl: z.string().url().optional(),
  apiKeyEnv: z.string().min(1).optional(),
  temperature: z.number().min(0).max(2).nullable().default(0),
  seed: z.number().int().nullable().default(0),
  maxTokens: z.number().int().positive().nullable().default(512),
  responseFormat: z.enum(["json_schema", "text"]).default("json_schema"),
  concurrency: z.number().int().positive().default(8),
  timeoutMs: z.number().int().positive().default(60_000),
  maxRetries: z.number().int().min(0).default(4),
  repeats: z.number().int().positive().default(1),
  /**
   * Token log-probabilities for each verdict's P(yes) (src/judge/judges/logprobs.ts):
   * "auto" asks and falls back (remembered) when the server lacks them; true always
   * asks; false (default, so existing fingerprints and caches stay valid) never asks.
   */
  logprobs: z.union([z.literal("auto"), z.boolean()]).default(false),
});

export const JudgeConfig = z.discriminatedUnion("kind", [BaselineJudgeConfig, OpenAIJudgeConfig]);
export type JudgeConfig = z.infer<typeof JudgeConfig>;
