/**
 * `npm run attribution:baseline`: measures the offline baseline judge against
 * real human labels. Converts ../shared/data/attribution-dev.jsonl (400
 * AttributionBench claims, 200 supported / 200 not) to ragjudge's formats in
 * a temporary folder, reads the items and imported labels back, judges every
 * item with `baselineJudge`, and prints accuracy, the confusion matrix,
 * TPR/TNR and Cohen's kappa with its 95% interval, for the tuning half (the
 * thresholds were chosen on it) and the evaluation half (the honest figure).
 *
 * Flags: `--data FILE` (another copy of the data), `--keep` (keep the
 * converted folder and print its path), `--sweep` (re-run the threshold sweep
 * on the tuning half that chose `supportCoverage`).
 *
 * Without the data (a user's clone has no ../shared) it prints one line and
 * exits 0.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { reportError } from "../../src/cli/errors.js";
import { InputError, InputErrors } from "../../src/golden/errors.js";
import { hashJson } from "../../src/golden/hash.js";
import { loadJsonl } from "../../src/golden/jsonl.js";
import { Label } from "../../src/golden/schema/items.js";
import {
  BASELINE_VERSION, DEFAULT_THRESHOLDS, baselineFingerprint, baselineJudge, createBaselineJudge,
} from "../../src/judge/baseline/index.js";
import { ANNOTATOR, ConvertedItem, convertFile } from "./convert.js";
import { dataFileOrSkip } from "./data.js";
import { type JudgedItem, SUPPORT_GRID, agreement, chooseThreshold, formatAgreement, sweep } from "./measure.js";
import { SPLIT_SEED } from "./split.js";

function flagValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith("--")) throw new InputError("(command line)", undefined, name, "needs a value");
  return v;
}

/** Reads back what the converter wrote and pairs every label with its item on key and input hash. */
function readBack(dir: string): ConvertedItem[] {
  const itemsFile = join(dir, "items.jsonl");
  const labelsFile = join(dir, "labels", `${ANNOTATOR}.jsonl`);
  const items = loadJsonl(itemsFile, ConvertedItem);
  const labels = loadJsonl(labelsFile, Label);
  const byKey = new Map(items.map(({ value }) => [JSON.stringify(value.key), value]));
  const problems: InputError[] = [];
  for (const { line, value } of items) {
    if (hashJson(value.evidence) !== value.inputHash) problems.push(new InputError(itemsFile, line, "inputHash", "does not match the evidence"));
  }
  for (const { line, value: l } of labels) {
    const item = byKey.get(JSON.stringify({ variant: l.variant, question: l.question, rubric: l.rubric, unit: l.unit }));
    if (!item) problems.push(new InputError(labelsFile, line, "question", `no item ${l.question} ${l.rubric} ${l.unit}`));
    else if (item.inputHash !== l.inputHash) problems.push(new InputError(labelsFile, line, "inputHash", "stale: does not match the item's evidence"));
    else if (item.label !== l.label) problems.push(new InputError(labelsFile, line, "label", "differs from the item's label"));
  }
  if (labels.length !== items.length) problems.push(new InputError(labelsFile, undefined, undefined, `${labels.length} labels for ${items.length} items`));
  if (problems.length > 0) throw new InputErrors(problems);
  return items.map((i) => i.value);
}

