import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../../helpers/cli.js";
import { ROOT } from "../../helpers/paths.js";
import { judge, project, writeJudgments } from "../../review/dataset.js";

/** One label line of `annotator`, as review writes it. */
const label = (annotator: string, question = "q01") =>
  JSON.stringify({ variant: "v1", question, rubric: "faithfulness", unit: "answer", inputHash: "a".repeat(64), label: "yes", annotator, provenance: "human", frame: "manual", time: "2026-12-01T00:00:00Z" }) + "\n";

describe("--annotator that reads like an annotator already in the labels folder", () => {
  it("is refused by sample, review (page and --tty), plan and labels import before anything is written, naming the name in use and where", async () => {
    const p = project();
    writeJudgments(p.judgments, p.items.map((i) => judge(i, "yes")));
    mkdirSync(p.labels);
    writeFileSync(join(p.labels, "asha.jsonl"), label("asha"));
    const queue = join(p.dir, "queue.jsonl");
    const said = /^ragjudge: error: --annotator: "Asha" reads like "asha", an annotator already in \S*labels\/asha\.jsonl:1, but is another name: .*use --annotator asha/;
    const runs: string[][] = [
      ["sample", "--random", "4", "--annotator", "Asha", "--out", queue],
      ["sample", "--disagreements", "--annotator", "Asha", "--out", queue],
      ["sample", "--panel-splits", "--annotator", "Asha", "--out", queue],
      ["plan", "--budget", "10", "--annotator", "Asha", "--out", queue, "--reps", "0"],
      ["plan", "--active", "2", "--annotator", "Asha", "--out", queue],
      ["review", "--item", "v1/q01", "--annotator", "Asha", queue],
    ];
    for (const args of runs) {
      const r = await runCliCaptured([...args, "--config", p.config]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err, args.join(" ")).toMatch(said);
      expect(r.err.trim().split("\n"), args.join(" ")).toHaveLength(1);
    }
    expect(existsSync(queue)).toBe(false);
    expect(readdirSync(p.labels)).toEqual(["asha.jsonl"]);
    // the spelling in use works
    expect((await runCliCaptured(["sample", "--random", "4", "--annotator", "asha", "--out", queue, "--config", p.config])).code).toBe(0);
    const r = await runCliCaptured(["review", queue, "--annotator", "ASHA", "--tty", "--config", p.config]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--annotator: "ASHA" reads like "asha"/);
    expect(readdirSync(p.labels).sort()).toEqual(["asha.jsonl", "draws"]);
    // labels import under --annotator: the CSV's line, and the flag to use
    const csv = join(p.dir, "in.csv");
    writeFileSync(csv, `variant,question,rubric,unit,inputHash,label\nv1,q02,faithfulness,answer,${"b".repeat(64)},yes\n`);
    const imp = await runCliCaptured(["labels", "import", csv, "--annotator", "Asha", "--provenance", "human", "--frame", "manual", "--config", p.config]);
    expect(imp.code).toBe(2);
    expect(imp.err).toMatch(/in\.csv:2: annotator: "Asha" reads like "asha", an annotator already in \S*asha\.jsonl:1, but is another name: .*use --annotator asha/);
    expect(readdirSync(p.labels).sort()).toEqual(["asha.jsonl", "draws"]);
  });

  it("is refused when the name in use is only a draw's (sampled for, nothing labelled yet), naming the draw's manifest", async () => {
    const p = project();
    writeJudgments(p.judgments, p.items.map((i) => judge(i, "yes")));
    const queue = join(p.dir, "queue.jsonl");
    expect((await runCliCaptured(["sample", "--random", "4", "--rubrics", "faithfulness", "--annotator", "asha", "--out", queue, "--config", p.config])).code).toBe(0);
    // the first review, in the terminal, with the name typed another way
    const r = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "review", queue, "--annotator", "Asha", "--tty", "--config", p.config], { cwd: ROOT, input: "y\nq\n", encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^ragjudge: error: --annotator: "Asha" reads like "asha", an annotator already in \S*labels\/draws\/[0-9a-f]{16}\.json, but is another name/);
    expect(r.stdout).toBe("");
    expect(existsSync(join(p.labels, "Asha.jsonl"))).toBe(false);
  });

});
