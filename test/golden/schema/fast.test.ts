import { unsafeUniformIntDistribution, xoroshiro128plus } from "pure-rand";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { parseJsonl } from "../../../src/golden/jsonl.js";
import type { FastCheck } from "../../../src/golden/schema/fast.js";
import { Anchor, Chunk, GoldenQuestion } from "../../../src/golden/schema/golden.js";
import { FAST_KEYS as GOLDEN_KEYS, fastChunk, fastGoldenQuestion } from "../../../src/golden/schema/golden.fast.js";
import { Citation, PipelineOutput, PipelineOutputLine, RankedEntryInput, TextPassage } from "../../../src/golden/schema/pipeline.js";
import { FAST_KEYS as PIPELINE_KEYS, fastPipelineOutput } from "../../../src/golden/schema/pipeline.fast.js";

// Seeded generation of records, valid and mutated, for each schema with a fast check.
function rng(seed: number) {
  const g = xoroshiro128plus(seed);
  const int = (lo: number, hi: number) => unsafeUniformIntDistribution(lo, hi, g);
  const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]!;
  const chance = (p: number) => int(0, 999) < p * 1000;
  return { int, pick, chance };
}
type R = ReturnType<typeof rng>;

const IDS = ["a", "doc-1#2", "q 7", "é", "हिन्दी", "x".repeat(40), "𝔘"];
const TEXTS = ["", " ", "plain text", "  padded  ", "Cafe\u0301 AU\u00A0lait", "tab\there", "नीति मानक", "ﬁnance", "line\nbreak"];
/** Passage texts: some equal after normalising (one list must not hold two), one only white space. */
const PASSAGE_TEXTS = ["Unused leave lapses.", "unused  LEAVE lapses.", "Cafe\u0301 au lait", "café au lait", "नीति मानक", "x", "\u00a0\t"];
const id = (r: R) => r.pick(IDS) + (r.chance(0.5) ? String(r.int(0, 99)) : "");
const meta = (r: R) => r.pick([{ page: 3 }, { nested: { a: [1, 2] } }, {}, { "": null }]);

function question(r: R): Record<string, unknown> {
  const q: Record<string, unknown> = { id: id(r), question: r.pick(TEXTS.filter((t) => t !== "")) };
  const answerable = r.chance(0.85);
  if (!answerable || r.chance(0.3)) q.answerable = answerable;
  if (answerable) {
    const how = r.int(0, 3);
    if (how === 0 || how === 2) q.anchor = { doc: id(r), text: r.pick(["eight words of a chunk quoted here", "Cafe\u0301 au lait", "x"]) };
    if (how === 1 || how === 2) q.relevant = Array.from({ length: r.int(1, 3) }, () => id(r));
    if (how === 3 || r.chance(0.2)) q.relevantText = Array.from({ length: r.int(1, 3) }, () => r.pick(PASSAGE_TEXTS));
  } else {
    if (r.chance(0.3)) q.relevant = [];
    if (r.chance(0.2)) q.relevantText = [];
  }
  if (r.chance(0.5)) q.reference = r.pick(TEXTS);
  if (r.chance(0.6)) q.kind = r.pick(["factual", "numeric", "é"]);
  if (r.chance(0.5)) q.tags = Array.from({ length: r.int(0, 3) }, () => r.pick(["policy", "hr", "नीति"]));
  if (r.chance(0.5)) q.split = r.pick(["dev", "heldout"]);
  if (r.chance(0.2)) q.meta = meta(r);
  return q;
}

function chunk(r: R): Record<string, unknown> {
  const c: Record<string, unknown> = { id: id(r), doc: id(r), text: r.pick(TEXTS) };
  if (r.chance(0.6)) c.heading = r.pick(TEXTS);
  if (r.chance(0.2)) c.meta = meta(r);
  return shuffleKeys(r, c);
}

/** A passage as text, `{text, doc?, score?}` (no score in a context). */
function passage(r: R, scored: boolean): Record<string, unknown> {
  const p: Record<string, unknown> = { text: r.pick(PASSAGE_TEXTS) };
  if (r.chance(0.5)) p.doc = id(r);
  if (scored && r.chance(0.5)) p.score = r.pick([1, -0.5, 12.25, 0]);
  return shuffleKeys(r, p);
}

function entries(r: R): unknown[] {
  const texts = r.chance(0.3);
  return Array.from({ length: r.int(0, 6) }, () => {
    if (texts && r.chance(0.5)) return passage(r, true);
    const x = id(r);
    if (r.chance(0.4)) return x;
    const e: Record<string, unknown> = { id: x };
    if (r.chance(0.6)) e.score = r.pick([1, -0.5, 12.25, 0, 1e-9]);
    return shuffleKeys(r, e);
  });
}

function output(r: R): Record<string, unknown> {
  const o: Record<string, unknown> = { id: id(r), retrieved: entries(r) };
  if (r.chance(0.3)) o.context = Array.from({ length: r.int(0, 3) }, () => (r.chance(0.3) ? passage(r, r.chance(0.1)) : id(r)));
  if (r.chance(0.3)) o.stages = { bm25: entries(r), ...(r.chance(0.5) ? { dense: entries(r) } : {}) };
  if (r.chance(0.6)) o.answer = r.pick(TEXTS);
  if (r.chance(0.2)) o.citations = [shuffleKeys(r, { sentence: "It applies.", chunks: [id(r)] })];
  if (r.chance(0.2)) o.claims = Array.from({ length: r.int(0, 3) }, () => r.pick(TEXTS.filter((t) => t !== "")));
  if (r.chance(0.2)) o.meta = meta(r);
  return shuffleKeys(r, o);
}

