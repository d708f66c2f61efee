import { z } from "zod";
import { normalise } from "../normalise.js";
import { NO_DOC, passageId } from "../passages.js";
import { Id, Meta } from "./common.js";

/**
 * A passage given by its text instead of a chunk id: `{text, doc?, score?}`.
 * Its id is derived from the normalised text ({@link passageId}), so a
 * variant whose passages are all text needs no chunks file.
 */
export const TextPassage = z.strictObject({
  // White space alone would normalise to "", which every marked text "contains".
  text: z.string().refine((t) => normalise(t) !== "", "must not be empty or only white space"),
  doc: Id.optional(),
  score: z.number().finite().optional(),
});

/**
 * A ranked list after parsing: chunk ids in rank order (rank 1 first). Scores
 * are checked and dropped: every measure reads the order alone, as
 * trec_eval's do once it has sorted. Passages given as text become their
 * derived ids, their texts listed in the line's `passages`. Plain strings
 * keep a 50,000 x 100 run at one string per entry rather than a string and
 * an object.
 */
export type RankedList = string[];

const ENTRY_SHAPES = 'expected a chunk id, {"id", "score"?}, or a passage {"text", "doc"?, "score"?}';

/** A ranked entry: a bare chunk id, `{id, score}`, or a passage as text. Parsed to its chunk id ({@link withPassageIds}). */
export const RankedEntryInput = z.union([Id, z.strictObject({ id: Id, score: z.number().finite().optional() }), TextPassage], { error: ENTRY_SHAPES });

/** A ranked list as written: its array order is its ranking (rank 1 first). */
const RankedListInput = z.array(RankedEntryInput);

/** A context entry: a chunk id or a passage as text (no score: the context is a set given to the generator, in order). */
const ContextEntryInput = z.union([Id, TextPassage.omit({ score: true })], { error: 'expected a chunk id or a passage {"text", "doc"?}' });

/** One sentence of the answer with the chunks it cites. */
export const Citation = z.strictObject({
  sentence: z.string().min(1, "must not be empty"),
  chunks: z.array(Id),
});
export type Citation = z.infer<typeof Citation>;

/** A passage found in an output line, to add to the variant's chunk index. */
export interface LinePassage {
  id: string;
  doc: string;
  text: string;
}

type EntryInput = z.infer<typeof RankedEntryInput> | z.infer<typeof ContextEntryInput>;

/**
 * Two passages of one list with the same normalised text would be one id
 * twice: a problem at the second, naming the first (a chunk id twice is
 * caught by the loaders, after parsing, as for any id list).
 */
function sameTextTwice(list: readonly EntryInput[], field: string, ctx: z.core.$RefinementCtx): void {
  const seen = new Map<string, number>();
  list.forEach((e, i) => {
    if (typeof e === "string" || !("text" in e)) return;
    const norm = normalise(e.text);
    const first = seen.get(norm);
    if (first !== undefined) {
      ctx.addIssue({ code: "custom", path: [...field.split("."), i], message: `passage text identical to ${field}[${first}] after normalising: one text is one passage with one id (${passageId(e.text)}); drop the repeat` });
    } else seen.set(norm, i);
  });
}

/** The pipeline output line as written, before text passages get their ids. */
export const PipelineOutputLine = z
  .strictObject({
    id: Id,
    retrieved: RankedListInput,
    context: z.array(ContextEntryInput).optional(),
    stages: z.record(z.string().min(1), RankedListInput).optional(),
    answer: z.string().optional(),
    citations: z.array(Citation).optional(),
    /** The answer's claims as the pipeline states them, for claim-level faithfulness (config `faithfulnessUnit: "claim"`). */
    claims: z.array(z.string().min(1)).optional(),
    meta: Meta,
  })
  .superRefine((line, ctx) => {
    sameTextTwice(line.retrieved, "retrieved", ctx);
    if (line.context) sameTextTwice(line.context, "context", ctx);
    for (const [name, list] of Object.entries(line.stages ?? {})) sameTextTwice(list, `stages.${name}`, ctx);
  });

/**
 * Gives every text passage of a parsed line its derived id: ranked lists
 * keep `{id, score?, text, doc?}`, `context` becomes ids, and `passages`
 * lists each passage once (the first doc given wins) for the chunk index.
 * Exported so a fast path that validates lines without zod builds the same
 * value.
 */
export function withPassageIds(line: z.infer<typeof PipelineOutputLine>) {
  const passages = new Map<string, LinePassage>();
  /** The chunk id of a passage given as text, its text noted in `passages`. */
  const passage = (e: { text: string; doc?: string | undefined }): string => {
    const id = passageId(e.text);
    const known = passages.get(id);
    if (!known) passages.set(id, { id, doc: e.doc ?? NO_DOC, text: e.text });
    else if (known.doc === NO_DOC && e.doc !== undefined) known.doc = e.doc;
    return id;
  };
  // In place: the parsed arrays are this line's own (from JSON.parse or zod), and a run holds 50,000 x 100 entries; a bare id is left untouched.
  const list = (l: EntryInput[]): RankedList => {
    for (let i = 0; i < l.length; i++) {
      const e = l[i]!;
      if (typeof e !== "string") l[i] = "text" in e ? passage(e) : e.id;
    }
    return l as RankedList;
  };
  const retrieved = list(line.retrieved);
  const stages = line.stages === undefined ? undefined : Object.fromEntries(Object.entries(line.stages).map(([name, l]) => [name, list(l)]));
  const context = line.context === undefined ? undefined : list(line.context);
  const { retrieved: _r, stages: _s, context: _c, ...rest } = line;
  return {
    ...rest,
    retrieved,
    ...(context !== undefined ? { context } : {}),
    ...(stages !== undefined ? { stages } : {}),
    ...(passages.size ? { passages: [...passages.values()] } : {}),
  };
}

/**
 * What one pipeline variant produced for one golden question (one line of a
 * pipeline output JSONL; one file per variant).
 *
 * - `retrieved`: the final ranking; its order is its ranking. Each entry is a
 *   chunk id, `{id, score?}`, or a passage as text `{text, doc?, score?}`.
 * - `context`: the chunks actually given to the generator (ids or passages as
 *   text); defaults to the top k of `retrieved` (k from the config or
 *   `--context-k`).
 * - `stages`: optional named ranked lists (first-stage lists, fused pool,
 *   reranked list); which stage plays which role is declared in the config or
 *   by flags, never inferred from the names.
 * - `citations`: explicit `[{sentence, chunks}]`; when absent, inline markers in
 *   the answer are read: `[chunk-id]`, or `[n]` counting from 1 into `context`.
 * - `claims`: the answer's claims as the pipeline states them; claim-level
 *   faithfulness judges these instead of the answer's sentences.
 *
 * After parsing, every ranked list and the context are chunk ids
 * ({@link RankedList}): text passages carry their derived id
 * ({@link withPassageIds}) and `passages` lists them.
 *
 * @example
 * {"id":"q01","retrieved":[{"id":"hr-leave#1","score":12.3},"hr-leave#0"],"context":["hr-leave#1","hr-leave#0"],
 *  "answer":"No, unused casual leave lapses at the end of the year [1].","stages":{"bm25":["hr-leave#1","hr-leave#0"]}}
 * @example
 * {"id":"q01","retrieved":[{"text":"Unused casual leave lapses at the end of the year.","doc":"hr-leave","score":12.3}],
 *  "answer":"It lapses at the end of the year [1]."}
 */
export const PipelineOutput = PipelineOutputLine.transform(withPassageIds);
export type PipelineOutput = z.output<typeof PipelineOutput>;
