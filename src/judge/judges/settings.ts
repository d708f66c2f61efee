import { OpenAIJudgeConfig, type RagjudgeConfig } from "../../golden/schema/config.js";
import { JudgeSetupError, resolveEndpoint, type Endpoint } from "../transport/endpoint.js";
import type { ResponseMode } from "../transport/request.js";
import { BASELINE_CONCURRENCY } from "./baseline-threads.js";
import type { LogprobsSetting } from "./logprobs.js";
import { requireJudgeNumbers } from "./numbers.js";

/** Flags of `ragjudge judge` that override the config's `judge` block. `false` is commander's `--no-x`. */
export interface JudgeFlags {
  judge?: string;
  baseUrl?: string;
  model?: string;
  concurrency?: number;
  repeats?: number;
  temperature?: number | false;
  seed?: number | false;
  maxTokens?: number | false;
  responseFormat?: string;
  timeoutMs?: number;
  maxRetries?: number;
}

/** The LLM judge's settings after config, flags and environment are combined. The key never leaves memory. */
export interface OpenAISettings extends Endpoint {
  kind: "openai";
  model: string;
  temperature: number | null;
  seed: number | null;
  maxTokens: number | null;
  responseFormat: ResponseMode;
  /** True when `--response-format` chose it: a mode remembered for the endpoint does not override it. */
  responseFormatExplicit: boolean;
  concurrency: number;
  timeoutMs: number;
  maxRetries: number;
  repeats: number;
  /** Whether to ask for token log-probabilities (config `judge.logprobs`). */
  logprobs: LogprobsSetting;
}

export type JudgeSettings = { kind: "baseline"; repeats: number; concurrency: number } | OpenAISettings;

/** How to configure a judge, for the "no judge configured" message. */
export const HOW_TO_CONFIGURE = [
  "no judge configured. Choose one:",
  '  - an LLM judge: add  "judge": {"kind": "openai", "model": "gpt-4o-mini"}  to ragjudge.config.json (optional "baseUrl" for vLLM, Ollama, llama.cpp: "http://localhost:8000/v1"),',
  "    or pass  --judge openai --model NAME [--base-url URL];  the key is read from OPENAI_API_KEY (or the variable named by judge.apiKeyEnv)",
  '  - the offline lexical baseline (no model, no key; a floor, not a trusted judge): "judge": {"kind": "baseline"}  or  --judge baseline',
].join("\n");

function orNull(flag: number | false | undefined, config: number | null): number | null {
  if (flag === false) return null;
  return flag ?? config;
}

/**
 * Combines the config's `judge` block, the command-line flags and the
 * environment. `--judge` picks the kind; `--model` or `--base-url` without
 * `--judge` imply the LLM judge. The endpoint and key are found by
 * {@link resolveEndpoint} (`keyless`: a dry run, which sends nothing, needs
 * no key). With no judge anywhere, throws
 * {@link JudgeSetupError} with {@link HOW_TO_CONFIGURE}. A number of `flags`
 * outside its flag's bounds (`runEvaluation`'s `judge` comes from code, not
 * the command line) throws a RangeError first.
 *
 * @example
 * resolveJudge(config, { judge: "openai", model: "qwen2.5:7b", baseUrl: "http://localhost:11434/v1" })
 */
export function resolveJudge(config: RagjudgeConfig, flags: JudgeFlags, env: NodeJS.ProcessEnv = process.env, opts: { keyless?: boolean } = {}): JudgeSettings {
  requireJudgeNumbers(flags);
  let kind = flags.judge;
  if (kind !== undefined && kind !== "baseline" && kind !== "openai") throw new JudgeSetupError(`--judge must be "baseline" or "openai", got ${JSON.stringify(kind)}`);
  if (kind === undefined && (flags.model !== undefined || flags.baseUrl !== undefined)) kind = "openai";
  kind ??= config.judge?.kind;
  if (kind === undefined) throw new JudgeSetupError(HOW_TO_CONFIGURE, true);
  if (kind === "baseline") {
    const llmOnly = (["model", "baseUrl", "temperature", "seed", "maxTokens", "responseFormat", "timeoutMs", "maxRetries"] as const).filter((k) => flags[k] !== undefined);
    if (llmOnly.length) throw new JudgeSetupError(`--judge baseline takes no LLM options (got ${llmOnly.map((k) => "--" + k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase())).join(", ")})`);
    return { kind: "baseline", repeats: 1, concurrency: BASELINE_CONCURRENCY };
  }
  const fromConfig = config.judge?.kind === "openai" ? config.judge : undefined;
  const model = flags.model ?? fromConfig?.model;
  if (!model) throw new JudgeSetupError('the LLM judge needs a model: pass --model NAME or set "judge": {"kind": "openai", "model": "NAME"} in the config');
  const base = OpenAIJudgeConfig.parse({ ...(fromConfig ?? { kind: "openai" }), model });
  const { baseURL, apiKey, keySource } = resolveEndpoint("judge", flags.baseUrl, base, env, opts);
  const responseFormat = flags.responseFormat ?? base.responseFormat;
  if (responseFormat !== "json_schema" && responseFormat !== "text") throw new JudgeSetupError(`--response-format must be "json_schema" or "text", got ${JSON.stringify(responseFormat)}`);
  return {
    kind: "openai",
    model,
    baseURL,
    apiKey,
    keySource,
    temperature: orNull(flags.temperature, base.temperature),
    seed: orNull(flags.seed, base.seed),
    maxTokens: orNull(flags.maxTokens, base.maxTokens),
    responseFormat,
    responseFormatExplicit: flags.responseFormat !== undefined,
    concurrency: flags.concurrency ?? base.concurrency,
    timeoutMs: flags.timeoutMs ?? base.timeoutMs,
    maxRetries: flags.maxRetries ?? base.maxRetries,
    repeats: flags.repeats ?? base.repeats,
    logprobs: base.logprobs,
  };
}
