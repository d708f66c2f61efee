import { join } from "node:path";
import { loadGolden, type GoldenSet } from "../../src/golden/dataset.js";
import { InputError, InputErrors } from "../../src/golden/errors.js";
import { countOccurrences } from "../../src/golden/normalise.js";
import { anchorChunks, indexChunks } from "../../src/golden/relevance.js";
import { loadAnswers, type AnswerLine } from "./answers.js";
import { loadCorpus, type Doc } from "./corpus.js";
import { buildPipeline, CONTEXT_K, VARIANTS } from "./pipeline.js";
import { renderPlanted } from "./planted.js";

/** Files produced by the build, by path relative to the output folder, in a fixed order. */
export type BuildFiles = Map<string, string>;

/** Words of an anchor as seed 000 counts them (white-space separated). */
export function anchorWords(text: string): number {
  return text.trim().split(/\s+/u).length;
}

/**
 * Checks each answerable question's anchor: its document exists, it has
 * 6 to 20 words, and it occurs exactly once in the document (after
 * normalise()). Every problem is reported with the golden file's line.
 */
export function checkAnchors(golden: GoldenSet, docs: readonly Doc[]): void {
  const byId = new Map(docs.map((d) => [d.id, d]));
  const problems: InputError[] = [];
  for (const q of golden.questions) {
    if (!q.anchor) continue;
    const line = golden.lineOf.get(q.id);
    const doc = byId.get(q.anchor.doc);
    if (!doc) {
      problems.push(new InputError(golden.file, line, "anchor.doc", `no corpus document ${JSON.stringify(q.anchor.doc)}`));
      continue;
    }
    const words = anchorWords(q.anchor.text);
    if (words < 6 || words > 20) problems.push(new InputError(golden.file, line, "anchor.text", `has ${words} words; an anchor needs 6 to 20`));
    const n = countOccurrences(doc.text, q.anchor.text);
    if (n !== 1) problems.push(new InputError(golden.file, line, "anchor.text", `occurs ${n} times in ${doc.id}; it must occur exactly once`));
  }
  if (problems.length) throw new InputErrors(problems);
}

function jsonl(rows: readonly unknown[]): string {
  return rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

/**
 * Builds the shipped example from `root` (`corpus/`, `questions.jsonl`,
 * `answers/<variant>.jsonl`): for each variant its chunks and its pipeline
 * output, with the hand-written answers merged in, plus the planted-failure
 * key. Pure apart from reading `root`: the same inputs give the same bytes.
 *
 * Produced paths: `variants/<variant>/chunks.jsonl`,
 * `variants/<variant>/output.jsonl`, `answers/PLANTED.md` (only when every
 * variant has its answers file).
 */
export function buildExample(root: string): BuildFiles {
  const docs = loadCorpus(join(root, "corpus"));
  const golden = loadGolden(join(root, "questions.jsonl"));
  checkAnchors(golden, docs);
  const files: BuildFiles = new Map();
  const allAnswers: Array<{ variant: string; lines: Map<string, AnswerLine> }> = [];
  const problems: InputError[] = [];
  for (const spec of VARIANTS) {
    const pipeline = buildPipeline(spec, docs);
    const index = indexChunks(pipeline.chunks);
    for (const q of golden.questions) {
      if (q.anchor && anchorChunks(q.anchor, index).length === 0) {
        problems.push(new InputError(golden.file, golden.lineOf.get(q.id), "anchor.text", `lies whole inside no chunk of variant ${spec.name}; shorten it to one sentence`));
      }
    }
    const results = golden.questions.map((q) => ({ q, r: pipeline.retrieve(q.question) }));
    const contexts = new Map(results.map(({ q, r }) => [q.id, r.retrieved.slice(0, CONTEXT_K).map((e) => e.id)]));
    const answersFile = join(root, "answers", `${spec.name}.jsonl`);
    let answers: Map<string, AnswerLine> | undefined;
    try {
      answers = loadAnswers(answersFile, contexts);
    } catch (e) {
      if (e instanceof InputErrors) problems.push(...e.problems);
      else throw e;
    }
    if (answers) allAnswers.push({ variant: spec.name, lines: answers });
    const lines = results.map(({ q, r }) => {
      const line: Record<string, unknown> = { id: q.id, retrieved: r.retrieved, context: contexts.get(q.id), stages: r.stages };
      const a = answers?.get(q.id);
      if (a) line.answer = a.answer;
      return line;
    });
    files.set(`variants/${spec.name}/chunks.jsonl`, jsonl(pipeline.chunks));
    files.set(`variants/${spec.name}/output.jsonl`, jsonl(lines));
  }
  if (problems.length) throw new InputErrors(problems);
  if (allAnswers.length === VARIANTS.length) files.set("answers/PLANTED.md", renderPlanted(golden.questions, allAnswers) + "\n");
  return files;
}
