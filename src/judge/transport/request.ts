import type OpenAI from "openai";
import { hashJson } from "../../golden/hash.js";
import type { Evidence } from "../../golden/schema/items.js";
import { FENCE_VERSION, RENDER_VERSION, placeholderEvidence, renderPrompt } from "../rubric/prompt.js";
import { LOGPROBS_VERSION } from "../verdict/logprobs.js";
import { PARSER_VERSION, VERDICT_JSON_SCHEMA } from "../verdict/parse.js";
import { TOP_LOGPROBS } from "./logprobs.js";
import type { Rubric } from "../rubric/rubric.js";

/** How the reply's shape is enforced: the server's structured outputs, or JSON asked for in the prompt. */
export type ResponseMode = "json_schema" | "text";

/**
 * Everything besides the prompt that goes into a request. `null` omits the
 * parameter from the body (some models reject `temperature` or `seed`).
 */
export interface RequestSettings {
  model: string;
  temperature: number | null;
  seed: number | null;
  maxTokens: number | null;
  responseMode: ResponseMode;
  /** Ask for token log-probabilities (`logprobs`, `top_logprobs`), for each verdict's P(yes). Absent: not asked. */
  logprobs?: boolean;
}

/** The exact JSON body sent to `POST /chat/completions`. */
export type RequestBody = OpenAI.ChatCompletionCreateParamsNonStreaming;

/** The LLM judge's name in its request template (and so in its fingerprint). */
export const LLM_JUDGE = "openai-chat";

/** `response_format` for structured outputs: strict JSON schema of the verdict reply. */
export const RESPONSE_FORMAT = {
  type: "json_schema",
  json_schema: { name: "verdict", strict: true, schema: VERDICT_JSON_SCHEMA },
} as const;

/**
 * Builds the exact request body for one item: rendered messages, every
 * parameter that is not `null`, and `response_format` in json_schema mode.
 * Pure: the same rubric, evidence and settings always give the same body, so
 * batch mode can reuse it line for line.
 *
 * @example
 * buildRequestBody(rubric, evidence, { model: "gpt-4o-mini", temperature: 0, seed: 0, maxTokens: 512, responseMode: "json_schema" })
 */
export function buildRequestBody(rubric: Rubric, evidence: Evidence, s: RequestSettings): RequestBody {
  const { system, user } = renderPrompt(rubric, evidence);
  const body: RequestBody = {
    model: s.model,
    messages: [
      { role: "system", content: system },
      { role: "user", content: user },
    ],
  };
  if (s.temperature !== null) body.temperature = s.temperature;
  if (s.seed !== null) body.seed = s.seed;
  if (s.maxTokens !== null) body.max_tokens = s.maxTokens;
  if (s.responseMode === "json_schema") body.response_format = RESPONSE_FORMAT as unknown as RequestBody["response_format"];
  if (s.logprobs) {
    body.logprobs = true;
    body.top_logprobs = TOP_LOGPROBS;
  }
  return body;
}

/**
 * The canonical request template of a rubric under some settings: the body as
 * sent with placeholders where the evidence goes (both `cases` when the
 * rubric has them), plus the rubric's identity and the versions of the
 * rendering, fencing and parsing code. Everything that can change a verdict
 * other than the evidence itself.
 */
export function requestTemplate(rubric: Rubric, s: RequestSettings): Record<string, unknown> {
  const requests = rubric.cases
    ? [buildRequestBody(rubric, placeholderEvidence(true), s), buildRequestBody(rubric, placeholderEvidence(false), s)]
    : [buildRequestBody(rubric, placeholderEvidence(true), s)];
  return {
    judge: LLM_JUDGE,
    rubric: { name: rubric.name, version: rubric.version },
    responseMode: s.responseMode,
    renderVersion: RENDER_VERSION,
    fenceVersion: FENCE_VERSION,
    parserVersion: PARSER_VERSION,
    // Only when asked, so the fingerprints of judges without log-probabilities stay as they were.
    ...(s.logprobs ? { logprobsVersion: LOGPROBS_VERSION } : {}),
    requests,
  };
}

/**
 * The judge fingerprint: SHA-256 of {@link requestTemplate}. Stored with every
 * verdict; verdicts of different fingerprints never mix in one figure, and the
 * cache is keyed by it, so changing a prompt, a parameter, the model name or
 * the response mode never reuses an old verdict.
 */
export function requestFingerprint(rubric: Rubric, s: RequestSettings): string {
  return hashJson(requestTemplate(rubric, s));
}
