import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigNotFoundError, loadConfig, missingInputs, packagedRubricsDir, resolveRubrics } from "../../src/golden/config.js";
import { inputErrorMessages } from "../helpers/input-errors.js";
import { tempDir } from "../helpers/temp.js";

function project(config: string, files: Record<string, string> = {}): string {
  const dir = tempDir("ragjudge-config-");
  writeFileSync(join(dir, "ragjudge.config.json"), config);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(dir, f, ".."), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  return dir;
}

describe("loadConfig", () => {
  it("never falls back to the shipped example: no --config and no ./ragjudge.config.json names the two ways on", () => {
    const empty = tempDir("ragjudge-noconfig-");
    expect(() => loadConfig(undefined, empty)).toThrow(ConfigNotFoundError);
    expect(() => loadConfig(undefined, empty)).toThrow(`no ragjudge.config.json in ${empty} and no --config: run \`ragjudge init\` to start one here, or add --example to run the shipped example`);
  });

  it("from a project's subfolder, names the project's config instead of offering to start a second project inside it", async () => {
    const root = tempDir("ragjudge-sub-");
    writeFileSync(join(root, "ragjudge.config.json"), "{}\n");
    const sub = join(root, "outputs", "deep");
    mkdirSync(sub, { recursive: true });
    const message = `no ragjudge.config.json in ${sub}, but this folder is inside the project of ${join(root, "ragjudge.config.json")}: run ragjudge from ${root}, or pass --config ../../ragjudge.config.json (\`ragjudge init\` here would start a second project inside it)`;
    expect(() => loadConfig(undefined, sub)).toThrow(message);
    // the hint works as printed
    expect(() => loadConfig("../../ragjudge.config.json", sub)).not.toThrow(ConfigNotFoundError);
  });

  it("reads JSON with comments and trailing commas, and names the line of every problem", () => {
    const dir = project(`// a comment\n{\n  "golden": "q.jsonl", // the questions\n  /* block */\n  "variants": [{"name": "v", "output": "o.jsonl",},],\n  "k": [0],\n  "typo": 1\n}\n`);
    const file = join(dir, "ragjudge.config.json");
    expect(inputErrorMessages(() => loadConfig(file))).toEqual([
      `${file}:6: k[0]: must be a positive whole number`,
      `${file}:7: unknown field "typo"`,
    ]);
    const bad = project(`{\n  "golden": "q.jsonl"\n  "variants": []\n}`);
    expect(inputErrorMessages(() => loadConfig(join(bad, "ragjudge.config.json")))).toEqual([`${join(bad, "ragjudge.config.json")}:2: not valid JSON: a comma is missing after the value that ends at column 21`]);
  });

  it("refuses a key given twice in one object (JSON would keep the last without a word), on the line of the repeat, naming the first", () => {
    const dir = project(`{\n  "golden": "q.jsonl",\n  "trust": { "minLabels": 20, "minPerClass": 3 },\n  "variants": [{"name": "v", "output": "o.jsonl", "name": "w"}],\n  "trust": { "kappaLower": 0.6 }\n}\n`);
    const file = join(dir, "ragjudge.config.json");
    expect(inputErrorMessages(() => loadConfig(file))).toEqual([
      `${file}:4: variants[0].name: given twice (first on line 4): JSON keeps only the last, so the first would be dropped without a word; keep one`,
      `${file}:5: trust: given twice (first on line 3): JSON keeps only the last, so the first would be dropped without a word; keep one`,
    ]);
  });

  it("words a syntax error, and puts a missing comma on the line of the value it belongs after, past comments and blank lines", () => {
    const comma = project(`{\n  "golden": "q.jsonl",\n  "k": [1, 5, 10]\n\n  // the judge\n  /* more */\n  "judge": {"kind": "baseline"}\n}\n`);
    expect(inputErrorMessages(() => loadConfig(join(comma, "ragjudge.config.json")))).toEqual([`${join(comma, "ragjudge.config.json")}:3: not valid JSON: a comma is missing after the value that ends at column 17`]);
    const value = project(`{\n  "golden": "q.jsonl",\n  "k": \n}\n`);
    expect(inputErrorMessages(() => loadConfig(join(value, "ragjudge.config.json")))).toEqual([`${join(value, "ragjudge.config.json")}:4: not valid JSON: a value is expected (column 1)`]);
    const colon = project(`{\n  "golden" "q.jsonl"\n}\n`);
    expect(inputErrorMessages(() => loadConfig(join(colon, "ragjudge.config.json")))).toEqual([`${join(colon, "ragjudge.config.json")}:2: not valid JSON: a colon is missing between a property name and its value (column 12)`]);
  });

  it("refuses objects and arrays nested past the limit, naming the line, before parsing (3,000 levels ran out of stack: exit 3)", () => {
    for (const depth of [3000, 100_000]) {
      const dir = project(`{\n  "golden": "q.jsonl",\n  "x": ${"[".repeat(depth)}${"]".repeat(depth)},\n  "y": ${'{"a":'.repeat(depth)}1${"}".repeat(depth)}\n}`);
      const file = join(dir, "ragjudge.config.json");
      expect(inputErrorMessages(() => loadConfig(file)), String(depth)).toEqual([`${file}:3: objects and arrays nested more than 64 levels deep, over the limit (a config's fields nest 4 levels at most)`]);
    }
    // brackets in strings and comments are not nesting, and 64 levels are still read (and refused for what they are)
    const fine = project(`{"golden": "q.jsonl", "variants": [{"name": "v", "output": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[.jsonl"}] // ${"{".repeat(100)}\n, "x": ${"[".repeat(63)}${"]".repeat(63)}}`);
    expect(inputErrorMessages(() => loadConfig(join(fine, "ragjudge.config.json")))).toEqual([`${join(fine, "ragjudge.config.json")}:2: unknown field "x"`]);
  });

  it("puts each unknown field on its own line, names the field probably meant, and lists problems in line order", () => {
    const dir = project(`{\n  "golden": "q.jsonl",\n  "variants": [{"name": "v", "output": "o.jsonl",\n    "context_k": 3, "zzz": 1}],\n  "trust": {"minLabel": 3},\n  "goldn": "x", "Judge": {}\n}\n`);
    const file = join(dir, "ragjudge.config.json");
    expect(inputErrorMessages(() => loadConfig(file))).toEqual([
      `${file}:4: variants[0]: unknown field "context_k" (did you mean "contextK"?)`,
      `${file}:4: variants[0]: unknown field "zzz"`,
      `${file}:5: trust: unknown field "minLabel" (did you mean "minLabels"?)`,
      `${file}:6: unknown field "goldn" (did you mean "golden"?)`,
      `${file}:6: unknown field "Judge" (did you mean "judge"?)`,
    ]);
  });

  it("says what a union field takes instead of zod's \"Invalid input\": judge.logprobs, a judge's kind", () => {
    const dir = project(`{\n  "golden": "q.jsonl",\n  "variants": [{"name": "v", "output": "o.jsonl"}],\n  "judge": {"kind": "openai", "model": "m", "logprobs": "maybe"},\n  "judges": [{"name": "x", "kind": "bogus"}]\n}\n`);
    const file = join(dir, "ragjudge.config.json");
    expect(inputErrorMessages(() => loadConfig(file))).toEqual([
      `${file}:4: judge.logprobs: expected "auto" or boolean, got string "maybe"`,
      `${file}:5: judges[0].kind: expected one of "openai", "baseline", "constant", "majority", "unanimous", "cascade", got string "bogus"`,
    ]);
  });

  it("names each missing input at the config's line and field, saying paths are relative to the config's folder", () => {
    const dir = project(`{\n  "golden": "golden.jsonl",\n  "variants": [\n    {"name": "v", "output": "out/v.jsonl", "chunks": "chunks.jsonl"}\n  ]\n}\n`, { "golden.jsonl": "{}\n" });
    const cfg = loadConfig(join(dir, "ragjudge.config.json"), tempDir());
    expect(missingInputs(cfg).map((p) => p.message)).toEqual([
      `${join(dir, "ragjudge.config.json")}:4: variants[0].output: "out/v.jsonl" not found: ${join(dir, "out", "v.jsonl")} (paths are relative to the config's folder ${dir})`,
      `${join(dir, "ragjudge.config.json")}:4: variants[0].chunks: "chunks.jsonl" not found: ${join(dir, "chunks.jsonl")} (paths are relative to the config's folder ${dir})`,
    ]);
    // from the config's own folder the place looked in reads as the path given: said once
    const here = process.cwd();
    try {
      process.chdir(dir);
      expect(missingInputs(loadConfig(join(dir, "ragjudge.config.json"))).map((p) => p.message)).toEqual([
        `ragjudge.config.json:4: variants[0].output: "out/v.jsonl" not found (paths are relative to the config's folder ${dir})`,
        `ragjudge.config.json:4: variants[0].chunks: "chunks.jsonl" not found (paths are relative to the config's folder ${dir})`,
      ]);
    } finally {
      process.chdir(here);
    }
  });

  it("uses rubricsDir when set (missing: an error, never a silent swap), else rubrics/ beside the config, else the packaged defaults", () => {
    const base = `"golden": "g.jsonl", "variants": [{"name": "v", "output": "o.jsonl"}]`;
    const none = project(`{${base}}`);
    expect(resolveRubrics(loadConfig(join(none, "ragjudge.config.json")))).toEqual({ dir: packagedRubricsDir(), packaged: true });
    const own = project(`{${base}}`, { "rubrics/x.yaml": "" });
    expect(resolveRubrics(loadConfig(join(own, "ragjudge.config.json")))).toEqual({ dir: join(own, "rubrics"), packaged: false });
    const typo = project(`{${base},\n "rubricsDir": "rubircs"}`);
    const file = join(typo, "ragjudge.config.json");
    expect(inputErrorMessages(() => resolveRubrics(loadConfig(file)))[0]).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2: rubricsDir: folder .*rubircs not found .*remove "rubricsDir" to use the packaged rubrics, or run \`ragjudge init --rubrics\``));
  });
});
