import { readCompletion, type Usage } from "../transport/completion.js";
import type { VerdictReply } from "../verdict/parse.js";
import type { BatchOutputLine } from "./format.js";

/**
 * What one output line means for its request:
 * - `verdict`: a yes/no reply that passed the judge's schema;
 * - `error`: the request ran and failed (HTTP error, refusal, truncation,
 *   unreadable reply): an error verdict with its cause;
 * - `pending`: the request never ran (the batch expired or was cancelled):
 *   it goes back to pending, to be exported or judged online again.
 */
export type LineOutcome =
  | { kind: "verdict"; reply: VerdictReply; servedModel?: string; usage?: Usage; pYes?: number; raw: string }
  | { kind: "error"; cause: string; servedModel?: string; usage?: Usage; raw?: string }
  | { kind: "pending"; cause: string };

/** Error codes the Batch API gives requests that were never run. */
const NOT_RUN = new Set(["batch_expired", "batch_cancelled"]);

function clip(s: string, n = 300): string {
  return s.length > n ? s.slice(0, n) + "…" : s;
}

/** A readable message from the shapes `error` takes: a string (vLLM), `{code, message}` (OpenAI), `{error: {...}}` (vLLM's ErrorResponse). */
function errorText(e: unknown): { code?: string; message: string } | undefined {
  if (e === null || e === undefined) return undefined;
  if (typeof e === "string") return { message: clip(e) };
  if (typeof e !== "object") return { message: clip(String(e)) };
  const o = e as { code?: unknown; message?: unknown; error?: unknown };
  if (o.error !== undefined && o.error !== null && typeof o.error === "object") return errorText(o.error);
  const code = typeof o.code === "string" ? o.code : typeof o.code === "number" ? String(o.code) : undefined;
  const message = typeof o.message === "string" ? clip(o.message) : clip(JSON.stringify(e));
  return { code, message };
}

/**
 * Reads one output line with the online client's own reading
 * ({@link readCompletion}: choices, refusal, truncation, then the judge's
 * zod schema, failing closed), so a batch reply and an online one are judged
 * alike. Batch errors are prefixed `batch:` so a report tells them from
 * online ones.
 *
 * @example
 * interpretLine({ custom_id: id, response: { status_code: 200, body: completion }, error: null })
 * // { kind: "verdict", reply: { reason: "…", verdict: "yes" }, … }
 */
export function interpretLine(line: BatchOutputLine): LineOutcome {
  const err = errorText(line.error);
  if (err?.code && NOT_RUN.has(err.code)) return { kind: "pending", cause: `batch: ${err.code}: ${err.message}` };
  const res = line.response;
  if (!res) return { kind: "error", cause: `batch: ${err?.code ? `${err.code}: ` : ""}${err?.message ?? "no response"}` };
  const raw = res.body === undefined ? undefined : JSON.stringify(res.body);
  if (res.status_code !== 200) {
    const why = errorText(res.body) ?? err;
    return { kind: "error", cause: `batch: http-${res.status_code}: ${why?.message ?? "no message"}`, raw };
  }
  if (err) return { kind: "error", cause: `batch: ${err.code ? `${err.code}: ` : ""}${err.message}`, raw };
  const r = readCompletion(res.body);
  const meta = { ...(r.servedModel !== undefined ? { servedModel: r.servedModel } : {}), ...(r.usage ? { usage: r.usage } : {}) };
  if (!r.ok) return { kind: "error", cause: `batch: ${r.cause}`, ...meta, raw };
  return { kind: "verdict", reply: r.reply, ...meta, ...(r.pYes === undefined ? {} : { pYes: r.pYes }), raw: raw! };
}
