/**
 * A project for trying the trust gate as a user (or an adversary) does: a
 * copy of the shipped example judged by the offline baseline, and the CLI
 * calls the gate tests repeat (test/calibration/trust-loopholes.test.ts,
 * second-opinions.test.ts).
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { Judgment, type Label } from "../../src/golden/schema/items.js";
import { loadRubric } from "../../src/judge/rubric/rubric.js";
import { wordingHash } from "../../src/judge/rubric/wording.js";
import { runCliCaptured } from "./cli.js";
import { labelRandomDraw } from "./labelling.js";
import { exampleCopy, type ExampleCopy } from "../report/helpers.js";

export interface Project extends ExampleCopy {
  judgments: string;
}

/** A copy of the example with lowered thresholds, judged by the baseline into `j.jsonl`. */
export async function judged(trust: Record<string, unknown> = { minLabels: 20, minPerClass: 3 }, edit?: (c: Record<string, unknown>) => void): Promise<Project> {
  const copy = exampleCopy((c) => {
    c.trust = trust;
    edit?.(c);
  });
  const judgments = join(copy.dir, "j.jsonl");
  const r = await runCliCaptured(["judge", "--config", copy.config, "--out", judgments, "--no-progress", "--by", "none"]);
  expect(r.code, r.err).toBe(0);
  return { ...copy, judgments };
}

export const verdictsOf = (p: Project) => readFileSync(p.judgments, "utf8").trim().split("\n").map((l) => Judgment.parse(JSON.parse(l)));
export const splitOf = (p: Project) => new Map(readFileSync(join(p.dir, "golden", "questions.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; split?: string }).map((q) => [q.id, q.split]));

/** The wording hash of a rubric of the project as its file reads now: what the review page writes on every label (`over` below can give it). */
export const wordingOf = (p: ExampleCopy, rubric: string) => wordingHash(loadRubric(join(p.dir, "rubrics", `${rubric}.yaml`)));

/** Edits the text of one rubric file of the project. */
export function editRubric(p: ExampleCopy, rubric: string, edit: (text: string) => string): void {
  const file = join(p.dir, "rubrics", `${rubric}.yaml`);
  const text = readFileSync(file, "utf8");
  const edited = edit(text);
  expect(edited).not.toBe(text);
  writeFileSync(file, edited);
}

/** Labels an adversary writes into the labels folder by hand: `frame: "random"`, agreeing with the judge (no wording recorded unless `over` gives one). */
export function writeRandomLabels(p: Project, rows: Judgment[], over: (j: Judgment) => Partial<Label> = () => ({})): void {
  const split = splitOf(p);
  const lines = rows.map((j) => JSON.stringify({
    variant: j.variant, question: j.question, rubric: j.rubric, unit: j.unit, inputHash: j.inputHash, label: j.verdict, annotator: "mallory", provenance: "human",
    frame: "random", ...(split.get(j.question) ? { split: split.get(j.question) } : {}), time: "2026-11-30T10:00:00Z", ...over(j),
  }));
  appendFileSync(join(p.labels, "mallory.jsonl"), lines.join("\n") + "\n");
}

export const calibrate = (p: Project, ...extra: string[]) => runCliCaptured(["calibrate", "--config", p.config, "--judgments", p.judgments, "--reps", "200", ...extra]);
export const judgeAgain = (p: Project) => runCliCaptured(["judge", "--config", p.config, "--out", p.judgments, "--no-progress", "--by", "none"]);
/** The trust line `ragjudge judge` prints under a rubric's heading. */
export const trustLine = (out: string, rubric: string) => new RegExp(`${rubric}  \\[[^\\n]*\\n  ([^\\n]*)`).exec(out)?.[1] ?? "";
export const calibration = async (p: Project, rubric: string) => {
  const r = await calibrate(p, "--format", "json", "--no-write");
  expect(r.code, r.err).toBe(0);
  return (JSON.parse(r.out) as { rubrics: { group: { rubric: string }; gate: { n: number }; trust: { trusted: boolean; reason?: string; message: string; ci: { lo: number; hi: number } | null }; errorAnalysis: { excluded: string; figures: { n: number } }[] }[] }).rubrics.find((x) => x.group.rubric === rubric)!;
};

/** The honest loop on one rubric's held-out split: a recorded draw of all of it, each item labelled as the judge decided. */
export const honest = (p: Project, rubric: string) => labelRandomDraw({ config: p.config, dir: p.dir, judgments: p.judgments, labels: p.labels, rubrics: rubric, split: "heldout" });

