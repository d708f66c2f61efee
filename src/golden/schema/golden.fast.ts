import { normalise } from "../normalise.js";
import { everyOf, inSchemaOrder, isId, isMeta, isNonEmpty, isObject, isText, onlyKeys, type FastCheck } from "./fast.js";
import type { Chunk, GoldenQuestion } from "./golden.js";

/** The keys each fast check knows, in the schema's order; test/golden/schema/fast.test.ts fails when a schema's keys differ. */
export const FAST_KEYS = {
  GoldenQuestion: ["id", "question", "answerable", "relevant", "anchor", "relevantText", "reference", "kind", "tags", "split", "meta"],
  Anchor: ["doc", "text"],
  Chunk: ["id", "doc", "text", "heading", "meta"],
} as const;

const QUESTION = new Set<string>(FAST_KEYS.GoldenQuestion);
const ANCHOR = new Set<string>(FAST_KEYS.Anchor);
const CHUNK = new Set<string>(FAST_KEYS.Chunk);

/** A marked text (anchor text, relevantText) that does not normalise to "", as the schema's refinements require. */
const isMarkedText = (t: unknown): boolean => typeof t === "string" && normalise(t) !== "";

/** {@link GoldenQuestion} without zod (see fast.ts): defaults `answerable: true` and `tags: []`, the answerable rules. */
export const fastGoldenQuestion: FastCheck<GoldenQuestion> = (j) => {
  if (!isObject(j) || !onlyKeys(j, QUESTION)) return undefined;
  const { id, question, relevant, anchor, relevantText, reference, kind, split, meta } = j;
  // defaults replace an absent key only (JSON has no undefined; a null stays, and fails)
  const answerable = j.answerable === undefined ? true : j.answerable;
  const tags = j.tags === undefined ? [] : j.tags;
  if (!isId(id) || !isText(question) || typeof answerable !== "boolean") return undefined;
  if (relevant !== undefined && !everyOf(relevant, isId)) return undefined;
  if (anchor !== undefined && !(isObject(anchor) && onlyKeys(anchor, ANCHOR) && isId(anchor.doc) && isMarkedText(anchor.text))) return undefined;
  if (relevantText !== undefined && !everyOf(relevantText, isMarkedText)) return undefined;
  if ((reference !== undefined && !isText(reference)) || (kind !== undefined && !isNonEmpty(kind)) || (split !== undefined && !isNonEmpty(split))) return undefined;
  if (!everyOf(tags, isNonEmpty) || !isMeta(meta)) return undefined;
  const hasRelevant = relevant !== undefined && (relevant as unknown[]).length > 0;
  const hasText = relevantText !== undefined && (relevantText as unknown[]).length > 0;
  if (answerable ? !hasRelevant && anchor === undefined && !hasText : hasRelevant || anchor !== undefined || hasText) return undefined;
  // the schema's key order, absent optional keys left out (as zod returns them)
  const out: Record<string, unknown> = { id, question, answerable };
  if (relevant !== undefined) out.relevant = relevant;
  if (anchor !== undefined) out.anchor = { doc: (anchor as Record<string, unknown>).doc, text: (anchor as Record<string, unknown>).text };
  if (relevantText !== undefined) out.relevantText = relevantText;
  if (reference !== undefined) out.reference = reference;
  if (kind !== undefined) out.kind = kind;
  out.tags = tags;
  if (split !== undefined) out.split = split;
  if (meta !== undefined) out.meta = meta;
  return out as GoldenQuestion;
};

/** {@link Chunk} without zod (see fast.ts). */
export const fastChunk: FastCheck<Chunk> = (j) => {
  if (!isObject(j) || !onlyKeys(j, CHUNK)) return undefined;
  const { id, doc, text, heading, meta } = j;
  if (!isId(id) || !isId(doc) || typeof text !== "string" || (heading !== undefined && typeof heading !== "string") || !isMeta(meta)) return undefined;
  if (inSchemaOrder(j, FAST_KEYS.Chunk)) return j as Chunk;
  const out: Record<string, unknown> = { id, doc, text };
  if (heading !== undefined) out.heading = heading;
  if (meta !== undefined) out.meta = meta;
  return out as Chunk;
};
