import { describe, expect, it } from "vitest";
import { relevantSets } from "../../../src/golden/dataset.js";
import type { GoldenQuestion } from "../../../src/golden/schema/golden.js";
import type { PipelineOutput } from "../../../src/golden/schema/pipeline.js";
import { analyseMisses, isRetrievalMiss } from "../../../src/retrieval/diagnostics/misses.js";
import { poolRecall } from "../../../src/retrieval/diagnostics/pool.js";
import { precisionCap } from "../../../src/retrieval/diagnostics/precision.js";
import { relevantRanks } from "../../../src/golden/relevant-ranks.js";
import { bestRank, countInTop, rankOf } from "../../../src/retrieval/diagnostics/stages.js";
import { mulberry32 } from "../../helpers/seeded.js";
import { fill, variant } from "./build.js";

// The diagnostics read the relevant ranks through relevantRanks (golden/relevant-ranks.ts) where they counted with
// countInTop, isRetrievalMiss and bestRank: these hold them to those definitions, for lists and relevant sets a
// caller builds, reuses and changes between calls, and for cutoffs that are not whole numbers (the library's
// analyseMisses, poolRecall and precisionCap take any number from code).

const question = (id: string): GoldenQuestion => ({ id, question: `question ${id}?`, answerable: true, kind: "factual", tags: [], relevant: [] });

