import { displayPath, InputError, InputErrors, STOPPED_READING, zodProblems } from "../golden/errors.js";
import { csvText, readCsv } from "../golden/csv.js";
import { neutraliseCsvCell, restoreCsvCell } from "../golden/escape.js";
import { closestName } from "../golden/field-names.js";
import { Frame, Label, Provenance } from "../golden/schema/items.js";
import { currentLabels, type LabelBook } from "./labels.js";

/**
 * CSV import and export of labels, since people label in spreadsheets. The
 * columns are the fields of a label (`Label` in golden/schema/items.ts), so an
 * exported file imports back unchanged. A cell a spreadsheet would run as a
 * formula (a note starting with `=`, `+`, `-` or `@`) is written with a
 * leading `'` and read back without it (src/golden/escape.ts).
 */

/** Every column, in export order. */
export const CSV_COLUMNS = [
  "variant", "question", "rubric", "unit", "inputHash", "label", "annotator", "provenance", "source",
  "frame", "inclusionProbability", "stratum", "split", "draw", "attestation", "adjudication", "wordingHash", "note", "time",
] as const;
/** A column of the labels CSV. */
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** Columns every import needs in the file itself. */
export const REQUIRED_COLUMNS: readonly CsvColumn[] = ["variant", "question", "rubric", "unit", "inputHash", "label"];

/** Rows with problems reported before the rest of the file is left unread (as the JSONL readers stop). */
const MAX_PROBLEMS = 50;

/**
 * What a row's names are checked against, each only when given: labels on
 * a rubric, question or variant the project does not have would be kept,
 * and never meet a verdict.
 */
export interface KnownNames {
  rubrics?: ReadonlySet<string>;
  /** Says why a question id is unknown (golden/unknown-question.ts's words), or undefined when the golden set has it. */
  question?: (id: string) => string | undefined;
  /** The config's variant names, and the config file they are named in. */
  variants?: { names: readonly string[]; file: string };
}

/** Values given on the command line for columns the CSV lacks (or cells left empty). */
export interface ImportDefaults {
  annotator?: string;
  provenance?: string;
  source?: string;
  frame?: string;
  inclusionProbability?: number;
  split?: string;
  /** `--attest`: how random rows that no recorded draw drew were drawn outside ragjudge (stamped on each such row). */
  attestation?: string;
  /** Whether a recorded draw drew a label's item (key and input hash): such random rows need no attestation. */
  isDrawn?: (label: Label) => boolean;
  /** Time stamped on rows without a `time` cell (default: now). */
  time?: string;
  /** The project's rubrics, questions and variants, to refuse rows naming others (see {@link KnownNames}). */
  known?: KnownNames;
  /**
   * Today's wording hash of each rubric (calibration/context.ts `wordingsOf`), stamped on rows without a
   * `wordingHash` cell: the rubric as it is on disk at import is taken to be the question the row answered.
   */
  wordings?: ReadonlyMap<string, string | null>;
}

/** The labels of a CSV file, validated, with what was ignored. */
export interface CsvImport {
  labels: Label[];
  /** The CSV line each label came from. */
  lines: number[];
  /** Whether each row had its own `time` cell (else it carries the import time). */
  timed: boolean[];
  /** Whether each row had its own `wordingHash` cell (else it carries its rubric's wording at import, or none). */
  worded: boolean[];
  /** Header names that are not label fields (ignored, reported to the user). */
  ignoredColumns: string[];
}

