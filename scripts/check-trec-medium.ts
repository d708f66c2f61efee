/**
 * `npm run check:trec-medium`: checks ragjudge against trec_eval's outputs on
 * the medium reference set (5,000 queries x 100 documents), which lives in
 * ../shared/reference/trec/medium (19 MB, not committed). Says it skipped
 * when the folder is absent (a user's clone); exits 1 on any disagreement.
 *
 * Checks: byte equality with trec_eval 10.0 -q -c (stock output) and with
 * 9.0.8 without -c (--no-complete); every query and measure within 1e-9 of
 * the full-precision outputs, with and without -l 2 (and whether those are
 * byte-identical too). Then the same stock and full-precision checks through
 * the streaming scorer `ragjudge retrieval` uses (scoreTrecFiles), on one
 * thread and on two.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseMeasures } from "../src/retrieval/measures/parse.js";
import { evaluateTrec, scoreTrecFiles, type TrecEvalOptions } from "../src/retrieval/trec/evaluate.js";
import { readQrels } from "../src/retrieval/trec/qrels.js";
import { REFERENCE_MEASURES, REFERENCE_MEASURES_FULL, parseTrecEvalOutput } from "../src/retrieval/trec/reference.js";
import { readRun } from "../src/retrieval/trec/run.js";
import { formatTrecEval } from "../src/retrieval/trec/write.js";

const root = resolve(fileURLToPath(import.meta.url), "..", "..");
const dir = process.env.TREC_MEDIUM_DIR ?? resolve(root, "..", "shared", "reference", "trec", "medium");

async function main(): Promise<number> {
  if (!existsSync(join(dir, "run.txt"))) {
    console.log(`check:trec-medium: skipped (no reference data at ${dir})`);
    return 0;
  }
  const t0 = performance.now();
  const qrels = readQrels(join(dir, "qrels.txt"));
  const run = readRun(join(dir, "run.txt"), qrels);
  console.log(`check:trec-medium: ${qrels.queries.length} qrels queries, ${run.lines} run lines, read in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  let failures = 0;
  const expectText = (name: string, file: string, specs: readonly string[], opts: Partial<TrecEvalOptions>, full: boolean, tolerance: boolean) => {
    const ev = evaluateTrec(qrels, run, { measures: parseMeasures(specs, []), ...opts });
    const ours = formatTrecEval(ev, { fullPrecision: full });
    const theirs = readFileSync(join(dir, file), "utf8");
    const bytes = ours === theirs;
    if (!tolerance) {
      console.log(`  ${bytes ? "ok  " : "FAIL"} ${name}: ${bytes ? "byte-identical to" : "differs from"} ${file}`);
      if (!bytes) failures++;
      return;
    }
    const a = parseTrecEvalOutput(ours);
    const b = parseTrecEvalOutput(theirs);
    let worst = 0;
    let bad = 0;
    for (const [k, v] of b) {
      const d = a.has(k) ? Math.abs(a.get(k)! - v) : Infinity;
      worst = Math.max(worst, d);
      if (!(d <= 1e-9)) {
        if (bad < 5) console.log(`    ${k.replace("\t", " ")}: ours ${a.get(k)}, trec_eval ${v}`);
        bad++;
      }
    }
    if (a.size !== b.size) bad++;
    console.log(`  ${bad ? "FAIL" : "ok  "} ${name}: ${b.size} values within 1e-9 of ${file} (largest difference ${worst}; byte-identical: ${bytes ? "yes" : "no"})`);
    if (bad) failures++;
  };
  expectText("trec_eval 10.0 -q -c", "trec_eval.c.txt", REFERENCE_MEASURES, {}, false, false);
  expectText("trec_eval 9.0.8 without -c", "trec_eval-9.0.8.noc.txt", REFERENCE_MEASURES, { complete: false }, false, false);
  expectText("full precision", "trec_eval.c.full.txt", REFERENCE_MEASURES_FULL, {}, true, true);
  expectText("full precision, -l 2", "trec_eval.c.l2.full.txt", REFERENCE_MEASURES_FULL, { level: 2 }, true, true);
  for (const threads of [1, 2]) {
    for (const [file, specs, opts, full] of [
      ["trec_eval.c.txt", REFERENCE_MEASURES, {}, false],
      ["trec_eval.c.full.txt", REFERENCE_MEASURES_FULL, {}, true],
      ["trec_eval.c.l2.full.txt", REFERENCE_MEASURES_FULL, { level: 2 }, true],
    ] as const) {
      const ev = await scoreTrecFiles(join(dir, "qrels.txt"), join(dir, "run.txt"), { measures: parseMeasures(specs, []), threads, ...opts });
      const same = formatTrecEval(ev, { fullPrecision: full }) === readFileSync(join(dir, file), "utf8");
      console.log(`  ${same ? "ok  " : "FAIL"} streaming scorer, ${threads} thread${threads > 1 ? "s" : ""}: ${same ? "byte-identical to" : "differs from"} ${file}`);
      if (!same) failures++;
    }
  }
  console.log(failures ? `check:trec-medium: ${failures} check(s) failed` : "check:trec-medium: all checks agree with trec_eval");
  return failures ? 1 : 0;
}

main().then((code) => (process.exitCode = code));
