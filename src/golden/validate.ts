import type { z } from "zod";
import { readCitations } from "./citations.js";
import { DUPLICATE, contextOf, duplicatesInList, firstById, rankedLists } from "./dataset.js";
import { UnfiledIds, unfiledRelevant, unknownIdMessage, unknownRelevantMessage, type ChunksFrom } from "./known-ids.js";
import { InputError, InputErrors } from "./errors.js";
import { UnknownQuestions } from "./unknown-question.js";
import { closestName } from "./field-names.js";
import { readText } from "./files.js";
import { keepForNextLoad, parseJsonl, type Located } from "./jsonl.js";
import { anchorChunkFindings, anchorWordFinding } from "./anchors.js";
import { documentLayout, type LayoutCache } from "./document.js";
import { addPassages, indexChunks, textChunks, type ChunkIndex } from "./relevance.js";
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
  variants: { name: string; chunks?: string | undefined; output: string; contextK: number; stages?: StageRoles }[];
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
  /**
   * The held-out split the trust gate counts (the config's `trust.heldout`):
   * a golden split that is nearly this name ("held-out", "HeldOut") is a
   * warning, since its questions would silently not count.
   */
  heldout?: string;
  /**
   * Where the user names a chunks file (`--chunks` with explicit inputs, or
   * the config), for the hint when a variant has none. Default "config".
   */
  chunksFrom?: ChunksFrom;
}

/** Everything found, problems first; the inputs are valid when `problems` is empty. */
export interface ValidationReport {
  problems: InputError[];
  /** Citation problems when `citations: "warn"`, and anchors a chunk boundary cuts (a fact about the chunker, not the golden set). */
  warnings: InputError[];
  /** Facts worth knowing that are not errors (questions without an output line score 0). */
  notes: string[];
  questions: number;
  answerable: number;
  unanswerable: number;
  /** `chunks`: the variant's chunks and passages; `passages`: how many of them the output gave as text. */
  variants: { name: string; chunks: number; passages: number; outputs: number; missing: number }[];
}

/**
 * One warning per split name that is nearly, but not exactly, the held-out
 * split's name, at the first question carrying it: those questions are not
 * counted by the trust gate, which would otherwise only say "too few labels".
 */
