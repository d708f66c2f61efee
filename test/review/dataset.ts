import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadConfig } from "../../src/golden/config.js";
import { loadGolden, loadVariant } from "../../src/golden/dataset.js";
import type { Judgment } from "../../src/golden/schema/items.js";
import { buildItems, type Item } from "../../src/judge/items/items.js";
import { loadRubrics } from "../../src/judge/rubric/rubric.js";
import { tempDir } from "../helpers/temp.js";
import { writeRubrics } from "./helpers.js";

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

/**
 * A small project on disk: 12 golden questions (2 unanswerable), one
 * variant whose answers cite their context (with two rule cases: q10 cites a
 * chunk outside its context, q12 has an empty answer), three rubrics, a config, and an
 * empty labels folder. Returns the config path and the items the judge would
 * build, so tests can write judgments that join on the real input hashes.
 */
export function project(): { dir: string; config: string; labels: string; judgments: string; items: Item[] } {
  const dir = tempDir("ragjudge-sample-");
  writeRubrics(join(dir, "rubrics"));
  const golden = [];
  const chunks = [];
  const outputs = [];
  for (let i = 1; i <= 12; i++) {
    const id = `q${String(i).padStart(2, "0")}`;
    const answerable = i <= 10;
    chunks.push({ id: `doc-${id}#0`, doc: `doc-${id}`, text: `General remarks about topic ${i}.` });
    chunks.push({ id: `doc-${id}#1`, doc: `doc-${id}`, text: `The rule for topic ${i} is that requests need ${i} days of notice.`, heading: `Topic ${i}` });
    golden.push({
      id,
      question: `How much notice does topic ${i} need?`,
      answerable,
      ...(answerable ? { anchor: { doc: `doc-${id}`, text: `the rule for topic ${i} is that requests need` }, reference: `${i} days.` } : {}),
      kind: i % 2 ? "factual" : "procedural",
      tags: ["policy"],
      split: i <= 8 ? "dev" : "test",
    });
    // q10 also cites a chunk outside its context, q12 has an empty answer: both give rule verdicts.
    const answer = i === 12 ? "" : !answerable ? "This is not covered by the documents." : i === 10 ? "Requests need 10 days of notice [1]. See also [doc-q01#1]." : `Requests need ${i} days of notice [1]. Plan ahead [2].`;
    outputs.push({ id, retrieved: [`doc-${id}#1`, `doc-${id}#0`], answer });
  }
  writeFileSync(join(dir, "questions.jsonl"), jsonl(golden));
  writeFileSync(join(dir, "chunks.jsonl"), jsonl(chunks));
  writeFileSync(join(dir, "output.jsonl"), jsonl(outputs));
  const config = join(dir, "ragjudge.config.json");
  writeFileSync(config, JSON.stringify({ name: "t", golden: "questions.jsonl", variants: [{ name: "v1", output: "output.jsonl", chunks: "chunks.jsonl" }], rubricsDir: "rubrics", labels: "labels", cacheDir: "cache" }));
  const cfg = loadConfig(config);
  const g = loadGolden(cfg.path(cfg.config.golden));
  const variants = cfg.config.variants.map((v) => loadVariant(v, g, cfg.path));
  const { items } = buildItems({ golden: g, variants, rubrics: loadRubrics(cfg.path("rubrics")), requireCitations: false });
  return { dir, config, labels: join(dir, "labels"), judgments: join(dir, "cache", "judgments.jsonl"), items };
}

/** A judgment of a built item. */
export function judge(item: Item, verdict: "yes" | "no" | "error", more: Partial<Judgment> = {}): Judgment {
  return {
    ...item.key,
    inputHash: item.inputHash,
    fingerprint: item.rule ? "rule:1" : "fp-1",
    judge: item.rule ? "rule" : "llm",
    repeat: 0,
    verdict: item.rule ? item.rule.verdict : verdict,
    reason: item.rule ? item.rule.reason : `judged ${verdict}`,
    ...(verdict === "error" ? { error: "timeout" } : {}),
    ...(item.rule ? { rule: item.rule.rule } : {}),
    cached: false,
    time: "2026-01-01T00:00:00.000Z",
    ...more,
  } as Judgment;
}

export function writeJudgments(file: string, js: Judgment[]): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, jsonl(js));
}

/**
 * Stand-ins for the judge cache of the project (`cache/judge-cache.sqlite`)
 * and the -wal and -shm files SQLite keeps beside it: bytes, not SQLite, for
 * tests that a write over them is refused. Returns the cache file's path.
 */
export function judgeCacheFiles(dir: string): string {
  const cache = join(dir, "cache", "judge-cache.sqlite");
  mkdirSync(dirname(cache), { recursive: true });
  for (const f of [cache, `${cache}-wal`, `${cache}-shm`]) writeFileSync(f, "sqlite bytes");
  return cache;
}
