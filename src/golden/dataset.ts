import { statSync } from "node:fs";
import { basename } from "node:path";
import { ChunkReadingBack, ChunkTextSource } from "./chunk-text.js";
import { UnknownQuestions } from "./unknown-question.js";
import { InputError, InputErrors } from "./errors.js";
import { loadJsonl, streamJsonl, type Located, type Place } from "./jsonl.js";
import { addPassages, chunkIndexer, copyIndex, indexChunks, type ChunkIndex } from "./relevance.js";
import { markReadOnly } from "./relevant-ranks.js";
import { Chunk, GoldenQuestion } from "./schema/golden.js";
import { fastChunk, fastGoldenQuestion } from "./schema/golden.fast.js";
import { PipelineOutput } from "./schema/pipeline.js";
import { fastPipelineOutput } from "./schema/pipeline.fast.js";
import type { StageRoles, VariantConfig } from "./schema/config.js";

// Relevant sets are computed in relevance.ts, which keeps them per chunk index; re-exported where the loaders are.
export { relevantSets } from "./relevance.js";

/** The golden set, in file order, with each question's line for messages. */
export interface GoldenSet {
  file: string;
  questions: GoldenQuestion[];
  byId: Map<string, GoldenQuestion>;
  lineOf: Map<string, number>;
}

/** One variant's inputs, loaded and cross-checked against the golden set. */
export interface VariantData {
  name: string;
  outputFile: string;
  /** The chunks file; undefined when every passage was given as text in the output. */
  chunksFile: string | undefined;
  /** The chunks file's chunks plus the passages the output gave as text. */
  chunks: ChunkIndex;
  /** Pipeline output lines by question id; a question without a line is missing. */
  outputs: Map<string, PipelineOutput>;
  lineOf: Map<string, number>;
  contextK: number;
  stages: StageRoles;
  /** {@link LoadedOutput.idsKnown}: every chunk id of the lines is in `chunks` (which holds the file's chunks and may add passages given as text). */
  idsKnown?: true;
}

const q = JSON.stringify;

/**
 * The first row of each id, in file order; every later row with the same id
 * becomes a problem at its own line (`duplicate question id "q1" (first on
 * line 3)`). `what` words the message for one id. Shared by the loaders and
 * `validate`, so both word duplicates alike. `seen` (id -> first line) carries
 * over between calls, for rows that come a block at a time.
 */
export function firstById<T extends { id: string }>(rows: readonly Located<T>[], file: string, what: (id: string) => string, problems: InputError[], seen = new Map<string, number>()): Located<T>[] {
  const out: Located<T>[] = [];
  for (const r of rows) {
    const first = seen.get(r.value.id);
    if (first !== undefined) {
      problems.push(new InputError(file, r.line, "id", `${what(r.value.id)} (first on line ${first})`));
      continue;
    }
    seen.set(r.value.id, r.line);
    out.push(r);
  }
  return out;
}

/** Duplicate-id wording per file kind. */
export const DUPLICATE = {
  question: (id: string) => `duplicate question id ${q(id)}`,
  chunk: (id: string) => `duplicate chunk id ${q(id)}`,
  output: (id: string) => `duplicate output for question ${q(id)}`,
} as const;

/**
 * A chunk id listed twice in one ranked list is a problem at `field[i]`, the
 * second occurrence (trec_eval refuses duplicate documents too).
 */
export function duplicatesInList(list: readonly string[], where: { file: string; line: number; field: string }, problems: InputError[], unique: (list: readonly string[]) => boolean = hasNoDuplicate): void {
  if (unique(list)) return;
  const seen = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    const id = list[i]!;
    if (seen.has(id)) problems.push(new InputError(where.file, where.line, `${where.field}[${i}]`, `chunk id ${q(id)} appears twice in the ranked list`));
    seen.add(id);
  }
}

/**
 * Whether no id is in `list` twice. Nearly every list has none: one Set built
 * from the whole list answers that (0.3 s against 0.4 s for a check per id
 * over 50,000 lists of 100); only a list that fails it is walked for its report.
 */
function hasNoDuplicate(list: readonly string[]): boolean {
  return new Set(list).size === list.length;
}

/** The ranked lists of one output line with their field names: `retrieved`, then `stages.<name>`. */
export function rankedLists(out: Pick<PipelineOutput, "retrieved" | "stages">): [string, readonly string[]][] {
  return [["retrieved", out.retrieved], ...Object.entries(out.stages ?? {}).map(([name, list]): [string, readonly string[]] => [`stages.${name}`, list])];
}

/** Loads a golden set; duplicate question ids are errors. */
export function loadGolden(file: string): GoldenSet {
  const problems: InputError[] = [];
  const rows = firstById(loadJsonl(file, GoldenQuestion, fastGoldenQuestion), file, DUPLICATE.question, problems);
  if (problems.length) throw new InputErrors(problems);
  const questions = rows.map((r) => r.value);
  return { file, questions, byId: new Map(questions.map((x) => [x.id, x])), lineOf: new Map(rows.map((r) => [r.value.id, r.line])) };
}

