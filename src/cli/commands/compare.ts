import { Option, type Command } from "commander";
import { BOUNDS } from "../../golden/bounds.js";
import { BOOTSTRAP_SHOWN } from "./help-values.js";
import type { CompareFlags } from "../actions/compare.js";

/**
 * `ragjudge compare`: paired comparison of two variants or evaluations on the
 * same golden set, with bootstrap intervals, McNemar's test, regressed
 * groups, changed questions and a verdict line; each judge figure's trust
 * decided again against the project's calibration records (not read from
 * report.json); exit 1 with --fail-on-regression when anything regressed,
 * and with --require-trusted when a compared judge figure is not trusted now.
 */
export function registerCompare(program: Command): void {
  program
    .command("compare")
    .argument("[evaluations...]", "A and B: evaluation folders, each optionally FOLDER#variant (with --variants: one folder, default the latest)")
    .description("Compare two variants question by question on the same golden set: paired differences with bootstrap intervals, McNemar's test for yes/no outcomes, regressed kinds and tags, the questions that changed (worst first), and one verdict line. Judge figures of different fingerprints are refused. Each judge figure's trust is decided again from the evaluation's verdicts and the project's calibration records, not read from report.json.")
    .option("--variants <a,b>", "compare two variants of one evaluation (the latest by default), e.g. bm25-small,hybrid-rerank")
    .addOption(new Option("--format <format>", "output format").choices(["table", "md", "json"]).default("table"))
    .option("--metric <name>", "headline retrieval metric (per question: RR, R@k, nDCG@k, Hit@k, P@k, AP, R-Prec; the names --fail-under takes, such as MRR)", "RR")
    .option("--seed <n>", "bootstrap seed", String(BOOTSTRAP_SHOWN.seed))
    .option("--reps <n>", `bootstrap resamples, ${BOUNDS.bootstrapReps.min} to ${BOUNDS.bootstrapReps.max}`, String(BOOTSTRAP_SHOWN.reps))
    .option("--min-group <n>", "kinds and tags with fewer paired questions get no interval and are never flagged", "5")
    .option("--fail-on-regression", "exit 1 when an overall measure or a kind or tag regressed (its interval lies below zero)")
    .option("--require-trusted", "exit 1 when a compared judge figure is not trusted on either side as the project's calibration records decide it now (or its trust could not be re-checked)")
    .option("--config <file>", "the project's config (default: ./ragjudge.config.json): its labels folder's calibration records re-check each evaluation's trust, and its evaluationsDir holds the latest evaluation (with --variants and no folder)")
    .option("--labels <dir>", "labels folder whose calibration records re-check each evaluation's trust (default: the project's labels)")
    .option("--evaluations-dir <dir>", "where to look for the latest evaluation (with --variants and no folder)")
    .action(async (args: string[], flags: CompareFlags) => (await import("../actions/compare.js")).compareAction(args, flags));
}
