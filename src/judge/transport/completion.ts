import { pYesFromLogprobs, type TokenLogprob } from "../verdict/logprobs.js";
import { parseReply, type VerdictReply } from "../verdict/parse.js";
import { redact } from "./redact.js";

/**
 * The OpenAI chat-completion envelope around a judge reply: served model,
 * token usage, refusal and truncation, then the reply text handed to
 * {@link parseReply}. Transport, not verdict parsing: the same reply text
 * reads alike whatever carried it.
 */

/** Token counts as the server reports them. */
export interface Usage {
  prompt: number;
  completion: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * How a chat-completion body reads, before any retry decision:
 * - `bad-response`: not a completion at all (no `choices[0].message`): worth another attempt;
 * - `refusal`, `truncated`: the model refused, or hit max_tokens: asking again gives the same;
 * - `parse`: the content is not a readable verdict (see {@link parseReply}).
 */
export type CompletionReading =
  | {
      ok: true;
      reply: VerdictReply;
      via: string;
      servedModel?: string;
      usage?: Usage;
      /** True when the reply carried token log-probabilities (`choices[0].logprobs.content`). */
      logprobs?: true;
      /** P(yes) from them (see verdict/logprobs.ts); absent with `pYesCause` when the rule could not be applied. */
      pYes?: number;
      pYesCause?: string;
    }
  | { ok: false; kind: "bad-response" | "refusal" | "truncated" | "parse"; cause: string; servedModel?: string; usage?: Usage };

/**
 * Reads a chat-completion body (`POST /chat/completions` 200 reply, or the
 * `response.body` of a Batch API output line) into a verdict or a failure:
 * choices, refusal, truncation, then {@link parseReply}. The one reading
 * shared by the online client and batch collect/import, so both judge a
 * reply alike. `secrets` (the API key) are redacted from the reason and the
 * causes.
 *
 * @example
 * readCompletion({ model: "m", choices: [{ message: { content: '{"reason":"r","verdict":"no"}' }, finish_reason: "stop" }] })
 * // { ok: true, reply: { reason: "r", verdict: "no" }, via: "json", servedModel: "m" }
 */
export function readCompletion(data: unknown, secrets: readonly string[] = []): CompletionReading {
  if (!isObject(data)) return { ok: false, kind: "bad-response", cause: "bad-response: the body is not a JSON object" };
  // The served model is echoed by the server like any other field: a server that puts the key there must not get it stored.
  const servedModel = typeof data.model === "string" ? redact(data.model, secrets) : undefined;
  const u = data.usage as { prompt_tokens?: unknown; completion_tokens?: unknown } | undefined;
  const usage = u && typeof u.prompt_tokens === "number" && typeof u.completion_tokens === "number" ? { prompt: u.prompt_tokens, completion: u.completion_tokens } : undefined;
  const meta = { ...(servedModel !== undefined ? { servedModel } : {}), ...(usage ? { usage } : {}) };
  const choice = Array.isArray(data.choices) ? (data.choices[0] as { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown; logprobs?: { content?: unknown } | null } | undefined) : undefined;
  if (!isObject(choice) || !isObject(choice.message)) return { ok: false, kind: "bad-response", cause: "bad-response: no choices[0].message in the reply", ...meta };
  const { refusal } = choice.message;
  if (typeof refusal === "string" && refusal.trim() !== "") {
    return { ok: false, kind: "refusal", cause: redact(`refusal: ${refusal.replace(/\s+/gu, " ").slice(0, 200)}`, secrets), ...meta };
  }
  if (choice.finish_reason === "length") return { ok: false, kind: "truncated", cause: "truncated: the reply hit max_tokens (raise judge.maxTokens, or pass --no-max-tokens)", ...meta };
  const content = typeof choice.message.content === "string" ? choice.message.content : null;
  const parsed = parseReply(content);
  if (!parsed.ok) return { ok: false, kind: "parse", cause: parsed.cause, ...meta };
  const tokens = isObject(choice.logprobs) && Array.isArray(choice.logprobs.content) ? (choice.logprobs.content as TokenLogprob[]) : undefined;
  const p = tokens ? pYesFromLogprobs(content!, tokens, parsed.reply.verdict) : undefined;
  const confidence = p === undefined ? {} : p.ok ? { pYes: p.pYes } : { pYesCause: p.cause };
  return { ok: true, reply: { ...parsed.reply, reason: redact(parsed.reply.reason, secrets) }, via: parsed.via, ...meta, ...(tokens ? { logprobs: true as const } : {}), ...confidence };
}
