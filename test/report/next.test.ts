import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nextCommands, shellArg } from "../../src/report/next.js";
import type { ReportJson } from "../../src/report/schema.js";
import { runCliCaptured } from "../helpers/cli.js";
import { exampleCopy } from "./helpers.js";

describe("after a run: its judgments where sample, review and calibrate look, and the next commands", () => {
  it("writes <cacheDir>/judgments.jsonl; sample reads it, or an evaluation folder's with --evaluation; review without a queue names the command that makes one", async () => {
    const copy = exampleCopy();
    const run = await runCliCaptured(["run", "--config", copy.config, "--quiet"]);
    expect(run.code, run.err).toBe(0);
    const folder = run.out.trim();
    const cached = join(copy.dir, ".ragjudge", "judgments.jsonl");
    expect(readFileSync(cached, "utf8")).toBe(readFileSync(join(folder, "judgments.jsonl"), "utf8"));

    const review = await runCliCaptured(["review", "--annotator", "asha", "--config", copy.config]);
    expect(review.code).toBe(2);
    expect(review.err).toBe(`ragjudge: error: ${join(copy.dir, ".ragjudge", "review-queue.jsonl")}: no review queue: make one with \`ragjudge sample --random 20 --annotator asha --config ${copy.config}\` (after \`ragjudge run\`), then run this again\n`);

    const sample = await runCliCaptured(["sample", "--random", "3", "--annotator", "asha", "--config", copy.config]);
    expect(sample.code, sample.err).toBe(0);
    rmSync(cached);
    const missing = await runCliCaptured(["sample", "--random", "3", "--annotator", "asha", "--config", copy.config]);
    expect(missing.err).toMatch(/judgments file not found: run `ragjudge run` \(or `ragjudge judge`\) first, or pass --evaluation DIR or --judgments FILE/);
    const fromFolder = await runCliCaptured(["sample", "--random", "3", "--annotator", "asha", "--config", copy.config, "--evaluation", folder, "--out", join(copy.dir, "q.jsonl")]);
    expect(fromFolder.code, fromFolder.err).toBe(0);
    expect(fromFolder.out).toContain(`--judgments ${join(folder, "judgments.jsonl")}`);
    expect(existsSync(join(copy.dir, "q.jsonl"))).toBe(true);
    const notOne = await runCliCaptured(["sample", "--random", "3", "--annotator", "asha", "--config", copy.config, "--evaluation", copy.dir]);
    expect(notOne.err).toMatch(/not an evaluation folder \(no report\.json/);
  });

  it("names the commands with the run's config and judge flags, quoted for a shell, and the sample size the gate still needs", () => {
    const rubric = (name: string, n: number, trusted = false) => ({ rubric: name, judge: "llm", trust: { trusted, n, thresholds: { minLabels: 50, minPerClass: 10, kappaLower: 0.6 }, heldout: "heldout" } });
    const report = {
      config: { shippedExample: false },
      judgeTotals: { errors: 0 },
      rubrics: [rubric("faithfulness", 20), rubric("correctness", 35)],
      questions: [{ split: "heldout" }],
    } as unknown as ReportJson;
    expect(nextCommands(report, { config: ["--config", "my dir/c.json"], judge: ["--judge", "openai"], annotator: "asha" })).toEqual([
      "Next: 2 rubrics are untrusted (faithfulness, correctness). Label a random sample of the heldout split, measure the judge against it, and gate on it:",
      "  ragjudge sample --random 50 --split heldout --annotator asha --config 'my dir/c.json'",
      "  ragjudge review --annotator asha --config 'my dir/c.json'",
      "  ragjudge calibrate --config 'my dir/c.json'",
      "  ragjudge run --config 'my dir/c.json' --judge openai --require-trusted",
    ]);
    expect(nextCommands({ ...report, judgeTotals: { errors: 3 } } as ReportJson, { config: [], judge: [] })[1]).toBe("  ragjudge run");
    expect(nextCommands({ ...report, rubrics: [rubric("faithfulness", 60, true)] } as ReportJson, { config: [], judge: [] })).toEqual(["Next: every rubric is trusted; gate CI on it:", "  ragjudge run --require-trusted"]);
    expect(shellArg("it's")).toBe(`'it'\\''s'`);
  });
});
