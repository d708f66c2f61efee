import { isAbsolute, relative } from "node:path";
import type { z } from "zod";
import { closestName, knownFields } from "./field-names.js";

/**
 * A problem with the user's input, located precisely enough to fix it:
 * file, 1-based line (when the format has lines) and field. The CLI prints
 * `toString()` and exits 2; it never prints a stack trace for these.
 */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly field: string | undefined,
    readonly detail: string,
  ) {
    super(formatLocation(file, line, field) + detail);
    this.name = "InputError";
  }
}

/**
 * How a reader's note that it stopped at its problem limit begins: a note
 * about the problems, printed after them and not counted as one of them.
 */
export const STOPPED_READING = "stopped reading after";

/** Whether `p` is a reader's note that it stopped (see {@link STOPPED_READING}). */
export function isStoppedNote(p: InputError): boolean {
  return p.line === undefined && p.detail.startsWith(STOPPED_READING);
}

/** Several input problems reported at once (validate reports every problem). */
export class InputErrors extends Error {
  constructor(readonly problems: InputError[]) {
    super(problems.map((p) => p.message).join("\n"));
    this.name = "InputErrors";
  }
}

/**
 * A path as the user wants to read it: relative to the working directory when
 * it lies inside it, absolute otherwise.
 */
export function displayPath(file: string): string {
  if (!isAbsolute(file)) return file;
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : file;
}

function formatLocation(file: string, line: number | undefined, field: string | undefined): string {
  let s = displayPath(file);
  if (line !== undefined) s += `:${line}`;
  s += ": ";
  if (field) s += `${field}: `;
  return s;
}

/** Renders a zod path as people write it: `anchor.text`, `retrieved[3].id`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let s = "";
  for (const p of path) {
    if (typeof p === "number") s += `[${p}]`;
    else s += s ? `.${String(p)}` : String(p);
  }
  return s;
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let v: unknown = root;
  for (const p of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `${typeof v} ${JSON.stringify(v)}`.slice(0, 60);
}

/**
 * Turns one zod issue into a readable field and message. zod's own messages
 * are fine for most codes; a missing field and an unknown key get wording a
 * user recognises at once, and with `schema` an unknown key also gets the
 * field that was probably meant ("goldn" -> "golden").
 */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown, schema?: z.ZodType): { field: string; message: string } {
  const field = formatPath(issue.path);
  if (issue.code === "invalid_type") {
    const actual = valueAt(input, issue.path);
    if (actual === undefined) return { field, message: `missing (expected ${issue.expected})` };
    return { field, message: `expected ${issue.expected}, got ${describe(actual)}` };
  }
  if (issue.code === "invalid_value") {
    const options = issue.values.map((v) => JSON.stringify(v));
    const expected = options.length === 1 ? options[0]! : `one of ${options.join(", ")}`;
    const actual = valueAt(input, issue.path);
    if (actual === undefined) return { field: field || "(record)", message: `missing (expected ${expected})` };
    return { field: field || "(record)", message: `expected ${expected}, got ${describe(actual)}` };
  }
  // Only zod's default wording is replaced: a schema's own union message (pipeline entries) stands.
  if (issue.code === "invalid_union" && (issue.message === "Invalid input" || issue.message.startsWith("Invalid discriminator value"))) {
    const expected = unionExpected(issue);
    if (expected) {
      const actual = valueAt(input, issue.path);
      if (actual === undefined) return { field: field || "(record)", message: `missing (expected ${expected})` };
      return { field: field || "(record)", message: `expected ${expected}, got ${describe(actual)}` };
    }
  }
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys.map((k) => JSON.stringify(k)).join(", ");
    const known = schema ? knownFields(schema, issue.path) : undefined;
    const meant = known ? issue.keys.map((k) => [k, closestName(k, known)] as const).filter(([, m]) => m !== undefined) : [];
    const hint = meant.length ? ` (did you mean ${meant.map(([k, m]) => (issue.keys.length > 1 ? `"${m}" for "${k}"` : `"${m}"`)).join(", ")}?)` : "";
    return { field: field || "(record)", message: `unknown field${issue.keys.length > 1 ? "s" : ""} ${keys}${hint}` };
  }
  // zod's default wording for sizes ("Too small: expected array to have >=1 items"); a schema's own message stands
  if ((issue.code === "too_small" || issue.code === "too_big") && /^Too (small|big): /.test(issue.message)) {
    const sized = issue as { origin?: string; minimum?: number | bigint; maximum?: number | bigint; inclusive?: boolean };
    const bound = issue.code === "too_small" ? sized.minimum : sized.maximum;
    const word = issue.code === "too_small" ? (sized.inclusive === false ? "more than" : "at least") : (sized.inclusive === false ? "fewer than" : "at most");
    const unit = sized.origin === "array" || sized.origin === "set" ? ` item${Number(bound) === 1 ? "" : "s"}` : sized.origin === "string" ? ` character${Number(bound) === 1 ? "" : "s"}` : "";
    const what = sized.origin === "array" || sized.origin === "set" ? "must list" : sized.origin === "string" ? "must have" : "must be";
    if (bound !== undefined) return { field: field || "(record)", message: `${what} ${word} ${String(bound)}${unit}` };
  }
  return { field: field || "(record)", message: issue.message };
}

