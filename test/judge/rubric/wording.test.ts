/**
 * A rubric's wording hash covers what a person labelling is asked (the
 * question and the case texts the review page shows) and nothing else.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRubric } from "../../../src/judge/rubric/rubric.js";
import { rubricWordings, wordingHash } from "../../../src/judge/rubric/wording.js";
import { RUBRICS_DIR, tempDir } from "../helpers.js";

/** The shipped rubric `name` with `edit` applied, loaded from a fresh folder. */
function edited(name: string, edit: (text: string) => string) {
  const dir = tempDir();
  writeFileSync(join(dir, `${name}.yaml`), edit(readFileSync(join(RUBRICS_DIR, `${name}.yaml`), "utf8")));
  return loadRubric(join(dir, `${name}.yaml`));
}

describe("a rubric's wording hash", () => {
  const notFound = wordingHash(loadRubric(join(RUBRICS_DIR, "not-found.yaml")));

  it("changes with a word of a case text, which the page shows beside the question", () => {
    expect(wordingHash(edited("not-found", (t) => t.replace("Decide only whether\n    the assistant refused.", "Decide only whether\n    the assistant answered.")))).not.toBe(notFound);
    expect(wordingHash(edited("not-found", (t) => t.replace("Did the answer handle correctly", "Did the answer handle wrongly")))).not.toBe(notFound);
  });

  it("stays through the description, the version, the templates and white space", () => {
    const same = edited("not-found", (t) => t
      .replace(/^version: 1$/m, "version: 2")
      .replace("Whether the assistant handled", "Whether, in short, the assistant handled")
      .replace("The documents DO contain the answer to this question. Decide only whether", "The documents DO contain the answer to this question.\n    Decide only whether")
      .replace(/^system: \|\n/m, "system: |\n  You are careful.\n"));
    expect([same.version, same.system.split("\n")[0], same.description?.startsWith("Whether, in short")]).toEqual(["2", "You are careful.", true]);
    expect(same.cases!.answerable).toContain("question.\n");
    expect(wordingHash(same)).toBe(notFound);
  });

  it("tells apart two questions a page shows differently: a zero-width character is no space, and an Ogham space mark shows", () => {
    const correctness = loadRubric(join(RUBRICS_DIR, "correctness.yaml"));
    // "now here" and "nowhere" (a zero-width no-break space inside, shown as nothing): two questions
    const spaced = { ...correctness, question: "Is the answer's source now here?" };
    const joined = { ...correctness, question: "Is the answer's source now\uFEFFhere?" };
    expect(wordingHash(joined)).not.toBe(wordingHash(spaced));
    expect(wordingHash({ ...correctness, question: "Is it\u1680new?" })).not.toBe(wordingHash({ ...correctness, question: "Is it new?" }));
    // every white space a page shows as a space reads as one, as before
    expect(wordingHash({ ...correctness, question: " Is\u00a0it\u2003new?\n" })).toBe(wordingHash({ ...correctness, question: "Is it new?" }));
  });

  it("stays when an editor saves the same letters composed otherwise (NFC and NFD show alike), and tells compatibility look-alikes apart", () => {
    const correctness = loadRubric(join(RUBRICS_DIR, "correctness.yaml"));
    const question = "Does the answer give the café's opening hours?";
    expect(wordingHash({ ...correctness, question: question.normalize("NFD") })).toBe(wordingHash({ ...correctness, question: question.normalize("NFC") }));
    // "x²" and "x2" (one under NFKC) are two questions
    expect(wordingHash({ ...correctness, question: "Is the area x² or more?" })).not.toBe(wordingHash({ ...correctness, question: "Is the area x2 or more?" }));
  });

  it("of a folder: null for a file that does not read, whose wording nobody can check", () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "correctness.yaml"), readFileSync(join(RUBRICS_DIR, "correctness.yaml"), "utf8"));
    writeFileSync(join(dir, "broken.yaml"), "name: broken\nquestion: [unclosed\n");
    expect(rubricWordings(dir)).toEqual(new Map([["broken", null], ["correctness", wordingHash(loadRubric(join(RUBRICS_DIR, "correctness.yaml")))]]));
    expect(rubricWordings(join(dir, "missing")).size).toBe(0);
  });

  it("of a folder: null for a name two files give (correctness.yaml and correctness.yml), whichever sorts last", () => {
    const dir = tempDir();
    const text = readFileSync(join(RUBRICS_DIR, "correctness.yaml"), "utf8");
    // today's wording in .yaml, the earlier one kept in .yml: the judge and the review page refuse the folder, the gate must not pick one
    writeFileSync(join(dir, "correctness.yaml"), text.replace("without contradicting it?", "even if it contradicts it?"));
    writeFileSync(join(dir, "correctness.yml"), text);
    expect(rubricWordings(dir).get("correctness")).toBeNull();
  });
});
