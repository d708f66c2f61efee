import type { z } from "zod";
import { readCitations } from "./citations.js";
import { DUPLICATE, contextOf, duplicatesInList, firstById, rankedLists } from "./dataset.js";
import { InputError, InputErrors } from "./errors.js";
import { readText } from "./files.js";
import { keepForNextLoad, parseJsonl, type Located } from "./jsonl.js";
import { countOccurrences } from "./normalise.js";
import { anchorChunks, indexChunks, type ChunkIndex } from "./relevance.js";
import type { FastCheck } from "./schema/fast.js";
import { Chunk, GoldenQuestion } from "./schema/golden.js";
import { fastChunk, fastGoldenQuestion } from "./schema/golden.fast.js";
import type { StageRoles } from "./schema/config.js";
import { PipelineOutput } from "./schema/pipeline.js";
import { fastPipelineOutput } from "./schema/pipeline.fast.js";
import { missingStages } from "./stages.js";

/** What `ragjudge validate` checks: a golden set and each variant's chunks and pipeline output. */
export interface ValidateInputs {
  golden: string;
  /** `stages`: the roles the config declares; every output line must carry those lists. */
  variants: { name: string; chunks: string; output: string; contextK: number; stages?: StageRoles }[];
  /**
   * Citation problems (a marker naming no chunk, a chunk outside the context)
   * describe what the pipeline did rather than broken files; "warn" reports
   * them as warnings instead of problems. Default "error".
   */
  citations?: "error" | "warn";
  /**
   * Keep the chunks and outputs parsed here for the loaders that read them
   * next (`loadChunks`, `loadPipelineOutput`), which then read no file
   * twice: `ragjudge run` validates, then loads. Default false.
   */
  keepForLoad?: boolean;
}

/** Everything found, problems first; the inputs are valid when `problems` is empty. */
export interface ValidationReport {
  problems: InputError[];
  /** Citation problems when `citations: "warn"`. */
  warnings: InputError[];
  /** Facts worth knowing that are not errors (questions without an output line score 0). */
  notes: string[];
  questions: number;
  answerable: number;
  unanswerable: number;
  variants: { name: string; chunks: number; outputs: number; missing: number }[];
}

/**
 * Parses a JSONL file (with its schema's fast check), turning an unreadable
 * file into a problem instead of a throw; with `keep`, rows of a file
 * without problems are kept for the loader that reads it next.
 */
function parseFile<S extends z.ZodType>(file: string, schema: S, fast: FastCheck<z.infer<S>>, problems: InputError[], keep: number): Located<z.infer<S>>[] {
  const text = readOrReport(file, problems);
  if (text === undefined) return [];
  const before = problems.length;
  const rows = parseText(text, file, schema, problems, fast);
  if (keep > 0 && problems.length === before) keepForNextLoad(file, schema, rows, keep);
  return rows;
}

/** A file's text, or undefined with the reason added to `problems`. */
function readOrReport(file: string, problems: InputError[]): string | undefined {
  try {
    return readText(file);
  } catch (e) {
    if (e instanceof InputError) {
      problems.push(e);
      return undefined;
    }
    throw e;
  }
}

function parseText<S extends z.ZodType>(text: string, file: string, schema: S, problems: InputError[], fast?: FastCheck<z.infer<S>>): Located<z.infer<S>>[] {
  const parsed = parseJsonl(text, file, schema, fast);
  problems.push(...parsed.problems);
  return parsed.rows;
}

/**
 * Ids of the golden lines that failed validation but still name their
 * question (`"id"` is a string), or undefined when some failed line names
 * none: then an output line's id cannot be called unknown without risking a
 * false follow-on error for the same mistake.
 */
function idsOfFailedLines(text: string, failed: readonly InputError[]): string[] | undefined {
  const lines = text.split("\n");
  const ids: string[] = [];
  for (const line of new Set(failed.map((p) => p.line))) {
    if (line === undefined) return undefined;
    let raw: unknown;
    try {
      raw = JSON.parse(lines[line - 1]!);
    } catch {
      return undefined;
    }
    const id = raw !== null && typeof raw === "object" ? (raw as { id?: unknown }).id : undefined;
    if (typeof id !== "string") return undefined;
    ids.push(id);
  }
  return ids;
}