/**
 * What a union wants, when it can be said in a few words: a discriminated
 * union's tag values (`"openai", "baseline", ...`), or a union whose every
 * branch failed on the value itself with one literal or type
 * (`"auto" or boolean`). zod's own message for these is "Invalid input" or
 * its `'a' | 'b'` notation; null for anything else.
 */
function unionExpected(issue: z.core.$ZodIssueInvalidUnion): string | null {
  const tagged = issue as z.core.$ZodIssueInvalidUnion & { options?: unknown[] };
  if (Array.isArray(tagged.options) && tagged.options.length) return `one of ${tagged.options.map((v) => JSON.stringify(v)).join(", ")}`;
  const parts = new Set<string>();
  for (const branch of issue.errors) {
    if (branch.length !== 1 || branch[0]!.path.length) return null;
    const b = branch[0]!;
    if (b.code === "invalid_value") for (const v of b.values) parts.add(JSON.stringify(v));
    else if (b.code === "invalid_type") parts.add(b.expected);
    else return null;
  }
  const list = [...parts];
  if (!list.length) return null;
  return list.length === 1 ? list[0]! : `${list.slice(0, -1).join(", ")} or ${list[list.length - 1]}`;
}

/** All issues of a failed parse as InputErrors located at `file:line`; `schema` (the one that failed) lets an unknown field name the one meant. */
/**
 * A document's zod problems (a config, a rubric file), each on the line of
 * its own field: an unknown field is one problem per key, on that key's
 * line, not on the line of the object that holds it; a field at the top is
 * named, the whole document is not ("(record)"). Sorted by line.
 *
 * @example
 * locatedProblems(parsed.error, json, file, (path) => lineOf(path), RagjudgeConfig)
 * // [InputError('ragjudge.config.json:7: unknown field "typo"')]
 */
export function locatedProblems(error: z.ZodError, input: unknown, file: string, lineOf: (path: readonly (string | number)[]) => number | undefined, schema?: z.ZodType): InputError[] {
  const issues = error.issues.flatMap((issue): z.core.$ZodIssue[] => (issue.code === "unrecognized_keys" ? issue.keys.map((k) => ({ ...issue, keys: [k] })) : [issue]));
  const problems = issues.map((issue) => {
    const { field, message } = describeIssue(issue, input, schema);
    const path = issue.path as (string | number)[];
    const at = issue.code === "unrecognized_keys" ? [...path, issue.keys[0]!] : path;
    return new InputError(file, lineOf(at) ?? lineOf(path), path.length ? field : field === "(record)" ? undefined : field, message);
  });
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

export function zodProblems(
  error: z.ZodError,
  input: unknown,
  file: string,
  line: number | undefined,
  schema?: z.ZodType,
): InputError[] {
  return error.issues.map((issue) => {
    const { field, message } = describeIssue(issue, input, schema);
    return new InputError(file, line, field, message);
  });
}
