/**
 * Converts attribution-dev (AttributionBench claims with human labels) into
 * ragjudge's own formats, in a folder outside the repository:
 *
 * - `golden.jsonl`: one answerable question per claim, its references as the
 *   relevant chunks, `split` = `tune` or `heldout` (the evaluation half, the
 *   split `ragjudge calibrate` gates on);
 * - `chunks.jsonl`: one chunk per reference (`<row id>#<n>`, doc = row id);
 * - `attributionbench.output.jsonl`: the claim as the answer, the references
 *   as retrieved and context, one explicit citation of all of them;
 * - `ragjudge.config.json`: that variant, the baseline judge, the
 *   `faithfulness` and `citation-accuracy` rubrics of this checkout's
 *   `rubrics/`, so `ragjudge judge` and `ragjudge calibrate --config` run on it;
 * - `labels/attributionbench.jsonl`: the human labels as ragjudge Labels
 *   (provenance `import`, source AttributionBench and the row id, frame
 *   `random` with inclusion probability 1: every converted item is labelled);
 * - `items.jsonl`: item key, exact Evidence, input hash, label and half, the
 *   working file of `npm run attribution:baseline`.
 *
 * Each claim is a `faithfulness` item (the claim against all its references,
 * which is what the people labelled). A claim with a single reference is also
 * a `citation-accuracy` item (unit `s1:<chunk>`), where the label means the
 * same thing.
 *
 * Run: `npx tsx scripts/attribution/convert.ts [--data FILE] [--out DIR]`.
 */
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { stripMarkers } from "../../src/golden/citations.js";
import { packageRoot } from "../../src/golden/config.js";
import { InputError } from "../../src/golden/errors.js";
import { writeFileAtomic } from "../../src/golden/files.js";
import { hashJson } from "../../src/golden/hash.js";
import type { Chunk, GoldenQuestion } from "../../src/golden/schema/golden.js";
import { z } from "zod";
import { Sha256, YesNo } from "../../src/golden/schema/common.js";
import { Evidence, ItemKey, type Label } from "../../src/golden/schema/items.js";
import type { PipelineOutput } from "../../src/golden/schema/pipeline.js";
import { type AttributionRow, LABELS, dataFileOrSkip, loadAttributionRows } from "./data.js";
import { type Half, SPLIT_SEED, splitHalves } from "./split.js";

/** The variant name the converted data runs under. */
export const VARIANT = "attributionbench";
/** The annotator id of the imported labels. */
export const ANNOTATOR = "attributionbench";
const SOURCE = "AttributionBench (OSU-NLP-Group/AttributionBench, dev_all_subset_balanced)";

/** One judged item of the conversion with the human label attached (one line of `items.jsonl`). */
export const ConvertedItem = z.strictObject({
  key: ItemKey,
  evidence: Evidence,
  inputHash: Sha256,
  label: YesNo,
  half: z.enum(["tune", "heldout"]),
  /** AttributionBench sub-dataset (ExpertQA, LFQA, ...), for breakdowns. */
  dataset: z.string(),
});
export type ConvertedItem = z.infer<typeof ConvertedItem>;

export interface Conversion {
  golden: GoldenQuestion[];
  chunks: Omit<Chunk, "meta">[];
  outputs: Omit<PipelineOutput, "meta">[];
  labels: Label[];
  items: ConvertedItem[];
}

/** Chunk id of reference n (1-based) of a row. */
export function chunkId(rowId: string, n: number): string {
  return `${rowId}#${n}`;
}

/**
 * Converts rows to ragjudge records. `time` stamps the labels (the data
 * file's modification time, so converting twice gives identical files).
 */
