import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** The repository root (the shipped example lives there). */
export const ROOT = resolve(import.meta.dirname, "../..");

/** A copy of the shipped example in a temp folder, so runs never write into the repository. */
export interface ExampleCopy {
  dir: string;
  config: string;
  labels: string;
  evaluations: string;
}

/**
 * Copies the example's config, golden set (questions and variants), rubrics
 * and an EMPTY labels folder into a temp dir: the tests then control the
 * labels, whatever labels the repository carries.
 */
export function exampleCopy(edit?: (config: Record<string, unknown>) => void): ExampleCopy {
  const dir = mkdtempSync(join(tmpdir(), "ragjudge-run-"));
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

/** Captures what a block writes to stdout and stderr (for in-process CLI runs). */
export async function capture<T>(f: () => Promise<T>): Promise<{ value: T; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((s: string | Uint8Array) => ((stdout += String(s)), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string | Uint8Array) => ((stderr += String(s)), true)) as typeof process.stderr.write;
  try {
    return { value: await f(), stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}
