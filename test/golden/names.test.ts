/**
 * Names are identities (issue 12): verdicts, labels and reports join on
 * variant and rubric names, so two of one name would merge silently (two
 * variants named alike once collapsed 435 judgments onto 271 item keys).
 * Each is exit 2 at validation, one line naming the file and the field.
 */
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../helpers/cli.js";
import { exampleCopy } from "../report/helpers.js";

describe("names are identities", () => {
  it("refuses two variants of one name, naming the config and the field, before anything is written", async () => {
    const copy = exampleCopy((c) => {
      const v = c.variants as { name: string }[];
      v[1]!.name = v[0]!.name;
    });
    for (const cmd of [["validate"], ["run", "--evaluations-dir", copy.evaluations], ["judge", "--no-progress"]]) {
      const r = await runCliCaptured([...cmd, "--config", copy.config]);
      expect(r.code, cmd[0]).toBe(2);
      expect(r.err.trim().split("\n"), cmd[0]).toEqual([`ragjudge: error: ${copy.config}:18: variants[1].name: duplicate variant name "bm25-small" (also variants[0]): names are identities, so their results would merge`]);
    }
    expect(() => readdirSync(copy.evaluations)).toThrow();
  });

  it("refuses a rubric listed twice in the config", async () => {
    const copy = exampleCopy((c) => (c.rubrics = ["faithfulness", "correctness", "faithfulness"]));
    const r = await runCliCaptured(["validate", "--config", copy.config]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`ragjudge: error: ${copy.config}:51: rubrics[2]: duplicate rubric name "faithfulness" (also rubrics[0]): names are identities, so their results would merge\n`);
  });

  it("refuses two rubric files of one name (a .yaml and a .yml), naming the second file and its name field", async () => {
    const copy = exampleCopy();
    const dir = join(copy.dir, "rubrics");
    copyFileSync(join(dir, "faithfulness.yaml"), join(dir, "faithfulness.yml"));
    writeFileSync(join(dir, "faithfulness.yml"), readFileSync(join(dir, "faithfulness.yml"), "utf8").replace(/^version: .*$/m, "version: 99"));
    for (const cmd of ["validate", "judge", "run"]) {
      const r = await runCliCaptured([cmd, "--config", copy.config, ...(cmd === "run" ? ["--evaluations-dir", copy.evaluations] : ["--no-progress"].filter(() => cmd === "judge"))]);
      expect(r.code, cmd).toBe(2);
      expect(r.err, cmd).toBe(`ragjudge: error: ${join(dir, "faithfulness.yml")}: name: rubric name "faithfulness" is also the name of faithfulness.yaml: names are identities, keep one file per rubric\n`);
    }
  });
});