/** Longest suffix of `a` that is a prefix of `b` (prefix function of b + sep + tail of a). */
function overlap(a: string, b: string): number {
  const tail = a.slice(Math.max(0, a.length - b.length));
  const s = `${b}\u0000${tail}`;
  const pi = new Int32Array(s.length);
  for (let i = 1; i < s.length; i++) {
    let k = pi[i - 1]!;
    while (k > 0 && s[i] !== s[k]) k = pi[k - 1]!;
    if (s[i] === s[k]) k++;
    pi[i] = k;
  }
  return pi[s.length - 1]!;
}

/**
 * A document's text rebuilt from its chunks (normalised, in file order),
 * merging the overlap between consecutive chunks so that an anchor inside an
 * overlap is not counted twice. Chunks are all ragjudge sees of a document.
 */
export function documentText(index: ChunkIndex, doc: string): string {
  let text = "";
  for (const { norm } of index.byDoc.get(doc) ?? []) {
    if (text === "") text = norm;
    else {
      const k = overlap(text, norm);
      text = k > 0 ? text + norm.slice(k) : `${text} ${norm}`;
    }
  }
  return text;
}

const q = JSON.stringify;

/**
 * Checks a golden set, chunks files and pipeline outputs together and
 * reports every problem at once, each located at file, line and field:
 * malformed lines, duplicate ids, unknown chunk ids (in `relevant`,
 * `retrieved`, `stages`, `context` and citations), an answerable question
 * with neither relevant ids nor an anchor, an anchor that lies whole inside no
 * chunk or occurs more than once in its document, an unanswerable question
 * with relevant chunks or an anchor, a chunk id twice in one ranked list, an
 * output line for a question the golden set lacks, an output line without a
 * stage list its variant declares, and a citation of a chunk outside the
 * context given to the generator.
 *
 * @example
 * const report = validateInputs({ golden: "golden/questions.jsonl", variants: [{ name: "bm25", chunks: "c.jsonl", output: "o.jsonl", contextK: 5 }] });
 * if (report.problems.length) for (const p of report.problems) console.error(p.message);
 */
