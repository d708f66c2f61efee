import type { z } from "zod";
import { InputError, InputErrors, zodProblems } from "./errors.js";
import { readText } from "./files.js";
import { lineTooLong } from "./limits.js";

/** One parsed record and the 1-based line it came from, for later messages. */
export interface Located<T> {
  line: number;
  value: T;
}

/** At most this many problems are kept per file: the first ones fix most. */
const MAX_PROBLEMS = 50;

/**
 * Parses JSON Lines text against a zod schema, collecting every problem
 * (bad JSON, wrong or missing field) with its line instead of stopping at the
 * first. Blank lines are skipped; an input with no record at all is a problem.
 *
 * @example
 * const { rows, problems } = parseJsonl(text, "golden.jsonl", GoldenQuestionSchema);
 */
export function parseJsonl<S extends z.ZodType>(
  text: string,
  file: string,
  schema: S,
): { rows: Located<z.infer<S>>[]; problems: InputError[] } {
  const rows: Located<z.infer<S>>[] = [];
  const problems: InputError[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    if (problems.length >= MAX_PROBLEMS) break;
    // The per-line limit (limits.ts), before parsing.
    const long = lineTooLong(line, file, i + 1);
    if (long) {
      problems.push(long);
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      problems.push(new InputError(file, i + 1, undefined, `not valid JSON (${(e as Error).message.replace(/^JSON\.parse: /, "")})`));
      continue;
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      problems.push(...zodProblems(parsed.error, json, file, i + 1));
      continue;
    }
    rows.push({ line: i + 1, value: parsed.data });
  }
  if (rows.length === 0 && problems.length === 0) {
    problems.push(new InputError(file, undefined, undefined, "file is empty (expected one JSON object per line)"));
  }
  return { rows, problems };
}

/** Reads and parses a JSONL file; throws {@link InputErrors} listing every problem. */
export function loadJsonl<S extends z.ZodType>(file: string, schema: S): Located<z.infer<S>>[] {
  const { rows, problems } = parseJsonl(readText(file), file, schema);
  if (problems.length > 0) throw new InputErrors(problems);
  return rows;
}

/** Reads one JSON document (config, calibration record, report.json) of at most `limit` bytes against a schema. */
export function loadJson<S extends z.ZodType>(file: string, schema: S, limit?: number): z.infer<S> {
  const text = readText(file, limit);
  if (text.trim() === "") throw new InputError(file, undefined, undefined, "file is empty (expected a JSON document)");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    const line = m ? text.slice(0, Number(m[1])).split("\n").length : undefined;
    throw new InputError(file, line, undefined, `not valid JSON (${(e as Error).message})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new InputErrors(zodProblems(parsed.error, json, file, undefined));
  return parsed.data;
}
