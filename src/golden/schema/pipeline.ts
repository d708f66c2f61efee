import { z } from "zod";
import { Id, Meta } from "./common.js";

/** A ranked entry: a bare chunk id, or `{id, score}`. Normalised to the object form. */
export const RankedEntry = z
  .union([Id, z.strictObject({ id: Id, score: z.number().finite().optional() })])
  .transform((e) => (typeof e === "string" ? { id: e } : e));
export type RankedEntry = { id: string; score?: number | undefined };

/** A ranked list: its array order is its ranking (rank 1 first). */
export const RankedList = z.array(RankedEntry);

/** One sentence of the answer with the chunks it cites. */
export const Citation = z.strictObject({
  sentence: z.string().min(1, "must not be empty"),
  chunks: z.array(Id),
});
export type Citation = z.infer<typeof Citation>;

/**
 * What one pipeline variant produced for one golden question (one line of a
 * pipeline output JSONL; one file per variant).
 *
 * - `retrieved`: the final ranking; its order is its ranking.
 * - `context`: chunk ids actually given to the generator; defaults to the
 *   top k of `retrieved` (k from the config or `--context-k`).
 * - `stages`: optional named ranked lists (first-stage lists, fused pool,
 *   reranked list); which stage plays which role is declared in the config or
 *   by flags, never inferred from the names.
 * - `citations`: explicit `[{sentence, chunks}]`; when absent, inline markers in
 *   the answer are read: `[chunk-id]`, or `[n]` counting from 1 into `context`.
 *
 * @example
 * {"id":"q01","retrieved":[{"id":"hr-leave#1","score":12.3},"hr-leave#0"],"context":["hr-leave#1","hr-leave#0"],
 *  "answer":"No, unused casual leave lapses at the end of the year [1].","stages":{"bm25":["hr-leave#1","hr-leave#0"]}}
 */
export const PipelineOutput = z.strictObject({
  id: Id,
  retrieved: RankedList,
  context: z.array(Id).optional(),
  stages: z.record(z.string().min(1), RankedList).optional(),
  answer: z.string().optional(),
  citations: z.array(Citation).optional(),
  meta: Meta,
});
export type PipelineOutput = z.infer<typeof PipelineOutput>;
