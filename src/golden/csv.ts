import { CsvError, parse } from "csv-parse/sync";
import { InputError } from "./errors.js";
import { readText } from "./files.js";
import { formatSize, MAX_LINE_CHARS } from "./limits.js";

/** One CSV record and the line it starts on. */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/** A CSV file as records: the header row first, each with its starting line. */
export interface CsvFile {
  header: string[];
  headerLine: number;
  rows: CsvRecord[];
}

/** The line a record starts on: csv-parse reports where it ends, so subtract line breaks inside quoted cells. */
function startLine(rec: { record: string[]; info: { lines: number } }): number {
  let inner = 0;
  for (const c of rec.record) for (let i = c.indexOf("\n"); i !== -1; i = c.indexOf("\n", i + 1)) inner++;
  return rec.info.lines - inner;
}

/**
 * Reads a CSV file as spreadsheets write it (a BOM and CRLF line ends are
 * fine; quoted cells may span lines; rows may be ragged, for the caller to
 * report; commas, semicolons or tabs, see {@link delimiterOf}), with each
 * record's starting line. Malformed CSV or a file with no
 * row is an {@link InputError} at its line.
 *
 * @example
 * const { header, rows } = readCsv("labels.csv"); // rows[0].line === 2
 */
export function readCsv(file: string, what = "a header row and one record per row"): CsvFile {
  const text = readText(file);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { delimiter: delimiterOf(text), skip_empty_lines: true, info: true, relax_column_count: true, max_record_size: MAX_LINE_CHARS }) as unknown as typeof records;
  } catch (e) {
    if (e instanceof CsvError) {
      const line = (e as CsvError & { lines?: number }).lines;
      if (e.code === "CSV_MAX_RECORD_SIZE") throw new InputError(file, line, undefined, `record is longer than the limit of ${formatSize(MAX_LINE_CHARS)} (${MAX_LINE_CHARS.toLocaleString("en-US")} characters) per line`);
      if (e.code === "INVALID_OPENING_QUOTE") {
        // A JSON list typed into a cell (["a", "b"]) without quoting the cell: say how to quote it, not the parser's words.
        const index = (e as CsvError & { index?: number }).index ?? 0;
        const name = line !== undefined && line > 1 ? text.replace(/^\ufeff/, "").split(/\r?\n/, 1)[0]!.split(delimiterOf(text))[index]?.trim() : undefined;
        throw new InputError(file, line, name || undefined, `not valid CSV: ${name ? "a cell" : `cell ${index + 1}`} holds a quote but does not start with one; quote the whole cell ("..." with each quote inside doubled, as spreadsheets and pandas write it)`);
      }
      throw new InputError(file, line, undefined, `not valid CSV (${e.message.replace(/ on line \d+$/, "")})`);
    }
    throw e;
  }
  if (records.length === 0) throw new InputError(file, undefined, undefined, `file is empty (expected ${what})`);
  return {
    header: records[0]!.record.map((h) => h.trim()),
    headerLine: startLine(records[0]!),
    rows: records.slice(1).map((r) => ({ line: startLine(r), cells: r.record })),
  };
}

/**
 * The delimiter of a CSV file, read from its header line: a comma, or the
 * semicolon a spreadsheet writes where the comma is the decimal mark (Excel
 * in most European locales), or a tab, whichever the header line holds most
 * of outside quotes (a comma on a tie). Read as commas, such a file was
 * one column per row, and every command asked for columns it had.
 *
 * @example
 * delimiterOf("question;contexts;answer\r\nA;B;C\r\n") // ";"
 */
export function delimiterOf(text: string): "," | ";" | "\t" {
  const counts = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "\n" || c === "\r")) break;
    else if (!quoted && (c === "," || c === ";" || c === "\t")) counts[c]++;
  }
  return counts[";"] > counts[","] && counts[";"] >= counts["\t"] ? ";" : counts["\t"] > counts[","] ? "\t" : ",";
}

/** What makes a cell need quotes: the delimiter, a quote, or a line break (RFC 4180). */
const NEEDS_QUOTES = /[",\n\r]/;

/**
 * One CSV record and its line break, as RFC 4180 writes it (and as
 * csv-stringify does with its defaults: a cell holding a comma, a quote or a
 * line break is quoted, its quotes doubled; every other cell as it is).
 * Written here, not by csv-stringify, because items.csv is tens of
 * megabytes: 20,000 items took 0.18 s here against 0.48 s through
 * csv-stringify, with the same bytes (test/golden/csv.test.ts compares them).
 *
 * @example
 * csvLine(["a", "b,c", 'say "hi"']) // 'a,"b,c","say ""hi"""\n'
 */
export function csvLine(cells: readonly string[]): string {
  let line = "";
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i]!;
    if (i > 0) line += ",";
    line += NEEDS_QUOTES.test(c) ? `"${c.replaceAll('"', '""')}"` : c;
  }
  return line + "\n";
}

/**
 * A whole CSV text: the header row, then the rows.
 *
 * @example
 * csvText(["a", "b"], [["1", "x y"]]) // "a,b\n1,x y\n"
 */
export function csvText(header: readonly string[], rows: readonly (readonly string[])[]): string {
  let text = csvLine(header);
  for (const r of rows) text += csvLine(r);
  return text;
}
