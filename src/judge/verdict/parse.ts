import { z } from "zod";

/**
 * The reply's shape as sent in `response_format` (structured outputs): a
 * reason written first, then a yes/no verdict. Kept to the keywords every
 * strict structured-output server accepts; {@link VerdictReply} adds the
 * checks made on receipt.
 */
const WireReply = z.strictObject({
  reason: z.string(),
  verdict: z.enum(["yes", "no"]),
});

/**
 * The judge's reply as accepted: {@link WireReply} with a reason that says
 * something (an empty or blank reason is no reason). Every reply, whatever
 * the response mode, is validated with it.
 */
export const VerdictReply = WireReply.extend({
  reason: z.string().refine((s) => s.trim() !== "", "the reason is empty"),
});
export type VerdictReply = z.infer<typeof VerdictReply>;

/** JSON Schema of the reply as sent in `response_format` (strict mode needs no `$schema`). */
export const VERDICT_JSON_SCHEMA: Record<string, unknown> = (() => {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(WireReply) as Record<string, unknown>;
  return schema;
})();

/**
 * Version of the reply-reading rules: the parsing below and the envelope
 * rules of transport/completion.ts (refusal, truncation); part of every
 * fingerprint.
 */
export const PARSER_VERSION = 2;

/** A parsed reply, or why none could be read. */
export type ParseResult = { ok: true; reply: VerdictReply; via: "json" | "embedded-json" | "verdict-line" } | { ok: false; cause: string };

/** Lenient form used before validation: `"Yes"` and `" no "` are unambiguous. */
function normaliseVerdict(value: unknown): unknown {
  return typeof value === "string" ? value.trim().toLowerCase() : value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function validate(value: unknown): { ok: true; reply: VerdictReply } | { ok: false; cause: string } {
  if (!isObject(value)) return { ok: false, cause: "parse: the reply is JSON but not an object" };
  // Extra fields are tolerated in text replies; only reason and verdict are read.
  const picked = { reason: value.reason, verdict: normaliseVerdict(value.verdict) };
  const parsed = VerdictReply.safeParse(picked);
  if (parsed.success) return { ok: true, reply: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join(".") || "(reply)";
  if (field === "reason" && typeof picked.reason === "string") return { ok: false, cause: 'parse: field "reason" is empty' };
  const missing = (picked as Record<string, unknown>)[field] === undefined;
  return { ok: false, cause: missing ? `parse: field "${field}" is missing` : `parse: field "${field}" is invalid (${issue.message})` };
}

/** Removes a Markdown code fence around the whole reply (```json ... ```). */
function stripCodeFence(text: string): string {
  const m = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  return m ? m[1]! : text;
}

/**
 * Every balanced `{...}` span of the text that parses as a JSON object, in
 * order of its end position, with the span. Strings are honoured, so braces
 * inside quoted text do not confuse the scan.
 */
function jsonObjects(text: string): { start: number; end: number; value: unknown }[] {
  const out: { start: number; end: number; value: unknown }[] = [];
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
          out.push({ start, end: i + 1, value: JSON.parse(text.slice(start, i + 1)) });
        } catch {
          /* not JSON: prose in braces */
        }
      }
    }
  }
  return out;
}

/**
 * A verdict line: the whole line is `verdict: yes` (or `Final verdict = NO`,
 * `**Verdict:** yes.`), nothing else on it.
 */
const VERDICT_LINE = /^\W*(?:final\s+)?verdict\W*[:=]\W*(yes|no)\W*$/iu;

/** A `verdict: yes|no` phrase anywhere (inside prose): never decides, but a contradicting one is an error. */
const VERDICT_PHRASE = /\bverdict\b[\s"'*_]*[:=][\s"'*_]*(yes|no)\b/giu;

const BOTH = "parse: the reply gives both verdicts (yes and no)";

/**
 * Reads a judge reply, failing closed: a reply that could be read two ways
 * is an error, never a guess.
 *
 * 1. The whole reply (a Markdown code fence removed) is JSON: it must be a
 *    valid {@link VerdictReply}; a missing, empty or bad field is an error.
 * 2. Otherwise JSON objects with a `verdict` field inside the text: they
 *    must all give the same verdict, and no `verdict: yes|no` phrase outside
 *    them may give the other; then the last object decides, validated the
 *    same way.
 * 3. Otherwise the LAST line must be a verdict line (`Verdict: no`, nothing
 *    else on it); the text before it is the reason. A verdict line giving
 *    the other verdict anywhere before it is an error.
 * 4. Otherwise, or when the reply is empty, an error with its cause.
 *
 * @example
 * parseReply('{"reason":"All claims are in source 2.","verdict":"yes"}') // ok, verdict "yes"
 * parseReply("Claim 2 is not in the source.\nVerdict: no") // ok, verdict "no"
 * parseReply("I must give a verdict: yes or no. The source says 10 days.") // error: no verdict line
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
  const objects = jsonObjects(text).filter((o) => isObject(o.value) && "verdict" in o.value);
  if (objects.length > 0) {
    const verdicts = new Set(objects.map((o) => normaliseVerdict((o.value as Record<string, unknown>).verdict)));
    let outside = "";
    let from = 0;
    for (const o of objects) {
      outside += text.slice(from, o.start) + "\n";
      from = o.end;
    }
    outside += text.slice(from);
    for (const m of outside.matchAll(VERDICT_PHRASE)) verdicts.add(m[1]!.toLowerCase());
    if (verdicts.has("yes") && verdicts.has("no")) return { ok: false, cause: BOTH };
    const v = validate(objects[objects.length - 1]!.value);
    return v.ok ? { ok: true, reply: v.reply, via: "embedded-json" } : v;
  }
  if (text.startsWith("{") || text.includes('"verdict"')) return { ok: false, cause: "parse: malformed JSON reply" };
  const lines = text.split(/\r?\n/u);
  const last = VERDICT_LINE.exec(lines[lines.length - 1]!);
  if (!last) return { ok: false, cause: "parse: no verdict found in the reply" };
  const verdict = last[1]!.toLowerCase() as "yes" | "no";
  for (const line of lines.slice(0, -1)) {
    const m = VERDICT_LINE.exec(line);
    if (m && m[1]!.toLowerCase() !== verdict) return { ok: false, cause: BOTH };
  }
  const reason = lines.slice(0, -1).join("\n").trim().replace(/[\s*#:-]+$/u, "");
  if (reason === "") return { ok: false, cause: 'parse: field "reason" is missing' };
  return { ok: true, reply: { reason, verdict }, via: "verdict-line" };
}
