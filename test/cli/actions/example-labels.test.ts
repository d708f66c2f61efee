/**
 * The shipped example's labels folder is part of the installed package,
 * which no command writes: with `--example` (from a folder of one's own),
 * `sample --random`, `plan --budget`, `review`, `calibrate` and `labels
 * import` are refused before they read or write anything, exit 2, with one
 * line whose hint is then run exactly as printed.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_LABELS, labelsArgs, labelsToWrite } from "../../../src/cli/actions/example-labels.js";
import { loadConfig } from "../../../src/golden/config.js";
import { NO_KEY, runCliIn } from "../../helpers/cli.js";
import { ROOT } from "../../helpers/paths.js";
import { tempDir } from "../../helpers/temp.js";

const PACKAGE_LABELS = join(ROOT, "labels");

/** Every file under a folder with the SHA-256 of its content, sorted: equal before and after means nothing was written. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => statSync(join(dir, f)).isFile()).sort()
    .map((f) => `${f} ${createHash("sha256").update(readFileSync(join(dir, f))).digest("hex")}`);
}

const refusal = (hint: string) => `ragjudge: error: the shipped example's labels folder (${PACKAGE_LABELS}) belongs to the installed ragjudge package, which is never written: ${hint}\n`;
const HINTS = {
  sample: `add --labels ${EXAMPLE_LABELS} to record the draw in a folder of your own (made when missing); review and calibrate then take the same --labels`,
  plan: `mkdir ${EXAMPLE_LABELS}, then add --labels ${EXAMPLE_LABELS} to record the draws in a folder of your own`,
  review: `add --labels ${EXAMPLE_LABELS} to keep your labels in a folder of your own (made when missing)`,
  calibrate: "add --no-write to print the example's calibration without recording it",
  import: `add --labels ${EXAMPLE_LABELS} to import into a folder of your own (made when missing)`,
};
/** The flag a hint asks for, as words to add to the command. */
const flagOf = (hint: string) => /add (--labels \S+|--no-write) /.exec(hint)![1]!.split(" ");

