import { statSync } from "node:fs";
import type { z } from "zod";
import { InputError, InputErrors, STOPPED_READING, zodProblems } from "./errors.js";
import { readText, readTextBlocks, type BlockBytes, type ByteRange } from "./files.js";
import { repeatedTopLevelKey } from "./json-keys.js";
import { GoldenQuestion } from "./schema/golden.js";
import { Label } from "./schema/items.js";
import { lineTooLong } from "./limits.js";
import type { FastCheck } from "./schema/fast.js";

/**
 * `JSON.parse`'s message for one line of a JSONL file, its offset given as a
 * column ("at position 193" is a count a person has to do by hand).
 *
 * @example
 * jsonLineMessage(new SyntaxError("Expected ',' or '}' after property value in JSON at position 7")) // "... in JSON at column 8"
 */
export function jsonLineMessage(e: unknown): string {
  return (e as Error).message
    .replace(/^JSON\.parse: /, "")
    .replace(/ at position (\d+)(?: \(line \d+ column \d+\))?/, (_m, p: string) => ` at column ${Number(p) + 1}`);
}

/** One parsed record and the 1-based line it came from, for later messages. */
export interface Located<T> {
  line: number;
  value: T;
}

/**
 * Where a line lies in its file: its first byte and the byte after its last
 * (its "\n" excluded), known when its block's characters are its bytes
 * (see readTextBlocks).
 */
export interface LineBytes {
  start: number;
  end: number;
}

/**
 * Turns an accepted record into what the loader keeps, knowing its line and,
 * where known, its bytes: the chunks loader keeps a chunk that can read its
 * text back from the file instead of the text (chunk-text.ts).
 */
export type Place<T> = (value: T, line: number, bytes: LineBytes | undefined) => T;

/**
 * Schemas whose every line is checked for a top-level key given twice
 * (json-keys.ts): files people write by hand, each field deciding something
 * (a golden question's split, a label's answer). The large machine-written
 * files (chunks, pipeline outputs) are not scanned: it would cost a pass over
 * hundreds of megabytes.
 */
const KEYS_ONCE = new WeakSet<z.ZodType>([GoldenQuestion, Label]);

/** At most this many problems are kept per file: the first ones fix most. */
const MAX_PROBLEMS = 50;

/**
 * Parses JSON Lines text, fed in blocks of whole lines, against a zod
 * schema, collecting every problem (bad JSON, wrong or missing field) with
 * its line instead of stopping at the first. Blank lines are skipped. With a
 * fast check (schema/fast.ts), a record it vouches for skips zod; any other
 * record goes through zod, which accepts it or words its problems.
 */
class JsonlParser<T> {
  /** The rows parsed and not yet taken ({@link streamJsonl} takes them after each block). */
  rows: Located<T>[] = [];
  readonly problems: InputError[] = [];
  private lineNo = 0;
  /** Lines read so far, blank ones included (a parser stopped at MAX_PROBLEMS stops counting). */
  get lines(): number {
    return this.lineNo;
  }
  /** Rows parsed in all, taken or not. */
  private count = 0;
  /** Set once MAX_PROBLEMS problems are found: the rest of the file is not read. */
  private stopped = false;

  /** Whether each line is checked for a key given twice ({@link KEYS_ONCE}). */
  private readonly keysOnce: boolean;

  constructor(
    private readonly file: string,
    private readonly schema: z.ZodType<T>,
    private readonly fast: FastCheck<T> | undefined,
    private readonly place?: Place<T>,
  ) {
    this.keysOnce = KEYS_ONCE.has(schema as z.ZodType);
  }

