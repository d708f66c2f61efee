import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { ConfigNotFoundError, configAbove, loadConfig, type ResolvedConfig } from "../../golden/config.js";
import { displayPath } from "../../golden/errors.js";
import { compareSides } from "../../report/compare/compare.js";
import { loadEvaluation, parseSide, pickVariant, variantPairs, type CompareSide, type LoadedEvaluation } from "../../report/compare/load.js";
import { renderComparisons, type CompareFormat } from "../../report/compare/render.js";
import { untrustedLine } from "../../report/compare/render-trust.js";
import { notRechecked, recheckTrust, type TrustRecheck } from "../../report/compare/trust.js";
import { configEvaluationsDir, latestEvaluation } from "../../report/folder.js";
import { shellArg } from "../../report/next.js";
import { EXIT, UsageError } from "../errors.js";
import { calibrateHint, labelsToRead } from "./example-labels.js";
import { parseNumber } from "../commands/numbers.js";

export interface CompareFlags {
  variants?: string;
  config?: string;
  labels?: string;
  evaluationsDir?: string;
  format: CompareFormat;
  metric: string;
  seed: string;
  reps: string;
  minGroup: string;
  failOnRegression?: boolean;
  requireTrusted?: boolean;
}

/**
 * The project whose labels folder re-checks each evaluation's trust:
 * `--config` (or `--example`), else ./ragjudge.config.json. None there is
 * not an error (the folders to compare may be named outright): the trust
 * state is then shown as not re-checked, with {@link noProject}'s reason.
 */
function projectOf(flags: CompareFlags): ResolvedConfig | ConfigNotFoundError {
  try {
    return loadConfig(flags.config);
  } catch (e) {
    if (e instanceof ConfigNotFoundError) return e;
    throw e;
  }
}

/** Why an evaluation's trust could not be re-checked without a config, with the flag that re-checks it. */
function noProject(ev: LoadedEvaluation, e: ConfigNotFoundError): string {
  const none = `no ragjudge.config.json in ${e.cwd} and no --config, so no calibration records to read`;
  if (ev.report.config.shippedExample) return `${none}: add --example to re-check it against the shipped example's`;
  const near = e.above ?? configAbove(ev.folder);
  return near ? `${none}: add --config ${shellArg(displayPath(near))} to re-check it` : `${none}: run compare from the project's folder, or add --config with the project's config`;
}

/**
 * A re-check's trust lines with their `run ragjudge calibrate` advice for the
 * project, the `--labels` folder and the evaluation's own verdicts, the ones
 * re-checked (the cache may hold another run's by now): {@link calibrateHint}.
 */
function withHints(check: TrustRecheck, project: ResolvedConfig, labels: string | undefined, ev: LoadedEvaluation): TrustRecheck {
  const judgments = displayPath(join(ev.folder, "judgments.jsonl"));
  return { ...check, states: new Map([...check.states].map(([k, l]) => [k, { ...l, message: calibrateHint(project, labels, l.message, judgments) }])) };
}

/** Loads each evaluation folder once, with its trust decided again against the project's records. */
function evaluations(project: ResolvedConfig | ConfigNotFoundError, labels: string | undefined): (folder: string) => LoadedEvaluation {
  const seen = new Map<string, LoadedEvaluation>();
  if (project instanceof ConfigNotFoundError && labels !== undefined) throw new UsageError(`--labels re-checks trust within a project, and there is no ragjudge.config.json in ${displayPath(project.cwd)} and no --config: add --config with the project's config`);
  const labelsDir = project instanceof ConfigNotFoundError ? undefined : labelsToRead(project, labels);
  return (folder) => {
    const key = resolve(folder);
    let ev = seen.get(key);
    if (!ev) {
      ev = loadEvaluation(folder);
      ev.trust = project instanceof ConfigNotFoundError ? notRechecked(noProject(ev, project)) : withHints(recheckTrust(ev, project, labelsDir), project, labels, ev);
      seen.set(key, ev);
    }
    return ev;
  };
}