/**
 * Loads a chunks file; duplicate chunk ids are errors (worded as
 * {@link firstById} words them). The index's id map doubles as the
 * duplicate check: a chunks file of 500,000 lines gets one map, not two.
 *
 * A file of READ_BACK_MIN_BYTES or more gives chunks that read their text
 * and heading back from the file when asked (chunk-text.ts): reading
 * `chunk.text` or `JSON.stringify(chunk)` gives what a parsed chunk has, but
 * `{ ...chunk }` copies only its id, document and meta. A caller that
 * copies chunks that way passes `{ readBackFrom: Infinity }`.
 */
export function loadChunks(file: string, { readBackFrom = READ_BACK_MIN_BYTES, keepText }: ChunkLoadOptions = {}): ChunkIndex {
  const indexer = chunkIndexer();
  const problems = streamJsonl(file, Chunk, fastChunk, (rows) => {
    for (const r of rows) indexer.add(r.value);
  }, { place: readingBack(file, readBackFrom, keepText) });
  if (problems.length) throw new InputErrors(problems);
  // The lines of a duplicate are found by reading the file again: only a file with one pays for it.
  if (indexer.index.byId.size < indexer.count) throw new InputErrors(duplicateRows(loadJsonl(file, Chunk, fastChunk), file, DUPLICATE.chunk));
  return indexer.index;
}

/** What a chunks load keeps of each chunk: the parsed chunk, or one that reads its text back (chunk-text.ts) from `source` (made before the load). */
export function readingBack(file: string, readBackFrom: number, keepText: ((chunk: Chunk) => boolean) | undefined, source = ChunkTextSource.before(file)): Place<Chunk> | undefined {
  if (keepText === everyText || !sizeAtLeast(file, readBackFrom)) return undefined;
  // a document's chunks are consecutive lines: they share one string of its id
  let doc = "";
  return (c, line, bytes) => {
    if (!bytes || keepText?.(c)) return c;
    if (c.doc !== doc) doc = c.doc;
    return new ChunkReadingBack(c.id, doc, c.heading !== undefined, c.meta, source, line, bytes.start, bytes.end);
  };
}

/** How {@link loadChunks} keeps the chunks' texts. */
export interface ChunkLoadOptions {
  /** Files of at least this many bytes read their texts back when asked ({@link READ_BACK_MIN_BYTES}); smaller ones keep them. */
  readBackFrom?: number;
  /** Chunks whose text is kept from the load whatever the file's size: those surely read ({@link textsWanted}). */
  keepText?: (chunk: Chunk) => boolean;
}

/** A `keepText` that keeps every text: nothing is read back. */
export const everyText = (): boolean => true;

/**
 * The chunks whose texts an evaluation surely reads, to keep from the load
 * rather than read back one by one: the chunks of the documents its anchors
 * name (the anchor check rebuilds those documents) and its listed relevant
 * chunks (the miss analysis reads them); `all` when some question has
 * `relevantText`, which compares every chunk's text. Plain data, so that a
 * worker thread loading part of the file can be given it.
 */
export type WantedTexts = { all: true } | { all: false; docs: string[]; ids: string[] };

/** The {@link WantedTexts} of a golden set's questions. */
export function wantedTexts(golden: Pick<GoldenSet, "questions">): WantedTexts {
  const docs = new Set<string>();
  const ids = new Set<string>();
  for (const q of golden.questions) {
    if (q.relevantText?.length) return { all: true };
    if (q.anchor) docs.add(q.anchor.doc);
    for (const id of q.relevant ?? []) ids.add(id);
  }
  return { all: false, docs: [...docs], ids: [...ids] };
}

/** {@link wantedTexts} as the `keepText` of {@link loadChunks}. */
export function keepTextOf(wanted: WantedTexts): (chunk: Chunk) => boolean {
  if (wanted.all) return everyText;
  const docs = new Set(wanted.docs);
  const ids = new Set(wanted.ids);
  return (c) => docs.has(c.doc) || ids.has(c.id);
}

/** The `keepText` of an evaluation of `golden` ({@link wantedTexts}). */
export function textsWanted(golden: Pick<GoldenSet, "questions">): (chunk: Chunk) => boolean {
  return keepTextOf(wantedTexts(golden));
}

/**
 * Chunks files of at least this many bytes keep their chunks' texts in the
 * file and read them back when asked (chunk-text.ts): below it, the texts
 * cost less than reading them back would.
 */
export const READ_BACK_MIN_BYTES = 8 << 20;

function sizeAtLeast(file: string, bytes: number): boolean {
  try {
    return statSync(file).size >= bytes;
  } catch {
    return false;
  }
}

