import type OpenAI from "openai";
import { BOUNDS, requireWithin } from "../../golden/bounds.js";
import type { VerdictReply } from "../verdict/parse.js";
import { readCompletion, type Usage } from "./completion.js";
import { leanFetch } from "./http-fetch.js";
import { MAIN_JUDGE_KNOBS, outageHint, type JudgeKnobs } from "./knobs.js";
import { redact } from "./redact.js";
import { rejectsLogprobs } from "./logprobs.js";
import type { RequestBody } from "./request.js";
import { loadSdk } from "./sdk.js";
import { DEFAULT_RETRY_POLICY, classifyError, retryWaitMs, RETRY_JITTER, waitTooLong, type Failure, type RetryPolicy } from "./retry.js";

export type { Usage } from "./completion.js";

/** How one judge call ended, after all its retries. */
export type CallResult =
  | { ok: true; reply: VerdictReply; via: string; servedModel?: string; usage?: Usage; raw: string; attempts: number } & Confidence
  | {
      ok: false;
      cause: string;
      /** The server rejected `logprobs` (a 400 naming it): ask again without them. */
      noLogprobs?: boolean;
      /** The server rejected structured outputs (switch to text mode). */
      textMode?: boolean;
      /** Every call would fail the same way (bad key, unknown model, the endpoint down): stop the run. */
      fatal?: boolean;
      /** The last attempt was rate limited (429): the call gave up on a rate limit. */
      rateLimited?: boolean;
      servedModel?: string;
      usage?: Usage;
      raw?: string;
      attempts: number;
    };

/**
 * Retries a client made, by cause, for the progress display: a run whose
 * every call ends well can still be slowed by a rate limit or a flaky
 * server, and the user should see it while it happens.
 */
export interface RetryCounts {
  /** 429s waited out, and how long the waits were in total. */
  rateLimited: number;
  rateLimitWaitMs: number;
  /** 5xx replies retried. */
  serverErrors: number;
  /** Attempts past their deadline, retried. */
  timeouts: number;
  /** Connections reset or refused, retried. */
  connection: number;
  /** Other retries: unreadable replies, 408 and 409. */
  other: number;
}

/** A fresh set of zero counts. */
export function noRetries(): RetryCounts {
  return { rateLimited: 0, rateLimitWaitMs: 0, serverErrors: 0, timeouts: 0, connection: 0, other: 0 };
}

/** Options of {@link JudgeClient}. The key is held in memory only. */
export interface ClientOptions {
  baseURL: string;
  apiKey: string;
  /** Deadline of one attempt, from sending to the last byte of the reply. */
  timeoutMs: number;
  policy?: Partial<RetryPolicy>;
  /**
   * Attempts in a row (across all calls) that fail at the endpoint itself
   * (timeout, connection, 5xx) with no verdict in between, after which the
   * endpoint counts as down: every call ends fatal. Default 16.
   */
  outageAttempts?: number;
  /** Where the user changes this judge's settings, for the outage message (default: the main judge's flags). */
  knobs?: JudgeKnobs;
  /** The fetch the SDK sends with (default: {@link leanFetch}, cheaper per call than the global fetch). */
  fetch?: typeof globalThis.fetch;
  /** For tests: deterministic jitter and instant sleeps. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * What to do when the main judge's endpoint seems down, in the message that
 * stops the run. Both commands that judge (`ragjudge judge` and `ragjudge
 * run`) accept the flag it names, so it works whichever printed it (a test
 * holds them to it). A panel judge's client names its config entry instead.
 */
export const OUTAGE_HINT = outageHint(MAIN_JUDGE_KNOBS);

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!b) return a;
  return a ? { prompt: a.prompt + b.prompt, completion: a.completion + b.completion } : b;
}

/** What a reply said about the verdict's confidence (see verdict/logprobs.ts). */
export interface Confidence {
  /** Whether the reply carried token log-probabilities. */
  logprobs: boolean;
  pYes?: number;
  /** Why a reply with log-probabilities gave no pYes. */
  pYesCause?: string;
}

type Attempt =
  | ({ reply: VerdictReply; via: string; servedModel?: string; usage?: Usage; raw?: string } & Confidence)
  | { failure: Failure; parse?: boolean; servedModel?: string; usage?: Usage; raw?: string };

