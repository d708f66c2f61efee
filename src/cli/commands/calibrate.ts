import { Option, type Command } from "commander";
import { BOUNDS } from "../../golden/bounds.js";
import type { CalibrateOptions } from "../actions/calibrate.js";
import { BOOTSTRAP_SHOWN } from "./help-values.js";

/** `ragjudge calibrate`: agreement of each rubric's judge with labels (human, author or imported), the calibration records, and the trust gate. */
export function registerCalibrate(program: Command): void {
  program
    .command("calibrate")
    .description("Compare each rubric's judge verdicts with labels (human, the project's own author labels, or imported), write calibration records, and mark each rubric trusted or not")
    .option("--judgments <file>", "judgments JSONL (default: <cacheDir>/judgments.jsonl)")
    .option("--labels <dir>", "labels folder (default: the config's labels)")
    .option("--config <file>", "config file (default: ./ragjudge.config.json; --example: the shipped example)")
    .addOption(new Option("--format <format>", "output format").choices(["table", "json", "md"]).default("table"))
    .option("--seed <n>", "bootstrap seed", String(BOOTSTRAP_SHOWN.seed))
    .option("--reps <n>", `bootstrap replicates, ${BOUNDS.bootstrapReps.min} to ${BOUNDS.bootstrapReps.max}`, String(BOOTSTRAP_SHOWN.reps))
    .option("--no-write", "print only; do not write calibration records")
    .option("--strict", "stale labels and labels for unjudged items are errors (exit 2)")
    .option("--require-trusted", "exit 1 unless every rubric is trusted, on the verdicts of the judgments file as given (a CI gate should run ragjudge run --require-trusted, which judges them itself)")
    .action(async (opts: CalibrateOptions) => (await import("../actions/calibrate.js")).calibrateAction(opts));
}