/** The problems {@link firstById} reports for `rows` (called once duplicates are known to exist). */
function duplicateRows<T extends { id: string }>(rows: readonly Located<T>[], file: string, what: (id: string) => string): InputError[] {
  const problems: InputError[] = [];
  firstById(rows, file, what, problems);
  return problems;
}

/** A pipeline output file's lines by question id, and the line each came from. */
export interface LoadedOutput {
  outputs: Map<string, PipelineOutput>;
  lineOf: Map<string, number>;
  /** Set when the load checked every chunk id of its lines (retrieved, stages, context) against the chunks file as the lines came in (load-parallel.ts) and found each. */
  idsKnown?: true;
}

/** What loading a pipeline output needs of the golden set: its file (for messages) and which question ids it has. */
export interface QuestionIds {
  file: string;
  byId: { has(id: string): boolean; keys(): Iterable<string> };
}

/**
 * Loads one pipeline output file. Errors: a duplicate question id, a line for
 * a question the golden set lacks, a chunk id twice in one ranked list.
 */
export function loadPipelineOutput(file: string, golden: QuestionIds): LoadedOutput {
  const loaded: LoadedOutput = { outputs: new Map(), lineOf: new Map() };
  const problems = streamPipelineOutput(file, golden, (rows) => addOutputRows(loaded, rows));
  if (problems.length) throw new InputErrors(problems);
  adoptCheckedOutputs(loaded);
  return loaded;
}

/** Adds a block of {@link streamPipelineOutput}'s lines to a load's maps. */
export function addOutputRows(loaded: LoadedOutput, rows: readonly Located<PipelineOutput>[]): void {
  for (const { line, value } of rows) {
    loaded.outputs.set(value.id, value);
    loaded.lineOf.set(value.id, line);
  }
}

/**
 * {@link loadPipelineOutput} a block of lines at a time: `onRows` gets the
 * lines that pass its checks so far, in file order, and the problems come
 * back at the end (empty: every line was delivered and the file is good;
 * otherwise what was delivered is to be dropped). The problems are
 * loadPipelineOutput's, in its order: the file's parse problems alone when
 * it has any, else every other problem sorted by line. A worker thread posts
 * the blocks as they come (load-parallel.ts), so that it never holds the
 * whole file's lines. `retrievedUnique`, when given, is asked once per
 * delivered line, in order, whether its `retrieved` list is free of
 * duplicates (the worker numbers the list's ids as it answers:
 * ranked-codes.ts); a list it says no to is walked for the report as usual.
 */
