import { z } from "zod";
import { BOUNDS } from "../bounds.js";
import { bounded } from "./common.js";

/** The offline lexical judge: deterministic, no model, labelled as a baseline everywhere. */
export const BaselineJudgeConfig = z.strictObject({ kind: z.literal("baseline") });

/**
 * A model behind any OpenAI-compatible endpoint. The API key comes only from
 * the environment (`OPENAI_API_KEY`, or the variable named by `apiKeyEnv`);
 * it is never written anywhere. `temperature` and `seed` default to 0 and 0;
 * set either to `null` to omit it from the request (some models reject them).
 * Every number has the bounds of its flag (golden/bounds.ts).
 */
export const OpenAIJudgeConfig = z.strictObject({
  kind: z.literal("openai"),
  model: z.string().min(1),
  baseUrl: z.string().url().optional(),
  apiKeyEnv: z.string().min(1).optional(),
  temperature: bounded(BOUNDS.temperature).nullable().default(0),
  seed: bounded(BOUNDS.seed).nullable().default(0),
  maxTokens: bounded(BOUNDS.maxTokens).nullable().default(512),
  responseFormat: z.enum(["json_schema", "text"]).default("json_schema"),
  concurrency: bounded(BOUNDS.concurrency).default(8),
  timeoutMs: bounded(BOUNDS.timeoutMs).default(60_000),
  maxRetries: bounded(BOUNDS.maxRetries).default(4),
  repeats: bounded(BOUNDS.repeats).default(1),
  /**
   * Token log-probabilities for each verdict's P(yes) (src/judge/judges/logprobs.ts):
   * "auto" asks and falls back (remembered) when the server lacks them; true always
   * asks; false (default, so existing fingerprints and caches stay valid) never asks.
   */
  logprobs: z.union([z.literal("auto"), z.boolean()]).default(false),
});

export const JudgeConfig = z.discriminatedUnion("kind", [BaselineJudgeConfig, OpenAIJudgeConfig]);
export type JudgeConfig = z.infer<typeof JudgeConfig>;
