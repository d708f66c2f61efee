import { basename } from "node:path";
import { InputError, InputErrors } from "./errors.js";
import { loadJsonl, type Located } from "./jsonl.js";
import { indexChunks, relevantSet, type ChunkIndex } from "./relevance.js";
import { Chunk, GoldenQuestion } from "./schema/golden.js";
import { PipelineOutput } from "./schema/pipeline.js";
import type { StageRoles, VariantConfig } from "./schema/config.js";

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
  chunksFile: string;
  chunks: ChunkIndex;
  /** Pipeline output lines by question id; a question without a line is missing. */
  outputs: Map<string, PipelineOutput>;
  lineOf: Map<string, number>;
  contextK: number;
  stages: StageRoles;
}

/** Loads a golden set; duplicate question ids are errors. */
export function loadGolden(file: string): GoldenSet {
  const rows = loadJsonl(file, GoldenQuestion);
  const problems: InputError[] = [];
  const byId = new Map<string, GoldenQuestion>();
  const lineOf = new Map<string, number>();
  for (const { line, value } of rows) {
    const first = lineOf.get(value.id);
    if (first !== undefined) {
      problems.push(new InputError(file, line, "id", `duplicate question id ${JSON.stringify(value.id)} (first on line ${first})`));
      continue;
    }
    byId.set(value.id, value);
    lineOf.set(value.id, line);
  }
  if (problems.length) throw new InputErrors(problems);
  return { file, questions: [...byId.values()], byId, lineOf };
}

/** Loads a chunks file; duplicate chunk ids are errors. */
export function loadChunks(file: string): ChunkIndex {
  const rows = loadJsonl(file, Chunk);
  const problems: InputError[] = [];
  const seen = new Map<string, number>();
  for (const { line, value } of rows) {
    const first = seen.get(value.id);
    if (first !== undefined) problems.push(new InputError(file, line, "id", `duplicate chunk id ${JSON.stringify(value.id)} (first on line ${first})`));
    else seen.set(value.id, line);
  }
  if (problems.length) throw new InputErrors(problems);
  return indexChunks(rows.map((r) => r.value));
}

/** Reports a chunk id listed twice in one ranked list (trec_eval refuses these too). */
function duplicateInList(list: { id: string }[]): string | undefined {
  const seen = new Set<string>();
  for (const { id } of list) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

/**
 * Loads one pipeline output file. Errors: a duplicate question id, a line for
 * a question the golden set lacks, a chunk id twice in one ranked list.
 */
export function loadPipelineOutput(
  file: string,
  golden: GoldenSet,
): { outputs: Map<string, PipelineOutput>; lineOf: Map<string, number> } {
  const rows: Located<PipelineOutput>[] = loadJsonl(file, PipelineOutput);
  const problems: InputError[] = [];
  const outputs = new Map<string, PipelineOutput>();
  const lineOf = new Map<string, number>();
  for (const { line, value } of rows) {
    const first = lineOf.get(value.id);
    if (first !== undefined) {
      problems.push(new InputError(file, line, "id", `duplicate output for question ${JSON.stringify(value.id)} (first on line ${first})`));
      continue;
    }
    if (!golden.byId.has(value.id)) {
      problems.push(new InputError(file, line, "id", `question ${JSON.stringify(value.id)} is not in the golden set ${basename(golden.file)}`));
      continue;
    }
    const dup = duplicateInList(value.retrieved);
    if (dup) problems.push(new InputError(file, line, "retrieved", `chunk id ${JSON.stringify(dup)} appears twice in the ranked list`));
    for (const [name, list] of Object.entries(value.stages ?? {})) {
      const d = duplicateInList(list);
      if (d) problems.push(new InputError(file, line, `stages.${name}`, `chunk id ${JSON.stringify(d)} appears twice in the ranked list`));
    }
    outputs.set(value.id, value);
    lineOf.set(value.id, line);
  }
  if (problems.length) throw new InputErrors(problems);
  return { outputs, lineOf };
}

/** Loads a variant's chunks and pipeline output. */
export function loadVariant(v: VariantConfig, golden: GoldenSet, path: (p: string) => string = (p) => p): VariantData {
  const chunksFile = path(v.chunks);
  const outputFile = path(v.output);
  const chunks = loadChunks(chunksFile);
  const { outputs, lineOf } = loadPipelineOutput(outputFile, golden);
  return { name: v.name, outputFile, chunksFile, chunks, outputs, lineOf, contextK: v.contextK, stages: v.stages };
}

/** The chunk ids given to the generator: `context`, else the top k of `retrieved`. */
export function contextOf(out: PipelineOutput, contextK: number): string[] {
  return out.context ?? out.retrieved.slice(0, contextK).map((e) => e.id);
}

/** Relevant sets of every answerable question for one variant's chunks. */
export function relevantSets(golden: GoldenSet, chunks: ChunkIndex): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const q of golden.questions) if (q.answerable) out.set(q.id, relevantSet(q, chunks));
  return out;
}

/** Variant name from a pipeline output file name: `runs/bm25.output.jsonl` -> `bm25`. */
export function variantNameFromFile(file: string): string {
  return basename(file).replace(/\.jsonl$/i, "").replace(/\.(output|outputs|run)$/i, "") || "variant";
}
