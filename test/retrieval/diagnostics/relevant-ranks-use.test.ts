import { describe, expect, it } from "vitest";
import type { GoldenQuestion } from "../../../src/golden/schema/golden.js";
import type { PipelineOutput } from "../../../src/golden/schema/pipeline.js";
import { analyseMisses, isRetrievalMiss } from "../../../src/retrieval/diagnostics/misses.js";
import { poolRecall } from "../../../src/retrieval/diagnostics/pool.js";
import { precisionCap } from "../../../src/retrieval/diagnostics/precision.js";
import { relevantRanks } from "../../../src/golden/relevant-ranks.js";
import { bestRank, countInTop, rankOf } from "../../../src/retrieval/diagnostics/stages.js";
import { fill, variant } from "./build.js";

// The diagnostics read the relevant ranks through relevantRanks (golden/relevant-ranks.ts) where they counted with
// countInTop, isRetrievalMiss and bestRank: these hold them to those definitions, for cutoffs that are not whole
// numbers too (the library's analyseMisses, poolRecall and precisionCap take any number from code).

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