  /** Parses the lines of `text` (the last one may lack its "\n"); `where` as readTextBlocks gives it. */
  feed(text: string, where?: BlockBytes): void {
    if (this.stopped) return;
    const { rows, problems, file, schema, fast, place } = this;
    let start = 0;
    // the current line's bytes, where the block's are known: [lineAt, lineEnd) in the file
    const bytes = place && where?.bytes;
    const lineEndIn = bytes ? lineEnds(bytes) : undefined;
    let byteAt = 0;
    let lineAt = 0;
    let lineEnd = 0;
    while (start < text.length) {
      let end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      const lineNo = ++this.lineNo;
      const line = text.slice(start, end);
      if (where) {
        if (bytes) {
          const nl = lineEndIn!(byteAt);
          lineAt = where.offset + byteAt;
          lineEnd = where.offset + nl;
          byteAt = nl + (bytes[nl] === 13 && bytes[nl + 1] === 10 ? 2 : 1);
        } else {
          lineAt = where.offset + start;
          lineEnd = where.offset + end;
        }
      }
      start = end + 1;
      if (isBlank(line)) continue;
      if (problems.length >= MAX_PROBLEMS) {
        this.stopped = true;
        // said, so that "the same on 49 more lines" is not read as the whole of it
        problems.push(new InputError(file, undefined, undefined, `${STOPPED_READING} ${MAX_PROBLEMS} problems (line ${lineNo} and on not checked): fix these, then run again`));
        return;
      }
      // The per-line limit (limits.ts), before parsing.
      const long = lineTooLong(line, file, lineNo);
      if (long) {
        problems.push(long);
        continue;
      }
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch (e) {
        problems.push(new InputError(file, lineNo, undefined, `not valid JSON (${jsonLineMessage(e)})`));
        continue;
      }
      if (this.keysOnce && typeof json === "object" && json !== null) {
        const twice = repeatedTopLevelKey(line, json);
        if (twice !== undefined) {
          problems.push(new InputError(file, lineNo, twice === "" ? '""' : twice, "given twice in this line: JSON keeps only the last, so the first would be dropped without a word; keep one"));
          continue;
        }
      }
      let value = fast?.(json);
      if (value === undefined) {
        const parsed = schema.safeParse(json);
        if (!parsed.success) {
          problems.push(...zodProblems(parsed.error, json, file, lineNo, schema));
          continue;
        }
        value = parsed.data;
      }
      if (place) value = place(value, lineNo, where ? { start: lineAt, end: lineEnd } : undefined);
      this.count++;
      rows.push({ line: lineNo, value });
    }
  }

  finish(): { rows: Located<T>[]; problems: InputError[] } {
    if (this.count === 0 && this.problems.length === 0) {
      this.problems.push(new InputError(this.file, undefined, undefined, "file is empty (expected one JSON object per line)"));
    }
    return { rows: this.rows, problems: this.problems };
  }
}

/**
 * The line ends of `bytes`, asked for in order: `next(from)` is the first
 * "\n" or "\r" at or after `from`, or the length. Each kind's next place is
 * remembered, so a block is scanned once per kind: searching afresh for each
 * line made a block without "\r" (most of them) scanned to its end once per
 * line, quadratic in a block grown for a long line.
 */
function lineEnds(bytes: Buffer): (from: number) => number {
  // -2: not searched yet; -1: none left
  let nl = -2;
  let cr = -2;
  return (from) => {
    if (nl !== -1 && nl < from) nl = bytes.indexOf(10, from);
    if (cr !== -1 && cr < from) cr = bytes.indexOf(13, from);
    const end = nl < 0 ? cr : cr < 0 ? nl : Math.min(nl, cr);
    return end < 0 ? bytes.length : end;
  };
}

/** A line of only white space (`trim() === ""`), testing the ends first: almost every line has a brace there. */
function isBlank(line: string): boolean {
  if (line.length === 0) return true;
  const c = line.charCodeAt(0);
  if (c > 32 && c < 127) return false;
  return line.trim() === "";
}

/**
 * Parses JSON Lines text against a zod schema, collecting every problem
 * (bad JSON, wrong or missing field) with its line instead of stopping at the
 * first. Blank lines are skipped; an input with no record at all is a problem.
 * `fast` is an optional fast check of the schema (see schema/fast.ts).
 *
 * @example
 * const { rows, problems } = parseJsonl('{"id":"q1"}\nnot json\n', "golden.jsonl", GoldenQuestion);
 * // rows: [] (each row is { line, value }); problems, one per bad line:
 * // "golden.jsonl:1: question: missing (expected string)", "golden.jsonl:2: not valid JSON (Unexpected token 'o', ...)"
 */
export function parseJsonl<S extends z.ZodType>(
  text: string,
  file: string,
  schema: S,
  fast?: FastCheck<z.infer<S>>,
): { rows: Located<z.infer<S>>[]; problems: InputError[] } {
  const parser = new JsonlParser<z.infer<S>>(file, schema as z.ZodType<z.infer<S>>, fast);
  parser.feed(text);
  return parser.finish();
}

/**
 * Reads and parses a JSONL file ({@link parseJsonl}) a block of lines at a
 * time, so the file's text is never held whole; throws {@link InputErrors}
 * listing every problem.
 */
