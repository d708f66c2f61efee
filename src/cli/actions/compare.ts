import { resolve } from "node:path";
import { loadConfig } from "../../golden/config.js";
import { displayPath } from "../../golden/errors.js";
import { compareSides } from "../../report/compare/compare.js";
import { loadEvaluation, parseSide, pickVariant, variantPairs, type CompareSide } from "../../report/compare/load.js";
import { renderComparisons, type CompareFormat } from "../../report/compare/render.js";
import { configEvaluationsDir, latestEvaluation } from "../../report/folder.js";
import { EXIT, UsageError } from "../errors.js";
import { parseNumber } from "../commands/numbers.js";

export interface CompareFlags {
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

/** `ragjudge compare`'s action (see commands/compare.ts). */
export function compareAction(args: string[], flags: CompareFlags): void {
  const seed = parseNumber("--seed", flags.seed, "randomSeed");
  const reps = parseNumber("--reps", flags.reps, "bootstrapReps");
  const minGroup = parseNumber("--min-group", flags.minGroup, "minGroup");
  const comparisons = pairsFrom(args, flags).map(([a, b]) => compareSides(a, b, { metric: flags.metric, seed, reps, minGroup }));
  process.stdout.write(renderComparisons(comparisons, flags.format));
  const regressed = comparisons.filter((c) => c.regressions.length > 0);
  if (flags.failOnRegression && regressed.length) {
    for (const c of regressed) process.stderr.write(`ragjudge: regression: ${c.b.variant} against ${c.a.variant}: ${c.regressions.join("; ")}\n`);
    process.exitCode = EXIT.failed;
  }
}
