import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  bootstrapInterval, cohenKappaBootstrap, pairedBootstrapMeanDifference, roganGladenBootstrap,
  budgetShares, calibrate, compareSides, diagnoseVariants, evaluateTrec, evaluateTrecFiles, loadDraws, loadLabels, planGroup, planGroups,
  rubricReports, runEvaluation, sampleFromRun, sampleQueue, scoreRetrieval, scoreTrecFiles, splitBudget, startReviewServer,
  type CompareSide, type GoldenSet, type Qrels, type RubricReportInput, type SampleOptions, type TrecRun,
} from "../src/index.js";

// The public API's numbers from code are held to the bounds their flags have (src/golden/bounds.ts): a RangeError,
// before any work. `{} as never` stands for an argument the guard is checked before. The judge's: test/judge/judges/numbers.test.ts.
const SAFE = Number.MAX_SAFE_INTEGER;
const empty = mkdtempSync(join(tmpdir(), "ragjudge-bounds-"));
const book = loadLabels(empty);
const draws = loadDraws(empty);
const golden = { questions: [], byId: new Map() } as unknown as GoldenSet;
const out = (name: string, value: number) => new RegExp(`^${name}: ${value} is out of range: expected `);

describe("the library's entry points refuse numbers outside their flags' bounds", () => {
  it("runEvaluation: seed and reps, before the config is read", async () => {
    await expect(runEvaluation({ reps: 1e9 })).rejects.toThrow(out("reps", 1e9));
    await expect(runEvaluation({ reps: 99 })).rejects.toThrow(RangeError);
    await expect(runEvaluation({ seed: -1 })).rejects.toThrow(out("seed", -1));
    // the edges pass the guard: the missing config is what stops these
    for (const [seed, reps] of [[0, 100], [SAFE, 100_000]]) {
      const r = runEvaluation({ seed, reps, config: join(empty, "missing.json") });
      await expect(r).rejects.toThrow();
      await expect(r).rejects.not.toThrow(RangeError);
    }
  });

  it("calibrate: seed and reps; the edges run", () => {
    const input = { judgments: [], judgmentsFile: { file: "j.jsonl" }, book, draws };
    expect(() => calibrate({ ...input, reps: 1e9 })).toThrow(out("reps", 1e9));
    expect(() => calibrate({ ...input, reps: 2.5 })).toThrow(RangeError);
    expect(() => calibrate({ ...input, seed: 1.5 })).toThrow(RangeError);
    for (const [seed, reps] of [[0, 100], [SAFE, 100_000]]) expect(calibrate({ ...input, seed, reps }).rubrics).toEqual([]);
  });

  it("compareSides: seed, reps and minGroup, before the sides are read", () => {
    expect(() => compareSides({} as never, {} as never, { reps: 1e9 })).toThrow(out("reps", 1e9));
    expect(() => compareSides({} as never, {} as never, { seed: -1 })).toThrow(RangeError);
    expect(() => compareSides({} as never, {} as never, { minGroup: 1 })).toThrow(out("minGroup", 1));
    // the edges pass the guard and reach the golden-set check
    const side = (sha256: string) => ({ evaluation: { folder: empty, report: { inputs: { golden: { sha256, path: "g" } } } }, variant: {} }) as unknown as CompareSide;
    for (const options of [{ seed: 0, reps: 100, minGroup: 2 }, { seed: SAFE, reps: 100_000, minGroup: SAFE }]) expect(() => compareSides(side("a".repeat(64)), side("b".repeat(64)), options)).toThrow(/different golden sets/);
  });

  it("rubricReports: seed and reps", () => {
    const input = { judgments: [], rubrics: [], variants: [], golden, book, draws, requireCitations: false, recordFiles: new Map() } as unknown as Omit<RubricReportInput, "seed" | "reps">;
    expect(() => rubricReports({ ...input, seed: 1, reps: 1e9 })).toThrow(out("reps", 1e9));
    expect(() => rubricReports({ ...input, seed: -1, reps: 400 })).toThrow(RangeError);
    for (const [seed, reps] of [[0, 100], [SAFE, 100_000]]) expect(rubricReports({ ...input, seed: seed!, reps: reps! })).toEqual([]);
  });

  it("sampleQueue and sampleFromRun: seed, random and balanced", () => {
    const opts: SampleOptions = { annotator: "asha", seed: 1 };
    for (const bad of [{ seed: -1 }, { random: 0 }, { balanced: 1.5 }, { random: Number.NaN }]) {
      expect(() => sampleQueue([], [], { ...opts, ...bad }), JSON.stringify(bad)).toThrow(RangeError);
      expect(() => sampleFromRun({} as never, { ...opts, ...bad, judgmentsFile: "j.jsonl", labelsDir: empty }), JSON.stringify(bad)).toThrow(RangeError);
    }
    expect(() => sampleQueue([], [], { ...opts, random: 0 })).toThrow(out("random", 0));
    for (const edge of [{ seed: 0, random: 1, balanced: 1 }, { seed: SAFE, random: SAFE, balanced: SAFE }]) {
      expect(sampleQueue([], [], { ...opts, ...edge }).entries).toEqual([]);
      // past the guard, the missing judgments file stops it
      expect(() => sampleFromRun({ isShippedExample: false, file: join(empty, "ragjudge.config.json") } as never, { ...opts, ...edge, judgmentsFile: join(empty, "missing.jsonl"), labelsDir: empty })).toThrow(/judgments file not found/);
    }
  });

  it("planGroups and planGroup: reps and seed; splitBudget and budgetShares: the budget", () => {
    const inputs = { book, draws, records: [] };
    expect(() => planGroups([], inputs, { reps: 1e9 })).toThrow(out("reps", 1e9));
    expect(() => planGroups([], inputs, { seed: -1 })).toThrow(RangeError);
    expect(() => planGroup({} as never, inputs, { reps: 100_001 })).toThrow(out("reps", 100001));
    for (const options of [{ reps: 0, seed: 0 }, { reps: 100_000, seed: SAFE }]) expect(planGroups([], inputs, options)).toEqual([]);
    for (const bad of [0, -5, 2.5]) {
      expect(() => splitBudget([], bad), String(bad)).toThrow(out("budget", bad));
      expect(() => budgetShares([], bad, inputs), String(bad)).toThrow(RangeError);
    }
    for (const budget of [1, SAFE]) {
      expect(splitBudget([], budget).size).toBe(0);
      expect(budgetShares([], budget, inputs)).toEqual([]);
    }
  });

  it("startReviewServer: the port", async () => {
    for (const port of [65_536, -1, 80.5]) await expect(startReviewServer({} as never, { port }), String(port)).rejects.toThrow(out("port", port));
  });

  it("scoreRetrieval: the cutoffs; diagnoseVariants: the cutoffs and the pool depth", () => {
    const variant = { name: "v", chunks: { byId: new Map(), byDoc: new Map(), passages: new Map() }, outputs: new Map() } as never;
    expect(() => scoreRetrieval(golden, variant, { k: [10, 0] })).toThrow(out("k", 0));
    expect(() => scoreRetrieval(golden, variant, { k: [2.5] })).toThrow(RangeError);
    for (const k of [1, SAFE]) expect(scoreRetrieval(golden, variant, { k: [k], measures: ["RR"] }).questions).toEqual([]);
    expect(() => diagnoseVariants(golden, [], { ks: [0], poolDepth: 10 })).toThrow(out("ks", 0));
    expect(() => diagnoseVariants(golden, [], { ks: [10], poolDepth: -1 })).toThrow(out("poolDepth", -1));
    for (const n of [1, SAFE]) expect(diagnoseVariants(golden, [], { ks: [n], poolDepth: n })).toEqual([]);
  });

  it("evaluateTrec, evaluateTrecFiles and scoreTrecFiles: the relevance level", async () => {
    const qrels = {} as Qrels;
    const run = { judgedBy: qrels } as unknown as TrecRun;
    expect(() => evaluateTrec(qrels, run, { measures: [], level: -1 })).toThrow(out("level", -1));
    expect(() => evaluateTrecFiles("q", "r", { measures: [], level: 0.5 })).toThrow(out("level", 0.5));
    await expect(scoreTrecFiles("q", "r", { measures: [], level: Number.NaN })).rejects.toThrow(RangeError);
    // the edges pass the guard: the missing files are what stop these
    for (const level of [0, SAFE]) {
      expect(() => evaluateTrecFiles(join(empty, "q"), join(empty, "r"), { measures: [], level })).toThrow(/not found|no such file|ENOENT/i);
      await expect(scoreTrecFiles(join(empty, "q"), join(empty, "r"), { measures: [], level })).rejects.not.toThrow(RangeError);
    }
  });

  it("the statistics' building blocks: reps (1 to 100,000, whole), seed (whole) and level (0 to 1), before any draw", () => {
    const mean = (idx: Uint32Array) => idx.length;
    const pairs = [{ judge: "yes", label: "yes" }, { judge: "no", label: "no" }, { judge: "yes", label: "no" }] as const;
    const labelled = [{ judge: 1, label: 1 }, { judge: 0, label: 0 }, { judge: 1, label: 0 }] as const;
    expect(() => bootstrapInterval(3, mean, { reps: 1e9 })).toThrow(out("reps", 1e9));
    expect(() => bootstrapInterval(3, mean, { reps: 0 })).toThrow(out("reps", 0));
    expect(() => bootstrapInterval(3, mean, { reps: 2.5 })).toThrow(RangeError);
    expect(() => bootstrapInterval(3, mean, { seed: 1.5 })).toThrow(RangeError);
    expect(() => bootstrapInterval(3, mean, { level: 95 })).toThrow(out("level", 95));
    expect(() => bootstrapInterval(0, mean, { reps: 1e9 })).toThrow(RangeError); // no items: refused all the same
    expect(() => cohenKappaBootstrap([...pairs], { reps: 1e9 })).toThrow(out("reps", 1e9));
    expect(() => pairedBootstrapMeanDifference([1, 0], [0, 1], { reps: 1e9 })).toThrow(out("reps", 1e9));
    expect(() => roganGladenBootstrap([1, 0], [...labelled], { reps: 1e9 })).toThrow(out("reps", 1e9));
    // the edges run
    for (const [reps, seed, level] of [[1, -SAFE, 0], [100_000, SAFE, 1], [10, 0, 0.95]]) expect(bootstrapInterval(3, mean, { reps, seed, level }).reps).toBe(reps);
  });
});
