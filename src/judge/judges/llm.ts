import type { Evidence } from "../../golden/schema/items.js";
import type { Rubric } from "../rubric/rubric.js";
import { JudgeClient } from "../transport/client.js";
import { LOOPBACK_DUMMY_KEY } from "../transport/endpoint.js";
import { MAIN_JUDGE_KNOBS, type JudgeKnobs, type RequestParam } from "../transport/knobs.js";
import { buildRequestBody, LLM_JUDGE, requestFingerprint, requestTemplate, type RequestBody, type RequestSettings, type ResponseMode } from "../transport/request.js";
import { FORMAT_WORDS } from "../transport/retry.js";
import { FatalJudgeError, type Judge } from "./judge.js";
import { LogprobsSwitch, type LogprobsMemory, type LogprobsSetting } from "./logprobs.js";
import type { OpenAISettings } from "./settings.js";
import { requireJudgeNumbers } from "./numbers.js";

/**
 * Where the LLM judge remembers that an endpoint lacks structured outputs,
 * so the next run starts in text mode and finds its cached verdicts. The
 * verdict cache (schedule/cache.ts) is one; the judge needs only these two
 * methods, so it does not depend on the scheduler's storage.
 */
export interface ResponseModeMemory {
  responseMode(baseURL: string, model: string): ResponseMode | undefined;
  rememberResponseMode(baseURL: string, model: string, mode: ResponseMode, cause?: string): void;
}

/** Options of {@link openAIBackend}. */
export interface OpenAIBackendOptions {
  client: JudgeClient;
  baseURL: string;
  settings: RequestSettings;
  /** Remembers a server found without structured outputs (or log-probabilities), so the next run starts without them. */
  cache?: ResponseModeMemory & Partial<LogprobsMemory>;
  /** Whether to ask for token log-probabilities (see judges/logprobs.ts); default false. */
  logprobs?: LogprobsSetting;
  /** Told once when the run stops asking for log-probabilities. */
  onLogprobsOff?: (cause: string) => void;
  /** Told once when the run falls back to text mode. */
  onModeChange?: (mode: ResponseMode, cause: string) => void;
  /** Failed calls before any success that stop the run (an unreachable or misconfigured endpoint); default 10. */
  breakerLimit?: number;
  /** Calls in a row that give up on a rate limit (429 after every retry) that stop the run; default 8. */
  rateLimitLimit?: number;
  /** No key was set (a loopback server gets a placeholder): a refused key then says to set one. */
  noKey?: boolean;
  /** Where the user changes this judge's settings, for the hints of the messages that stop it (default: the main judge's flags). */
  knobs?: JudgeKnobs;
}

/** Said after a 401 or 403 when no key was set: the server wants one, and only the environment gives it. */
export const NO_KEY_SENT = "the endpoint wants an API key and none is set (a loopback server is sent a placeholder): put the key it wants in OPENAI_API_KEY (or the variable apiKeyEnv names)";

/** A refused key's cause, when no key was set: what to set instead of "refused the API key". */
export const noKeyCause = (cause: string) => cause.replace(/ \(the endpoint refused the API key\)$/, "") + ` (${NO_KEY_SENT})`;

/** Request parameters a model may reject, as its error names them. */
const PARAMS: [RegExp, RequestParam][] = [
  [/\btemperature\b/i, "temperature"],
  [/\bseed\b/i, "seed"],
  [/\bmax_(completion_)?tokens\b/i, "maxTokens"],
];

/**
 * What to suggest when the first calls all fail: the flag omitting a
 * parameter the error names; text mode when the failure is about the reply
 * format (a parse failure, or a 400 about response_format) under structured
 * outputs; for a reply that is no chat completion, the base URL; for
 * timeouts, the per-attempt deadline (a slow server stops the
 * run here before the outage breaker when few calls retry); nothing for rate
 * limits and the like. Each names what changes that judge (`knobs`: the
 * main judge's flags, or a panel judge's config entry).
 */
export function breakerHint(cause: string, mode: ResponseMode, knobs: JudgeKnobs = MAIN_JUDGE_KNOBS): string {
  if (/^timeout\b/.test(cause)) return `; if it is only slow, ${knobs.timeout}`;
  if (/^http-400\b/.test(cause)) {
    const param = PARAMS.find(([re]) => re.test(cause));
    if (param) return `; if the model rejects that parameter, ${knobs.omit(param[1])}`;
  }
  if (/^bad-response\b/.test(cause)) return "; the server answered with something other than a chat completion: is the base URL the API's, ending in /v1?";
  if (mode === "json_schema" && (/^parse\b/.test(cause) || (/^http-400\b/.test(cause) && FORMAT_WORDS.test(cause)))) {
    return `; if the server lacks structured outputs, ${knobs.textMode}`;
  }
  return "";
}

