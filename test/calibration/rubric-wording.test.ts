/**
 * Labels answer a rubric's question as it was worded when they were made. A
 * question edited to mean something else asks another question: its old
 * labels say nothing about a judge asked the new one, so the gate must not
 * count them, whichever judge (the offline baseline reads no prompt, so its
 * fingerprint and verdicts stay as they were). An edit that leaves the
 * wording as it was (a comment, the keys in another order, a line wrapped
 * elsewhere) keeps every label. Tried as a user would, through the CLI and
 * the review session, on a copy of the example judged by the baseline.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Label } from "../../src/golden/schema/items.js";
import { calibrate, calibration, editRubric, honest, judgeAgain, judged, trustLine, wordingOf } from "../helpers/gate-project.js";
import { runCliCaptured } from "../helpers/cli.js";
import { labelRandomDraw } from "../helpers/labelling.js";

const NEW_WORDING = (t: string) => t.replace("without contradicting it?", "even if it contradicts it?");
const labelsOf = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Label);

describe("labels and the wording of their rubric's question", () => {
  it("baseline judge: one word of the question changed, the old labels no longer count, and labelling again restores trust", async () => {
    const p = await judged();
    const before = wordingOf(p, "correctness");
    const first = await honest(p, "correctness");
    expect((await calibrate(p)).code).toBe(0);
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^TRUSTED: kappa 1\.00/);

    editRubric(p, "correctness", NEW_WORDING);
    expect(wordingOf(p, "correctness")).not.toBe(before);
    // the baseline reads no prompt: same fingerprint, same verdicts, same labels; only the question changed
    const again = await calibrate(p);
    expect(again.code).toBe(0);
    const said = `${first.answered} labelled items of correctness answered an earlier wording of its question; their labels do not count (label them again: ragjudge sample draws them again, ragjudge review asks today's question)`;
    expect(again.out).toMatch(/correctness · [^\n]*\n {2}UNTRUSTED /);
    expect(again.out).toContain(said);
    const line = trustLine((await judgeAgain(p)).out, "correctness");
    expect(line).toMatch(/^UNTRUSTED/);
    expect(line).toContain(said);

    // The remedy the message names: the same draw queues every item again, and the page asks today's question.
    const second = await labelRandomDraw({ config: p.config, dir: p.dir, judgments: p.judgments, labels: p.labels, rubrics: "correctness", split: "heldout", seed: 2 });
    expect(second.answered).toBe(first.answered);
    // every label the review session wrote records the wording it showed
    const mine = labelsOf(join(p.labels, "test-author.jsonl"));
    expect(mine.map((l) => l.wordingHash)).toEqual([...Array(first.answered).fill(before), ...Array(second.answered).fill(wordingOf(p, "correctness"))]);
    const relabelled = await calibrate(p);
    expect(relabelled.out).not.toContain("earlier wording");
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^TRUSTED: kappa 1\.00/);
  }, 120_000);

  it("sample --draw queues again a drawn item whose labels answered an earlier wording (the draw's rest, as the gate counts it)", async () => {
    const p = await judged();
    const first = await honest(p, "correctness");
    const [manifest] = readdirSync(join(p.labels, "draws"));
    const id = manifest!.replace(/\.json$/, "");
    const queue = join(p.dir, "rest.jsonl");
    const rest = () => runCliCaptured(["sample", "--config", p.config, "--judgments", p.judgments, "--labels", p.labels, "--annotator", "test-author", "--draw", id, "--out", queue]);
    const done = await rest();
    expect(done.code, done.err).toBe(0);
    expect(done.out).toContain("Nothing to review");
    editRubric(p, "correctness", NEW_WORDING);
    // the gate counts none of the draw's labels now: the command that finishes a draw must queue every item again
    const again = await rest();
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain(`${first.answered} of them still unlabelled → ${first.answered} queued for test-author`);
    expect(readFileSync(queue, "utf8").trim().split("\n")).toHaveLength(first.answered);
  }, 120_000);

  it("a calibration record made under an earlier wording is stale: labels that record no wording are counted again by calibrate, which says so", async () => {
    const p = await judged();
    const { answered } = await honest(p, "correctness");
    // labels made by an older ragjudge: no wording recorded, so they count for any question
    const file = join(p.labels, "test-author.jsonl");
    writeFileSync(file, labelsOf(file).map((l) => JSON.stringify({ ...l, wordingHash: undefined })).join("\n") + "\n");
    expect((await calibrate(p)).code).toBe(0);
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^TRUSTED: kappa 1\.00/);
    editRubric(p, "correctness", NEW_WORDING);
    // the baseline's verdicts and the labels are as they were: only the question changed since the calibration
    const line = trustLine((await judgeAgain(p)).out, "correctness");
    expect(line).toMatch(/^UNTRUSTED: stale: run ragjudge calibrate/);
    expect(line).toContain("the wording of the rubric's question changed since the calibration of");
    const again = await calibrate(p);
    expect(again.code).toBe(0);
    expect(again.out).toContain(`${answered} counted labels do not record which wording of the question of correctness they answered`);
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^TRUSTED: kappa 1\.00/);
  }, 120_000);

  it("a comment, reordered keys and a question wrapped onto two lines keep every label counting", async () => {
    const p = await judged();
    const before = wordingOf(p, "correctness");
    const { answered } = await honest(p, "correctness");
    expect((await calibrate(p)).code).toBe(0);
    const counted = (await calibration(p, "correctness")).gate.n;
    expect(counted).toBe(answered);
    editRubric(p, "correctness", (text) => {
      const description = /^description: >\n(?: {2}.*\n)+/m.exec(text)![0];
      const question = /^question: .*\n/m.exec(text)![0];
      const wrapped = question.replace("question: ", "question: >\n  ").replace(" without", "\n  without");
      return `# reviewed 2026-12: wording kept\n${text.replace(description, "").replace(question, "").replace(/^version: 1\n/m, "")}version: 1\n${wrapped}${description}`;
    });
    expect(wordingOf(p, "correctness")).toBe(before);
    expect(labelsOf(join(p.labels, "test-author.jsonl")).every((l) => l.wordingHash === before)).toBe(true);
    const after = await calibration(p, "correctness");
    expect(after.gate.n).toBe(counted);
    expect(after.trust.trusted).toBe(true);
    expect(after.trust.message).not.toContain("earlier wording");
  }, 120_000);

  it("a labels file of mixed wordings counts the labels of today's wording and those that record none, not the others", async () => {
    const p = await judged();
    const today = wordingOf(p, "correctness");
    const { answered } = await honest(p, "correctness");
    const file = join(p.labels, "test-author.jsonl");
    const labels = labelsOf(file);
    // 3 made under an earlier wording (in a copy of the file, as a team merging two sheets would), 4 with none (made by an older ragjudge)
    const earlier = "0".repeat(64);
    const mixed = labels.map((l, i) => (i < 3 ? { ...l, wordingHash: earlier } : i < 7 ? { ...l, wordingHash: undefined } : l));
    writeFileSync(file, mixed.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const c = await calibration(p, "correctness");
    // the 3 drawn items left without a counting label count as skipped (against the judge): never for it
    expect(c.gate.n).toBe(answered - 3);
    expect(c.trust.message).toContain("3 labelled items of correctness answered an earlier wording of its question; their labels do not count");
    const out = (await calibrate(p, "--no-write")).out;
    expect(out).toContain("4 counted labels do not record which wording of the question of correctness they answered");
    expect(labels.filter((l) => l.wordingHash === today)).toHaveLength(answered);
  }, 120_000);
});