/**
 * Reads a labels CSV (header row required; a BOM and CRLF line ends are
 * fine; quoted cells may span lines). Columns are matched by name, case
 * insensitively, in any order. Flags in `defaults` supply annotator,
 * provenance, source, frame, inclusion probability and split where the CSV
 * has no such column or leaves the cell empty. `label` accepts yes/no in any
 * case. With `known`, a row naming a rubric, question or variant the
 * project lacks is refused. A row without a `wordingHash` cell gets its
 * rubric's wording as on disk now (`wordings`): an exported label keeps the
 * wording it answered, a row typed in a sheet is taken to answer today's; a
 * rubric whose file does not read has no wording to give, so such a row of it
 * is refused. Every problem is reported at once with file,
 * line and column, every problem of a row too (a bad time beside a "maybe"),
 * up to {@link MAX_PROBLEMS}; the missing required columns are one error
 * naming the header line.
 *
 * @example
 * readLabelsCsv("asha.csv", { annotator: "asha", provenance: "human", frame: "random" })
 */
export function readLabelsCsv(file: string, defaults: ImportDefaults = {}): CsvImport {
  const csv = readCsv(file, "a header row and one label per row");
  // Cells ragjudge neutralised against formula injection on export read back as they were.
  const { headerLine } = csv;
  const header = csv.header.map(restoreCsvCell);
  const rows = csv.rows.map((r) => ({ ...r, cells: r.cells.map(restoreCsvCell) }));
  const index = new Map<CsvColumn, number>();
  const ignoredColumns: string[] = [];
  const headerProblems: InputError[] = [];
  header.forEach((h, i) => {
    const col = CSV_COLUMNS.find((c) => c.toLowerCase() === h.toLowerCase());
    if (!col) {
      ignoredColumns.push(h);
      return;
    }
    if (index.has(col)) headerProblems.push(new InputError(file, headerLine, col, `column appears twice in the header (columns ${index.get(col)! + 1} and ${i + 1})`));
    else index.set(col, i);
  });
  // Every missing column in one line, with the header's names that look meant for them (input_hash for inputHash).
  const missing = REQUIRED_COLUMNS.filter((c) => !index.has(c));
  if (missing.length) {
    const meant = ignoredColumns.flatMap((h) => {
      const col = closestName(h, missing);
      return col ? [`${JSON.stringify(h)} for ${col}`] : [];
    });
    headerProblems.push(new InputError(file, headerLine, missing.join(", "), `missing column${missing.length > 1 ? "s" : ""} (the header needs ${REQUIRED_COLUMNS.join(", ")}${meant.length ? `; did you mean ${meant.join(", ")}?` : ""})`));
  }
  const fromFlag = { annotator: "--annotator", provenance: "--provenance", frame: "--frame" } as const;
  const unfilled = (["annotator", "provenance", "frame"] as const).filter((col) => !index.has(col) && defaults[col] === undefined);
  if (unfilled.length === 1) headerProblems.push(new InputError(file, headerLine, unfilled[0], `missing column: add a ${unfilled[0]} column or pass ${fromFlag[unfilled[0]!]}`));
  else if (unfilled.length) headerProblems.push(new InputError(file, headerLine, unfilled.join(", "), `missing columns: add ${unfilled.join(" and ")} columns or pass ${unfilled.map((c) => fromFlag[c]).join(" and ")}`));
  if (defaults.provenance !== undefined && !Provenance.safeParse(defaults.provenance).success) {
    headerProblems.push(new InputError(file, undefined, "provenance", `--provenance must be one of ${Provenance.options.join(", ")}, got ${JSON.stringify(defaults.provenance)}`));
  }
  if (defaults.frame !== undefined && !Frame.safeParse(defaults.frame).success) {
    headerProblems.push(new InputError(file, undefined, "frame", `--frame must be one of ${Frame.options.join(", ")}, got ${JSON.stringify(defaults.frame)}`));
  }
  if (defaults.provenance === "import" && defaults.source === undefined && !index.has("source")) {
    headerProblems.push(new InputError(file, headerLine, "source", "imported labels (--provenance import) need --source NAME or a source column"));
  }
  if (headerProblems.length) throw new InputErrors(headerProblems);
  const time = defaults.time ?? new Date().toISOString();
  const labels: Label[] = [];
  const lines: number[] = [];
  const timed: boolean[] = [];
  const worded: boolean[] = [];
  const problems: InputError[] = [];
  for (const rec of rows) {
    const line = rec.line;
    // Spreadsheets pad with rows of empty cells: skip them.
    if (rec.cells.every((c) => c.trim() === "")) continue;
    if (problems.length >= MAX_PROBLEMS) {
      problems.push(new InputError(file, undefined, undefined, `${STOPPED_READING} ${MAX_PROBLEMS} problems (line ${line} and on not checked): fix these, then run again`));
      break;
    }
    if (rec.cells.length !== header.length) {
      problems.push(new InputError(file, line, undefined, `has ${rec.cells.length} cells, the header has ${header.length}`));
      continue;
    }
    const cell = (c: CsvColumn): string | undefined => {
      const i = index.get(c);
      const v = i === undefined ? undefined : rec.cells[i]!.trim();
      return v === "" ? undefined : v;
    };
    const obj: Record<string, unknown> = {};
    const rowProblems: InputError[] = [];
    for (const col of ["variant", "question", "rubric", "unit", "inputHash", "source", "stratum", "split", "draw", "attestation", "wordingHash"] as const) {
      const v = cell(col) ?? (col === "source" || col === "split" ? defaults[col] : undefined);
      if (v !== undefined) obj[col] = col === "inputHash" || col === "wordingHash" ? v.toLowerCase() : v;
    }
    const today = typeof obj.rubric === "string" ? defaults.wordings?.get(obj.rubric) : undefined;
    if (obj.wordingHash === undefined && today) obj.wordingHash = today;
    // Unstamped, the label would count for whatever the question becomes once the file reads again.
    if (obj.wordingHash === undefined && today === null) {
      rowProblems.push(new InputError(file, line, "wordingHash", `the file of rubric ${JSON.stringify(obj.rubric)} does not read, or two files (.yaml and .yml) give its name, so which wording of its question this label answered cannot be recorded: fix the rubric file, then import again`));
    }
    // A note keeps its inner white space; only an all-blank cell is dropped.
    const rawNote = index.has("note") ? rec.cells[index.get("note")!] : undefined;
    if (rawNote !== undefined && rawNote.trim() !== "") obj.note = rawNote;
    for (const col of ["annotator", "provenance", "frame"] as const) {
      const v = cell(col) ?? defaults[col];
      if (v !== undefined) obj[col] = v;
    }
    if (defaults.known) rowProblems.push(...unknownNames(defaults.known, cell, file, line));
    const label = cell("label");
    if (label === undefined) rowProblems.push(new InputError(file, line, "label", "empty (expected yes or no)"));
    // y and n as review --tty takes them, in any case
    else if (!/^(y|yes|n|no)$/i.test(label)) rowProblems.push(new InputError(file, line, "label", `expected yes or no (or y, n), got ${JSON.stringify(label)}`));
    else obj.label = /^y/i.test(label) ? "yes" : "no";
    const p = cell("inclusionProbability");
    if (p !== undefined) {
      const n = Number(p);
      if (!Number.isFinite(n)) rowProblems.push(new InputError(file, line, "inclusionProbability", `expected a number in (0, 1], got ${JSON.stringify(p)}`));
      else obj.inclusionProbability = n;
    } else if (defaults.inclusionProbability !== undefined) obj.inclusionProbability = defaults.inclusionProbability;
    const adj = cell("adjudication");
    if (adj !== undefined) {
      if (/^(true|1|yes)$/i.test(adj)) obj.adjudication = true;
      else if (/^(false|0|no)$/i.test(adj)) obj.adjudication = false;
      else rowProblems.push(new InputError(file, line, "adjudication", `expected true or false, got ${JSON.stringify(adj)}`));
    }
    obj.time = cell("time") ?? time;
    // The schema's word on the rest of the row too (a bad time beside a "maybe"), not on a cell already said.
    const parsed = Label.safeParse(obj);
    if (!parsed.success) {
      const said = new Set(rowProblems.map((e) => e.field));
      rowProblems.push(...zodProblems(parsed.error, obj, file, line, Label).filter((e) => !said.has(e.field)));
    }
    if (rowProblems.length || !parsed.success) {
      problems.push(...inColumnOrder(rowProblems));
      continue;
    }
    // Random means drawn by ragjudge: a random row on an item no recorded draw drew must say how it was drawn.
    const l = parsed.data;
    if (l.frame === "random" && l.draw === undefined && l.attestation === undefined && !defaults.isDrawn?.(l)) {
      if (defaults.attestation === undefined) {
        problems.push(new InputError(file, line, "frame", "random, but no recorded draw (labels/draws/) drew this item: pass --attest \"who drew the sample and how\" (or an attestation column) for labels drawn outside ragjudge, or use another frame, such as manual"));
        continue;
      }
      l.attestation = defaults.attestation;
    }
    labels.push(l);
    lines.push(line);
    timed.push(cell("time") !== undefined);
    worded.push(cell("wordingHash") !== undefined);
  }
  if (problems.length) throw new InputErrors(problems);
  if (labels.length === 0) throw new InputError(file, undefined, undefined, "no label rows after the header");
  return { labels, lines, timed, worded, ignoredColumns };
}

