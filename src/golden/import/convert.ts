import { InputError, zodProblems } from "../errors.js";
import { normalise } from "../normalise.js";
import { GoldenQuestion } from "../schema/golden.js";
import { PipelineOutputLine } from "../schema/pipeline.js";
import type { SourceRow, SourceTable } from "./rows.js";
import { parseListCell } from "./rows.js";
import { IMPORT_FIELDS, type ImportField } from "./fields.js";

/**
 * Converts the rows of a Ragas-style dataset (question, retrieved contexts
 * as text, answer, reference answer, reference contexts) into a golden set
 * and one variant's pipeline output with passages as text. Columns have the
 * Ragas names by default (both the 0.1 and the 0.2 ones) and can be mapped
 * by flags. Unanswerable questions are never guessed: only a column the user
 * names, or an empty reference when the user says that means unanswerable.
 */

// The fields and their flags live in fields.ts (no imports), which `ragjudge import --help` reads.
export { IMPORT_FIELDS, type ImportField } from "./fields.js";

/** How to read the rows: column names chosen by flags, and the unanswerable rule. */
export interface ImportOptions {
  /** Column names given by flags, by field. */
  columns?: Partial<Record<ImportField, string>>;
  /** An empty or missing reference marks the question unanswerable (`--empty-reference-unanswerable`). */
  emptyReferenceUnanswerable?: boolean;
  /** A split for rows without a split column or cell (`--split NAME`). */
  split?: string;
  /** CSV only: the separator of list cells, instead of a JSON or Python list. */
  listSep?: string;
  /**
   * Only the pipeline's side of each row (question, contexts, answer): the
   * rows are another variant's answers to a golden set that exists, so the
   * golden columns (reference passages, unanswerable) are neither needed nor
   * read (`import --into`).
   */
  outputsOnly?: boolean;
}

/** The columns that make the golden set, not the pipeline's side of a row ({@link ImportOptions.outputsOnly}). */
const GOLDEN_FIELDS = ["reference", "referenceContexts", "split", "kind", "unanswerable"] as const satisfies readonly ImportField[];

/** What a conversion produced, line by line, and every row it could not convert. */
export interface Converted {
  /** Golden questions and output lines as they are written (validated against their schemas). */
  golden: Record<string, unknown>[];
  outputs: Record<string, unknown>[];
  /** The source line of each converted row, in the same order. */
  lines: number[];
  /** The source column used for each field (undefined: none). */
  mapping: Partial<Record<ImportField, string>>;
  problems: InputError[];
}

const TRUE = /^(true|yes|1|y)$/i;
const FALSE = /^(false|no|0|n|)$/i;

/**
 * Which column each field reads: the flag's column (which must exist), else
 * the first default the file has. A required field with no column is one
 * problem at the header line (CSV) or the file (JSONL) naming the columns
 * that are there and the flag that maps one.
 */
function mapColumns(table: SourceTable, opts: ImportOptions, problems: InputError[]): Partial<Record<ImportField, string>> {
  // Names match in any case; the mapping keeps the file's own spelling, which a JSONL row is read by.
  const actual = (c: string) => table.columns.find((x) => x.toLowerCase() === c.toLowerCase());
  const has = (c: string) => actual(c) !== undefined;
  const mapping: Partial<Record<ImportField, string>> = {};
  const listed = `the ${table.headerLine === undefined ? "rows have" : "header has"}: ${table.columns.join(", ") || "nothing"}`;
  for (const [field, spec] of Object.entries(IMPORT_FIELDS) as [ImportField, (typeof IMPORT_FIELDS)[ImportField]][]) {
    const chosen = opts.columns?.[field];
    if (chosen !== undefined) {
      if (!has(chosen)) problems.push(new InputError(table.file, table.headerLine, chosen, `column not found (${spec.flag} ${chosen}; ${listed})`));
      else mapping[field] = actual(chosen)!;
      continue;
    }
    const found = (spec.defaults as readonly string[]).find(has);
    if (found !== undefined) mapping[field] = actual(found)!;
    else if (spec.required) {
      problems.push(new InputError(table.file, table.headerLine, spec.defaults[0], `column not found (looked for ${spec.defaults.join(" or ")}; ${listed}); name yours with ${spec.flag} NAME`));
    }
  }
  return mapping;
}