/** One label of the example as a CSV row of a person's own (frame manual). */
function csv(dir: string): string {
  const judgment = readFileSync(join(dir, ".ragjudge", "judgments.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, string>).find((j) => j.judge !== "rule")!;
  const file = join(dir, "mine.csv");
  writeFileSync(file, `variant,question,rubric,unit,inputHash,label\n${judgment.variant},${judgment.question},${judgment.rubric},${judgment.unit},${judgment.inputHash},yes\n`);
  return file;
}

let cwd: string;
let before: string[];

beforeAll(async () => {
  before = snapshot(PACKAGE_LABELS);
  cwd = tempDir("ragjudge-example-labels-");
  // A user's first step: the example's verdicts in this folder's cache (.ragjudge/judgments.jsonl).
  expect((await runCliIn(cwd, ["run", "--example", "--quiet"], NO_KEY)).code).toBe(0);
}, 60_000);

describe("--example never writes the installed package's labels folder", () => {
  it("refuses every command that would write labels, draws or records there, in one line, exit 2, before anything is written", async () => {
    const cases: [string[], string][] = [
      [["sample", "--example", "--random", "5", "--annotator", "me"], HINTS.sample],
      [["plan", "--example", "--budget", "8", "--annotator", "me"], HINTS.plan],
      [["review", "--example", "--annotator", "me"], HINTS.review],
      [["calibrate", "--example"], HINTS.calibrate],
      [["labels", "import", csv(cwd), "--example", "--annotator", "me", "--provenance", "human", "--frame", "manual"], HINTS.import],
    ];
    const files = readdirSync(cwd, { recursive: true }).sort();
    for (const [args, hint] of cases) {
      const r = await runCliIn(cwd, args, NO_KEY);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toBe(refusal(hint));
      expect(r.out).toBe("");
      expect(readdirSync(cwd, { recursive: true }).sort()).toEqual(files);
    }
    expect(snapshot(PACKAGE_LABELS)).toEqual(before);
  });

  it("still reads them: sample frames that record no draw, plan without --budget, calibrate --no-write", async () => {
    for (const args of [["plan", "--example"], ["calibrate", "--example", "--no-write", "--reps", "100"], ["sample", "--example", "--disagreements", "--annotator", "me"]]) {
      const r = await runCliIn(cwd, args, NO_KEY);
      expect(r.code, `${args.join(" ")}: ${r.err}`).toBe(0);
    }
    expect(snapshot(PACKAGE_LABELS)).toEqual(before);
  });

  it("each hint works as printed, and the commands it leads to carry the same --labels", async () => {
    const calibrate = await runCliIn(cwd, ["calibrate", "--example", ...flagOf(HINTS.calibrate), "--reps", "100"], NO_KEY);
    expect(calibrate.code, calibrate.err).toBe(0);

    const sample = await runCliIn(cwd, ["sample", "--example", "--random", "5", "--split", "heldout", "--annotator", "me", ...flagOf(HINTS.sample)], NO_KEY);
    expect(sample.code, sample.err).toBe(0);
    expect(readdirSync(join(cwd, EXAMPLE_LABELS, "draws"))).toHaveLength(4);
    const next = /Next: (ragjudge review .*)$/m.exec(sample.out)![1]!;
    expect(next).toBe(`ragjudge review --annotator me --example --labels ${EXAMPLE_LABELS}`);
    // review as printed, in the terminal: one answer, then quit
    const loader = pathToFileURL(join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href;
    const review = spawnSync(process.execPath, ["--import", loader, join(ROOT, "src", "cli", "main.ts"), ...next.split(" ").slice(1), "--tty"], { cwd, input: "y\nq\n", encoding: "utf8" });
    expect(review.status, review.stderr).toBe(0);
    expect(readFileSync(join(cwd, EXAMPLE_LABELS, "me.jsonl"), "utf8").trim().split("\n")).toHaveLength(1);

    const imported = await runCliIn(cwd, ["labels", "import", csv(cwd), "--example", "--annotator", "me", "--provenance", "human", "--frame", "manual", ...flagOf(HINTS.import)], NO_KEY);
    expect(imported.code, imported.err).toBe(0);
    expect(readFileSync(join(cwd, EXAMPLE_LABELS, "me.jsonl"), "utf8").trim().split("\n")).toHaveLength(2);

    // plan --budget's folder must exist (a mistyped --labels is not "no labels yet"): the hint makes it first
    const fresh = tempDir("ragjudge-example-plan-");
    expect((await runCliIn(fresh, ["run", "--example", "--quiet"], NO_KEY)).code).toBe(0);
    expect(HINTS.plan.startsWith(`mkdir ${EXAMPLE_LABELS}, then add --labels ${EXAMPLE_LABELS} `)).toBe(true);
    mkdirSync(join(fresh, EXAMPLE_LABELS));
    const plan = await runCliIn(fresh, ["plan", "--example", "--budget", "8", "--annotator", "me", "--labels", EXAMPLE_LABELS], NO_KEY);
    expect(plan.code, plan.err).toBe(0);
    expect(readdirSync(join(fresh, EXAMPLE_LABELS, "draws")).length).toBeGreaterThan(0);

    expect(snapshot(PACKAGE_LABELS)).toEqual(before);
  }, 60_000);

  it("before any run, a reader's advice to judge first names --example, and works as printed", async () => {
    const fresh = tempDir("ragjudge-example-first-");
    const readers = [["calibrate", "--example", "--no-write", "--reps", "100"], ["sample", "--example", "--disagreements", "--annotator", "me"]];
    for (const args of readers) {
      const r = await runCliIn(fresh, args, NO_KEY);
      expect(r.code, args.join(" ")).toBe(2);
      // a bare `ragjudge run` here finds no config: the advice must name the example
      expect(r.err).toBe(`ragjudge: error: ${join(".ragjudge", "judgments.jsonl")}: judgments file not found: run \`ragjudge run --example\` (or \`ragjudge judge --example\`) first, or pass ${args[0] === "sample" ? "--evaluation DIR or " : ""}--judgments FILE\n`);
    }
    const printed = /run `ragjudge (run --example)`/.exec((await runCliIn(fresh, readers[0]!, NO_KEY)).err)![1]!.split(" ");
    expect((await runCliIn(fresh, [...printed, "--quiet"], NO_KEY)).code).toBe(0);
    for (const args of readers) {
      const r = await runCliIn(fresh, args, NO_KEY);
      expect(r.code, `${args.join(" ")}: ${r.err}`).toBe(0);
    }
    expect(snapshot(PACKAGE_LABELS)).toEqual(before);
  }, 60_000);

  it("refuses the example's config named through a symlink to the package as it refuses --example, and writes nothing there", async () => {
    const link = join(tempDir("ragjudge-example-link-"), "pkg");
    symlinkSync(ROOT, link);
    const args = ["calibrate", "--config", join(link, "ragjudge.config.json"), "--judgments", join(cwd, ".ragjudge", "judgments.jsonl")];
    const r = await runCliIn(cwd, args, NO_KEY);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toBe(`ragjudge: error: the shipped example's labels folder (${join(link, "labels")}) belongs to the installed ragjudge package, which is never written: ${HINTS.calibrate}\n`);
    expect(snapshot(PACKAGE_LABELS)).toEqual(before);
    const hinted = await runCliIn(cwd, [...args, ...flagOf(HINTS.calibrate), "--reps", "100"], NO_KEY);
    expect(hinted.code, hinted.err).toBe(0);
    expect(snapshot(PACKAGE_LABELS)).toEqual(before);
  }, 60_000);

  it("from the package's own folder (where its authors keep the example's labels) the folder stays the project's own", () => {
    const cfg = loadConfig(join(ROOT, "ragjudge.config.json"), ROOT);
    // vitest runs in the repository root: the package's folder
    expect(labelsToWrite(cfg, undefined, "unused")).toBe(PACKAGE_LABELS);
    expect(labelsArgs(cfg, undefined)).toEqual([]);
    expect(labelsArgs(cfg, "mine")).toEqual(["--labels", "mine"]);
  });
});
