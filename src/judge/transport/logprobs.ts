import type { RequestBody } from "./request.js";
import type { Failure } from "./retry.js";

/**
 * Token log-probabilities on the wire: the request parameters that ask for
 * them, and how a server that lacks them is recognised. Servers differ: some
 * answer a 400 naming the parameter (older vLLM builds with logprobs off,
 * several hosted gateways), others ignore it and reply without
 * `choices[0].logprobs` (older Ollama). Both are detected; the judge
 * (judges/logprobs.ts) remembers them per endpoint and model.
 */

/** Alternatives asked for at each token: enough to see the other verdict word and its case variants. */
export const TOP_LOGPROBS = 5;

/** Words of a 400 that rejects the log-probability parameters. */
export const LOGPROBS_WORDS = /\blogprobs\b|\btop_logprobs\b|\blog_probs\b|log[- ]?probabilit/i;

/** Whether a request body asks for log-probabilities. */
export function asksLogprobs(body: RequestBody): boolean {
  return (body as { logprobs?: unknown }).logprobs === true;
}

/**
 * Whether a failed attempt is the server refusing the log-probability
 * parameters: a 400 (or a 422, as some validating servers answer) that names them, to a request that sent them. Checked
 * before the response-format rule, since the message may name both.
 *
 * @example
 * rejectsLogprobs(body, { action: "fail", cause: "http-400: logprobs is not supported" }) // true when body.logprobs
 */
export function rejectsLogprobs(body: RequestBody, f: Failure): boolean {
  return asksLogprobs(body) && /^http-(400|422)\b/.test(f.cause) && LOGPROBS_WORDS.test(f.cause);
}
