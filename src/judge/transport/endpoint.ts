/**
 * Where an OpenAI-compatible endpoint is and which key it gets: the one
 * place keys are read, shared by the online judge and batch mode, so both
 * refuse and accept the same setups.
 */

/** A judge (or a batch endpoint) that cannot be set up from the config, flags and environment (exit 2). */
export class JudgeSetupError extends Error {
  override name = "JudgeSetupError";
  /**
   * `lines`: the message is ragjudge's own text laid out on several lines (the
   * choices of "no judge configured"), printed as such; any other message may
   * quote a user's input and is kept on one line.
   */
  constructor(message: string, readonly lines = false) {
    super(message);
  }
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