/** The newest evaluation under the config's evaluationsDir (or --evaluations-dir). */
function latest(flags: CompareFlags, project: ResolvedConfig | ConfigNotFoundError): string {
  if (!flags.evaluationsDir && project instanceof ConfigNotFoundError) throw project;
  const dir = flags.evaluationsDir ? resolve(flags.evaluationsDir) : configEvaluationsDir(project as ResolvedConfig);
  // a mistyped --evaluations-dir is named as such, and the run the hint asks for writes where compare looks: a bare
  // `ragjudge run` wrote into the config's evaluations folder, and compare with the same flag failed again
  if (flags.evaluationsDir && !existsSync(dir)) throw new UsageError(`${displayPath(dir)}: evaluations folder not found (--evaluations-dir): name the folder \`ragjudge run --evaluations-dir\` wrote, or leave the flag out for the config's`);
  const found = latestEvaluation(dir);
  const run = ["ragjudge run", ...(flags.config ? ["--config", shellArg(flags.config)] : []), ...(flags.evaluationsDir ? ["--evaluations-dir", shellArg(flags.evaluationsDir)] : [])].join(" ");
  if (!found) throw new UsageError(`no evaluation in ${displayPath(dir)}: run \`${run}\` first, or name the folders (ragjudge compare A B)`);
  return found;
}

function pairsFrom(args: string[], flags: CompareFlags, project: ResolvedConfig | ConfigNotFoundError): [CompareSide, CompareSide][] {
  const load = evaluations(project, flags.labels);
  if (flags.variants !== undefined) {
    const names = flags.variants.split(",").map((s) => s.trim()).filter(Boolean);
    if (names.length !== 2) throw new UsageError(`--variants takes two variant names, A,B (got ${JSON.stringify(flags.variants)})`);
    if (args.length > 1) throw new UsageError("with --variants, give at most one evaluation folder (default: the latest evaluation)");
    const ev = load(args[0] ?? latest(flags, project));
    return [[{ evaluation: ev, variant: pickVariant(ev, names[0]!) }, { evaluation: ev, variant: pickVariant(ev, names[1]!) }]];
  }
  if (args.length !== 2) throw new UsageError("compare needs two evaluations, A and B (FOLDER or FOLDER#variant), or --variants A,B [FOLDER]");
  const a = parseSide(args[0]!);
  const b = parseSide(args[1]!);
  return variantPairs(load(a.folder), a.variant, load(b.folder), b.variant);
}

/** `ragjudge compare`'s action (see commands/compare.ts). */
export function compareAction(args: string[], flags: CompareFlags): void {
  const seed = parseNumber("--seed", flags.seed, "randomSeed");
  const reps = parseNumber("--reps", flags.reps, "bootstrapReps");
  const minGroup = parseNumber("--min-group", flags.minGroup, "minGroup");
  const pairs = pairsFrom(args, flags, projectOf(flags));
  // Files that cannot be read are bad input (exit 2), not an untrusted judge (exit 1): CI must tell the two apart.
  if (flags.requireTrusted) {
    const bad = pairs.flat().map((s) => s.evaluation.trust?.badInput).find((e) => e !== undefined);
    if (bad) throw bad;
  }
  const comparisons = pairs.map(([a, b]) => compareSides(a, b, { metric: flags.metric, seed, reps, minGroup }));
  process.stdout.write(renderComparisons(comparisons, flags.format));
  const regressed = comparisons.filter((c) => c.regressions.length > 0);
  if (flags.failOnRegression && regressed.length) {
    for (const c of regressed) process.stderr.write(`ragjudge: regression: ${c.b.variant} against ${c.a.variant}: ${c.regressions.join("; ")}\n`);
    process.exitCode = EXIT.failed;
  }
  const untrusted = flags.requireTrusted ? comparisons.map(untrustedLine).filter(Boolean) : [];
  for (const line of untrusted) process.stderr.write(`ragjudge: untrusted judge figures: ${line}\n`);
  if (untrusted.length) process.exitCode = EXIT.failed;
}
