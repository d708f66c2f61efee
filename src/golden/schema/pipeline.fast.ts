import { everyOf, inSchemaOrder, isId, isMeta, isNonEmpty, isObject, onlyKeys, type FastCheck } from "./fast.js";
import type { PipelineOutput, RankedEntry } from "./pipeline.js";

/** The keys each fast check knows, in the schema's order; test/golden/schema/fast.test.ts fails when a schema's keys differ. */
export const FAST_KEYS = {
  PipelineOutput: ["id", "retrieved", "context", "stages", "answer", "citations", "meta"],
  RankedEntry: ["id", "score"],
  Citation: ["sentence", "chunks"],
} as const;

const OUTPUT = new Set<string>(FAST_KEYS.PipelineOutput);
const ENTRY = new Set<string>(FAST_KEYS.RankedEntry);
const CITATION = new Set<string>(FAST_KEYS.Citation);

/** A RankedEntry zod accepts: an Id, or `{id, score?}` with a finite score. */
function isEntry(e: unknown): boolean {
  if (typeof e === "string") return isId(e);
  if (!isObject(e) || !onlyKeys(e, ENTRY) || !isId(e.id)) return false;
  return e.score === undefined || (typeof e.score === "number" && Number.isFinite(e.score));
}

/**
 * A checked RankedList as zod returns it, built in the parsed array itself
 * (a run holds millions of entries: copying each would double the work):
 * bare ids become `{id}`; an `{id, score}` object in that key order is kept.
 */
function asRankedList(list: unknown[]): RankedEntry[] {
  for (let i = 0; i < list.length; i++) {
    const e = list[i];
    if (typeof e === "string") list[i] = { id: e };
    else if (!inSchemaOrder(e as Record<string, unknown>, FAST_KEYS.RankedEntry)) {
      const o = e as { id: string; score?: number };
      list[i] = o.score === undefined ? { id: o.id } : { id: o.id, score: o.score };
    }
  }
  return list as RankedEntry[];
}

const isCitation = (c: unknown): boolean => isObject(c) && onlyKeys(c, CITATION) && isNonEmpty(c.sentence) && everyOf(c.chunks, isId);

/**
 * {@link PipelineOutput} without zod (see fast.ts). Everything is checked
 * before anything is changed, so a record handed on to zod is the one parsed.
 */
export const fastPipelineOutput: FastCheck<PipelineOutput> = (j) => {
  if (!isObject(j) || !onlyKeys(j, OUTPUT)) return undefined;
  const { id, retrieved, context, stages, answer, citations, meta } = j;
  if (!isId(id) || !everyOf(retrieved, isEntry)) return undefined;
  if ((context !== undefined && !everyOf(context, isId)) || (answer !== undefined && typeof answer !== "string") || !isMeta(meta)) return undefined;
  if (stages !== undefined) {
    if (!isObject(stages)) return undefined;
    for (const name in stages) if (name.length === 0 || !everyOf(stages[name], isEntry)) return undefined;
  }
  if (citations !== undefined && !everyOf(citations, isCitation)) return undefined;
  // checked: now shape it as zod would
  asRankedList(retrieved);
  if (stages !== undefined) for (const name in stages) asRankedList(stages[name] as unknown[]);
  if (citations !== undefined) {
    const list = citations as Record<string, unknown>[];
    for (let i = 0; i < list.length; i++) if (!inSchemaOrder(list[i]!, FAST_KEYS.Citation)) list[i] = { sentence: list[i]!.sentence, chunks: list[i]!.chunks };
  }
  if (inSchemaOrder(j, FAST_KEYS.PipelineOutput)) return j as PipelineOutput;
  const out: Record<string, unknown> = { id, retrieved };
  if (context !== undefined) out.context = context;
  if (stages !== undefined) out.stages = stages;
  if (answer !== undefined) out.answer = answer;
  if (citations !== undefined) out.citations = citations;
  if (meta !== undefined) out.meta = meta;
  return out as PipelineOutput;
};