export function loadJsonl<S extends z.ZodType>(file: string, schema: S, fast?: FastCheck<z.infer<S>>, place?: Place<z.infer<S>>): Located<z.infer<S>>[] {
  const kept = takeKept(file, schema);
  if (kept) return kept as Located<z.infer<S>>[];
  const parser = new JsonlParser<z.infer<S>>(file, schema as z.ZodType<z.infer<S>>, fast, place);
  readTextBlocks(file, (text, where) => parser.feed(text, where));
  const { rows, problems } = parser.finish();
  if (problems.length > 0) throw new InputErrors(problems);
  return rows;
}

/**
 * {@link loadJsonl} a block of rows at a time, for a caller that turns
 * rows into something else as they come (and need not hold them all):
 * `onRows` gets each block's rows in file order (the kept rows of
 * {@link keepForNextLoad} at once). Returns the file's problems, the ones
 * loadJsonl would throw; empty when every row was delivered.
 *
 * @example
 * const problems = streamJsonl("out.jsonl", PipelineOutput, undefined, (rows) => rows.forEach(use));
 * if (problems.length) throw new InputErrors(problems);
 */
export function streamJsonl<S extends z.ZodType>(file: string, schema: S, fast: FastCheck<z.infer<S>> | undefined, onRows: (rows: Located<z.infer<S>>[]) => void, { place, range, counted }: StreamOptions<z.infer<S>> = {}): InputError[] {
  const kept = range ? undefined : takeKept(file, schema);
  if (kept) {
    onRows(kept as Located<z.infer<S>>[]);
    return [];
  }
  const parser = new JsonlParser<z.infer<S>>(file, schema as z.ZodType<z.infer<S>>, fast, place);
  readTextBlocks(file, (text, where) => {
    parser.feed(text, where);
    if (parser.rows.length > 0) {
      const rows = parser.rows;
      parser.rows = [];
      onRows(rows);
    }
  }, undefined, undefined, range);
  if (counted) counted.lines = parser.lines;
  return parser.finish().problems;
}

/**
 * Options of {@link streamJsonl}: `place` as for loadJsonl; `range`, part of
 * the file only (lines numbered from 1 at its start, and an empty part is a
 * problem as an empty file is; rows kept for the next load are not taken).
 */
export interface StreamOptions<T> {
  place?: Place<T>;
  range?: ByteRange;
  /** Given the number of lines read (blank ones included): where the lines of the part after `range` start. */
  counted?: { lines: number };
}

/**
 * Rows already parsed from a file, kept for the next {@link loadJsonl} of
 * the same file against the same schema, which takes them instead of
 * reading the file again. `ragjudge run` validates every input before it
 * loads it; the two would otherwise parse every file twice. Taken once; a
 * file whose size or modification time changed in between is read again.
 */
const kept = new Map<string, { schema: z.ZodType; stamp: string; rows: readonly Located<unknown>[]; uses: number }>();

function stampOf(file: string): string | undefined {
  try {
    const st = statSync(file);
    return `${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the rows parsed from `file` (without problems) for the next `uses`
 * {@link loadJsonl} calls of it (see {@link kept}): a chunks file two
 * variants share is loaded twice. The rows are shared: read them, never change them.
 */
export function keepForNextLoad<S extends z.ZodType>(file: string, schema: S, rows: readonly Located<z.infer<S>>[], uses = 1): void {
  const stamp = stampOf(file);
  if (stamp !== undefined && uses > 0) kept.set(file, { schema, stamp, rows, uses });
}

/** Drops every kept row set (the loads they were kept for will not come, or came). */
export function forgetKeptLoads(): void {
  kept.clear();
}

/** Whether rows of `file` are kept for its next {@link loadJsonl} (a load elsewhere, such as a worker thread, would not take them). */
export function isKeptForNextLoad(file: string): boolean {
  return kept.has(file);
}

function takeKept(file: string, schema: z.ZodType): readonly Located<unknown>[] | undefined {
  const k = kept.get(file);
  if (!k) return undefined;
  if (--k.uses <= 0) kept.delete(file);
  return k.schema === schema && k.stamp === stampOf(file) ? k.rows : undefined;
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
    const before = m ? text.slice(0, Number(m[1])) : undefined;
    const line = before?.split("\n").length;
    // the column within that line, as a one-line JSONL error gives it
    const message = before === undefined ? (e as Error).message : jsonLineMessage(e).replace(/ at column \d+/, ` at column ${before.length - before.lastIndexOf("\n")}`);
    throw new InputError(file, line, undefined, `not valid JSON (${message})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new InputErrors(zodProblems(parsed.error, json, file, undefined, schema));
  return parsed.data;
}
