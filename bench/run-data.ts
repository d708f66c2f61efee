/**
 * The data of `npm run bench:run` and `npm run bench:compare`: a golden set
 * of `questions` questions, 100,000 chunks and two variants' pipeline
 * outputs (golden-data.ts, seeded), with a config that judges them with the
 * offline baseline judge.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { prepareGoldenData } from "./golden-data.js";

const ROOT = resolve(fileURLToPath(import.meta.url), "..", "..");

/** The evaluation's files and config in `dir` (two variants over one golden set and chunks file). */
export function prepareRunData(dir: string, questions: number): string {
  const shape = { docs: 10_000, chunksPerDoc: 10, questions, retrieved: 100, seed: 20261202 };
  const a = prepareGoldenData(dir, { ...shape, variant: 0 });
  const b = prepareGoldenData(dir, { ...shape, variant: 1 });
  const labels = join(dir, "labels");
  mkdirSync(labels, { recursive: true });
  const config = {
    name: "bench-run",
    golden: a.golden,
    variants: [
      { name: "first", output: a.output, chunks: a.chunks, contextK: 5, stages: { first: [] } },
      { name: "second", output: b.output, chunks: b.chunks, contextK: 5, stages: { first: [] } },
    ],
    k: [1, 5, 10],
    poolDepth: 50,
    rubricsDir: join(ROOT, "rubrics"),
    labels,
    cacheDir: join(dir, "cache"),
    evaluationsDir: join(dir, "evaluations"),
    judge: { kind: "baseline" },
  };
  const file = join(dir, "ragjudge.config.json");
  writeFileSync(file, JSON.stringify(config, null, 2) + "\n");
  return file;
}
