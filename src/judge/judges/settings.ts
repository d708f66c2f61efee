import { OpenAIJudgeConfig, type RagjudgeConfig } from "../../golden/schema/config.js";
import type { ResponseMode } from "../transport/request.js";

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
}

export type JudgeSettings = { kind: "baseline"; repeats: number; concurrency: number } | OpenAISettings;

/** A judge that cannot be set up from the config, flags and environment (exit 2). */
export class JudgeSetupError extends Error {
  override name = "JudgeSetupError";
}

/** The key used for loopback servers when no key is set (local test servers ignore it). */
export const LOOPBACK_DUMMY_KEY = "ragjudge-no-key-loopback";

/** The placeholder key of a dry run without a key: never sent, since a dry run sends nothing. */
const DRY_RUN_KEY = "ragjudge-no-key-dry-run";

/**
 * Checks an endpoint's base URL (trailing slashes removed): a URL, http or
 * https, and without a user name or password in it, since the URL is
 * printed in logs and summaries and the key belongs in the environment.
 *
 * @example
 * checkBaseURL("http://localhost:8000/v1/", "judge") // "http://localhost:8000/v1"
 * checkBaseURL("https://user:pw@host/v1", "judge") // throws JudgeSetupError
 */
export function checkBaseURL(raw: string, what: "judge" | "batch"): string {
  const baseURL = raw.replace(/\/+$/, "");
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new JudgeSetupError(`the ${what} base URL ${JSON.stringify(baseURL)} is not a URL (expected like http://localhost:8000/v1)`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new JudgeSetupError(`the ${what} base URL must not contain a user name or password (it is printed in logs and summaries); put the key in OPENAI_API_KEY or the variable judge.apiKeyEnv names`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new JudgeSetupError(`the ${what} base URL must be http or https, got ${JSON.stringify(baseURL)}`);
  return baseURL;
}

/** The endpoint used when neither a flag, the config nor `OPENAI_BASE_URL` names one. */
const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** An OpenAI-compatible endpoint and its key. The key is held in memory only. */
export interface Endpoint {
  baseURL: string;
  apiKey: string;
  /** Where the key came from (a variable name, or "none (loopback server)" and the like), for messages. */
  keySource: string;
}

/**
 * The endpoint the online judge and batch mode both talk to: `--base-url`,
 * else the config's `judge.baseUrl`, else `OPENAI_BASE_URL`, else OpenAI
 * (checked by {@link checkBaseURL}). The key comes only from the environment
 * (`OPENAI_API_KEY`, or the variable `judge.apiKeyEnv` names); without one, a
 * loopback server gets a dummy key, and so does any URL with `keyless` (a dry
 * run, which sends nothing); otherwise a {@link JudgeSetupError}. The one
 * place keys are read, so both paths refuse and accept the same setups.
 *
 * @example
 * resolveEndpoint("batch", undefined, { baseUrl: "http://127.0.0.1:8000/v1" }, process.env)
 * // { baseURL: "http://127.0.0.1:8000/v1", apiKey: LOOPBACK_DUMMY_KEY, keySource: "none (loopback server)" }
 */
export function resolveEndpoint(
  what: "judge" | "batch",
  baseUrlFlag: string | undefined,
  judge: { baseUrl?: string; apiKeyEnv?: string } | undefined,
  env: NodeJS.ProcessEnv,
  opts: { keyless?: boolean } = {},
): Endpoint {
  const baseURL = checkBaseURL(baseUrlFlag ?? judge?.baseUrl ?? env.OPENAI_BASE_URL ?? DEFAULT_BASE_URL, what);
  const keyVar = judge?.apiKeyEnv ?? "OPENAI_API_KEY";
  const apiKey = env[keyVar];
  if (apiKey) return { baseURL, apiKey, keySource: keyVar };
  if (isLoopback(baseURL)) return { baseURL, apiKey: LOOPBACK_DUMMY_KEY, keySource: "none (loopback server)" };
  if (opts.keyless) return { baseURL, apiKey: DRY_RUN_KEY, keySource: `none (${keyVar} is not set; nothing is sent)` };
  throw new JudgeSetupError(`no API key: set the environment variable ${keyVar} (the key is read only from the environment and never written anywhere)`);
}

/** Whether a URL points at this machine (a local vLLM, Ollama, llama.cpp or test server). */
export function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

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
 * {@link JudgeSetupError} with {@link HOW_TO_CONFIGURE}.
 *
 * @example
 * resolveJudge(config, { judge: "openai", model: "qwen2.5:7b", baseUrl: "http://localhost:11434/v1" })
 */
export function resolveJudge(config: RagjudgeConfig, flags: JudgeFlags, env: NodeJS.ProcessEnv = process.env, opts: { keyless?: boolean } = {}): JudgeSettings {
  let kind = flags.judge;
  if (kind !== undefined && kind !== "baseline" && kind !== "openai") throw new JudgeSetupError(`--judge must be "baseline" or "openai", got ${JSON.stringify(kind)}`);
  if (kind === undefined && (flags.model !== undefined || flags.baseUrl !== undefined)) kind = "openai";
  kind ??= config.judge?.kind;
  if (kind === undefined) throw new JudgeSetupError(HOW_TO_CONFIGURE);
  if (kind === "baseline") {
    const llmOnly = (["model", "baseUrl", "temperature", "seed", "maxTokens", "responseFormat", "timeoutMs", "maxRetries"] as const).filter((k) => flags[k] !== undefined);
    if (llmOnly.length) throw new JudgeSetupError(`--judge baseline takes no LLM options (got ${llmOnly.map((k) => "--" + k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase())).join(", ")})`);
    return { kind: "baseline", repeats: 1, concurrency: 1 };
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
  };
}
