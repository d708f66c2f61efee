import { readCsv } from "../csv.js";
import { InputError } from "../errors.js";
import { readText } from "../files.js";
import { jsonLineMessage } from "../jsonl.js";

/**
 * The rows of a dataset to import, whatever the file: a Ragas-style JSONL
 * (one object per line) or a CSV with a header row. Each row answers "the
 * value of column C" and knows its line, so every problem names file, line
 * and column.
 */
export interface SourceRow {
  line: number;
  /** The raw value of a column: JSON values for JSONL, strings for CSV; undefined when absent. */
  get(column: string): unknown;
  /** Whether a list column holds text to parse (a CSV cell) rather than a JSON array. */
  text: boolean;
}

/** A file's rows and the columns they have. */
export interface SourceTable {
  file: string;
  /** The line that names the columns (the CSV header), or undefined for JSONL. */
  headerLine: number | undefined;
  /** Every column some row has (CSV: the header). */
  columns: string[];
  rows: SourceRow[];
}

/** Reads a Ragas-style JSONL: one JSON object per line, blank lines skipped. Unparsable lines are problems. */
export function readJsonlRows(file: string, problems: InputError[]): SourceTable {
  const lines = readText(file).split("\n");
  const rows: SourceRow[] = [];
  const columns = new Set<string>();
  lines.forEach((text, i) => {
    if (text.trim() === "") return;
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      problems.push(new InputError(file, i + 1, undefined, `not valid JSON (${jsonLineMessage(e)})`));
      return;
    }
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      problems.push(new InputError(file, i + 1, undefined, "expected a JSON object (one record per line)"));
      return;
    }
    const obj = v as Record<string, unknown>;
    for (const k of Object.keys(obj)) columns.add(k);
    rows.push({ line: i + 1, get: (c) => obj[c], text: false });
  });
  if (rows.length === 0 && problems.length === 0) problems.push(new InputError(file, undefined, undefined, "file is empty (expected one JSON object per line)"));
  return { file, headerLine: undefined, columns: [...columns], rows };
}

/** Reads a CSV with a header row; a ragged row is a problem at its line. Header names match in any case. */
export function readCsvRows(file: string, problems: InputError[]): SourceTable {
  const { header, headerLine, rows } = readCsv(file, "a header row and one question per row");
  const out: SourceRow[] = [];
  for (const r of rows) {
    if (r.cells.every((c) => c.trim() === "")) continue;
    if (r.cells.length !== header.length) {
      problems.push(new InputError(file, r.line, undefined, `has ${r.cells.length} cells, the header has ${header.length}`));
      continue;
    }
    out.push({ line: r.line, get: (c) => {
      const i = header.findIndex((h) => h.toLowerCase() === c.toLowerCase());
      return i < 0 ? undefined : r.cells[i];
    }, text: true });
  }
  if (out.length === 0 && problems.length === 0) problems.push(new InputError(file, headerLine, undefined, "no rows after the header"));
  return { file, headerLine, columns: header, rows: out };
}

/**
 * A list cell of a CSV as text: a JSON array of strings (`["a", "b"]`), or
 * the Python list pandas writes for a list column (`['a', "b's"]`), or, with
 * `sep`, the cell split on that separator. Returns the strings or a reason.
 *
 * @example
 * parseListCell(`['It lapses.', "Carry 45 days."]`) // ["It lapses.", "Carry 45 days."]
 */
export function parseListCell(cell: string, sep?: string): string[] | { error: string } {
  const t = cell.trim();
  if (sep !== undefined) return t === "" ? [] : t.split(sep).map((s) => s.trim());
  if (t === "" || t === "[]") return [];
  if (t.startsWith("[")) {
    try {
      const v: unknown = JSON.parse(t);
      if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v;
    } catch {
      // not JSON: try a Python list literal
    }
    const py = parsePythonList(t);
    if (py) return py;
  }
  return { error: 'expected a list of passages: a JSON array of strings (["...", "..."]), a Python list, or pass --list-sep to split the cell' };
}

/** A Python list of string literals (single or double quotes, backslash escapes), or undefined. */
function parsePythonList(t: string): string[] | undefined {
  const out: string[] = [];
  let i = 1;
  const ws = () => {
    while (i < t.length && /\s/.test(t[i]!)) i++;
  };
  ws();
  if (t[i] === "]") return i === t.length - 1 ? out : undefined;
  for (;;) {
    ws();
    const q = t[i];
    if (q !== "'" && q !== '"') return undefined;
    i++;
    let s = "";
    for (;;) {
      if (i >= t.length) return undefined;
      const c = t[i]!;
      if (c === "\\") {
        const n = t[i + 1];
        s += n === "n" ? "\n" : n === "t" ? "\t" : n ?? "";
        i += 2;
        continue;
      }
      i++;
      if (c === q) break;
      s += c;
    }
    out.push(s);
    ws();
    if (t[i] === ",") {
      i++;
      ws();
      if (t[i] === "]") return i === t.length - 1 ? out : undefined;
      continue;
    }
    if (t[i] === "]") return i === t.length - 1 ? out : undefined;
    return undefined;
  }
}
