import { Option, type Command } from "commander";
import { BOUNDS } from "../../golden/bounds.js";
import { DEFAULT_QUEUE } from "./review.js";
import type { PlanFlags } from "../actions/plan.js";

/**
 * `ragjudge plan`: how many more random held-out labels each rubric needs
 * for the trust gate and for a target width of its corrected pass rate;
 * with `--budget N`, where N labels buy the most certainty, recorded as
 * stratified draws that `ragjudge review` serves.
 */
export function registerPlan(program: Command): void {
  program
    .command("plan")
    .description("Say how many more random held-out labels each rubric needs (kappa's lower bound above the gate's threshold, and the corrected pass rate's interval narrower than --width); with --budget N, split N labels where they buy the most certainty and record them as stratified draws for ragjudge review.")
    .option("--width <w>", "target full width of the corrected pass rate's 95% interval", "0.1")
    .option("--budget <n>", "split n new labels over the rubrics and write stratified draws (labels/draws/) and a review queue")
    .option("--active <n>", "error analysis only: queue the n unlabelled items per rubric the judge is least sure of (P(yes) nearest 0.5); the trust gate never counts these labels")
    .option("--annotator <name>", "who will label the budget's queue (needed with --budget)")
    .option("--seed <n>", "seed of the simulation check and of the queue's order (a draw's own seed is fixed by its items: the trust gate refuses a chosen one)", "1")
    .option("--reps <n>", `replicates of the simulation check, at most ${BOUNDS.simulationReps.max} (0: skip it)`, "400")
    .option("--out <file>", `where --budget writes the review queue (default: <cacheDir>/${DEFAULT_QUEUE})`)
    .option("--judgments <file>", "judgments JSONL (default: <cacheDir>/judgments.jsonl)")
    .option("--labels <dir>", "labels folder (default: the config's labels)")
    .option("--config <file>", "config file (default: ./ragjudge.config.json)")
    .addOption(new Option("--format <format>", "output format").choices(["text", "json"]).default("text"))
    .action(async (flags: PlanFlags) => (await import("../actions/plan.js")).planAction(flags));
}
