import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

/** The repository root (the shipped example lives there). */
export { ROOT };

/** A copy of the shipped example in a temp folder, so runs never write into the repository. */
export interface ExampleCopy {
  dir: string;
  config: string;
  labels: string;
  evaluations: string;
}

/**
 * Copies the example's config, golden set (questions and variants), rubrics
 * and an EMPTY labels folder into a temp dir (removed after the test file):
 * the tests then control the labels, whatever labels the repository carries.
 */
export function exampleCopy(edit?: (config: Record<string, unknown>) => void): ExampleCopy {
  const dir = tempDir("ragjudge-run-");
  mkdirSync(join(dir, "golden"), { recursive: true });
  cpSync(join(ROOT, "golden", "questions.jsonl"), join(dir, "golden", "questions.jsonl"));
  cpSync(join(ROOT, "golden", "variants"), join(dir, "golden", "variants"), { recursive: true });
  cpSync(join(ROOT, "rubrics"), join(dir, "rubrics"), { recursive: true });
  mkdirSync(join(dir, "labels"));
  const config = JSON.parse(readFileSync(join(ROOT, "ragjudge.config.json"), "utf8")) as Record<string, unknown>;
  edit?.(config);
  const file = join(dir, "ragjudge.config.json");
  writeFileSync(file, JSON.stringify(config, null, 2));
  return { dir, config: file, labels: join(dir, "labels"), evaluations: join(dir, "evaluations") };
}