export function streamPipelineOutput(file: string, golden: QuestionIds, onRows: (rows: Located<PipelineOutput>[]) => void, retrievedUnique?: (list: readonly string[]) => boolean): InputError[] {
  const problems: InputError[] = [];
  // the first line of each question id, across blocks
  const seen = new Map<string, number>();
  const unknown = new UnknownQuestions(() => golden.byId.keys(), golden.file);
  const parseProblems = streamJsonl(file, PipelineOutput, fastPipelineOutput, (rows) => {
    const good: Located<PipelineOutput>[] = [];
    for (const row of firstById(rows, file, DUPLICATE.output, problems, seen)) {
      const { line, value } = row;
      if (!golden.byId.has(value.id)) {
        problems.push(new InputError(file, line, "id", unknown.message(value.id)));
        continue;
      }
      for (const [field, list] of rankedLists(value)) duplicatesInList(list, { file, line, field }, problems, field === "retrieved" ? retrievedUnique : undefined);
      good.push(row);
    }
    if (good.length) onRows(good);
  });
  if (parseProblems.length) return parseProblems;
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

/** `retrieved` lists the loader found free of duplicate ids (see {@link isCheckedUnique}). */
const UNIQUE = new WeakSet<readonly unknown[]>();

/**
 * Marks the `retrieved` lists of a successful {@link streamPipelineOutput}
 * load as checked: it found no id twice in any of them. Called by
 * loadPipelineOutput, and for a load another thread made (load-parallel.ts),
 * whose marks stay in its thread.
 */
export function adoptCheckedOutputs(loaded: LoadedOutput): void {
  for (const out of loaded.outputs.values()) {
    UNIQUE.add(out.retrieved);
    markReadOnly(out.retrieved); // read, never changed: its relevant ranks may be remembered (relevant-ranks.ts)
  }
}

/**
 * Whether {@link loadPipelineOutput} checked this `retrieved` list and found
 * no id twice: scoring need not check it again (a list changed since is the
 * caller's to check, as for any list it builds itself).
 */
export function isCheckedUnique(list: readonly unknown[]): boolean {
  return UNIQUE.has(list);
}

/**
 * Loads a variant's chunks and pipeline output. Passages the output gives as
 * text join the chunk index under their derived ids, so a variant whose
 * passages are all text needs no chunks file. `loaded` holds the indexes
 * already read, by chunks file, for the variants of one evaluation
 * ({@link loadVariants}).
 */
export function loadVariant(v: VariantConfig, golden: GoldenSet, path: (p: string) => string = (p) => p, loaded?: Map<string, ChunkIndex>): VariantData {
  const files = variantChunks(v, path, loaded, textsWanted(golden));
  return joinVariant(v, files, loadPipelineOutput(files.outputFile, golden));
}

/** A variant's files and chunk index, as {@link loadVariant} reads them before its pipeline output. */
export interface VariantChunks {
  chunksFile: string | undefined;
  outputFile: string;
  chunks: ChunkIndex;
  /** The index is in `loaded`, shared with other variants: passages go into a copy. */
  shared: boolean;
}

/** The first half of {@link loadVariant}: the variant's paths and its chunks file's index (read, or taken from `loaded`). */
export function variantChunks(v: VariantConfig, path: (p: string) => string, loaded?: Map<string, ChunkIndex>, keepText?: (chunk: Chunk) => boolean): VariantChunks {
  const chunksFile = v.chunks === undefined ? undefined : path(v.chunks);
  const shared = chunksFile !== undefined && loaded !== undefined;
  const chunks = chunksFile === undefined ? indexChunks([]) : loaded?.get(chunksFile) ?? loadChunks(chunksFile, keepText ? { keepText } : {});
  if (shared) loaded!.set(chunksFile!, chunks);
  return { chunksFile, outputFile: path(v.output), chunks, shared };
}

/** The second half of {@link loadVariant}: the loaded output joined to the chunk index, passages given as text added to it (to a copy of a shared one). */
export function joinVariant(v: VariantConfig, files: VariantChunks, { outputs, lineOf, idsKnown }: LoadedOutput): VariantData {
  let chunks = files.chunks;
  const withText = [...outputs.values()].filter((out) => out.passages);
  // passages given as text join this variant's index only: the shared one stays as the file has it
  if (files.shared && withText.length) chunks = copyIndex(chunks);
  for (const out of withText) addPassages(chunks, out.passages!);
  return { name: v.name, outputFile: files.outputFile, chunksFile: files.chunksFile, chunks, outputs, lineOf, contextK: v.contextK, stages: v.stages, ...(idsKnown ? { idsKnown } : {}) };
}

/**
 * {@link loadVariant} for the variants of one evaluation: a chunks file
 * several variants name is read once and its index shared (two variants
 * over one 100,000-chunk file read it once, not twice); a variant whose
 * output gives passages as text gets its own copy to add them to.
 *
 * The pipeline outputs are read first, so that a large chunks file keeps
 * from its load the texts of every chunk given to the generator or cited
 * (a judge reads each of them: read back one at a time they cost 0.25 s of
 * an 80,000-verdict cached rerun). The first error is still loadVariant's:
 * a variant's chunks file's problems before its output's, variant by
 * variant.
 */
export function loadVariants(vs: readonly VariantConfig[], golden: GoldenSet, path: (p: string) => string = (p) => p): VariantData[] {
  const outputs = vs.map((v): { loaded: LoadedOutput } | { error: unknown } => {
    try {
      return { loaded: loadPipelineOutput(path(v.output), golden) };
    } catch (e) {
      return { error: e };
    }
  });
  const given = new Set<string>();
  vs.forEach((v, i) => {
    const o = outputs[i]!;
    if ("loaded" in o) for (const out of o.loaded.outputs.values()) addEvidenceIds(out, v.contextK, given);
  });
  const wanted = textsWanted(golden);
  const keepText = given.size ? (c: Chunk) => given.has(c.id) || wanted(c) : wanted;
  const loaded = new Map<string, ChunkIndex>();
  return vs.map((v, i) => {
    const files = variantChunks(v, path, loaded, keepText);
    const o = outputs[i]!;
    if ("error" in o) throw o.error;
    return joinVariant(v, files, o.loaded);
  });
}

/** Adds the ids of the chunks an output line gave its generator and cites to `ids`. */
function addEvidenceIds(out: PipelineOutput, contextK: number, ids: Set<string>): void {
  for (const id of contextOf(out, contextK)) ids.add(id);
  for (const c of out.citations ?? []) for (const id of c.chunks) ids.add(id);
}

/** The chunk ids given to the generator: `context`, else the top k of `retrieved`. */
export function contextOf(out: PipelineOutput, contextK: number): string[] {
  return out.context ?? out.retrieved.slice(0, contextK);
}


/** Variant name from a pipeline output file name: `runs/bm25.output.jsonl` -> `bm25`. */
export function variantNameFromFile(file: string): string {
  return basename(file).replace(/\.jsonl$/i, "").replace(/\.(output|outputs|run)$/i, "") || "variant";
}
