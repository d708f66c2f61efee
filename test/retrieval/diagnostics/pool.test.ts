import { describe, expect, it } from "vitest";
import { relevantSets } from "../../../src/golden/dataset.js";
import type { StageRoles } from "../../../src/golden/schema/config.js";
import type { GoldenQuestion } from "../../../src/golden/schema/golden.js";
import type { PipelineOutput } from "../../../src/golden/schema/pipeline.js";
import { poolRecall } from "../../../src/retrieval/diagnostics/pool.js";
import { poolList } from "../../../src/retrieval/diagnostics/stages.js";
import { fill, out, place, q, unanswerable, variant } from "./build.js";

const QHR = q("q-hr", "hr", "unused days cannot be carried forward to the next year", "conceptual");
const QFIN = q("q-fin", "fin", "receipts must be attached to every single claim", "factual");
const QSEC = q("q-sec", "sec", "badges must be worn visibly at all times inside the building", "lexical");
const QIT = q("q-it", "it", "hardware tokens expire after ninety days", "lexical");

function run(questions: GoldenQuestion[], outputs: PipelineOutput[], stages: Partial<StageRoles>, depth = 5, k = 2) {
  const v = variant(outputs, stages);
  const rel = relevantSets({ questions }, v.chunks);
  return poolRecall(questions, rel, v.outputs, v.stages, depth, k);
}

describe("poolList", () => {
  it("prefers stages.pool, then stages.fused, then the only first-stage list", () => {
    expect(poolList({ first: ["a", "b"], fused: "f", pool: "p" })).toEqual({ available: true, list: "p", source: "pool" });
    expect(poolList({ first: ["a", "b"], fused: "f" })).toEqual({ available: true, list: "f", source: "fused" });
    expect(poolList({ first: ["a"] })).toEqual({ available: true, list: "a", source: "only-first" });
  });
  it("gives no pool for no stages or several unfused first-stage lists", () => {
    expect(poolList({ first: [] })).toMatchObject({ available: false, reason: expect.stringMatching(/^no declared pool/) });
    expect(poolList({ first: ["a", "b"] })).toMatchObject({ available: false, reason: expect.stringMatching(/2 first-stage lists/) });
  });
});

describe("poolRecall (depth 5, k 2), values by hand", () => {
  // q-hr: R=1, fused has hr#1 at 4 (in pool), retrieved at 3 (not top 2)  -> pool 1, final 0
  // q-fin: R=1, absent from fused, absent from retrieved                   -> pool 0, final 0
  // q-sec: R=2, fused has sec#0 at 1 and sec#1 at 6 (beyond 5); retrieved sec#0 at 2 -> pool 0.5, final 0.5
  // q-it: R=1, fused at 2, retrieved at 1                                  -> pool 1, final 1
  const outputs = [
    out("q-hr", place({ "hr#1": 3 }, 10), { fused: place({ "hr#1": 4 }, 10) }),
    out("q-fin", fill(10), { fused: fill(10) }),
    out("q-sec", place({ "sec#0": 2 }, 10), { fused: place({ "sec#0": 1, "sec#1": 6 }, 10) }),
    out("q-it", place({ "it#1": 1 }, 10), { fused: place({ "it#1": 2 }, 10) }),
    out("q-no", fill(10), { fused: fill(10) }),
  ];
  const r = run([QHR, QFIN, QSEC, QIT, unanswerable("q-no")], outputs, { first: ["bm25", "vector"], fused: "fused" });

  it("per question", () => {
    expect(r.questions.map((x) => [x.question, x.relevant, x.inPool, x.poolRecall, x.inTopK, x.finalRecall])).toEqual([
      ["q-hr", 1, 1, 1, 0, 0],
      ["q-fin", 1, 0, 0, 0, 0],
      ["q-sec", 2, 1, 0.5, 1, 0.5],
      ["q-it", 1, 1, 1, 1, 1],
    ]);
  });

  it("overall mean and the first-stage / after-pool split", () => {
    expect(r.pool).toEqual({ available: true, list: "fused", source: "fused" });
    expect(r.overall?.questions).toBe(4);
    expect(r.overall?.poolRecall).toBeCloseTo((1 + 0 + 0.5 + 1) / 4, 12);
    expect(r.overall?.finalRecall).toBeCloseTo((0 + 0 + 0.5 + 1) / 4, 12);
    expect(r.overall?.notInPool).toBe(1); // q-fin: the first stage never found it
    expect(r.overall?.inPoolNotInTopK).toBe(1); // q-hr: found, then ranked out
  });

  it("by kind, alphabetical", () => {
    expect(r.byKind.map((x) => [x.kind, x.questions, x.poolRecall, x.finalRecall])).toEqual([
      ["conceptual", 1, 1, 0],
      ["factual", 1, 0, 0],
      ["lexical", 2, 0.75, 0.75],
    ]);
  });

  it("leaves unanswerable questions out and counts them", () => {
    expect(r.questions.some((x) => x.question === "q-no")).toBe(false);
    expect(r.unanswerable).toBe(1);
    expect(r.byKind.find((x) => x.kind === "factual")?.questions).toBe(1);
  });
});

describe("poolRecall edge cases", () => {
  it("a single first-stage list is the pool", () => {
    const r = run([QHR], [out("q-hr", place({ "hr#1": 4 }, 10), { bm25: place({ "hr#1": 4 }, 10) })], { first: ["bm25"] });
    expect(r.pool).toEqual({ available: true, list: "bm25", source: "only-first" });
    expect(r.overall?.poolRecall).toBe(1);
    expect(r.overall?.finalRecall).toBe(0);
  });

  it("without a declared pool it is unavailable, not estimated from retrieved", () => {
    const r = run([QHR], [out("q-hr", place({ "hr#1": 1 }, 10), { fused: place({ "hr#1": 1 }, 10) })], {});
    expect(r.pool.available).toBe(false);
    expect(r.overall?.poolRecall).toBeNull();
    expect(r.overall?.notInPool).toBeNull();
    expect(r.overall?.finalRecall).toBe(1);
    expect(r.questions[0]!.poolRecall).toBeNull();
  });

  it("no relevant chunk: counted as 0 (as the score table does) and named; no output line: recall 0 and flagged", () => {
    const bad = q("q-bad", "hr", "this phrase is in no chunk of the document", "factual");
    const r = run([bad, QHR], [out("q-bad", fill(10), { bm25: fill(10) })], { first: ["bm25"] });
    expect(r.noRelevant).toEqual(["q-bad"]);
    expect(r.questions).toEqual([
      { question: "q-bad", kind: "factual", relevant: 0, inPool: 0, poolRecall: 0, inTopK: 0, finalRecall: 0, missingOutput: false },
      { question: "q-hr", kind: "conceptual", relevant: 1, inPool: 0, poolRecall: 0, inTopK: 0, finalRecall: 0, missingOutput: true },
    ]);
    // q-bad is not "never found by the first stage": there is nothing to find.
    expect(r.overall?.notInPool).toBe(1);
    expect(r.overall?.questions).toBe(2);
  });

  it("no answerable question: no overall row", () => {
    const r = run([unanswerable("u1")], [out("u1", fill(5))], { first: ["bm25"] });
    expect(r.overall).toBeNull();
    expect(r.byKind).toEqual([]);
  });
});