/** A row's problems in the order of its columns (export order), the row-wide ones first. */
function inColumnOrder(problems: readonly InputError[]): InputError[] {
  const columns: readonly string[] = CSV_COLUMNS;
  // a field that is no column (a schema rule across fields) goes last
  const at = (e: InputError) => (e.field === undefined ? -1 : columns.includes(e.field) ? columns.indexOf(e.field) : columns.length);
  return problems.map((e, i) => ({ e, i })).sort((a, b) => at(a.e) - at(b.e) || a.i - b.i).map(({ e }) => e);
}

/** A row's variant, question and rubric that the project does not have (see {@link KnownNames}). */
function unknownNames(known: KnownNames, cell: (c: CsvColumn) => string | undefined, file: string, line: number): InputError[] {
  const out: InputError[] = [];
  const variant = cell("variant");
  if (variant !== undefined && known.variants && !known.variants.names.includes(variant)) {
    const near = closestName(variant, known.variants.names);
    out.push(new InputError(file, line, "variant", `${JSON.stringify(variant)} is not a variant of ${displayPath(known.variants.file)} (variants: ${known.variants.names.join(", ")}${near ? `; did you mean ${JSON.stringify(near)}?` : ""})`));
  }
  const question = cell("question");
  const why = question === undefined ? undefined : known.question?.(question);
  if (why !== undefined) out.push(new InputError(file, line, "question", why));
  const rubric = cell("rubric");
  if (rubric !== undefined && known.rubrics && !known.rubrics.has(rubric)) {
    const names = [...known.rubrics].sort();
    const near = closestName(rubric, names);
    out.push(new InputError(file, line, "rubric", `unknown rubric ${JSON.stringify(rubric)} (known: ${names.join(", ") || "none"}${near ? `; did you mean ${JSON.stringify(near)}?` : ""})`));
  }
  return out;
}

/**
 * Writes labels as CSV with every column of {@link CSV_COLUMNS}: the
 * effective labels by default, or the whole history. Sorted by item, then
 * annotator, then time, so a diff of two exports reads well.
 */
export function labelsToCsv(book: LabelBook, options: { history?: boolean } = {}): string {
  const rows = (options.history ? book.history : currentLabels(book)).map((l) => l.value);
  const keyOf = (l: Label) => [l.variant, l.question, l.rubric, l.unit, l.inputHash, l.annotator, l.time].join("\u0000");
  rows.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  const records = rows.map((l) => CSV_COLUMNS.map((c) => {
    const v = l[c];
    return v === undefined ? "" : typeof v === "string" ? neutraliseCsvCell(v) : String(v);
  }));
  return csvText(CSV_COLUMNS, records);
}