/**
 * Causes that say the endpoint could not serve now, so a rerun later may
 * finish (exit 4): no reply (a timeout, a connection refused or reset), or a
 * reply saying so (5xx, 429, 408, 409). Every other cause of the first calls
 * all failing is the setup's (exit 2): the server answered, and its answer
 * says what to change. That includes a reply that is no chat completion at
 * all (`bad-response`: an HTML page, or JSON without choices), as a base URL
 * that is not the API's gives every call; it was counted an outage (exit 4),
 * while prose where a verdict belongs (`parse`, the model or response format)
 * was exit 2, and batch submit already took an unreadable reply as exit 2.
 */
const ENDPOINT_CAUSE = /^(timeout|connection|http-5\d\d|http-429|http-408|http-409)\b/;

/** Whether a failed call's cause is the endpoint's (a rerun later may finish: exit 4) rather than the setup's (exit 2); see above. */
export const isEndpointCause = (cause: string) => ENDPOINT_CAUSE.test(cause);

/**
 * What the LLM judge's fingerprint covers: everything in its request
 * template ({@link requestTemplate}). Not the endpoint's URL, nor the model
 * the server actually serves (recorded with each verdict as `servedModel`).
 */
export const LLM_COVERS: readonly string[] = [
  "the rubric's name and version",
  "the exact request body, with placeholders where the evidence goes: the rubric's system and user prompts as rendered",
  "the model name asked for",
  "temperature, seed and max_tokens as sent (or their absence)",
  "whether token log-probabilities are asked for (logprobs, top_logprobs) and the version of the rule reading P(yes) from them",
  "the response mode (structured outputs or JSON in the text) and the reply schema",
  "the versions of ragjudge's prompt rendering, fencing and reply parsing",
];

/** The LLM judge record, with its request builder exposed for dry runs. */
export interface OpenAIBackend extends Judge {
  readonly mode: ResponseMode;
  request(rubric: Rubric, evidence: Evidence): RequestBody;
}

/**
 * The LLM judge over an OpenAI-compatible endpoint. Starts in the configured
 * response mode (or the one remembered for this endpoint and model); on a
 * 400 that rejects `response_format` it switches the whole run to
 * JSON-in-text, remembers that in the cache, and resends the item. Stops the
 * run (FatalJudgeError) on a refused key or unknown model, when the first
 * `breakerLimit` calls all fail (an unreachable or misconfigured endpoint
 * would otherwise turn every item into an error, slowly), when
 * `rateLimitLimit` calls in a row give up on a rate limit, and when the
 * client finds the endpoint down. Stopping stops the client too, so calls in
 * flight end at once.
 */
