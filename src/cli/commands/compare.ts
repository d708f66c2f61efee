import { Option, type Command } from "commander";
import { resolve } from "node:path";
import { DEFAULT_REPS, DEFAULT_SEED } from "../../calibration/stats/index.js";
import { loadConfig } from "../../golden/config.js";
import { displayPath } from "../../golden/errors.js";
import { compareSides } from "../../report/compare/compare.js";
import { loadEvaluation, parseSide, pickVariant, variantPairs, type CompareSide } from "../../report/compare/load.js";
import { renderComparisons, type CompareFormat } from "../../report/compare/render.js";
import { configEvaluationsDir, latestEvaluation } from "../../report/folder.js";
import { EXIT, UsageError } from "../errors.js";

interface CompareFlags {
  variants?: string;
  config?: string;
  evaluationsDir?: string;
  format: CompareFormat;
  metric: string;
  seed: string;
  reps: string;
  minGroup: string;
  failOnRegression?: boolean;
}

function intFlag(name: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${name} must be a whole number >= ${min}, got ${JSON.stringify(value)}`);
  return n;
}

/** The newest evaluation under the config's evaluationsDir (or --evaluations-dir). */
function latest(flags: CompareFlags): string {
  const dir = flags.evaluationsDir ? resolve(flags.evaluationsDir) : configEvaluationsDir(loadConfig(flags.config));
  const found = latestEvaluation(dir);
  if (!found) throw new UsageError(`no evaluation in ${displayPath(dir)}: run ragjudge run first, or name the folders (ragjudge compare A B)`);
  return found;
}

function pairsFrom(args: string[], flags: CompareFlags): [CompareSide, CompareSide][] {
  if (flags.variants !== undefined) {
    const names = flags.variants.split(",").map((s) => s.trim()).filter(Boolean);
    if (names.length !== 2) throw new UsageError(`--variants takes two variant names, A,B (got ${JSON.stringify(flags.variants)})`);
    if (args.length > 1) throw new UsageError("with --variants, give at most one evaluation folder (default: the latest evaluation)");
    const ev = loadEvaluation(args[0] ?? latest(flags));
    return [[{ evaluation: ev, variant: pickVariant(ev, names[0]!) }, { evaluation: ev, variant: pickVariant(ev, names[1]!) }]];
  }
  if (args.length !== 2) throw new UsageError("compare needs two evaluations, A and B (FOLDER or FOLDER#variant), or --variants A,B [FOLDER]");
  const a = parseSide(args[0]!);
  const b = parseSide(args[1]!);
  return variantPairs(loadEvaluation(a.folder), a.variant, loadEvaluation(b.folder), b.variant);
}

/**
 * `ragjudge compare`: paired comparison of two variants or evaluations on the
 * same golden set, with bootstrap intervals, McNemar's test, regressed
 * groups, changed questions and a verdict line; exit 1 with
 * --fail-on-regression when anything regressed.
 */
export function registerCompare(program: Command): void {
  program
    .command("compare")
    .argument("[evaluations...]", "A and B: evaluation folders, each optionally FOLDER#variant (with --variants: one folder, default the latest)")
    .description("Compare two variants question by question on the same golden set: paired differences with bootstrap intervals, McNemar's test for yes/no outcomes, regressed kinds and tags, the questions that changed (worst first), and one verdict line. Judge figures of different fingerprints are refused.")
    .option("--variants <a,b>", "compare two variants of one evaluation (the latest by default), e.g. bm25-small,hybrid-rerank")
    .addOption(new Option("--format <format>", "output format").choices(["table", "md", "json"]).default("table"))
    .option("--metric <name>", "headline retrieval metric (per question: RR, R@k, nDCG@k, Hit@k, P@k, AP, R-Prec)", "RR")
    .option("--seed <n>", "bootstrap seed", String(DEFAULT_SEED))
    .option("--reps <n>", "bootstrap resamples", String(DEFAULT_REPS))
    .option("--min-group <n>", "kinds and tags with fewer paired questions get no interval and are never flagged", "5")
    .option("--fail-on-regression", "exit 1 when an overall measure or a kind or tag regressed (its interval lies below zero)")
    .option("--config <file>", "config whose evaluationsDir holds the latest evaluation (with --variants and no folder)")
    .option("--evaluations-dir <dir>", "where to look for the latest evaluation (with --variants and no folder)")
    .action((args: string[], flags: CompareFlags) => {
      const seed = intFlag("--seed", flags.seed, 0);
      const reps = intFlag("--reps", flags.reps, 100);
      const minGroup = intFlag("--min-group", flags.minGroup, 2);
      const comparisons = pairsFrom(args, flags).map(([a, b]) => compareSides(a, b, { metric: flags.metric, seed, reps, minGroup }));
      process.stdout.write(renderComparisons(comparisons, flags.format));
      const regressed = comparisons.filter((c) => c.regressions.length > 0);
      if (flags.failOnRegression && regressed.length) {
        for (const c of regressed) process.stderr.write(`ragjudge: regression: ${c.b.variant} against ${c.a.variant}: ${c.regressions.join("; ")}\n`);
        process.exitCode = EXIT.failed;
      }
    });
}
