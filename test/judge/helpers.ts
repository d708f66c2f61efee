import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll } from "vitest";
import { loadConfig, type ResolvedConfig } from "../../src/golden/config.js";
import { loadJudgeInputs, type JudgeInputs } from "../../src/judge/inputs.js";
import { loadRubrics, type Rubric } from "../../src/judge/rubric.js";

/** The judge fixture folder (golden set, chunks, two variants' outputs, config without a judge). */
export const FIXTURE = resolve(import.meta.dirname, "../fixtures/judge");

/** The shipped rubric files. */
export const RUBRICS_DIR = resolve(import.meta.dirname, "../../rubrics");

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

const made: string[] = [];
// Test files are isolated, so this registers once per file that imports the helpers.
afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh temporary folder, removed after the test file's tests. */
export function tempDir(prefix = "ragjudge-judge-"): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}