/**
 * A chat-completions client for judge calls over any OpenAI-compatible
 * endpoint, through the official `openai` SDK with the SDK's retries turned
 * off: this class is the one retry layer (see retry.ts). Retries wait the
 * longer of the server's Retry-After and the backoff, plus jitter. A 429
 * pauses every call of the client until its wait has passed, so a rate limit
 * is not hammered by the other concurrent calls. When the endpoint stops
 * answering (see {@link ClientOptions.outageAttempts}) every call ends fatal
 * and the attempts in flight are aborted. Refused and truncated replies are
 * not retried (asking again gives the same). Every string it returns
 * (causes, reasons, raw replies) has the key redacted.
 *
 * @example
 * const client = new JudgeClient({ baseURL: "http://127.0.0.1:8000/v1", apiKey: "x", timeoutMs: 60_000 });
 * const judge = openAIBackend({ client, baseURL: "http://127.0.0.1:8000/v1", settings: { model: "qwen2.5-7b-instruct", temperature: 0, seed: 0, maxTokens: 512, responseMode: "json_schema" } });
 * const r = await client.complete(judge.request(rubric, evidence)); // the body a run sends for this item
 * r.ok ? r.reply.verdict : r.cause // "yes" or "no"; else why, after the retries: "http-401: ... (the endpoint refused the API key)"
 *
 * A `timeoutMs` or `policy.maxRetries` outside the bounds of `--timeout-ms`
 * and `--max-retries` (golden/bounds.ts) throws a RangeError: a deadline
 * past Node's timer limit would fire at once, so every attempt would time out.
 */
export class JudgeClient {
  readonly policy: RetryPolicy;
  /** Retries so far, by cause (live counters: read them, do not write them). */
  readonly retries: RetryCounts = noRetries();
  private pausedUntil = 0;
  /** Jitter span of the current pause: a fifth of its length. */
  private pauseSpread = 0;
  private readonly secrets: string[];
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly outageAttempts: number;
  /** Endpoint failures (timeout, connection, 5xx) in a row, across calls. */
  private failStreak = 0;
  private stoppedCause: string | undefined;
  private readonly stopSignal: Promise<void>;
  private wake!: () => void;
  private readonly inFlight = new Set<AbortController>();
  private sdkClient: Promise<OpenAI> | undefined;

  constructor(private readonly opts: ClientOptions) {
    requireWithin("timeoutMs", opts.timeoutMs, BOUNDS.timeoutMs);
    requireWithin("maxRetries", opts.policy?.maxRetries, BOUNDS.maxRetries);
    this.policy = { ...DEFAULT_RETRY_POLICY, ...opts.policy };
    this.secrets = [opts.apiKey];
    this.random = opts.random ?? Math.random;
    this.sleep = opts.sleep ?? defaultSleep;
    this.outageAttempts = Math.max(1, opts.outageAttempts ?? 16);
    this.stopSignal = new Promise<void>((r) => (this.wake = r));
  }

  /**
   * The SDK client this client sends with, made at the first call: a run
   * whose every verdict is cached never loads the SDK (see sdk.ts).
   */
  sdk(): Promise<OpenAI> {
    const o = this.opts;
    this.sdkClient ??= loadSdk().then(({ default: OpenAI }) => new OpenAI({ apiKey: o.apiKey, baseURL: o.baseURL, maxRetries: 0, timeout: o.timeoutMs, fetch: o.fetch ?? leanFetch().fetch }));
    return this.sdkClient;
  }

  /**
   * Ends every call: the attempts in flight are aborted, waits cut short, and
   * each call (and any later one) returns a fatal result with `cause`. Used
   * when the run stops, so it does not wait for retries it will not use.
   */
  stop(cause: string): void {
    if (this.stoppedCause !== undefined) return;
    this.stoppedCause = cause;
    this.wake();
    for (const c of this.inFlight) c.abort();
  }

  /** Why the client was stopped, if it was. */
  get stopped(): string | undefined {
    return this.stoppedCause;
  }

  private async nap(ms: number): Promise<void> {
    await Promise.race([this.sleep(ms), this.stopSignal]);
  }

