/**
 * `npm run attribution:fit`: fits the baseline's support model on the
 * AttributionBench development split (../shared/data/attribution-dev-full.jsonl,
 * third-party, never copied into the repository) and writes only its
 * parameters, with the data's source, split and hash beside them, to
 * src/judge/baseline/support-model.ts.
 *
 * Deterministic: fixed fold assignment (seeded, by question), a fixed lambda
 * grid chosen by cross-validated log-loss, a fixed number of Newton steps,
 * weights rounded to 6 significant digits and printed by ECMAScript's exact
 * number-to-string. So the file it writes is byte for byte the shipped one
 * from the same data; `--check` verifies that without writing (exit 1 when
 * they differ).
 *
 * Flags: `--data FILE`, `--check`, `--out FILE` (write or check another file). Without the data it prints one line and exits 0.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { reportError } from "../../src/cli/errors.js";
import { packageRoot } from "../../src/golden/config.js";
import { writeFileAtomic } from "../../src/golden/files.js";
import { FEATURE_DOCS, FEATURES } from "../../src/judge/baseline/align.js";
import type { SupportModel } from "../../src/judge/baseline/model.js";
import { FOLDS, FOLD_SEED, LAMBDAS, fitAll, questionFolds, trainingRows } from "./crossval.js";
import { LABELS, dataFileOrSkip, flagValue, loadAttributionRows } from "./data.js";
import { ITERATIONS, SIGNIFICANT } from "./logistic.js";

/** The file the parameters go to. */
export const MODEL_FILE = resolve(packageRoot(), "src", "judge", "baseline", "support-model.ts");
/** The model's name; bump {@link MODEL_VERSION} when the features or the procedure change. */
export const MODEL_NAME = "ragjudge-support-logistic";
export const MODEL_VERSION = 1;
/** Supported when pYes >= 0.5: not tuned (the data is balanced, so 0.5 is the error-minimising cut of calibrated odds). */
export const THRESHOLD = 0.5;
const SOURCE = "AttributionBench (OSU-NLP-Group/AttributionBench), dev_all_subset_balanced";

/** Fits the model on the rows of a data file. */
export function fitModel(file: string): SupportModel {
  const bytes = readFileSync(file);
  const rows = loadAttributionRows(file);
  const training = trainingRows(rows, questionFolds(rows));
  const { model, lambda } = fitAll(training);
  const yes = rows.filter((r) => LABELS[r.attribution_label] === "yes").length;
  return {
    name: MODEL_NAME,
    version: MODEL_VERSION,
    data: {
      source: SOURCE,
      split: `development split, all rows (${yes} supported, ${rows.length - yes} not); the model is fitted on the ${training.length} whose numbers and codes all occur in their references (the number rule decides the rest)`,
      rows: rows.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    },
    fit: {
      method: `L2 logistic regression on standardised features, lambda chosen from ${LAMBDAS.join(", ")} by ${FOLDS}-fold cross-validated log-loss (folds by question), weights on the raw scale rounded to ${SIGNIFICANT} significant digits`,
      lambda,
      folds: FOLDS,
      foldSeed: FOLD_SEED,
      iterations: ITERATIONS,
    },
    features: [...FEATURES],
    weights: model.weights,
    intercept: model.intercept,
    threshold: THRESHOLD,
  };
}

/** The TypeScript module holding a model, exactly as shipped. */
export function renderModel(m: SupportModel): string {
  const s = (x: unknown) => JSON.stringify(x);
  const width = Math.max(...m.weights.map((w) => String(w).length));
  const weights = m.features.map((f, i) => `    ${`${String(m.weights[i])},`.padEnd(width + 1)} // ${f}: ${FEATURE_DOCS[f]}`);
  return [
    "/**",
    " * The learned support model of the offline baseline judge (faithfulness and",
    " * citation accuracy). Written by `npm run attribution:fit`",
    " * (scripts/attribution/fit.ts): do not edit by hand. `npm run attribution:fit --",
    " * --check` verifies that the script reproduces this file byte for byte from",
    " * the data named below; `npm run attribution:baseline` prints its",
    " * cross-validated agreement with people beside the previous rules.",
    " *",
    " * logit = intercept + sum of weight x feature; pYes = 1 / (1 + exp(-logit)).",
    " * These numbers are part of the baseline's fingerprint.",
    " */",
    'import type { SupportModel } from "./model.js";',
    "",
    "export const SUPPORT_MODEL: SupportModel = {",
    `  name: ${s(m.name)},`,
    `  version: ${m.version},`,
    "  data: {",
    `    source: ${s(m.data.source)},`,
    `    split: ${s(m.data.split)},`,
    `    rows: ${m.data.rows},`,
    `    sha256: ${s(m.data.sha256)},`,
    "  },",
    "  fit: {",
    `    method: ${s(m.fit.method)},`,
    `    lambda: ${m.fit.lambda},`,
    `    folds: ${m.fit.folds},`,
    `    foldSeed: ${m.fit.foldSeed},`,
    `    iterations: ${m.fit.iterations},`,
    "  },",
    `  features: [${m.features.map(s).join(", ")}],`,
    "  weights: [",
    ...weights,
    "  ],",
    `  intercept: ${m.intercept},`,
    `  threshold: ${m.threshold},`,
    "};",
    "",
  ].join("\n");
}

async function main(args: string[]): Promise<number> {
  const file = dataFileOrSkip(flagValue(args, "--data"), "attribution:fit");
  if (!file) return 0;
  const started = performance.now();
  const text = renderModel(fitModel(file));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const out = flagValue(args, "--out") ?? MODEL_FILE;
  if (args.includes("--check")) {
    let shipped = "";
    try {
      shipped = readFileSync(out, "utf8");
    } catch {
      // A missing file differs like any other.
    }
    if (shipped === text) {
      console.log(`attribution:fit: ${out} is reproduced byte for byte from ${file} (fitted in ${seconds} s)`);
      return 0;
    }
    const a = shipped.split("\n");
    const b = text.split("\n");
    const line = a.findIndex((l, i) => l !== b[i]);
    const at = line < 0 ? Math.min(a.length, b.length) : line;
    console.error(`attribution:fit: ${out} differs from the fit of ${file} at line ${at + 1}:\n  shipped: ${a[at] ?? "(end of file)"}\n  fitted:  ${b[at] ?? "(end of file)"}`);
    return 1;
  }
  writeFileAtomic(out, text);
  console.log(`attribution:fit: wrote ${out} (fitted on ${file} in ${seconds} s)`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (e) {
    process.exitCode = reportError(e);
  }
}
