import { z } from "zod";

/**
 * The judge's reply: a reason written first, then a yes/no verdict. Sent as
 * the structured-output schema and used to validate every reply, whatever
 * the response mode.
 */
export const VerdictReply = z.strictObject({
  reason: z.string(),
  verdict: z.enum(["yes", "no"]),
});
export type VerdictReply = z.infer<typeof VerdictReply>;

/** JSON Schema of {@link VerdictReply} as sent in `response_format` (strict mode needs no `$schema`). */
export const VERDICT_JSON_SCHEMA: Record<string, unknown> = (() => {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(VerdictReply) as Record<string, unknown>;
  return schema;
})();

/** Version of the parsing rules below; part of every fingerprint. */
export const PARSER_VERSION = 1;

/** A parsed reply, or why none could be read. */
export type ParseResult = { ok: true; reply: VerdictReply; via: "json" | "embedded-json" | "verdict-line" } | { ok: false; cause: string };

/** Lenient form used before validation: `"Yes"` and `" no "` are unambiguous. */
function normaliseVerdict(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const o = { ...(value as Record<string, unknown>) };
  if (typeof o.verdict === "string") o.verdict = o.verdict.trim().toLowerCase();
  return o;
}

function validate(value: unknown): { ok: true; reply: VerdictReply } | { ok: false; cause: string } {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { ok: false, cause: "parse: the reply is JSON but not an object" };
  // Extra fields are tolerated in text replies; only reason and verdict are read.
  const picked = normaliseVerdict(value) as Record<string, unknown>;
  const parsed = VerdictReply.safeParse({ reason: picked.reason, verdict: picked.verdict });
  if (parsed.success) return { ok: true, reply: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join(".") || "(reply)";
  const missing = picked[field] === undefined;
  return { ok: false, cause: missing ? `parse: field "${field}" is missing` : `parse: field "${field}" is invalid (${issue.message})` };
}

/** Removes a Markdown code fence around the whole reply (```json ... ```). */
function stripCodeFence(text: string): string {
  const m = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  return m ? m[1]! : text;
}

/**
 * Every balanced `{...}` span of the text that parses as a JSON object, in
 * order of its end position. Strings are honoured, so braces inside quoted
 * text do not confuse the scan.
 */
function jsonObjects(text: string): unknown[] {
  const out: { end: number; value: unknown }[] = [];
  const starts: number[] = [];
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"' && starts.length > 0) inString = true;
    else if (c === "{") starts.push(i);
    else if (c === "}" && starts.length > 0) {
      const start = starts.pop()!;
      if (starts.length === 0) {
        try {
          out.push({ end: i, value: JSON.parse(text.slice(start, i + 1)) });
        } catch {
          /* not JSON: prose in braces */
        }
      }
    }
  }
  return out.sort((a, b) => a.end - b.end).map((o) => o.value);
}

const VERDICT_LINE = /\bverdict\b[\s"'*_]*[:=][\s"'*_]*(yes|no)\b/giu;

/**
 * Reads a judge reply, failing closed.
 *
 * 1. The whole reply (a Markdown code fence removed) is JSON: it must be a
 *    valid {@link VerdictReply}; a missing or bad field is an error, never
 *    guessed around.
 * 2. Otherwise the LAST JSON object in the text that has a `verdict` field
 *    decides (models often think aloud, then answer), validated the same way.
 * 3. Otherwise the LAST `verdict: yes|no` phrase decides, the text before it
 *    being the reason.
 * 4. Otherwise, or when the reply is empty, an error with its cause.
 *
 * @example
 * parseReply('{"reason":"All claims are in source 2.","verdict":"yes"}') // ok, verdict "yes"
 * parseReply('Draft: {"verdict":"yes"} ... final: {"reason":"r","verdict":"no"}') // ok, verdict "no"
 */
export function parseReply(content: string | null | undefined): ParseResult {
  const text = stripCodeFence((content ?? "").trim()).trim();
  if (text === "") return { ok: false, cause: "parse: empty reply" };
  let whole: unknown;
  let isJson = false;
  try {
    whole = JSON.parse(text);
    isJson = true;
  } catch {
    /* not a bare JSON document: look inside */
  }
  if (isJson) {
    const v = validate(whole);
    return v.ok ? { ok: true, reply: v.reply, via: "json" } : v;
  }
  const objects = jsonObjects(text).filter((o) => o !== null && typeof o === "object" && !Array.isArray(o) && "verdict" in o);
  if (objects.length > 0) {
    const v = validate(objects[objects.length - 1]);
    return v.ok ? { ok: true, reply: v.reply, via: "embedded-json" } : v;
  }
  if (text.startsWith("{") || text.includes('"verdict"')) return { ok: false, cause: "parse: malformed JSON reply" };
  let last: RegExpExecArray | undefined;
  for (const m of text.matchAll(VERDICT_LINE)) last = m;
  if (last) {
    const reason = text.slice(0, last.index).trim().replace(/[\s*#:-]+$/u, "");
    if (reason === "") return { ok: false, cause: 'parse: field "reason" is missing' };
    return { ok: true, reply: { reason, verdict: last[1]!.toLowerCase() as "yes" | "no" }, via: "verdict-line" };
  }
  return { ok: false, cause: "parse: no verdict found in the reply" };
}