export function openAIBackend(o: OpenAIBackendOptions): OpenAIBackend {
  let mode: ResponseMode = o.settings.responseMode;
  const memory = o.cache?.logprobsSupport && o.cache.rememberLogprobs ? (o.cache as LogprobsMemory) : undefined;
  const lp = new LogprobsSwitch(o.logprobs ?? false, { memory, baseURL: o.baseURL, model: o.settings.model, onChange: o.onLogprobsOff });
  const fps = new Map<string, string>();
  let successes = 0;
  let failures = 0;
  let rateLimitedInARow = 0;
  const limit = o.breakerLimit ?? 10;
  const rateLimit = o.rateLimitLimit ?? 8;
  const knobs = o.knobs ?? MAIN_JUDGE_KNOBS;
  /** Why this judge stopped the client (undefined: it stopped itself, finding the endpoint down). */
  let stoppedKind: "setup" | "endpoint" | undefined;
  const stop = (message: string, kind: "setup" | "endpoint"): never => {
    stoppedKind ??= kind;
    o.client.stop(message);
    throw new FatalJudgeError(message, kind);
  };
  const settings = () => ({ ...o.settings, responseMode: mode, logprobs: lp.on });
  const fingerprintIn = (rubric: Rubric, m: ResponseMode, logprobs: boolean) => {
    const k = `${m}\0${logprobs}\0${rubric.name}`;
    let fp = fps.get(k);
    if (fp === undefined) fps.set(k, (fp = requestFingerprint(rubric, { ...o.settings, responseMode: m, logprobs })));
    return fp;
  };
  const fingerprint = (rubric: Rubric) => fingerprintIn(rubric, mode, lp.on);
  return {
    name: LLM_JUDGE,
    kind: "llm",
    model: o.settings.model,
    get label() {
      return `LLM judge ${o.settings.model} at ${o.baseURL} (${mode === "json_schema" ? "structured outputs" : "JSON in text"}${lp.on ? ", token log-probabilities" : ""})`;
    },
    covers: LLM_COVERS,
    cached: true,
    repeatable: true,
    maxConcurrency: Number.POSITIVE_INFINITY,
    get mode() {
      return mode;
    },
    retries: o.client.retries,
    fingerprint,
    template: (rubric) => requestTemplate(rubric, settings()),
    committed(calls) {
      // A rerun of the items that failed before is not a first call: "the first calls all failed" would
      // read an item's own failure (a context too long) as a wrong key or model, and stop with exit 2.
      successes += calls;
    },
    request: (rubric, evidence) => buildRequestBody(rubric, evidence, settings()),
    async judge(rubric, evidence) {
      for (;;) {
        const usedMode = mode;
        const asked = lp.on;
        const r = await o.client.complete(buildRequestBody(rubric, evidence, { ...o.settings, responseMode: usedMode, logprobs: asked }));
        const lpAction = lp.after(asked, r);
        if (lpAction.kind === "fatal") stop(lpAction.message, "setup");
        if (lpAction.kind === "resend") continue;
        if (!r.ok && r.textMode && usedMode === "json_schema") {
          if (mode === "json_schema") {
            mode = "text";
            o.cache?.rememberResponseMode(o.baseURL, o.settings.model, "text", r.cause);
            o.onModeChange?.("text", r.cause);
          }
          continue;
        }
        const fp = fingerprintIn(rubric, usedMode, asked);
        if (r.ok) {
          successes++;
          rateLimitedInARow = 0;
          return { verdict: r.reply.verdict, reason: r.reply.reason, ...(r.pYes === undefined ? {} : { pYes: r.pYes }), fingerprint: fp, servedModel: r.servedModel, usage: r.usage, raw: r.raw, attempts: r.attempts };
        }
        if (r.fatal) {
          const stopped = o.client.stopped;
          if (stopped !== undefined) throw new FatalJudgeError(stopped, stoppedKind ?? "endpoint");
          stop(o.noKey && /^http-40[13]\b/.test(r.cause) ? noKeyCause(r.cause) : r.cause, "setup");
        }
        rateLimitedInARow = r.rateLimited ? rateLimitedInARow + 1 : 0;
        if (rateLimitedInARow >= rateLimit) {
          stop(`rate limited: ${r.cause}; ${rateLimit} calls in a row gave up on the rate limit, so the run stops here: rerun later (or ${knobs.concurrency})`, "endpoint");
        }
        if (successes === 0 && ++failures >= limit) {
          const kind = isEndpointCause(r.cause) ? "endpoint" : "setup";
          stop(`${r.cause} (the first ${limit} calls all failed; stopping: ${knobs.endpoint}${breakerHint(r.cause, usedMode, knobs)})`, kind);
        }
        return { verdict: "error", reason: "", error: r.cause, fingerprint: fp, servedModel: r.servedModel, usage: r.usage, raw: r.raw, attempts: r.attempts };
      }
    },
  };
}

/**
 * The LLM judge record for resolved settings: the one place that builds it,
 * for `ragjudge judge` (runs, dry runs, batch export) and anything else that
 * judges with the configured LLM. Starts in the response mode remembered in
 * the cache for this endpoint and model unless `--response-format` chose
 * one. The client's outage breaker counts max(16, 2 x concurrency) failed
 * attempts, so a restart dropping every call in flight does not stop a run.
 * Settings built in code rather than by {@link resolveJudge} meet the same
 * bounds: a number outside them throws a RangeError.
 *
 * @example
 * const backend = llmBackend(settings, { cache, onModeChange: (_m, cause) => log(cause) });
 */
export function llmBackend(
  s: OpenAISettings,
  o: { cache?: ResponseModeMemory & Partial<LogprobsMemory>; onModeChange?: (mode: ResponseMode, cause: string) => void; onLogprobsOff?: (cause: string) => void; knobs?: JudgeKnobs } = {},
): OpenAIBackend {
  requireJudgeNumbers(s);
  const remembered = s.responseFormatExplicit ? undefined : o.cache?.responseMode(s.baseURL, s.model);
  const client = new JudgeClient({
    baseURL: s.baseURL,
    apiKey: s.apiKey,
    timeoutMs: s.timeoutMs,
    policy: { maxRetries: s.maxRetries },
    outageAttempts: Math.max(16, 2 * s.concurrency),
    ...(o.knobs ? { knobs: o.knobs } : {}),
  });
  return openAIBackend({
    client,
    baseURL: s.baseURL,
    cache: o.cache,
    settings: { model: s.model, temperature: s.temperature, seed: s.seed, maxTokens: s.maxTokens, responseMode: remembered ?? s.responseFormat },
    onModeChange: o.onModeChange,
    logprobs: s.logprobs,
    onLogprobsOff: o.onLogprobsOff,
    noKey: s.apiKey === LOOPBACK_DUMMY_KEY,
    ...(o.knobs ? { knobs: o.knobs } : {}),
  });
}
