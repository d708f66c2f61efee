import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRubric } from "../../../src/judge/rubric/rubric.js";
import { inputErrorMessage, inputErrorMessages } from "../../helpers/input-errors.js";
import { RUBRICS_DIR, tempDir } from "../helpers.js";

/** The shipped faithfulness rubric with `edit` applied, written as `name`.yaml in a fresh folder. */
function edited(edit: (text: string) => string, name = "faithfulness"): string {
  const file = join(tempDir(), `${name}.yaml`);
  writeFileSync(file, edit(readFileSync(join(RUBRICS_DIR, "faithfulness.yaml"), "utf8")));
  return file;
}

/** The 1-based line of the first line of `file` that starts with `prefix`. */
const lineOf = (file: string, prefix: string) => readFileSync(file, "utf8").split("\n").findIndex((l) => l.startsWith(prefix)) + 1;

describe("loadRubric's problems name their line (they named the file alone)", () => {
  it("a field of the wrong kind, at its own line", () => {
    const file = edited((t) => t.replace(/^unit: .*$/m, "unit: sentence"));
    expect(inputErrorMessages(() => loadRubric(file))[0]).toMatch(new RegExp(`^${file}:${lineOf(file, "unit:")}: unit: `));
  });

  it("an unknown evidence field, at its item's line", () => {
    const file = edited((t) => t.replace("evidence: [question, context, answer]", "evidence:\n  - question\n  - contexts\n  - answer"));
    expect(inputErrorMessages(() => loadRubric(file))[0]).toMatch(new RegExp(`^${file}:${lineOf(file, "  - contexts")}: evidence\\[1\\]: `));
  });

  it("a name that is not its file's, at the name's line", () => {
    const file = edited((t) => t, "faithful");
    expect(inputErrorMessage(() => loadRubric(file))).toBe(`${file}:${lineOf(file, "name:")}: name: rubric name "faithfulness" must match its file name "faithful"`);
  });

  it("a missing field, at the line of the object that lacks it; YAML syntax, at its line", () => {
    const missing = edited((t) => t.replace(/^question: .*$/m, ""));
    expect(inputErrorMessages(() => loadRubric(missing))[0]).toMatch(new RegExp(`^${missing}:1: question: missing`));
    const syntax = edited((t) => t.replace(/^unit: (.*)$/m, "unit: [$1"));
    expect(inputErrorMessage(() => loadRubric(syntax))).toMatch(new RegExp(`^${syntax}:\\d+: not valid YAML`));
  });

  it("an unknown field, at its own line with a did-you-mean, not at line 1 as the whole record", () => {
    const file = edited((t) => t.replace(/^question: /m, "qestion: "));
    const messages = inputErrorMessages(() => loadRubric(file));
    expect(messages).toContain(`${file}:${lineOf(file, "qestion:")}: unknown field "qestion" (did you mean "question"?)`);
    expect(messages.some((m) => m.includes("(record)"))).toBe(false);
  });

  it("reads every shipped rubric as before", () => {
    expect(loadRubric(join(RUBRICS_DIR, "faithfulness.yaml")).name).toBe("faithfulness");
  });
});
