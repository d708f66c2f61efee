/**
 * `ragjudge review --item`: the command the HTML report's explorer shows
 * for every item. It draws that item into a queue of its own (the manual
 * frame, which the trust gate never counts) and opens the review on it.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { QueueEntry } from "../../src/golden/schema/items.js";
import { runEvaluation, type EvaluationResult } from "../../src/report/evaluation.js";
import { runCliCaptured } from "../helpers/cli.js";
import { ROOT } from "../helpers/paths.js";
import { exampleCopy, type ExampleCopy } from "../report/helpers.js";

describe("ragjudge review --item", () => {
  let copy: ExampleCopy;
  let run: EvaluationResult;
  beforeAll(async () => {
    copy = exampleCopy();
    run = await runEvaluation({ config: copy.config, evaluationsDir: copy.evaluations });
  });

  const review = (args: string[], input: string) =>
    spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "review", ...args, "--tty", "--annotator", "asha", "--config", copy.config, "--judgments", join(run.folder, "judgments.jsonl")], { cwd: ROOT, input, encoding: "utf8" });

  it("queues every judged rubric and unit of one question, in the manual frame, and labels it", () => {
    const queue = join(copy.dir, "one.jsonl");
    const r = review(["--item", "hybrid-rerank/fact-01", queue], "y\nq\n");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const entries = readFileSync(queue, "utf8").trim().split("\n").map((l) => QueueEntry.parse(JSON.parse(l)));
    expect(new Set(entries.map((e) => `${e.variant}/${e.question}`))).toEqual(new Set(["hybrid-rerank/fact-01"]));
    expect(entries.every((e) => e.frame === "manual" && e.inclusionProbability === undefined)).toBe(true);
    expect(new Set(entries.map((e) => e.rubric))).toEqual(new Set(["citation-accuracy", "correctness", "faithfulness", "not-found"]));
    expect(r.stdout).toContain(`Reviewing ${entries.length} items as asha`);
    const labels = readFileSync(join(copy.labels, "asha.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { question: string; frame: string; label: string });
    expect(labels).toHaveLength(1);
    expect(labels[0]).toMatchObject({ question: "fact-01", frame: "manual", label: "yes" });
  });

  it("narrows to one rubric, or one unit", () => {
    const queue = join(copy.dir, "rubric.jsonl");
    expect(review(["--item", "bm25-small/fact-01/correctness", queue], "q\n").status).toBe(0);
    const entries = readFileSync(queue, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { rubric: string; unit: string });
    expect(entries.map((e) => [e.rubric, e.unit])).toEqual([["correctness", "answer"]]);
  });

  it("an unknown item is one line naming the flag, exit 2", async () => {
    const r = await runCliCaptured(["review", "--item", "hybrid-rerank/no-such-question", "--annotator", "asha", "--config", copy.config, "--judgments", join(run.folder, "judgments.jsonl"), "--tty"]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(/--item: "hybrid-rerank\/no-such-question" \(variant\/question\[\/rubric\[\/unit\]\]\): no item of this config/);
  });

  it("refuses a queue named as the config or a file it reads (the config was replaced by the item's queue)", async () => {
    const text = readFileSync(copy.config, "utf8");
    const output = join(copy.dir, "golden", "variants", "bm25-small", "output.jsonl");
    const outputText = readFileSync(output, "utf8");
    for (const [queue, re] of [[copy.config, /ragjudge\.config\.json: is the config file, which this command reads/], [output, /output\.jsonl: is the pipeline output of variant bm25-small, which this command reads/]] as const) {
      const r = await runCliCaptured(["review", "--item", "hybrid-rerank/fact-01", queue, "--annotator", "asha", "--config", copy.config, "--judgments", join(run.folder, "judgments.jsonl"), "--tty"]);
      expect(r.code).toBe(2);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err).toMatch(re);
    }
    expect(readFileSync(copy.config, "utf8")).toBe(text);
    expect(readFileSync(output, "utf8")).toBe(outputText);
  });
});