/** A text cell: a string (CSV cells always are), a number as text, or undefined when empty. */
function textOf(row: SourceRow, column: string, problems: InputError[], file: string): string | undefined {
  const v = row.get(column);
  if (v === undefined || v === null) return undefined;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (typeof v !== "string") {
    problems.push(new InputError(file, row.line, column, `expected text, got ${Array.isArray(v) ? "an array" : typeof v}`));
    return undefined;
  }
  return v.trim() === "" ? undefined : v;
}

/** A list of passages: a JSON array (JSONL) or a list cell (CSV); each passage must have text. */
function passagesOf(row: SourceRow, column: string, opts: ImportOptions, problems: InputError[], file: string): string[] | undefined {
  const v = row.get(column);
  if (v === undefined || v === null) return undefined;
  let list: unknown[];
  if (row.text && typeof v === "string") {
    const parsed = parseListCell(v, opts.listSep);
    if (!Array.isArray(parsed)) {
      problems.push(new InputError(file, row.line, column, parsed.error));
      return undefined;
    }
    list = parsed;
  } else if (Array.isArray(v)) list = v;
  else {
    problems.push(new InputError(file, row.line, column, `expected an array of passages (strings), got ${typeof v}`));
    return undefined;
  }
  const out: string[] = [];
  const seen = new Map<string, number>();
  let ok = true;
  list.forEach((p, i) => {
    if (typeof p !== "string") {
      problems.push(new InputError(file, row.line, `${column}[${i}]`, `expected a passage as text, got ${p === null ? "null" : typeof p}`));
      ok = false;
      return;
    }
    const norm = normalise(p);
    if (norm === "") {
      problems.push(new InputError(file, row.line, `${column}[${i}]`, "empty passage (no text after white space is removed)"));
      ok = false;
      return;
    }
    const first = seen.get(norm);
    if (first !== undefined) {
      problems.push(new InputError(file, row.line, `${column}[${i}]`, `passage text identical to ${column}[${first}] after normalising: one text is one passage with one id; drop the repeat`));
      ok = false;
      return;
    }
    seen.set(norm, i);
    out.push(p);
  });
  return ok ? out : undefined;
}

/**
 * Converts every row, reporting each one it cannot convert as
 * `file:line: column: message` (with the source's column names, so the fix
 * is in the user's own file). Ids come from the id column, else `q1`, `q2`,
 * ... by row; a duplicate id is a problem.
 */
