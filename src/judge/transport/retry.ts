import type { APIError } from "openai";
import { loadedSdk } from "./sdk.js";

/**
 * The one retry policy of the judge client (the SDK's own retries are off).
 * Pure functions, so the waits and classifications are tested without a
 * server.
 */

/** Bounds of the retry policy. */
export interface RetryPolicy {
  /** Retries after the first attempt (config `judge.maxRetries`). */
  maxRetries: number;
  /** Retries for a reply that cannot be parsed (a deterministic model repeats itself). */
  maxParseRetries: number;
  /** First backoff wait; doubles each attempt. */
  baseDelayMs: number;
  /** Largest backoff wait. */
  maxDelayMs: number;
  /** Largest wait a server's Retry-After can impose; longer requests are capped to this. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 4,
  maxParseRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

/**
 * A wait as people read it: milliseconds under a second, seconds under two
 * minutes, then minutes, and whole or long waits in hours.
 *
 * @example
 * waitInWords(200) // "200 ms"; waitInWords(60_000) // "60 s"; waitInWords(3_600_000) // "1 hour"
 */
export function waitInWords(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  const hours = ms / 3_600_000;
  if (ms < 7_200_000 && !Number.isInteger(hours)) return `${Math.round(ms / 60_000)} minutes`;
  const h = Math.round(hours * 10) / 10;
  return `${h} ${h === 1 ? "hour" : "hours"}`;
}

/**
 * Why a run stops on a 429 whose Retry-After asks for longer than the run
 * waits (`policy.maxRetryAfterMs`), or undefined when it asks no longer:
 * waiting the cap and asking again, call after call, kept a CI job busy for
 * ever with no word. The one message of the verdicts' client and of claim
 * extraction, so both word the wait alike.
 *
 * @example
 * waitTooLong("http-429: slow down", 3_600_000, DEFAULT_RETRY_POLICY)
 * // "http-429: slow down (the endpoint asks to wait 1 hour before the next call, longer than the 60 s a run waits: rerun later)"
 */
export function waitTooLong(cause: string, askedMs: number | undefined, policy: RetryPolicy): string | undefined {
  if (askedMs === undefined || askedMs <= policy.maxRetryAfterMs) return undefined;
  return `${cause} (the endpoint asks to wait ${waitInWords(askedMs)} before the next call, longer than the ${waitInWords(policy.maxRetryAfterMs)} a run waits: rerun later)`;
}

/** Reads a header from the SDK's `Headers` or a plain record. */
type HeaderSource = { get(name: string): string | null } | Record<string, string | undefined> | undefined;
function header(h: HeaderSource, name: string): string | undefined {
  if (!h) return undefined;
  if (typeof (h as { get?: unknown }).get === "function") return (h as { get(n: string): string | null }).get(name) ?? undefined;
  return (h as Record<string, string | undefined>)[name];
}

/**
 * The wait a server asked for, in milliseconds: `retry-after-ms` first (a
 * number of milliseconds, sent by OpenAI), then `Retry-After` as seconds or
 * as an HTTP date. Undefined when absent or unreadable; never negative.
 *
 * @example
 * retryAfterMs({ "retry-after": "2" }) // 2000
 * retryAfterMs({ "retry-after": "Wed, 21 Oct 2026 07:28:00 GMT" }, Date.parse("Wed, 21 Oct 2026 07:27:58 GMT")) // 2000
 */
export function retryAfterMs(headers: HeaderSource, now = Date.now()): number | undefined {
  const ms = header(headers, "retry-after-ms");
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.max(0, Number(ms));
  const ra = header(headers, "retry-after");
  if (ra === undefined || ra.trim() === "") return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Math.max(0, Number(ra) * 1000);
  const at = Date.parse(ra);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * Jittered exponential backoff before retry number `retry` (1 for the first
 * retry): a uniform wait between half and all of `base * 2^(retry-1)`,
 * capped at `maxDelayMs`. The jitter spreads retries of concurrent calls.
 */
export function backoffMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling * (0.5 + 0.5 * random()));
}

/** Most extra wait added on top of a retry's wait, as a share of it (see {@link retryWaitMs}). */
export const RETRY_JITTER = 0.2;

/**
 * The wait before retry number `retry`: the longer of the server's wait
 * (`Retry-After`, when it sent one) and the backoff, plus 0 to 20% jitter.
 * Never shorter than the backoff, so `Retry-After: 0` is not an invitation
 * to hammer; never exactly the server's wait, so calls told the same wait do
 * not come back in lockstep.
 *
 * @example
 * retryWaitMs(1, 0, DEFAULT_RETRY_POLICY, () => 0) // 250: the backoff, not 0
 * retryWaitMs(1, 1000, DEFAULT_RETRY_POLICY, () => 1) // 1200: Retry-After plus 20%
 */
export function retryWaitMs(retry: number, serverWaitMs: number | undefined, policy: RetryPolicy, random: () => number = Math.random): number {
  const base = Math.max(serverWaitMs ?? 0, backoffMs(retry, policy, random));
  return Math.round(base * (1 + RETRY_JITTER * random()));
}