/** The same record with its keys in another order (files write keys in any order). */
function shuffleKeys(r: R, o: Record<string, unknown>): Record<string, unknown> {
  if (!r.chance(0.3)) return o;
  const keys = Object.keys(o).reverse();
  return Object.fromEntries(keys.map((k) => [k, o[k]]));
}

const BAD_VALUES: unknown[] = [null, 0, 1.5, "", " x", "x ", [], {}, true, "ok", ["a", ""], [1], { id: "a", extra: 1 }];

/** A copy of `o` with one value somewhere in it replaced, one key removed or one key added. */
function mutate(r: R, o: unknown): unknown {
  const c = JSON.parse(JSON.stringify(o)) as unknown;
  const holders: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach((x, i) => (holders.push({ parent: v, key: i }), walk(x)));
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) (holders.push({ parent: v as Record<string, unknown>, key: k }), walk(x));
  };
  walk(c);
  const h = holders.length ? r.pick(holders) : undefined;
  const what = r.int(0, 3);
  if (!h || what === 3) {
    const target = h && h.parent && !Array.isArray(h.parent) ? h.parent : (c as Record<string, unknown>);
    if (target && typeof target === "object" && !Array.isArray(target)) target[r.pick(["extra", "__proto__", "Id", "score"])] = r.pick(BAD_VALUES);
    return c;
  }
  if (what === 2 && !Array.isArray(h.parent)) delete (h.parent as Record<string, unknown>)[h.key as string];
  else (h.parent as Record<string | number, unknown>)[h.key] = r.pick(BAD_VALUES);
  return c;
}

/** Both paths on the same JSON text (each gets its own parse: the fast path may shape what it parsed). */
function bothPaths<T>(text: string, schema: z.ZodType<T>, fast: FastCheck<T>): { fast: T | undefined; zod: ReturnType<z.ZodType<T>["safeParse"]> } {
  return { fast: fast(JSON.parse(text)), zod: schema.safeParse(JSON.parse(text)) };
}

const CASES = [
  { name: "GoldenQuestion", schema: GoldenQuestion as z.ZodType<unknown>, fast: fastGoldenQuestion as FastCheck<unknown>, make: question },
  { name: "Chunk", schema: Chunk as z.ZodType<unknown>, fast: fastChunk as FastCheck<unknown>, make: chunk },
  { name: "PipelineOutput", schema: PipelineOutput as z.ZodType<unknown>, fast: fastPipelineOutput as FastCheck<unknown>, make: output },
];

describe("fast checks of the JSONL schemas", () => {
  for (const c of CASES) {
    it(`${c.name}: accepts and rejects what zod does, and returns what zod returns (keys in the same order)`, () => {
      const r = rng(20261201 + c.name.length);
      let valid = 0;
      let fastValid = 0;
      let rejected = 0;
      for (let i = 0; i < 3000; i++) {
        const record = i % 2 === 0 ? c.make(r) : mutate(r, c.make(r));
        let text = JSON.stringify(record);
        if (r.chance(0.05)) text = text.replace(/"score":[-\d.e+]+/, '"score":1e999'); // a number JSON.parse makes Infinity
        const { fast, zod } = bothPaths(text, c.schema, c.fast);
        if (zod.success) {
          valid++;
          if (fast !== undefined) {
            fastValid++;
            expect(JSON.stringify(fast), text).toBe(JSON.stringify(zod.data));
            expect(fast, text).toEqual(zod.data);
          }
        } else {
          rejected++;
          expect(fast, `fast path accepted what zod rejects: ${text}`).toBeUndefined();
        }
      }
      // both kinds were exercised, and the fast path takes (nearly) every valid record
      expect(rejected).toBeGreaterThan(500);
      expect(valid).toBeGreaterThan(1000);
      expect(fastValid / valid).toBeGreaterThan(0.95);
    });
  }

  it("parseJsonl gives the same rows and the same problems with and without a fast check", () => {
    const r = rng(7);
    for (const c of CASES) {
      const lines = Array.from({ length: 400 }, (_, i) => (i % 37 === 5 ? "{not json" : i % 41 === 3 ? "" : JSON.stringify(i % 3 ? c.make(r) : mutate(r, c.make(r)))));
      const text = lines.join("\n") + "\n";
      const slow = parseJsonl(text, "f.jsonl", c.schema);
      const quick = parseJsonl(text, "f.jsonl", c.schema, c.fast);
      expect(JSON.stringify(quick.rows)).toBe(JSON.stringify(slow.rows));
      expect(quick.problems.map((p) => p.message)).toEqual(slow.problems.map((p) => p.message));
    }
  });

  // A schema change (a field added, say `passages` to PipelineOutput) must reach its fast check:
  // until it does, this fails, instead of the fast path quietly disagreeing with the schema.
  it("know exactly the keys of their schemas, in the schemas' order", () => {
    const shape = (s: unknown) => Object.keys((s as { shape: Record<string, unknown> }).shape);
    expect(GOLDEN_KEYS.GoldenQuestion).toEqual(shape(GoldenQuestion));
    expect(GOLDEN_KEYS.Anchor).toEqual(shape(Anchor));
    expect(GOLDEN_KEYS.Chunk).toEqual(shape(Chunk));
    expect(PIPELINE_KEYS.PipelineOutput).toEqual(shape(PipelineOutputLine));
    expect(PIPELINE_KEYS.Citation).toEqual(shape(Citation));
    const options = (RankedEntryInput as unknown as { _zod: { def: { options: unknown[] } } })._zod.def.options;
    expect(options).toHaveLength(3);
    expect(PIPELINE_KEYS.RankedEntry).toEqual(shape(options[1]));
    expect(options[2]).toBe(TextPassage);
    expect(PIPELINE_KEYS.TextPassage).toEqual(shape(TextPassage));
  });
});