export function convertRows(table: SourceTable, opts: ImportOptions = {}): Converted {
  const problems: InputError[] = [];
  // A JSONL with no row read (every line refused, as a CSV given as ragas is) has no columns to look for:
  // its lines' problems say why, and "column not found (the rows have: nothing)" would only mislead.
  if (table.headerLine === undefined && table.rows.length === 0) return { golden: [], outputs: [], lines: [], mapping: {}, problems };
  const mapping = mapColumns(table, opts, problems);
  // Golden columns found by their default names are not read for outputs only: the mapping, which import prints, says so.
  if (opts.outputsOnly) for (const f of GOLDEN_FIELDS) delete mapping[f];
  const golden: Record<string, unknown>[] = [];
  const outputs: Record<string, unknown>[] = [];
  const lines: number[] = [];
  if (problems.length) return { golden, outputs, lines, mapping, problems };
  const goldenSide = !opts.outputsOnly;
  const file = table.file;
  const width = String(table.rows.length).length;
  const seenIds = new Map<string, number>();
  // No reference-passages column at all: said once (at the header, or the first answerable row of a JSONL), not on every row.
  let noReferenceColumn = false;
  table.rows.forEach((row, n) => {
    if (problems.length >= 50) return;
    const rowProblems: InputError[] = [];
    const col = (f: ImportField) => mapping[f];
    const id = (col("id") && textOf(row, col("id")!, rowProblems, file)) || `q${String(n + 1).padStart(width, "0")}`;
    const question = textOf(row, col("question")!, rowProblems, file);
    if (question === undefined && !rowProblems.length) rowProblems.push(new InputError(file, row.line, col("question")!, "empty (every row needs its question)"));
    const contexts = passagesOf(row, col("contexts")!, opts, rowProblems, file);
    if (row.get(col("contexts")!) === undefined) rowProblems.push(new InputError(file, row.line, col("contexts")!, "missing (the passages the pipeline retrieved, as a list; [] for none)"));
    const answer = typeof row.get(col("answer")!) === "string" ? (row.get(col("answer")!) as string) : textOf(row, col("answer")!, rowProblems, file);
    // the golden columns (none mapped for outputs only)
    const reference = col("reference") ? textOf(row, col("reference")!, rowProblems, file) : undefined;
    const referenceContexts = col("referenceContexts") ? passagesOf(row, col("referenceContexts")!, opts, rowProblems, file) : undefined;
    const split = (col("split") ? textOf(row, col("split")!, rowProblems, file) : undefined) ?? opts.split;
    const kind = col("kind") ? textOf(row, col("kind")!, rowProblems, file) : undefined;
    let answerable = true;
    if (col("unanswerable")) {
      const raw = row.get(col("unanswerable")!);
      const v = typeof raw === "boolean" ? String(raw) : typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : raw === undefined || raw === null ? "" : undefined;
      if (v === undefined || (!TRUE.test(v) && !FALSE.test(v))) rowProblems.push(new InputError(file, row.line, col("unanswerable")!, `expected true or false (yes/no, 1/0), got ${JSON.stringify(raw)}`));
      else answerable = !TRUE.test(v);
    }
    if (opts.emptyReferenceUnanswerable && reference === undefined) answerable = false;
    if (!goldenSide) {
      // the golden set is the project's: its questions' relevance is not this file's to say
    } else if (answerable && !rowProblems.length && col("referenceContexts") === undefined) {
      if (!noReferenceColumn) {
        noReferenceColumn = true;
        const spec = IMPORT_FIELDS.referenceContexts;
        problems.push(new InputError(file, table.headerLine ?? row.line, spec.defaults[0], `column not found (looked for ${spec.defaults.join(" or ")}; the ${table.headerLine === undefined ? "rows have" : "header has"}: ${table.columns.join(", ") || "nothing"}): an answerable question needs the passages that answer it, for retrieval scores; name yours with ${spec.flag} NAME, or mark questions the documents cannot answer with ${IMPORT_FIELDS.unanswerable.flag} NAME or --empty-reference-unanswerable`));
      }
      return; // the row cannot be converted; the column's one problem stands for it
    } else if (answerable && !rowProblems.length && (referenceContexts === undefined || referenceContexts.length === 0)) {
      rowProblems.push(new InputError(file, row.line, col("referenceContexts") ?? IMPORT_FIELDS.referenceContexts.defaults[0], `missing: an answerable question needs the passages that answer it, for retrieval scores (map a column with ${IMPORT_FIELDS.referenceContexts.flag}); mark questions the documents cannot answer with ${IMPORT_FIELDS.unanswerable.flag} NAME or --empty-reference-unanswerable`));
    }
    if (goldenSide && !answerable && referenceContexts !== undefined && referenceContexts.length > 0) {
      rowProblems.push(new InputError(file, row.line, col("referenceContexts")!, "an unanswerable question must have no reference passages"));
    }
    const first = seenIds.get(id);
    if (first !== undefined) rowProblems.push(new InputError(file, row.line, col("id") ?? "id", `duplicate question id ${JSON.stringify(id)} (first on line ${first})`));
    else seenIds.set(id, row.line);
    if (rowProblems.length) {
      problems.push(...rowProblems);
      return;
    }
    const q: Record<string, unknown> = { id, question, answerable };
    if (reference !== undefined) q.reference = reference;
    if (answerable) q.relevantText = referenceContexts;
    if (kind !== undefined) q.kind = kind;
    if (split !== undefined) q.split = split;
    const g = goldenSide ? GoldenQuestion.safeParse(q) : undefined;
    if (g && !g.success) {
      problems.push(...zodProblems(g.error, q, file, row.line));
      return;
    }
    const o: Record<string, unknown> = { id, retrieved: contexts!.map((text) => ({ text })) };
    if (answer !== undefined) o.answer = answer;
    const p = PipelineOutputLine.safeParse(o);
    if (!p.success) {
      problems.push(...zodProblems(p.error, o, file, row.line));
      return;
    }
    golden.push(q);
    outputs.push(o);
    lines.push(row.line);
  });
  return { golden, outputs, lines, mapping, problems };
}