  /** Sends one request body, retrying within the policy; never throws for server behaviour. */
  async complete(body: RequestBody): Promise<CallResult> {
    let attempts = 0;
    let retries = 0;
    let parseRetries = 0;
    let usage: Usage | undefined;
    let servedModel: string | undefined;
    let raw: string | undefined;
    const ended = () => ({ ok: false as const, cause: this.stoppedCause!, fatal: true, servedModel, usage, raw, attempts });
    for (;;) {
      await this.waitForGate();
      if (this.stoppedCause !== undefined) return ended();
      attempts++;
      const outcome = await this.attempt(body);
      usage = addUsage(usage, outcome.usage);
      servedModel = outcome.servedModel ?? servedModel;
      raw = outcome.raw ?? raw;
      if ("reply" in outcome) {
        const { logprobs, pYes, pYesCause } = outcome;
        return { ok: true, reply: outcome.reply, via: outcome.via, servedModel, usage, raw: outcome.raw!, attempts, logprobs, ...(pYes === undefined ? {} : { pYes }), ...(pYesCause === undefined ? {} : { pYesCause }) };
      }
      if (this.stoppedCause !== undefined) return ended();
      const f = outcome.failure;
      const cause = redact(f.cause, this.secrets);
      if (rejectsLogprobs(body, f)) return { ok: false, cause, noLogprobs: true, servedModel, usage, raw, attempts };
      // A rate limit that asks for longer than a run waits (Retry-After: 3600) is an outage for this run: stop now (exit 4).
      const tooLong = f.action === "retry" ? waitTooLong(cause, f.askedMs, this.policy) : undefined;
      if (tooLong !== undefined) {
        this.stop(tooLong);
        return ended();
      }
      if (f.action === "retry" && f.transport) {
        if (++this.failStreak >= this.outageAttempts) {
          this.stop(`${cause} (${this.failStreak} attempts in a row got a server error or no reply: the endpoint seems down or too slow; stopping. ${outageHint(this.opts.knobs ?? MAIN_JUDGE_KNOBS)})`);
          return ended();
        }
      } else this.failStreak = 0;
      const retryable = f.action === "retry" || (f.action === "fail" && outcome.parse);
      if (retryable) {
        const budgetLeft = retries < this.policy.maxRetries && (!outcome.parse || parseRetries < this.policy.maxParseRetries);
        if (budgetLeft) {
          retries++;
          if (outcome.parse) {
            parseRetries++;
            this.retries.other++;
            continue;
          }
          const wait = retryWaitMs(retries, f.action === "retry" ? f.waitMs : undefined, this.policy, this.random);
          this.count(f, wait);
          if (f.action === "retry" && f.rateLimited && Date.now() + wait > this.pausedUntil) {
            this.pausedUntil = Date.now() + wait;
            this.pauseSpread = Math.round(wait * RETRY_JITTER);
          }
          await this.nap(wait);
          continue;
        }
        const rateLimited = f.action === "retry" && f.rateLimited ? true : undefined;
        return { ok: false, cause: attempts > 1 ? `${cause} (gave up after ${attempts} attempts)` : cause, rateLimited, servedModel, usage, raw, attempts };
      }
      return {
        ok: false,
        cause,
        textMode: f.action === "text-mode" || undefined,
        fatal: f.action === "fatal" || undefined,
        servedModel,
        usage,
        raw,
        attempts,
      };
    }
  }

  /** Counts one retry by its cause. */
  private count(f: Failure, waitMs: number): void {
    const r = this.retries;
    if (f.action === "retry" && f.rateLimited) {
      r.rateLimited++;
      r.rateLimitWaitMs += waitMs;
    } else if (f.cause.startsWith("timeout")) r.timeouts++;
    else if (f.cause.startsWith("connection")) r.connection++;
    else if (/^http-5\d\d/.test(f.cause)) r.serverErrors++;
    else r.other++;
  }

  /**
   * Waits out a rate-limit pause, then a random part of a fifth of the
   * pause's length, so the calls paused behind one 429 resume spread out,
   * not all at the moment it ends.
   */
  private async waitForGate(): Promise<void> {
    for (let now = Date.now(); now < this.pausedUntil && this.stoppedCause === undefined; now = Date.now()) {
      await this.nap(this.pausedUntil - now + Math.round(this.pauseSpread * this.random()));
    }
  }

  /** One HTTP attempt with its own deadline, read into a verdict or a classified failure. */
  private async attempt(body: RequestBody): Promise<Attempt> {
    const ctrl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctrl.abort();
    }, this.opts.timeoutMs);
    this.inFlight.add(ctrl);
    let data: unknown;
    try {
      const sdk = await this.sdk();
      data = await sdk.chat.completions.create(body, { signal: ctrl.signal, timeout: this.opts.timeoutMs, maxRetries: 0 });
    } catch (e) {
      const failure = classifyError(e, timedOut, this.policy);
      const errBody = (e as { error?: unknown }).error;
      return { failure, raw: errBody === undefined ? undefined : redact(JSON.stringify(errBody), this.secrets) };
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(ctrl);
    }
    this.failStreak = 0;
    return this.read(data);
  }

  /** Reads a 2xx body with the reading batch mode shares ({@link readCompletion}), then decides about retries. */
  private read(data: unknown): Attempt {
    const raw = redact(typeof data === "string" ? data : JSON.stringify(data) ?? "", this.secrets);
    const r = readCompletion(data, this.secrets);
    const meta = { servedModel: r.servedModel, usage: r.usage, raw };
    if (r.ok) return { reply: r.reply, via: r.via, ...meta, logprobs: r.logprobs ?? false, ...(r.pYes === undefined ? {} : { pYes: r.pYes }), ...(r.pYesCause === undefined ? {} : { pYesCause: r.pYesCause }) };
    switch (r.kind) {
      case "bad-response":
        return { failure: { action: "retry", cause: r.cause }, ...meta };
      case "refusal":
      case "truncated":
        return { failure: { action: "fail", cause: r.cause }, ...meta };
      case "parse":
        return { failure: { action: "fail", cause: r.cause }, parse: true, ...meta };
    }
  }
}
