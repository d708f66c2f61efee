import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfigText } from "../../src/golden/config.js";
import { runCliCaptured } from "../helpers/cli.js";
import { ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

describe("ragjudge init", () => {
  it("writes a commented starter that validates and runs at once, and never overwrites on a rerun", async () => {
    const dir = join(tempDir("ragjudge-init-"), "my-eval");
    const r = await runCliCaptured(["init", dir]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/wrote ragjudge\.config\.json: the config, commented/);
    expect(r.out).toMatch(/added \.ragjudge\/ \(the judge's cache\) to \.gitignore/);
    expect(readdirSync(dir).sort()).toEqual([".gitignore", "golden", "outputs", "ragjudge.config.json"]);
    const config = readFileSync(join(dir, "ragjudge.config.json"), "utf8");
    // commented, with one line of each format, and valid as it stands
    expect(config).toMatch(/^\s*\/\/ +\{"id":"q1","question":/m);
    expect(config).toMatch(/^\s*\/\/ +\{"id":"q1","retrieved":\[\{"text":/m);
    expect(config).toMatch(/^\s*\/\/ +\{"variant":"my-rag","question":"q1","rubric":"faithfulness"/m);
    // the newer settings are named where they stand, commented out
    expect(config).toMatch(/^\s*\/\/ +"judges": \[\{ "name": "small", "kind": "openai"/m);
    expect(config).toMatch(/^\s*\/\/ +"faithfulnessUnit": "claim"$/m);
    expect(config).toMatch(/"logprobs": "auto"/);
    expect(parseConfigText(config, "c").config.variants[0]!.chunks).toBeUndefined();
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toMatch(/^\.ragjudge\/$/m);

    // the import hint names a new folder, after the cd and the commands for this one: import never writes into the
    // starter (it read "(or ... --out DIR), then: cd my-eval", and `import ragas FILE --out my-eval` was refused)
    const next = r.out.slice(r.out.indexOf("Next:")).split("\n");
    expect(next.findIndex((l) => l.includes("import ragas"))).toBeGreaterThan(next.indexOf("  ragjudge run"));
    expect(r.out).toMatch(/^ {2}ragjudge import ragas FILE --out NEW-FOLDER /m);
    const cfg = join(dir, "ragjudge.config.json");
    expect((await runCliCaptured(["validate", "--config", cfg])).code).toBe(0);
    const run = await runCliCaptured(["run", "--config", cfg, "--quiet"]);
    expect(run.code, run.err).toBe(0);

    writeFileSync(join(dir, "golden", "questions.jsonl"), "mine\n");
    const again = await runCliCaptured(["init", dir]);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/exists, left as it is: golden\/questions\.jsonl/);
    expect(again.out).toMatch(/\.gitignore already ignores \.ragjudge\//);
    expect(again.out).toMatch(/Nothing new written/);
    expect(readFileSync(join(dir, "golden", "questions.jsonl"), "utf8")).toBe("mine\n");
    expect(readFileSync(join(dir, ".gitignore"), "utf8").match(/\.ragjudge\//g)).toHaveLength(1);
  });

  it("a rerun in a project with a config does not bring back example data the user removed or renamed, and says so", async () => {
    const dir = join(tempDir("ragjudge-init-rerun-"), "my-eval");
    expect((await runCliCaptured(["init", dir])).code).toBe(0);
    // the user's own files, under their own names
    renameSync(join(dir, "outputs", "my-rag.output.jsonl"), join(dir, "outputs", "bm25.output.jsonl"));
    rmSync(join(dir, "golden", "questions.jsonl"));
    const again = await runCliCaptured(["init", dir]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain("exists, left as it is: ragjudge.config.json");
    expect(again.out).toContain("not written: golden/questions.jsonl (example data; the project's ragjudge.config.json names its own files)");
    expect(again.out).toContain("not written: outputs/my-rag.output.jsonl (example data;");
    expect(again.out).toContain("Nothing new written: the project exists.");
    expect(again.out).not.toContain("wrote ");
    expect(readdirSync(join(dir, "outputs"))).toEqual(["bm25.output.jsonl"]);
    expect(readdirSync(join(dir, "golden"))).toEqual([]);
    // --rubrics still copies the rubrics into the existing project
    const rubrics = await runCliCaptured(["init", dir, "--rubrics"]);
    expect(rubrics.out).toMatch(/wrote rubrics\/faithfulness\.yaml/);
    expect(existsSync(join(dir, "outputs", "my-rag.output.jsonl"))).toBe(false);
  });

  it("--rubrics copies the packaged rubrics out, and the run then uses (and records) the copies", async () => {
    const dir = tempDir("ragjudge-init-rubrics-");
    expect((await runCliCaptured(["init", dir, "--rubrics"])).code).toBe(0);
    expect(readdirSync(join(dir, "rubrics")).sort()).toEqual(readdirSync(join(ROOT, "rubrics")).sort());
    const run = await runCliCaptured(["run", "--config", join(dir, "ragjudge.config.json"), "--quiet"]);
    const report = JSON.parse(readFileSync(join(run.out.trim(), "report.json"), "utf8"));
    expect(report.inputs.rubricsSource).toEqual({ dir: join(dir, "rubrics"), packaged: false });
  });

  it("without a rubrics folder, the packaged rubrics are used, printed and recorded", async () => {
    const dir = tempDir("ragjudge-init-packaged-");
    await runCliCaptured(["init", dir]);
    const run = await runCliCaptured(["run", "--config", join(dir, "ragjudge.config.json")]);
    expect(run.err).toMatch(/^rubrics: citation-accuracy, correctness, faithfulness, not-found from the packaged defaults/m);
    // the summary and report.md (shared as a PR comment) leave out the install path
    expect(run.out).toMatch(/^rubrics: citation-accuracy, correctness, faithfulness, not-found from the packaged defaults$/m);
    const folder = readdirSync(join(dir, "evaluations"))[0]!;
    const md = readFileSync(join(dir, "evaluations", folder, "report.md"), "utf8");
    expect(md).toContain("- rubrics: citation-accuracy, correctness, faithfulness, not-found from the packaged defaults\n");
    expect(md).not.toContain(ROOT);
  });

  it("refuses a target that is a file in one line (exit 2), writing nothing", async () => {
    const dir = tempDir("ragjudge-init-file-");
    const file = join(dir, "notes.txt");
    writeFileSync(file, "x");
    const r = await runCliCaptured(["init", file]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`ragjudge: error: ${file}: is a file, expected a folder (ragjudge init writes a starter project into a folder)\n`);
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
    expect(existsSync(join(dir, ".gitignore"))).toBe(false);
  });
});
