import OpenAI from "openai";
import { MAX_TIMER_MS } from "../../golden/bounds.js";
import type { RagjudgeConfig } from "../../golden/schema/config.js";
import { mainJudgeOf } from "../judges/panel.js";
import { redact } from "../transport/redact.js";
import { resolveEndpoint, type Endpoint } from "../transport/endpoint.js";

/** Where batches go: an OpenAI-compatible API with `/files` and `/batches`. The key is held in memory only. */
export type BatchEndpoint = Endpoint;

/**
 * The config's judge as `judge --batch-export` resolves it: `judge`, else the
 * first model or baseline judge of `judges` ({@link mainJudgeOf}), so a
 * submit finds the endpoint the export was made for.
 */
function exportedJudge(config: RagjudgeConfig) {
  const judge = mainJudgeOf(config);
  return judge?.kind === "openai" ? judge : undefined;
}

/**
 * The batch endpoint, found as the online judge's is ({@link resolveEndpoint}):
 * `--base-url`, else the config's `judge.baseUrl` (or, without `judge`, that
 * of the panel's first model judge, as the export took it), else
 * `OPENAI_BASE_URL`, else OpenAI; the key only from the environment
 * (`OPENAI_API_KEY` or the variable `apiKeyEnv` names), with a dummy key for
 * a loopback server.
 *
 * @example
 * resolveBatchEndpoint(config, { baseUrl: "http://127.0.0.1:8000/v1" })
 */
export function resolveBatchEndpoint(
  config: RagjudgeConfig,
  flags: { baseUrl?: string },
  env: NodeJS.ProcessEnv = process.env,
  opts: { keyless?: boolean } = {},
): BatchEndpoint {
  return resolveEndpoint("batch", flags.baseUrl, exportedJudge(config), env, opts);
}

/** How long each batch call may take, and how often the SDK retries one: the online judge's settings. */
export interface BatchDeadlines {
  timeoutMs: number;
  maxRetries: number;
}

/**
 * The config's `judge.timeoutMs` and `judge.maxRetries` (defaults 60 s and 4,
 * as for the online judge): an endpoint that accepts a call and never answers
 * stops a submit, status or collect after them (exit 4) instead of holding a
 * CI job for as long as an upload of 200 MB could take.
 */
export function batchDeadlines(config: RagjudgeConfig): BatchDeadlines {
  const judge = exportedJudge(config);
  return { timeoutMs: judge?.timeoutMs ?? 60_000, maxRetries: judge?.maxRetries ?? 4 };
}

/**
 * An upload's deadline: a call's, plus a second per 256 KiB sent (200 MB:
 * about 13 minutes more), since a large file over a slow link needs longer
 * than one call; a small one fails as soon as any call would. At most Node's
 * timer limit, as {@link callSignal}.
 */
export function uploadTimeoutMs(callMs: number, bytes: number): number {
  return Math.min(callMs + Math.ceil(bytes / 262_144) * 1000, MAX_TIMER_MS);
}

/**
 * The wait allowed between two tries of a call. The SDK sleeps as long as a
 * 429's Retry-After asks, with no cap of its own: a wait longer than this
 * ends the call (exit 4, rerun later) rather than hold a CI job for it.
 */
const MAX_WAIT_MS = 15 * 60_000;

/**
 * A deadline for a whole call, body included, as an AbortSignal for the
 * SDK's request options: the SDK's `timeout` stops the wait for a reply's
 * headers, not a body that stalls after them (a download, or the JSON of a
 * batch, read for ever). Each try's deadline, the longest wait allowed
 * between tries, and a second to spare: with the defaults (60 s, 4 retries)
 * a call ends within about an hour whatever the endpoint does; with no
 * retries, a second after its deadline. Never past Node's timer limit: a
 * longer timer fires at once, and every call would end before it began
 * (`judge.timeoutMs` at its largest, with 4 retries, adds up to 124 days).
 */
export function callSignal(sdk: OpenAI, perTryMs = sdk.timeout, retries = sdk.maxRetries): AbortSignal {
  return AbortSignal.timeout(Math.min(perTryMs * (retries + 1) + MAX_WAIT_MS * retries + 1_000, MAX_TIMER_MS));
}

/** A download's deadline: a call's, and never under 10 minutes (an output file's size is not known before it comes). */
export function downloadTimeoutMs(callMs: number): number {
  return Math.max(callMs, 10 * 60_000);
}

/**
 * The SDK client for batch calls, with the call deadline and retries of
 * {@link batchDeadlines} (the SDK's retries, with backoff, cover transient
 * failures of these few calls).
 */
export function batchClient(ep: BatchEndpoint, opts: Partial<BatchDeadlines> = {}): OpenAI {
  return new OpenAI({ apiKey: ep.apiKey, baseURL: ep.baseURL, timeout: opts.timeoutMs ?? 60_000, maxRetries: opts.maxRetries ?? 4 });
}

/** A batch API call that failed: its message names the step, has the key redacted, and says what to do. */
export class BatchApiError extends Error {
  override name = "BatchApiError";
  /**
   * The endpoint could not serve the call now (unreachable, a 5xx, a 429):
   * try again later. Otherwise the request was refused (key, URL, input):
   * the user's to fix.
   */
  get unavailable(): boolean {
    const c = this.cause;
    return c instanceof OpenAI.APIConnectionError || (c instanceof OpenAI.APIError && typeof c.status === "number" && (c.status >= 500 || c.status === 429)) || isDeadline(c);
  }
}

/**
 * Runs one API call, turning an SDK failure into a {@link BatchApiError}
 * whose message names the step and the server's answer, never the key.
 */
export async function apiCall<T>(step: string, ep: BatchEndpoint, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw toBatchError(e, step, ep);
  }
}

/** Whether a call was stopped by its {@link callSignal} (the SDK's abort, or the body's read aborted). */
function isDeadline(e: unknown): boolean {
  return e instanceof OpenAI.APIUserAbortError || (e as Error)?.name === "TimeoutError" || (e as Error)?.name === "AbortError";
}

/** Whether an SDK error is a 404 (a file or batch that is gone). */
export function isNotFound(e: unknown): boolean {
  return e instanceof OpenAI.NotFoundError || (e instanceof BatchApiError && e.cause instanceof OpenAI.NotFoundError);
}

function toBatchError(e: unknown, step: string, ep: BatchEndpoint): BatchApiError {
  let why: string;
  if (isDeadline(e)) {
    // callSignal's deadline (the SDK's abort is an APIError too, so this comes first)
    why = `timed out: ${ep.baseURL} did not complete the reply within the call's deadline`;
  } else if (e instanceof OpenAI.APIConnectionError) {
    const c = (e as { cause?: { code?: string; message?: string; cause?: { code?: string; message?: string } } }).cause;
    why = `cannot reach ${ep.baseURL} (${c?.code ?? c?.cause?.code ?? c?.cause?.message ?? c?.message ?? e.message})`;
  } else if (e instanceof OpenAI.APIError) {
    const msg = (e.error as { message?: string } | undefined)?.message ?? e.message;
    why = `http-${e.status ?? "?"}: ${msg}`;
    if (e.status === 401 || e.status === 403) why += ` (the endpoint refused the API key from ${ep.keySource})`;
    if (e.status === 404 && /^(upload|create|list)/.test(step)) why += " (does the endpoint offer the Batch API? the base URL must end in /v1)";
  } else {
    why = (e as Error)?.message ?? String(e);
  }
  return new BatchApiError(redact(`${step}: ${why}`, [ep.apiKey]), { cause: e });
}
