import { describe, expect, it } from "vitest";
import { BatchOutputLine } from "../../../src/judge/batch/format.js";
import { interpretLine } from "../../../src/judge/batch/read-output.js";

function chat(content: string | null, extra: { finish?: string; refusal?: string; model?: string } = {}) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    model: extra.model ?? "gpt-4o-mini-2024-07-18",
    choices: [{ index: 0, message: { role: "assistant", content, refusal: extra.refusal ?? null }, finish_reason: extra.finish ?? "stop" }],
    usage: { prompt_tokens: 120, completion_tokens: 14, total_tokens: 134 },
  };
}

const ok = (body: unknown) => BatchOutputLine.parse({ id: "batch_req_1", custom_id: "c", response: { status_code: 200, request_id: "req_1", body }, error: null });

describe("reading one batch output line", () => {
  it("reads a verdict with the served model and usage, keeping the raw body", () => {
    const o = interpretLine(ok(chat('{"reason":"In source 2.","verdict":"yes"}')));
    expect(o).toEqual({ kind: "verdict", reply: { reason: "In source 2.", verdict: "yes" }, servedModel: "gpt-4o-mini-2024-07-18", usage: { prompt: 120, completion: 14 }, raw: JSON.stringify(chat('{"reason":"In source 2.","verdict":"yes"}')) });
  });

  it("fails closed like the online client: bad reply, refusal, truncation, no choices", () => {
    expect(interpretLine(ok(chat('{"verdict":"yes"}')))).toMatchObject({ kind: "error", cause: 'batch: parse: field "reason" is missing', usage: { prompt: 120, completion: 14 } });
    expect(interpretLine(ok(chat('{"reason":"r","verdict":"maybe"}')))).toMatchObject({ kind: "error", cause: expect.stringMatching(/^batch: parse: field "verdict" is invalid/) });
    expect(interpretLine(ok(chat(null)))).toMatchObject({ kind: "error", cause: "batch: parse: empty reply" });
    expect(interpretLine(ok(chat(null, { refusal: "I can't help with that." })))).toMatchObject({ kind: "error", cause: "batch: refusal: I can't help with that." });
    expect(interpretLine(ok(chat('{"reason":"r', { finish: "length" })))).toMatchObject({ kind: "error", cause: expect.stringMatching(/^batch: truncated/) });
    expect(interpretLine(ok({ choices: [] }))).toMatchObject({ kind: "error", cause: "batch: bad-response: no choices[0].message in the reply" });
    expect(interpretLine(ok("not an object"))).toMatchObject({ kind: "error" });
  });

  it("reads a reply exactly as the online client does (one shared reading): two disagreeing verdicts, an empty reason", () => {
    expect(interpretLine(ok(chat('{"reason":"a","verdict":"yes"}\n{"reason":"b","verdict":"no"}')))).toMatchObject({ kind: "error", cause: "batch: parse: the reply gives both verdicts (yes and no)" });
    expect(interpretLine(ok(chat('{"reason":"","verdict":"yes"}')))).toMatchObject({ kind: "error", cause: 'batch: parse: field "reason" is empty' });
    expect(interpretLine(ok(chat("I need to give a verdict: yes or no. The source says 10 days.")))).toMatchObject({ kind: "error", cause: "batch: parse: no verdict found in the reply" });
  });

  it("turns HTTP errors (OpenAI error file) into error verdicts with the server's message", () => {
    const line = BatchOutputLine.parse({ id: "b", custom_id: "c", response: { status_code: 400, request_id: "r", body: { error: { message: "Invalid schema for response_format", type: "invalid_request_error" } } }, error: null });
    expect(interpretLine(line)).toEqual({ kind: "error", cause: "batch: http-400: Invalid schema for response_format", raw: JSON.stringify({ error: { message: "Invalid schema for response_format", type: "invalid_request_error" } }) });
  });

  it("reads vLLM's error shapes: a string, or an ErrorResponse object, with an empty body", () => {
    const str = BatchOutputLine.parse({ id: "vllm-1", custom_id: "c", response: { status_code: 400, request_id: "vllm-batch-1", body: null }, error: "Request must not be sent in stream mode" });
    expect(interpretLine(str)).toMatchObject({ kind: "error", cause: "batch: http-400: Request must not be sent in stream mode" });
    const obj = BatchOutputLine.parse({ id: "vllm-2", custom_id: "c", response: { status_code: 400, request_id: "vllm-batch-2", body: null }, error: { error: { message: "max_tokens is too large", type: "BadRequestError", code: 400 } } });
    expect(interpretLine(obj)).toMatchObject({ kind: "error", cause: "batch: http-400: max_tokens is too large" });
  });

  it("sends requests that never ran (expired, cancelled) back to pending, and other errors to error verdicts", () => {
    const expired = BatchOutputLine.parse({ id: "b", custom_id: "c", response: null, error: { code: "batch_expired", message: "This request could not be executed before the completion window expired." } });
    expect(interpretLine(expired)).toEqual({ kind: "pending", cause: "batch: batch_expired: This request could not be executed before the completion window expired." });
    const cancelled = BatchOutputLine.parse({ custom_id: "c", response: null, error: { code: "batch_cancelled", message: "cancelled" } });
    expect(interpretLine(cancelled).kind).toBe("pending");
    const server = BatchOutputLine.parse({ custom_id: "c", response: null, error: { code: "server_error", message: "oops" } });
    expect(interpretLine(server)).toEqual({ kind: "error", cause: "batch: server_error: oops" });
  });
});
