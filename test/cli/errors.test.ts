import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT, problemLines, reportError } from "../../src/cli/errors.js";
import { InputError, InputErrors } from "../../src/golden/errors.js";
import { runCliCaptured } from "../helpers/cli.js";
import { ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

/** reportError's message and code for `e`. */
function reported(e: unknown): { code: number; text: string } {
  let text = "";
  const code = reportError(e, (s) => (text += s));
  return { code, text };
}

/** The error Node's fs throws for `path` with `code`. */
function fsError(code: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: x, scandir '${path}'`), { code, path, syscall: "scandir", errno: -20 });
}

describe("reportError", () => {
  it("gives a file-system error on a user's path exit 2, naming the path, instead of an internal error", () => {
    const r = reported(fsError("ENOTDIR", join(process.cwd(), "evaluations")));
    expect(r).toEqual({ code: EXIT.badInput, text: "ragjudge: error: evaluations: is a file, or inside one, where a folder is needed (ENOTDIR)\n" });
    expect(reported(fsError("EACCES", "/root/x")).text).toBe("ragjudge: error: /root/x: permission denied (EACCES)\n");
    expect(reported(fsError("ENOSPC", "/tmp/out")).code).toBe(EXIT.badInput);
  });

  it("keeps exit 3 for what is a bug: an error with no path, or a code it does not know", () => {
    expect(reported(new TypeError("x is undefined")).code).toBe(EXIT.internal);
    expect(reported(Object.assign(new Error("ENOTDIR"), { code: "ENOTDIR" })).code).toBe(EXIT.internal);
    expect(reported(fsError("EWHATEVER", "/tmp/x")).code).toBe(EXIT.internal);
  });

  it("keeps a usage message that quotes a user's input on one line, so it cannot forge a line of output; only ragjudge's own laid-out text keeps its lines", async () => {
    const forged = await runCliCaptured(["retrieval", "--qrels", "x", "--trec-run", "x", "-m", "BOGUS\nragjudge: all checks passed"]);
    expect(forged.code).toBe(EXIT.badInput);
    expect(forged.err.split("\n").filter((l) => l.startsWith("ragjudge: all checks passed"))).toEqual([]);
    expect(forged.err).toContain("\\u000a");
  });

  it("keeps a path from a user's file on one line", () => {
    expect(reported(fsError("ENOENT", "/tmp/a\nb")).text).toBe("ragjudge: error: /tmp/a\\u000ab: not found (ENOENT)\n");
  });
});

describe("paths where a folder goes, given a file, through the CLI", () => {
  it("a labels folder that is a file says which setting names it; a cache or evaluations folder that is a file stops only the commands that use it", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "afile"), "");
    writeFileSync(join(dir, ".ragjudge"), "");
    const config = join(dir, "ragjudge.config.json");
    writeFileSync(config, JSON.stringify({
      golden: join(ROOT, "golden", "questions.jsonl"),
      variants: [{ name: "v", output: join(ROOT, "golden", "variants", "bm25-small", "output.jsonl"), chunks: join(ROOT, "golden", "variants", "bm25-small", "chunks.jsonl") }],
      labels: "afile", judge: { kind: "baseline" },
    }));
    const r = await runCliCaptured(["labels", "export", "--out", join(dir, "x.csv"), "--config", config]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toMatch(/afile: is a file, not a folder: the labels folder \(the config's "labels", or --labels\) must be a folder\n$/);
    // the cache folder the config names is a file, but this command is told another: it runs (a check at load refused it)
    expect((await runCliCaptured(["validate", "--config", config])).code).toBe(EXIT.ok);
  });

  it("compare --evaluations-dir FILE: exit 2 naming it", async () => {
    const dir = tempDir();
    const file = join(dir, "evaluations");
    writeFileSync(file, "");
    const r = await runCliCaptured(["compare", "--variants", "a,b", "--config", join(ROOT, "ragjudge.config.json"), "--evaluations-dir", file]);
    expect(r.code, r.err).toBe(EXIT.badInput);
    expect(r.err).toMatch(/evaluations: is a file, or inside one, where a folder is needed \(ENOTDIR\)\n$/);
    expect(r.err).not.toMatch(/internal error/);
  });

  it("judge and calibrate with labels/calibration a file: exit 2 naming it, the labels untouched", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "labels"));
    writeFileSync(join(dir, "labels", "calibration"), "");
    writeFileSync(join(dir, "ragjudge.config.json"), JSON.stringify({
      golden: join(ROOT, "golden", "questions.jsonl"),
      variants: [{ name: "v", output: join(ROOT, "golden", "variants", "bm25-small", "output.jsonl"), chunks: join(ROOT, "golden", "variants", "bm25-small", "chunks.jsonl") }],
      labels: "labels", cacheDir: "cache", judge: { kind: "baseline" },
    }));
    for (const command of ["judge", "calibrate"]) {
      const r = await runCliCaptured([command, "--config", join(dir, "ragjudge.config.json")]);
      expect(r.code, r.err).toBe(EXIT.badInput);
      expect(r.err).toMatch(/calibration: is a file, or inside one, where a folder is needed \(ENOTDIR\)\n$/);
    }
    expect(readdirSync(join(dir, "labels"))).toEqual(["calibration"]);
  });
});

describe("an empty flag value or argument (an unset variable in a CI script)", () => {
  const EXAMPLE = join(ROOT, "ragjudge.config.json");
  it.each([
    [["validate", "--config", ""], "--config: an empty value"],
    [["run", "--config", EXAMPLE, "--evaluations-dir=", "--quiet"], "--evaluations-dir: an empty value"],
    [["retrieval", "--config", EXAMPLE, "--measure", "R@10", "--measure", ""], "--measure: an empty value"],
    // parsed as numbers, "" was 0: no retries, seed 0
    [["judge", "--config", EXAMPLE, "--max-retries", ""], "--max-retries: an empty value"],
    [["sample", "--config", EXAMPLE, "--random", "5", "--annotator", "a", "--seed", ""], "--seed: an empty value"],
    // a list of "" was no filter: every variant
    [["judge", "--config", EXAMPLE, "--variant", ""], "--variant: an empty value"],
    [["review", "--annotator", "", "--tty"], "--annotator: an empty value"],
    [["review", "", "--annotator", "a"], "argument 2: empty"],
    [["init", ""], "argument 2: empty"],
    // after a switch, or a flag given its value inline, the empty word is an argument
    [["init", "--rubrics", ""], "argument 3: empty"],
    [["review", "--tty", "", "--annotator", "a"], "argument 3: empty"],
    [["run", "--config=x", ""], "argument 3: empty"],
    [["labels", "import", "x.csv", "--annotator", ""], "--annotator: an empty value"],
  ])("%j is refused (exit 2) instead of taking the default", async (args, message) => {
    const dir = tempDir();
    const before = process.cwd();
    process.chdir(dir);
    try {
      const r = await runCliCaptured(args);
      expect(r.code, r.err).toBe(EXIT.badInput);
      expect(r.err).toBe(`ragjudge: error: ${message} (an unset variable?): give a value\n`);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      process.chdir(before);
    }
  });

  it("takes a value of white space as a value (a list separator)", async () => {
    const dir = tempDir();
    const file = join(dir, "d.csv");
    writeFileSync(file, 'question,answer,reference_contexts\nQ?,A.,first passage|second passage\n');
    const r = await runCliCaptured(["import", "csv", file, "--out", join(dir, "out"), "--list-sep", " "]);
    expect(r.err).not.toMatch(/empty value/);
  });
});

describe("problemLines", () => {
  const at = (line: number | undefined, detail = "missing (expected string)", field: string | null = "id", file = "out.jsonl") => new InputError(file, line, field ?? undefined, detail);

  it("prints a problem repeated on many lines once, naming the other lines", () => {
    const problems = Array.from({ length: 5000 }, (_, i) => at(i + 1));
    expect(problemLines(problems)).toEqual(["out.jsonl:1: id: missing (expected string) (the same on 4,999 more lines: 2, 3, 4, 5, 6, ...)"]);
    expect(problemLines([at(3), at(9)])).toEqual(["out.jsonl:3: id: missing (expected string) (the same on 1 more line: 9)"]);
  });

  it("keeps problems apart that differ in file, field or message, in the order of their first line; problems without a line stay apart", () => {
    const lines = problemLines([at(1), at(2, "duplicate id \"q1\""), at(3), at(4, undefined, "question"), at(1, undefined, undefined, "golden.jsonl"), at(undefined, "file not found", null), at(undefined, "file not found", null)]);
    expect(lines).toEqual([
      "out.jsonl:1: id: missing (expected string) (the same on 1 more line: 3)",
      "out.jsonl:2: id: duplicate id \"q1\"",
      "out.jsonl:4: question: missing (expected string)",
      "golden.jsonl:1: id: missing (expected string)",
      "out.jsonl: file not found",
      "out.jsonl: file not found",
    ]);
  });

  it("prints the reader's stopped note after the cap of 30 printed problems too, not counted among the rest", () => {
    const problems = [...Array.from({ length: 50 }, (_, i) => at(i + 1, `bad at column ${i}`)), new InputError("out.jsonl", undefined, undefined, "stopped reading after 50 problems (line 51 and on not checked): fix these, then run again")];
    let text = "";
    expect(reportError(new InputErrors(problems), (s) => (text += s))).toBe(EXIT.badInput);
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(32);
    expect(lines[30]).toBe("ragjudge: ... and 20 more problems");
    expect(lines[31]).toBe("ragjudge: error: out.jsonl: stopped reading after 50 problems (line 51 and on not checked): fix these, then run again");
  });

  it("through the CLI: an output file whose every line lacks its id prints one line, not one per line", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "golden.jsonl"), '{"id":"q1","question":"Q?","relevantText":["A passage."]}\n');
    writeFileSync(join(dir, "out.jsonl"), '{"qid":"q1","retrieved":[{"text":"A passage."}]}\n'.repeat(400));
    writeFileSync(join(dir, "ragjudge.config.json"), JSON.stringify({ golden: "golden.jsonl", variants: [{ name: "v", output: "out.jsonl" }], judge: { kind: "baseline" } }));
    for (const command of ["validate", "run"]) {
      const r = await runCliCaptured([command, "--config", join(dir, "ragjudge.config.json"), "--evaluations-dir", join(dir, "ev")].slice(0, command === "run" ? 5 : 3));
      expect(r.code, r.err).toBe(EXIT.badInput);
      const printed = r.err.trimEnd().split("\n").filter((l) => !l.startsWith("ragjudge: validate:"));
      expect(printed.length, r.err).toBe(3);
      // the reader stops at 50 problems (25 lines of two each here) and says so
      expect(r.err).toMatch(/out\.jsonl:1: id: missing \(expected string\) \(the same on 24 more lines: 2, 3, 4, 5, 6, \.\.\.\)\n/);
      // the note comes after the problems it is about, and is not counted as one
      expect(printed[2]).toMatch(/out\.jsonl: stopped reading after 50 problems \(line 26 and on not checked\): fix these, then run again$/);
      if (command === "validate") expect(r.err).toMatch(/ragjudge: validate: 50 problems found \(and the files it stopped reading\)\n$/);
    }
  });
});