export function convert(rows: readonly AttributionRow[], time: string, seed = SPLIT_SEED): Conversion {
  const halves = splitHalves(rows.map((r) => ({ id: r.id, label: LABELS[r.attribution_label] })), seed);
  const out: Conversion = { golden: [], chunks: [], outputs: [], labels: [], items: [] };
  for (const row of rows) {
    const half = halves.get(row.id)!;
    const label = LABELS[row.attribution_label];
    const dataset = row.src_dataset ?? "unknown";
    const claim = stripMarkers(row.claim.trim());
    const question = row.question.trim();
    const context = row.references.map((text, i) => ({ id: chunkId(row.id, i + 1), text }));
    const ids = context.map((c) => c.id);

    out.golden.push({ id: row.id, question, answerable: true, relevant: ids, tags: [dataset], split: half, kind: "attribution" });
    for (const c of context) out.chunks.push({ id: c.id, doc: row.id, text: c.text });
    out.outputs.push({ id: row.id, retrieved: [...ids], context: ids, answer: claim, citations: [{ sentence: claim, chunks: ids }] });

    const add = (rubric: string, unit: string, evidence: Evidence): void => {
      const key: ItemKey = { variant: VARIANT, question: row.id, rubric, unit };
      const inputHash = hashJson(evidence);
      out.items.push({ key, evidence, inputHash, label, half, dataset });
      out.labels.push({
        ...key, inputHash, label, annotator: ANNOTATOR, provenance: "import",
        source: `${SOURCE} row ${row.id}`, frame: "random", inclusionProbability: 1, split: half, time,
      });
    };
    add("faithfulness", "answer", { question, answer: claim, context });
    if (context.length === 1) add("citation-accuracy", `s1:${context[0]!.id}`, { question, sentence: claim, cited: context[0]! });
  }
  return out;
}

const jsonl = (rows: readonly unknown[]): string => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

/** Writes a conversion into `dir` (each file atomically). */
export function writeConversion(dir: string, c: Conversion): void {
  writeFileAtomic(join(dir, "golden.jsonl"), jsonl(c.golden));
  writeFileAtomic(join(dir, "chunks.jsonl"), jsonl(c.chunks));
  writeFileAtomic(join(dir, `${VARIANT}.output.jsonl`), jsonl(c.outputs));
  writeFileAtomic(join(dir, "labels", `${ANNOTATOR}.jsonl`), jsonl(c.labels));
  writeFileAtomic(join(dir, "items.jsonl"), jsonl(c.items));
  const contextK = Math.max(...c.outputs.map((o) => o.context?.length ?? 1));
  const config = {
    name: VARIANT,
    golden: "golden.jsonl",
    variants: [{ name: VARIANT, output: `${VARIANT}.output.jsonl`, chunks: "chunks.jsonl", contextK }],
    rubricsDir: resolve(packageRoot(), "rubrics"),
    rubrics: ["citation-accuracy", "faithfulness"],
    labels: "labels",
    judge: { kind: "baseline" },
  };
  writeFileAtomic(join(dir, "ragjudge.config.json"), JSON.stringify(config, null, 2) + "\n");
}

/** Loads the data file, converts it and writes it to a new folder under the OS temp dir (or `outDir`). */
export function convertFile(file: string, outDir?: string): { dir: string; conversion: Conversion } {
  const rows = loadAttributionRows(file);
  const conversion = convert(rows, statSync(file).mtime.toISOString());
  const dir = outDir ?? mkdtempSync(join(tmpdir(), "ragjudge-attribution-"));
  writeConversion(dir, conversion);
  return { dir, conversion };
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(args: string[]): Promise<number> {
  const { reportError } = await import("../../src/cli/errors.js");
  try {
    const file = dataFileOrSkip(flag(args, "--data"), "attribution");
    if (!file) return 0;
    const out = flag(args, "--out");
    if (out !== undefined && (resolve(out) + sep).startsWith(packageRoot() + sep)) {
      throw new InputError(out, undefined, "--out", "is inside the ragjudge checkout: the converted files hold third-party data, which must stay outside the repository");
    }
    const { dir, conversion } = convertFile(file, out);
    const n = (h: Half) => conversion.items.filter((i) => i.half === h && i.key.rubric === "faithfulness").length;
    console.log(`attribution: converted ${conversion.golden.length} claims (${n("tune")} tuning, ${n("heldout")} evaluation) and ${conversion.labels.length} labels into ${dir}`);
    return 0;
  } catch (e) {
    return reportError(e);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exitCode = await main(process.argv.slice(2));
}