function printSweep(items: readonly ConvertedItem[]): void {
  const tune = items.filter((i) => i.half === "tune" && i.key.rubric === "faithfulness").map((i) => ({ ...i, rubric: i.key.rubric }));
  const rows = sweep(tune, SUPPORT_GRID, (t) => createBaselineJudge({ ...DEFAULT_THRESHOLDS, supportCoverage: t }));
  const chosen = chooseThreshold(rows);
  console.log(`\nSweep of supportCoverage on the tuning half only (faithfulness, n = ${tune.length}); rule: max kappa, then min |TPR - TNR|, then lower:`);
  for (const r of rows) {
    const mark = r === chosen ? "  <- chosen" : "";
    console.log(`  ${r.threshold.toFixed(2)}  kappa ${r.kappa?.toFixed(3) ?? "n/a"}  TPR ${r.tpr?.toFixed(2) ?? "n/a"}  TNR ${r.tnr?.toFixed(2) ?? "n/a"}  accuracy ${r.accuracy?.toFixed(3) ?? "n/a"}${mark}`);
  }
  const same = chosen?.threshold === DEFAULT_THRESHOLDS.supportCoverage;
  console.log(`  shipped supportCoverage ${DEFAULT_THRESHOLDS.supportCoverage}: ${same ? "matches the rule's choice" : `DIFFERS from the rule's choice ${chosen?.threshold}: update thresholds.ts and bump BASELINE_VERSION`}`);
}

async function main(args: string[]): Promise<number> {
  const file = dataFileOrSkip(flagValue(args, "--data"), "attribution:baseline");
  if (!file) return 0;
  const keep = args.includes("--keep");
  const { dir } = convertFile(file);
  try {
    const items = readBack(dir);
    const started = performance.now();
    const judged: JudgedItem[] = items.map((i) => ({
      rubric: i.key.rubric, half: i.half, dataset: i.dataset, label: i.label,
      verdict: baselineJudge(i.key.rubric, i.evidence).verdict,
    }));
    const ms = performance.now() - started;

    console.log(`Baseline judge ${BASELINE_VERSION} on ${file}`);
    console.log(`  thresholds ${JSON.stringify(DEFAULT_THRESHOLDS)}`);
    console.log(`  fingerprints: faithfulness ${baselineFingerprint("faithfulness").slice(0, 12)}, citation-accuracy ${baselineFingerprint("citation-accuracy").slice(0, 12)}`);
    console.log(`  split seed ${SPLIT_SEED} (stratified by label); thresholds were chosen on the tuning half only`);
    console.log(`  judged ${judged.length} items in ${ms.toFixed(0)} ms (${((judged.length / ms) * 1000).toFixed(0)} items/s)\n`);

    const sections: [string, string][] = [["faithfulness", "all claims, against all their references"], ["citation-accuracy", "claims with a single reference, against it"]];
    for (const [rubric, what] of sections) {
      const of = (half?: string) => judged.filter((j) => j.rubric === rubric && (half === undefined || j.half === half));
      console.log(`${rubric} (${what})`);
      for (const line of formatAgreement("tuning half", agreement(of("tune")))) console.log(`  ${line}`);
      for (const line of formatAgreement("evaluation half", agreement(of("heldout")))) console.log(`  ${line}`);
      for (const line of formatAgreement("both halves", agreement(of()))) console.log(`  ${line}`);
      console.log("");
    }

    console.log("faithfulness, evaluation half, by source dataset (small n: indicative only)");
    const evalFaith = judged.filter((j) => j.rubric === "faithfulness" && j.half === "heldout");
    for (const ds of [...new Set(evalFaith.map((j) => j.dataset))].sort()) {
      const a = agreement(evalFaith.filter((j) => j.dataset === ds));
      const k = a.kappa.kappa === null ? "undefined" : a.kappa.kappa.toFixed(2);
      console.log(`  ${ds.padEnd(20)} n ${String(a.n).padStart(3)}  accuracy ${a.accuracy?.toFixed(2) ?? "n/a"}  TPR ${a.tpr?.toFixed(2) ?? "n/a"}  TNR ${a.tnr?.toFixed(2) ?? "n/a"}  kappa ${k}`);
    }

    if (args.includes("--sweep")) printSweep(items);
    if (keep) {
      console.log(`\nconverted files kept in ${dir} (ragjudge.config.json, golden, chunks, output, labels/, items.jsonl); the same figures through the CLI:`);
      console.log(`  ragjudge judge --config ${join(dir, "ragjudge.config.json")} && ragjudge calibrate --config ${join(dir, "ragjudge.config.json")}`);
    }
    return 0;
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  process.exitCode = reportError(e);
}