function nearHeldoutSplits(rows: readonly Located<GoldenQuestion>[], heldout: string, file: string): InputError[] {
  const seen = new Map<string, { line: number; n: number }>();
  for (const { line, value } of rows) {
    const split = value.split;
    if (split === undefined || split === heldout) continue;
    const s = seen.get(split);
    if (s) s.n++;
    else seen.set(split, { line, n: 1 });
  }
  const out: InputError[] = [];
  for (const [split, { line, n }] of seen) {
    if (closestName(split, [heldout]) === undefined) continue;
    const where = n === 1 ? "this question" : `its ${n} questions (the first is here)`;
    out.push(new InputError(file, line, "split", `"${split}" is not the held-out split "${heldout}" that the trust gate counts, so ${where} will not count toward trust; write "${heldout}", or set trust.heldout to "${split}" in the config if that is the name you mean`));
  }
  return out;
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

/**
 * A document's text rebuilt from its chunks (normalised, in file order),
 * merging the overlap between consecutive chunks so that an anchor inside an
 * overlap is not counted twice. Chunks are all ragjudge sees of a document.
 */
export function documentText(index: ChunkIndex, doc: string): string {
  return documentLayout(index, doc).text;
}

const q = JSON.stringify;

/** At most this many question ids are named in a note; the rest are counted. */
const IDS_NAMED = 5;

/** The first few ids, then how many more: a note says which questions, not only how many. */
function namedIds(ids: readonly string[]): string {
  const shown = ids.slice(0, IDS_NAMED).join(", ");
  return ids.length > IDS_NAMED ? `${shown} and ${ids.length - IDS_NAMED} more` : shown;
}

/**
 * The golden set's relevance checked against one chunks file: `relevant`
 * ids it lacks and anchors that break the anchor rule against its chunks
 * (src/golden/anchors.ts: problems, and a warning for an anchor a chunk
 * boundary cuts); `relevantText` passages that match no chunk (a note: they
 * count as relevant passages never retrieved). Passages given as text have
 * no such file: there is no corpus to check them against.
 */
function checkGoldenAgainstChunks(
  goldenRows: readonly Located<GoldenQuestion>[],
  index: ChunkIndex,
  golden: string,
  chunksFile: string,
  out: { problems: InputError[]; warnings: InputError[]; notes: string[] },
): void {
  const layouts: LayoutCache = new Map();
  const unmatched: string[] = [];
  for (const { line, value: gq } of goldenRows) {
    if (!gq.answerable) continue;
    (gq.relevant ?? []).forEach((id, i) => {
      if (!index.byId.has(id)) out.problems.push(new InputError(golden, line, `relevant[${i}]`, unknownRelevantMessage(id, chunksFile)));
    });
    if ((gq.relevantText ?? []).some((t) => textChunks(t, index).length === 0)) unmatched.push(gq.id);
    const a = gq.anchor;
    if (!a) continue;
    for (const f of anchorChunkFindings(a, index, chunksFile, layouts)) {
      (f.level === "error" ? out.problems : out.warnings).push(new InputError(golden, line, f.field, f.message));
    }
  }
  if (unmatched.length) out.notes.push(`${chunksFile}: a relevantText passage of ${unmatched.length} question${unmatched.length === 1 ? "" : "s"} (${unmatched.slice(0, 5).join(", ")}${unmatched.length > 5 ? ", ..." : ""}) matches no chunk: it counts as a relevant passage never retrieved`);
}

/**
 * Checks a golden set, chunks files and pipeline outputs together and
 * reports every problem at once, each located at file, line and field:
 * malformed lines, duplicate ids, unknown chunk ids (in `relevant`,
 * `retrieved`, `stages`, `context` and citations), an answerable question
 * with neither relevant ids nor an anchor, an anchor that breaks the anchor
 * rule (6 to 20 words, exactly once in its document: src/golden/anchors.ts;
 * one that a chunk boundary cuts is a warning), an unanswerable question
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

  for (const { line, value: gq } of goldenRows) {
    const words = gq.answerable && gq.anchor ? anchorWordFinding(gq.anchor.text) : undefined;
    if (words) problems.push(new InputError(inputs.golden, line, words.field, words.message));
  }
  if (inputs.heldout !== undefined) warnings.push(...nearHeldoutSplits(goldenRows, inputs.heldout, inputs.golden));

  // Each distinct chunks file once, with golden relevance checked against it (and kept for one load: loadVariants reads a shared file once).
  const chunkFiles = new Map<string, Chunk[]>();
  for (const v of inputs.variants) {
    if (v.chunks === undefined || chunkFiles.has(v.chunks)) continue;
    const rows = firstById(parseFile(v.chunks, Chunk, fastChunk, problems, inputs.keepForLoad ? 1 : 0), v.chunks, DUPLICATE.chunk, problems);
    chunkFiles.set(v.chunks, rows.map((r) => r.value));
    if (rows.length === 0) continue;
    checkGoldenAgainstChunks(goldenRows, indexChunks(rows.map((r) => r.value)), inputs.golden, v.chunks, { problems, warnings, notes });
  }

  const variants: ValidationReport["variants"] = [];
  for (const v of inputs.variants) {
    const rows = firstById(parseFile(v.output, PipelineOutput, fastPipelineOutput, problems, inputs.keepForLoad ? inputs.variants.filter((x) => x.output === v.output).length : 0), v.output, DUPLICATE.output, problems);
    // The chunks file's chunks plus the passages this variant's output gives as text.
    const fileChunks = v.chunks === undefined ? [] : chunkFiles.get(v.chunks) ?? [];
    const index = indexChunks(fileChunks);
    for (const { value } of rows) if (value.passages) addPassages(index, value.passages);
    // A chunks file that failed to load is reported once; its ids are not called unknown line by line.
    const checkIds = v.chunks === undefined || fileChunks.length > 0;
    const known = (id: string) => index.byId.has(id);
    // Each known id's number, and per number the last ranked list it was seen in: a list's duplicate check
    // without a Set of its own (20,000 lists of 100: 0.26 s of Sets, profiled).
    const numberOf = new Map<string, number>();
    for (const id of index.byId.keys()) numberOf.set(id, numberOf.size);
    const seenIn = new Int32Array(numberOf.size);
    let listNo = 0;
    const unknown = (id: string) => unknownIdMessage(id, v.chunks!);
    // With no chunks file every id not given as text is unknown for the same reason: one problem per file.
    const unfiled = v.chunks === undefined ? new UnfiledIds() : undefined;
    const unknownAt = (line: number, field: string, id: string, into: InputError[]) => {
      if (unfiled) unfiled.add(id, line);
      else into.push(new InputError(v.output, line, field, unknown(id)));
    };
    const seenQ = new Set<string>();
    const unknownQuestion = new UnknownQuestions(() => goldenIds, inputs.golden);
    for (const { line, value: out } of rows) {
      if (goldenComplete && goldenRows.length > 0 && !goldenIds.has(out.id)) {
        problems.push(new InputError(v.output, line, "id", unknownQuestion.message(out.id)));
        continue;
      }
      seenQ.add(out.id);
      if (v.stages) problems.push(...missingStages(out, v.stages, { file: v.output, line, variant: v.name }));
      for (const [field, list] of rankedLists(out)) {
        // one look-up per id answers both questions: is it known, and has this list had it already
        const stamp = ++listNo;
        let unique = true;
        const unknownIds: InputError[] = [];
        for (let i = 0; i < list.length; i++) {
          const n = numberOf.get(list[i]!);
          if (n === undefined) {
            unique = false; // an unknown id may be there twice: the full check below decides
            if (checkIds) unknownAt(line, `${field}[${i}]`, list[i]!, unknownIds);
          } else if (seenIn[n] === stamp) unique = false;
          else seenIn[n] = stamp;
        }
        if (!unique) duplicatesInList(list, { file: v.output, line, field }, problems);
        problems.push(...unknownIds);
      }
      (out.context ?? []).forEach((id, i) => {
        if (checkIds && !known(id)) unknownAt(line, `context[${i}]`, id, problems);
      });
      if (!checkIds || index.byId.size === 0) continue;
      const context = contextOf(out, v.contextK);
      const inContext = new Set(context);
      const field = out.citations ? "citations" : "answer";
      const citationProblems = inputs.citations === "warn" ? warnings : problems;
      for (const c of readCitations(out, context, known)) {
        for (const u of c.unresolved) {
          citationProblems.push(new InputError(v.output, line, field, `sentence ${c.sentenceIndex} cites ${q(u)}, which names no chunk${/^\d+$/.test(u) ? ` (the context has ${context.length})` : v.chunks === undefined ? "" : ` in ${v.chunks}`}`));
        }
        for (const id of c.chunks) {
          if (!inContext.has(id)) citationProblems.push(new InputError(v.output, line, field, `sentence ${c.sentenceIndex} cites chunk ${q(id)}, which is not in the context given to the generator`));
        }
      }
    }
    if (unfiled) {
      const from = inputs.chunksFrom ?? "config";
      const outputProblem = unfiled.problem(v.output, from);
      if (outputProblem) problems.push(outputProblem);
      // golden ids no passage given as text can have (a derived id no answer retrieved is a miss): once per golden set
      const relevantProblem = unfiledRelevant(goldenRows.map((r) => ({ line: r.line, question: r.value }))).problem(inputs.golden, from, from === "config" ? v.name : undefined);
      if (relevantProblem && !problems.some((p) => p.message === relevantProblem.message)) problems.push(relevantProblem);
    }
    const missingIds = goldenRows.filter((r) => !seenQ.has(r.value.id)).map((r) => r.value.id);
    const missing = missingIds.length;
    if (missing > 0 && rows.length > 0) notes.push(`variant ${v.name}: ${missing} golden question${missing === 1 ? " has" : "s have"} no output line in ${v.output} (${missing === 1 ? "it scores" : "they score"} 0): ${namedIds(missingIds)}`);
    variants.push({ name: v.name, chunks: index.byId.size, passages: index.passages.size, outputs: rows.length, missing });
  }
  const answerable = goldenRows.filter((r) => r.value.answerable).length;
  // one file at a time, in input order (golden, chunks, outputs), by line
  const fileOrder = [inputs.golden, ...inputs.variants.flatMap((v) => (v.chunks === undefined ? [] : [v.chunks])), ...inputs.variants.map((v) => v.output)];
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
