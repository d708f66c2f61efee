import { InputError, InputErrors } from "../../golden/errors.js";
import type { GoldenSet } from "../../golden/dataset.js";
import { relevantSet, type ChunkIndex } from "../../golden/relevance.js";
import type { PipelineOutput } from "../../golden/schema/pipeline.js";

/**
 * The docno written for an answerable question whose relevant set is empty
 * for this chunks file, judged non-relevant, so that the query stays in the
 * qrels and trec_eval -c scores it 0 as ragjudge does.
 */
export const NO_RELEVANT_PLACEHOLDER = "ragjudge:no-relevant-chunk";

const SPACE = /\s/u;

function checkId(id: string, problems: InputError[], file: string, line: number | undefined, field: string): void {
  if (SPACE.test(id)) problems.push(new InputError(file, line, field, `${JSON.stringify(id)} contains white space, which a TREC file cannot hold`));
}

/**
 * Writes pipeline outputs as a TREC run: one line per retrieved chunk,
 * `qid Q0 chunk rank score tag`, where the score is the list length minus
 * the index, so scores strictly decrease and trec_eval ranks the chunks in
 * exactly the list's order (the pipeline's own scores may tie or be absent).
 * Ids with white space cannot be written and are errors.
 *
 * @example
 * pipelineToRun(new Map([["q1", { id: "q1", retrieved: ["a", "b"] }]]), "bm25")
 * // "q1 Q0 a 1 2 bm25\nq1 Q0 b 2 1 bm25\n"
 */
export function pipelineToRun(
  outputs: ReadonlyMap<string, Pick<PipelineOutput, "id" | "retrieved">>,
  tag: string,
  where: { file: string; lineOf?: ReadonlyMap<string, number> } = { file: "(pipeline output)" },
): string {
  const problems: InputError[] = [];
  const runTag = tag.replace(/\s+/gu, "_") || "ragjudge";
  const parts: string[] = [];
  for (const [qid, out] of outputs) {
    const line = where.lineOf?.get(qid);
    checkId(qid, problems, where.file, line, "id");
    const n = out.retrieved.length;
    out.retrieved.forEach((id, i) => {
      checkId(id, problems, where.file, line, `retrieved[${i}]`);
      parts.push(`${qid} Q0 ${id} ${i + 1} ${n - i} ${runTag}\n`);
    });
  }
  if (problems.length) throw new InputErrors(problems);
  return parts.join("");
}

/**
 * Writes a golden set's relevance for one chunks file as TREC qrels: each
 * answerable question's relevant chunks (listed ids and chunks containing its
 * anchor) with grade 1. Unanswerable questions are left out, as retrieval
 * means leave them out; an answerable question with no relevant chunk gets
 * one grade-0 line for {@link NO_RELEVANT_PLACEHOLDER} so that it still counts.
 *
 * @example
 * goldenToQrels(golden, chunks) // "q01 0 hr-leave#1 1\n..."
 */
export function goldenToQrels(golden: GoldenSet, chunks: ChunkIndex): string {
  const problems: InputError[] = [];
  const parts: string[] = [];
  for (const q of golden.questions) {
    if (!q.answerable) continue;
    const line = golden.lineOf.get(q.id);
    checkId(q.id, problems, golden.file, line, "id");
    const rel = [...relevantSet(q, chunks)];
    if (rel.length === 0) parts.push(`${q.id} 0 ${NO_RELEVANT_PLACEHOLDER} 0\n`);
    for (const id of rel) {
      checkId(id, problems, golden.file, line, "relevant");
      parts.push(`${q.id} 0 ${id} 1\n`);
    }
  }
  if (problems.length) throw new InputErrors(problems);
  return parts.join("");
}
