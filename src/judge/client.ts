import OpenAI from "openai";
import { parseReply, type VerdictReply } from "./parse.js";
import { redact } from "./redact.js";
import type { RequestBody } from "./request.js";
import { DEFAULT_RETRY_POLICY, backoffMs, classifyError, type Failure, type RetryPolicy } from "./retry.js";

/** Token counts as the server reports them. */
export interface Usage {
  prompt: number;
  completion: number;
}

/** How one judge call ended, after all its retries. */
export type CallResult =
  | { ok: true; reply: VerdictReply; via: string; servedModel?: string; usage?: Usage; raw: string; attempts: number }
  | {
      ok: false;
      cause: string;
      /** The server rejected structured outputs (switch to text mode). */
      textMode?: boolean;
      /** Every call would fail the same way (bad key, unknown model): stop the run. */
      fatal?: boolean;
      servedModel?: string;
      usage?: Usage;
      raw?: string;
      attempts: number;
    };

/** Options of {@link JudgeClient}. The key is held in memory only. */
export interface ClientOptions {
  baseURL: string;
  apiKey: string;
  /** Deadline of one attempt, from sending to the last byte of the reply. */
  timeoutMs: number;
  policy?: Partial<RetryPolicy>;
  /** For tests: deterministic jitter and instant sleeps. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!b) return a;
  return a ? { prompt: a.prompt + b.prompt, completion: a.completion + b.completion } : b;
}

/**
 * A chat-completions client for judge calls over any OpenAI-compatible
 * endpoint, through the official `openai` SDK with the SDK's retries turned
 * off: this class is the one retry layer (see retry.ts). A 429 pauses every
 * call of the client until the server's Retry-After has passed, so a rate
 * limit is not hammered by the other concurrent calls. Every string it
 * returns (causes, raw replies) has the key redacted.
 *
 * @example
 * const client = new JudgeClient({ baseURL: "http://127.0.0.1:8000/v1", apiKey: "x", timeoutMs: 60_000 });
 * const r = await client.complete(buildRequestBody(rubric, evidence, settings));
 */
export class JudgeClient {
  readonly sdk: OpenAI;
  readonly policy: RetryPolicy;
  private pausedUntil = 0;
  private readonly secrets: string[];
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: ClientOptions) {
    this.policy = { ...DEFAULT_RETRY_POLICY, ...opts.policy };
    this.sdk = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseURL, maxRetries: 0, timeout: opts.timeoutMs });
    this.secrets = [opts.apiKey];
    this.random = opts.random ?? Math.random;
    this.sleep = opts.sleep ?? defaultSleep;
  }

  /** Sends one request body, retrying within the policy; never throws for server behaviour. */
  async complete(body: RequestBody): Promise<CallResult> {
    let attempts = 0;
    let retries = 0;
    let parseRetries = 0;
    let usage: Usage | undefined;
    let servedModel: string | undefined;
    let raw: string | undefined;
    for (;;) {
      await this.waitForGate();
      attempts++;
      const outcome = await this.attempt(body);
      usage = addUsage(usage, outcome.usage);
      servedModel = outcome.servedModel ?? servedModel;
      raw = outcome.raw ?? raw;
      if ("reply" in outcome) {
        return { ok: true, reply: outcome.reply, via: outcome.via, servedModel, usage, raw: outcome.raw!, attempts };
      }
      const f = outcome.failure;
      const cause = redact(f.cause, this.secrets);
      if (f.action === "retry" || (f.action === "fail" && outcome.parse)) {
        const budgetLeft = retries < this.policy.maxRetries && (!outcome.parse || parseRetries < this.policy.maxParseRetries);
        if (budgetLeft) {
          retries++;
          if (outcome.parse) {
            parseRetries++;
            continue;
          }
          const wait = (f.action === "retry" ? f.waitMs : undefined) ?? backoffMs(retries, this.policy, this.random);
          if (f.action === "retry" && f.rateLimited) this.pausedUntil = Math.max(this.pausedUntil, Date.now() + wait);
          await this.sleep(wait);
          continue;
        }
        return { ok: false, cause: attempts > 1 ? `${cause} (gave up after ${attempts} attempts)` : cause, servedModel, usage, raw, attempts };
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

  private async waitForGate(): Promise<void> {
    for (let now = Date.now(); now < this.pausedUntil; now = Date.now()) await this.sleep(this.pausedUntil - now);
  }

  /** One HTTP attempt with its own deadline, read into a verdict or a classified failure. */
  private async attempt(body: RequestBody): Promise<
    | { reply: VerdictReply; via: string; servedModel?: string; usage?: Usage; raw?: string }
    | { failure: Failure; parse?: boolean; servedModel?: string; usage?: Usage; raw?: string }
  > {
    const ctrl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctrl.abort();
    }, this.opts.timeoutMs);
    let data: unknown;
    try {
      data = await this.sdk.chat.completions.create(body, { signal: ctrl.signal, timeout: this.opts.timeoutMs, maxRetries: 0 });
    } catch (e) {
      const failure = classifyError(e, timedOut, this.policy);
      const errBody = (e as { error?: unknown }).error;
      return { failure, raw: errBody === undefined ? undefined : redact(JSON.stringify(errBody), this.secrets) };
    } finally {
      clearTimeout(timer);
    }
    return this.read(data);
  }

  /** Reads a 2xx body: choices, refusal, truncation, then the verdict itself. */
  private read(data: unknown):
    | { reply: VerdictReply; via: string; servedModel?: string; usage?: Usage; raw?: string }
    | { failure: Failure; parse?: boolean; servedModel?: string; usage?: Usage; raw?: string } {
    const raw = redact(typeof data === "string" ? data : JSON.stringify(data) ?? "", this.secrets);
    if (data === null || typeof data !== "object") {
      return { failure: { action: "retry", cause: "bad-response: the body is not a JSON object" }, raw };
    }
    const d = data as { model?: unknown; usage?: { prompt_tokens?: unknown; completion_tokens?: unknown }; choices?: unknown };
    const servedModel = typeof d.model === "string" ? d.model : undefined;
    const usage =
      d.usage && typeof d.usage.prompt_tokens === "number" && typeof d.usage.completion_tokens === "number"
        ? { prompt: d.usage.prompt_tokens, completion: d.usage.completion_tokens }
        : undefined;
    const choice = Array.isArray(d.choices) ? (d.choices[0] as { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown } | undefined) : undefined;
    if (!choice || typeof choice.message !== "object" || choice.message === null) {
      return { failure: { action: "retry", cause: "bad-response: no choices[0].message in the reply" }, servedModel, usage, raw };
    }
    if (typeof choice.message.refusal === "string" && choice.message.refusal !== "") {
      return { failure: { action: "fail", cause: `refusal: ${choice.message.refusal.slice(0, 200)}` }, parse: true, servedModel, usage, raw };
    }
    if (choice.finish_reason === "length") {
      return { failure: { action: "fail", cause: "truncated: the reply hit max_tokens (raise judge.maxTokens)" }, parse: true, servedModel, usage, raw };
    }
    const content = typeof choice.message.content === "string" ? choice.message.content : null;
    const parsed = parseReply(content);
    if (!parsed.ok) return { failure: { action: "fail", cause: parsed.cause }, parse: true, servedModel, usage, raw };
    return { reply: parsed.reply, via: parsed.via, servedModel, usage, raw };
  }
}
