import { normalise } from "../normalise.js";
import { everyOf, inSchemaOrder, isId, isMeta, isNonEmpty, isObject, onlyKeys, type FastCheck } from "./fast.js";
import { withPassageIds, type PipelineOutput } from "./pipeline.js";

/** The keys each fast check knows, in the schema's order; test/golden/schema/fast.test.ts fails when a schema's keys differ. */
export const FAST_KEYS = {
  PipelineOutput: ["id", "retrieved", "context", "stages", "answer", "citations", "claims", "meta"],
  RankedEntry: ["id", "score"],
  TextPassage: ["text", "doc", "score"],
  Citation: ["sentence", "chunks"],
} as const;

const OUTPUT = new Set<string>(FAST_KEYS.PipelineOutput);
const ENTRY = new Set<string>(FAST_KEYS.RankedEntry);
const PASSAGE = new Set<string>(FAST_KEYS.TextPassage);
const CONTEXT_PASSAGE = new Set<string>(["text", "doc"]);
const CITATION = new Set<string>(FAST_KEYS.Citation);

const isScore = (s: unknown): boolean => s === undefined || (typeof s === "number" && Number.isFinite(s));

/**
 * A passage given as text that TextPassage accepts (`{text, doc?, score?}`,
 * or without `score` in a context), its normalised text added to `seen`:
 * false when that text is already there (the schema's "one text is one
 * passage" rule, per list).
 */
function isPassage(e: Record<string, unknown>, keys: ReadonlySet<string>, seen: Set<string>): boolean {
  if (!onlyKeys(e, keys) || typeof e.text !== "string" || (e.doc !== undefined && !isId(e.doc)) || !isScore(e.score)) return false;
  const norm = normalise(e.text);
  if (norm === "" || seen.has(norm)) return false;
  seen.add(norm);
  return true;
}

/**
 * A list of chunk ids and objects, each object checked by `isEntry` with the
 * set of passage texts seen so far in this list: a ranked list or a context.
 */
function isEntryList(list: unknown, isEntry: (e: Record<string, unknown>, seen: Set<string>) => boolean): list is unknown[] {
  if (!Array.isArray(list)) return false;
  const seen = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    const e = list[i];
    if (typeof e === "string" ? !isId(e) : !isObject(e) || !isEntry(e, seen)) return false;
  }
  return true;
}

/** A ranked list RankedEntryInput accepts element by element: an Id, `{id, score?}` with a finite score, or a passage as text. */
const isRankedList = (list: unknown) => isEntryList(list, (e, seen) => (e.id !== undefined ? onlyKeys(e, ENTRY) && isId(e.id) && isScore(e.score) : isPassage(e, PASSAGE, seen)));

/** A context zod accepts: chunk ids or passages as text `{text, doc?}`, no text twice. */
const isContext = (list: unknown) => isEntryList(list, (e, seen) => isPassage(e, CONTEXT_PASSAGE, seen));

const isCitation = (c: unknown): boolean => isObject(c) && onlyKeys(c, CITATION) && isNonEmpty(c.sentence) && everyOf(c.chunks, isId);

/**
 * {@link PipelineOutput} without zod (see fast.ts). Everything is checked
 * before anything is changed, so a record handed on to zod is the one
 * parsed. An accepted line is shaped as PipelineOutputLine returns it (keys
 * in the schema's order) and given to the schema's own transform,
 * {@link withPassageIds}, which turns every ranked entry into its chunk id
 * in the parsed arrays themselves: both paths give the same ids, and the
 * value the same keys in the same order.
 */
export const fastPipelineOutput: FastCheck<PipelineOutput> = (j) => {
  if (!isObject(j) || !onlyKeys(j, OUTPUT)) return undefined;
  const { id, retrieved, context, stages, answer, citations, claims, meta } = j;
  if (!isId(id) || !isRankedList(retrieved)) return undefined;
  if ((context !== undefined && !isContext(context)) || (answer !== undefined && typeof answer !== "string") || !isMeta(meta)) return undefined;
  if (stages !== undefined) {
    if (!isObject(stages)) return undefined;
    for (const name in stages) if (name.length === 0 || !isRankedList(stages[name])) return undefined;
  }
  if (citations !== undefined && !everyOf(citations, isCitation)) return undefined;
  if (claims !== undefined && !everyOf(claims, isNonEmpty)) return undefined;
  // checked: now shape it as zod would
  if (citations !== undefined) {
    const list = citations as Record<string, unknown>[];
    for (let i = 0; i < list.length; i++) if (!inSchemaOrder(list[i]!, FAST_KEYS.Citation)) list[i] = { sentence: list[i]!.sentence, chunks: list[i]!.chunks };
  }
  let line: Record<string, unknown> = j;
  if (!inSchemaOrder(j, FAST_KEYS.PipelineOutput)) {
    line = { id, retrieved };
    if (context !== undefined) line.context = context;
    if (stages !== undefined) line.stages = stages;
    if (answer !== undefined) line.answer = answer;
    if (citations !== undefined) line.citations = citations;
    if (claims !== undefined) line.claims = claims;
    if (meta !== undefined) line.meta = meta;
  }
  return withPassageIds(line as Parameters<typeof withPassageIds>[0]);
};