/** What to do about a failed attempt. */
export type Failure =
  /**
   * Try again after at least `waitMs` (the server's wait; see {@link retryWaitMs}).
   * `rateLimited` (a 429) pauses every call; `transport` marks a failure of the
   * endpoint itself (timeout, connection, 5xx), which the outage breaker counts;
   * `askedMs` is the wait a 429's Retry-After asked for, before the cap.
   */
  | { action: "retry"; cause: string; waitMs?: number; rateLimited?: boolean; transport?: boolean; askedMs?: number }
  /** Give up on this item: an error verdict. */
  | { action: "fail"; cause: string }
  /** The server rejects structured outputs: switch to JSON-in-text and resend. */
  | { action: "text-mode"; cause: string }
  /** Every call would fail the same way (bad key, unknown model or endpoint): stop the run. */
  | { action: "fatal"; cause: string };

/** Words of a 400 that rejects the reply format (structured outputs): the server lacks them. */
export const FORMAT_WORDS = /response_format|json_schema|structured output|json schema|guided_json|grammar/i;

function apiMessage(e: APIError): string {
  const body = e.error as { message?: unknown } | undefined;
  const m = typeof body?.message === "string" ? body.message : e.message;
  const text = m.replace(/\s+/g, " ").slice(0, 300);
  const param = typeof e.param === "string" && e.param !== "" && !text.includes(e.param) ? ` (param: ${e.param})` : "";
  return text + param;
}

/**
 * Classifies an error thrown by one SDK call (made with `maxRetries: 0`).
 * `timedOut` says our own per-attempt deadline fired. Retryable: 408, 409,
 * 429 (honouring Retry-After, capped), 5xx, connection resets, timeouts and
 * unreadable bodies, unless the server sends `x-should-retry: false`. A 400
 * about `response_format` switches to text mode; 401, 403 and 404 stop the
 * run; other 4xx fail the item.
 */
export function classifyError(e: unknown, timedOut: boolean, policy: RetryPolicy, now = Date.now()): Failure {
  if (timedOut) return { action: "retry", cause: "timeout", transport: true };
  const sdk = loadedSdk();
  return (sdk && classifySdkError(e, sdk, policy, now)) ?? classifyOther(e);
}

/** An error of the SDK's own classes, classified; undefined for any other error. */
function classifySdkError(e: unknown, sdk: typeof import("openai"), policy: RetryPolicy, now: number): Failure | undefined {
  if (e instanceof sdk.APIConnectionTimeoutError || e instanceof sdk.APIUserAbortError) return { action: "retry", cause: "timeout", transport: true };
  if (e instanceof sdk.APIConnectionError) {
    const c = (e as { cause?: { code?: string; cause?: { code?: string }; message?: string } }).cause;
    const code = c?.code ?? c?.cause?.code;
    return { action: "retry", cause: `connection${code ? `: ${code}` : ""}`, transport: true };
  }
  if (e instanceof sdk.APIError && typeof e.status === "number") {
    const status = e.status;
    const cause = `http-${status}: ${apiMessage(e)}`;
    const noRetry = header(e.headers as HeaderSource, "x-should-retry") === "false";
    if (status === 400 && FORMAT_WORDS.test(apiMessage(e))) return { action: "text-mode", cause };
    if (status === 401 || status === 403) return { action: "fatal", cause: `${cause} (the endpoint refused the API key)` };
    if (status === 404) return { action: "fatal", cause: `${cause} (unknown model or endpoint: does the base URL end in /v1?)` };
    if (noRetry) return { action: "fail", cause };
    if (status === 429) {
      const wait = retryAfterMs(e.headers as HeaderSource, now);
      return { action: "retry", cause, waitMs: wait === undefined ? undefined : Math.min(wait, policy.maxRetryAfterMs), rateLimited: true, ...(wait === undefined ? {} : { askedMs: wait }) };
    }
    if (status === 408 || status === 409 || status >= 500) {
      const wait = retryAfterMs(e.headers as HeaderSource, now);
      return wait === undefined ? { action: "retry", cause, transport: true } : { action: "retry", cause, transport: true, waitMs: Math.min(wait, policy.maxRetryAfterMs) };
    }
    return { action: "fail", cause };
  }
  return undefined;
}

/** Errors that are not the SDK's: unreadable bodies, aborts and socket errors from the fetch below it. */
function classifyOther(e: unknown): Failure {
  if (e instanceof SyntaxError) return { action: "retry", cause: "bad-response: the body is not valid JSON" };
  const err = e as { name?: string; message?: string; code?: string };
  if (err?.name === "AbortError") return { action: "retry", cause: "timeout", transport: true };
  if (err?.code && /^E[A-Z]+/.test(err.code)) return { action: "retry", cause: `connection: ${err.code}`, transport: true };
  if (err?.name === "TypeError" && /terminated|fetch failed|socket|other side closed/i.test(err.message ?? "")) return { action: "retry", cause: `connection: ${err.message}`, transport: true };
  return { action: "fail", cause: `unexpected error: ${err?.name ?? "Error"}: ${String(err?.message ?? e).slice(0, 200)}` };
}