describe("pool recall, the precision ceiling and the miss test answer as their definitions", () => {
  it("for cutoffs such as 2.5: three places, as countInTop and isRetrievalMiss count", () => {
    const qs = [question("q1")];
    const list = fill(6);
    const relevant = new Map([["q1", new Set(["misc#2"])]]);
    const outputs = new Map<string, PipelineOutput>([["q1", { id: "q1", retrieved: list }]]);
    expect(countInTop(list, relevant.get("q1")!, 2.5)).toBe(1);
    expect(poolRecall(qs, relevant, outputs, { first: [] }, 10, 2.5).questions[0]!.inTopK).toBe(1);
    expect(precisionCap(qs, relevant, outputs, [2.5]).overall!.cells[0]!.precision).toBe(1 / 2.5);
    expect(isRetrievalMiss(relevant.get("q1")!, list, 2.5)).toBe(false);
    expect(analyseMisses(qs, relevant, { ...variant([...outputs.values()]), outputs }, { k: 2.5, poolDepth: 10 })).toEqual([]);
    expect(analyseMisses(qs, relevant, { ...variant([...outputs.values()]), outputs }, { k: 2, poolDepth: 2.5 })[0]!.ranks).toEqual([{ name: "retrieved", role: "retrieved", status: "ranked", rank: 3, chunk: "misc#2" }]);
  });

  it("on lists and relevant sets changed between calls, and on cutoffs such as 2.5", () => {
    const next = mulberry32(20261208);
    const ids = fill(12);
    const qs = [question("q1"), question("q2")];
    // one list object shared by both questions, and one set object shared too: changed in place between calls
    const shared = ids.slice(0, 6);
    const lists: Record<string, string[]> = { q1: shared, q2: shared };
    const sets: Record<string, Set<string>> = { q1: new Set([ids[2]!]), q2: new Set([ids[5]!]) };
    for (let round = 0; round < 300; round++) {
      const change = next();
      if (change < 0.3) lists.q1!.reverse();
      else if (change < 0.5) lists.q2![Math.floor(next() * lists.q2!.length)] = ids[Math.floor(next() * ids.length)]!;
      else if (change < 0.6) lists.q1!.push(ids[Math.floor(next() * ids.length)]!);
      else if (change < 0.7) sets.q1!.add(ids[Math.floor(next() * ids.length)]!);
      else if (change < 0.8) sets.q2!.delete([...sets.q2!][0]!);
      else if (change < 0.9) lists.q2 = next() < 0.5 ? lists.q1! : ids.slice(0, 1 + Math.floor(next() * 12));
      else sets.q2 = next() < 0.5 ? sets.q1! : new Set([ids[Math.floor(next() * ids.length)]!]);
      const outputs = new Map<string, PipelineOutput>(qs.map((q) => [q.id, { id: q.id, retrieved: lists[q.id]!, stages: { bm25: lists[q.id]! } }]));
      const relevant = new Map<string, ReadonlySet<string>>(qs.map((q) => [q.id, sets[q.id]!]));
      const k = [1, 2, 2.5, 3, 4.75, 6, 0.5][Math.floor(next() * 7)]!;
      const depth = [1, 1.5, 3, 3.5, 7][Math.floor(next() * 5)]!;
      const where = `round ${round}, k ${k}, depth ${depth}: ${qs.map((q) => `${q.id} [${lists[q.id]!.join(" ")}] vs {${[...sets[q.id]!].join(" ")}}`).join("; ")}`;

      const pool = poolRecall(qs, relevant, outputs, { first: ["bm25"] }, depth, k);
      expect(pool.questions.map((r) => r.inTopK), where).toEqual(qs.map((q) => countInTop(lists[q.id], sets[q.id]!, k)));

      const cap = precisionCap(qs, relevant, outputs, [k, 5]);
      const precisionAt = (n: number) => qs.reduce((s, q) => s + countInTop(lists[q.id], sets[q.id]!, n) / n, 0) / qs.length;
      expect(cap.overall!.cells.map((c) => c.precision), where).toEqual([...new Set([k, 5])].sort((a, b) => a - b).map(precisionAt));

      const v = { ...variant([...outputs.values()], { first: ["bm25"] }), outputs };
      const misses = analyseMisses(qs, relevant, v, { k, poolDepth: depth });
      expect(misses.map((m) => m.question), where).toEqual(qs.filter((q) => isRetrievalMiss(sets[q.id]!, lists[q.id]!, k)).map((q) => q.id));
      for (const m of misses) {
        const final = m.ranks.find((r) => r.role === "retrieved")!;
        const { name: _n, role: _r, ...rank } = final;
        const list = lists[m.question]!;
        const i = list.findIndex((id) => sets[m.question]!.has(id));
        expect(rank, where).toEqual(i < 0 ? { status: "absent" } : { status: i < depth ? "ranked" : "beyond-depth", rank: i + 1, chunk: list[i] });
      }
    }
  });

  it("sets from relevantSets and lists a caller changed are read as they are now", () => {
    const qs = [{ ...question("q1"), relevant: ["misc#3"] }];
    const list = fill(6);
    const outputs = new Map<string, PipelineOutput>([["q1", { id: "q1", retrieved: list }]]);
    const v = { ...variant([...outputs.values()]), outputs };
    const relevant = relevantSets({ questions: qs }, v.chunks);
    expect(poolRecall(qs, relevant, outputs, { first: [] }, 10, 2).questions[0]!.inTopK).toBe(0);
    expect(analyseMisses(qs, relevant, v, { k: 2, poolDepth: 10 })).toHaveLength(1);
    list.reverse(); // misc#3 now at rank 3
    list.splice(0, 1, "misc#3"); // and at rank 1
    expect(poolRecall(qs, relevant, outputs, { first: [] }, 10, 2).questions[0]!.inTopK).toBe(1);
    expect(analyseMisses(qs, relevant, v, { k: 2, poolDepth: 10 })).toHaveLength(0);
  });

  it("bestRank, and rankOf from the first relevant rank, rank a chunk at index i when i < depth, for any depth (2.5 ranks three places)", () => {
    // bestRank's definition before it was written through rankOf
    const definition = (list: readonly string[], wanted: ReadonlySet<string>, depth: number) => {
      const i = list.findIndex((id) => wanted.has(id));
      if (i < 0) return { status: "absent" };
      return { status: i < depth ? "ranked" : "beyond-depth", rank: i + 1, chunk: list[i] };
    };
    const list = ["a", "b", "c", "d"];
    for (const wanted of [["a"], ["b"], ["c"], ["d", "c"], ["x"], []]) {
      const rel = new Set(wanted);
      for (const depth of [0, 0.5, 1, 2, 2.5, 3, 3.25, 4, 10, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
        const where = `${wanted.join(" ")} at depth ${depth}`;
        expect(bestRank(list, rel, depth), where).toEqual(definition(list, rel, depth));
        expect(rankOf(list, relevantRanks(list, rel)[0], depth), where).toEqual(definition(list, rel, depth));
      }
    }
  });
});
