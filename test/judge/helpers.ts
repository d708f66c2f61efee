import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { loadConfig, type ResolvedConfig } from "../../src/golden/config.js";
import { parseJsonl } from "../../src/golden/jsonl.js";
import { Judgment } from "../../src/golden/schema/items.js";
import { loadJudgeInputs, type JudgeInputs } from "../../src/judge/items/inputs.js";
import { loadRubrics, type Rubric } from "../../src/judge/rubric/rubric.js";
import type { RequestSettings } from "../../src/judge/transport/request.js";
import { fixturePath, ROOT } from "../helpers/paths.js";

/** A fresh temporary folder, removed after the test file (shared: test/helpers/temp.ts). */
export { tempDir } from "../helpers/temp.js";

/** The judge fixture folder (golden set, chunks, two variants' outputs, config without a judge). */
export const FIXTURE = fixturePath("judge");

/** The shipped rubric files. */
export const RUBRICS_DIR = join(ROOT, "rubrics");

/** Every shipped rubric, optional ones included, by name. */
export function rubric(name: string): Rubric {
  return loadRubrics(RUBRICS_DIR, [name])[0]!;
}

export function fixtureConfig(): ResolvedConfig {
  return loadConfig(join(FIXTURE, "ragjudge.config.json"));
}

export function fixtureInputs(rubrics?: string[]): JudgeInputs {
  return loadJudgeInputs(fixtureConfig(), { rubrics });
}

/** The judgments a run wrote, failing the test if any line is not a valid Judgment. */
export function readJudgments(file: string): Judgment[] {
  const { rows, problems } = parseJsonl(readFileSync(file, "utf8"), file, Judgment);
  expect(problems).toEqual([]);
  return rows.map((r) => r.value);
}

/** The request settings the judge tests send (the scripted server answers any model). */
export const SETTINGS: RequestSettings = { model: "judge-model", temperature: 0, seed: 0, maxTokens: 512, responseMode: "json_schema" };

/** Every rubric of the judge fixture, in name order. */
export const ALL_RUBRICS = ["anchor-ambiguity", "citation-accuracy", "correctness", "faithfulness", "not-found"];