export function validateInputs(inputs: ValidateInputs): ValidationReport {
  const problems: InputError[] = [];
  const warnings: InputError[] = [];
  const notes: string[] = [];
  const goldenText = readOrReport(inputs.golden, problems);
  const goldenProblems: InputError[] = [];
  const parsedGolden = goldenText === undefined ? [] : parseText(goldenText, inputs.golden, GoldenQuestion, goldenProblems, fastGoldenQuestion);
  if (inputs.keepForLoad && goldenText !== undefined && goldenProblems.length === 0) keepForNextLoad(inputs.golden, GoldenQuestion, parsedGolden);
  problems.push(...goldenProblems);
  const goldenRows = firstById(parsedGolden, inputs.golden, DUPLICATE.question, problems);
  const goldenIds = new Set(goldenRows.map((r) => r.value.id));
  // A golden line that failed validation still names its question when its id is readable; otherwise
  // output lines are not checked against the golden set (that would repeat the same mistake as a second error).
  const failedIds = goldenText === undefined ? undefined : idsOfFailedLines(goldenText, goldenProblems);
  for (const id of failedIds ?? []) goldenIds.add(id);
  const goldenComplete = failedIds !== undefined;

  // Each distinct chunks file once, with golden relevance checked against it.
  const chunkIndexes = new Map<string, ChunkIndex>();
  for (const v of inputs.variants) {
    if (chunkIndexes.has(v.chunks)) continue;
    const rows = firstById(parseFile(v.chunks, Chunk, fastChunk, problems, inputs.keepForLoad ? inputs.variants.filter((x) => x.chunks === v.chunks).length : 0), v.chunks, DUPLICATE.chunk, problems);
    const index = indexChunks(rows.map((r) => r.value));
    chunkIndexes.set(v.chunks, index);
    if (rows.length === 0) continue;
    const docs = new Map<string, string>();
    for (const { line, value: gq } of goldenRows) {
      if (!gq.answerable) continue;
      (gq.relevant ?? []).forEach((id, i) => {
        if (!index.byId.has(id)) problems.push(new InputError(inputs.golden, line, `relevant[${i}]`, `chunk id ${q(id)} is not in the chunks file ${v.chunks}`));
      });
      const a = gq.anchor;
      if (!a) continue;
      if (!index.byDoc.has(a.doc)) {
        problems.push(new InputError(inputs.golden, line, "anchor.doc", `document ${q(a.doc)} has no chunk in ${v.chunks}`));
        continue;
      }
      if (anchorChunks(a, index).length === 0) {
        problems.push(new InputError(inputs.golden, line, "anchor.text", `lies whole inside no chunk of document ${q(a.doc)} in ${v.chunks} (not verbatim, or split by a chunk boundary), so recall can never reach 1`));
      }
      let text = docs.get(a.doc);
      if (text === undefined) docs.set(a.doc, (text = documentText(index, a.doc)));
      const n = countOccurrences(text, a.text);
      if (n > 1) problems.push(new InputError(inputs.golden, line, "anchor.text", `occurs ${n} times in document ${q(a.doc)}; an anchor must occur exactly once, or it marks chunks that do not answer`));
    }
  }

  const variants: ValidationReport["variants"] = [];
  for (const v of inputs.variants) {
    const index = chunkIndexes.get(v.chunks)!;
    const known = (id: string) => index.byId.has(id);
    const rows = firstById(parseFile(v.output, PipelineOutput, fastPipelineOutput, problems, inputs.keepForLoad ? inputs.variants.filter((x) => x.output === v.output).length : 0), v.output, DUPLICATE.output, problems);
    const seenQ = new Set<string>();
    for (const { line, value: out } of rows) {
      if (goldenComplete && goldenRows.length > 0 && !goldenIds.has(out.id)) {
        problems.push(new InputError(v.output, line, "id", `question ${q(out.id)} is not in the golden set ${inputs.golden}`));
        continue;
      }
      seenQ.add(out.id);
      if (v.stages) problems.push(...missingStages(out, v.stages, { file: v.output, line, variant: v.name }));
      for (const [field, list] of rankedLists(out)) {
        duplicatesInList(list, { file: v.output, line, field }, problems);
        list.forEach((e, i) => {
          if (index.byId.size > 0 && !known(e.id)) problems.push(new InputError(v.output, line, `${field}[${i}]`, `unknown chunk id ${q(e.id)} (not in ${v.chunks})`));
        });
      }
      (out.context ?? []).forEach((id, i) => {
        if (index.byId.size > 0 && !known(id)) problems.push(new InputError(v.output, line, `context[${i}]`, `unknown chunk id ${q(id)} (not in ${v.chunks})`));
      });
      if (index.byId.size === 0) continue;
      const context = contextOf(out, v.contextK);
      const inContext = new Set(context);
      const field = out.citations ? "citations" : "answer";
      const citationProblems = inputs.citations === "warn" ? warnings : problems;
      for (const c of readCitations(out, context, known)) {
        for (const u of c.unresolved) {
          citationProblems.push(new InputError(v.output, line, field, `sentence ${c.sentenceIndex} cites ${q(u)}, which names no chunk${/^\d+$/.test(u) ? ` (the context has ${context.length})` : ` in ${v.chunks}`}`));
        }
        for (const id of c.chunks) {
          if (!inContext.has(id)) citationProblems.push(new InputError(v.output, line, field, `sentence ${c.sentenceIndex} cites chunk ${q(id)}, which is not in the context given to the generator`));
        }
      }
    }
    const missing = goldenRows.filter((r) => !seenQ.has(r.value.id)).length;
    if (missing > 0 && rows.length > 0) notes.push(`variant ${v.name}: ${missing} golden question${missing === 1 ? " has" : "s have"} no output line in ${v.output} (they score 0)`);
    variants.push({ name: v.name, chunks: index.byId.size, outputs: rows.length, missing });
  }
  const answerable = goldenRows.filter((r) => r.value.answerable).length;
  // one file at a time, in input order (golden, chunks, outputs), by line
  const fileOrder = [inputs.golden, ...inputs.variants.map((v) => v.chunks), ...inputs.variants.map((v) => v.output)];
  const rank = (f: string) => {
    const i = fileOrder.indexOf(f);
    return i < 0 ? fileOrder.length : i;
  };
  const byPlace = (a: InputError, b: InputError) => rank(a.file) - rank(b.file) || (a.line ?? 0) - (b.line ?? 0);
  problems.sort(byPlace);
  warnings.sort(byPlace);
  return { problems, warnings, notes, questions: goldenRows.length, answerable, unanswerable: goldenRows.length - answerable, variants };
}

/** Throws {@link InputErrors} when the report has problems (for callers that want to stop). */
export function assertValid(report: ValidationReport): void {
  if (report.problems.length) throw new InputErrors(report.problems);
}
