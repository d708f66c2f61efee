import type { Command } from "commander";
import { DEFAULT_QUEUE } from "./review.js";
import type { SampleFlags } from "../actions/sample.js";

/**
 * `ragjudge sample`: builds a review queue (JSONL) from the run's judgments
 * and the labels folder, each entry with its sampling frame and inclusion
 * probability. Written atomically.
 */
export function registerSample(program: Command): void {
  program
    .command("sample")
    .description("Build a review queue from the judge's verdicts and the existing labels: a random sample (the trust gate's frame), disagreements with existing labels, or a batch balanced between the judge's yes and no.")
    .option("--random <n>", "a uniform random sample of n items per rubric, recorded as a draw in <labels>/draws/ (the only frame the trust gate counts); its seed is fixed by the rubric's judged items, so drawing again gives the same items, a larger n the same ones plus more, and another --split the same order of items")
    .option("--disagreements", "every item where an existing label differs from the judge")
    .option("--panel-splits", "every item where the judges of a panel (config judges) split: a frame of its own, whose labels never count for the trust gate")
    .option("--draw <id>", "queue again the unlabelled drawn items of a recorded draw (labels/draws/<id>.json) the trust gate accepts, uniform or stratified: how a part-labelled draw is finished")
    .option("--balanced <n>", "n items per rubric, half the judge said yes to and half no (for a rubric with too few labels of one class)")
    .requiredOption("--annotator <name>", "who will label the queue: items they already labelled are never sampled again")
    .option("--seed <n>", "seed of --balanced and of the queue's order (a --random draw's seed is fixed by its items: the trust gate refuses a chosen one)", "1")
    .option("--rubrics <names>", "comma-separated rubric names (default: the config's rubrics)")
    .option("--variant <names>", "comma-separated variant names (default: every variant)")
    .option("--split <names>", "comma-separated golden-set splits to sample from, e.g. heldout (the trust gate counts the held-out split only, config trust.heldout; no split is dev)")
    .option("--served-model <name>", "when the endpoint served a rubric's verdicts under two model names (an alias that moved during the run), sample the verdicts of this one (default: the one that served the latest verdict); the trust gate calibrates each served model apart")
    .option("--out <file>", `where to write the queue (default: <cacheDir>/${DEFAULT_QUEUE})`)
    .option("--judgments <file>", "judgments JSONL of the run (default: <cacheDir>/judgments.jsonl, which ragjudge run and ragjudge judge write)")
    .option("--evaluation <dir>", "read the judgments of an evaluation folder (evaluations/<time>-<name>/) instead")
    .option("--labels <dir>", "labels folder (default: the config's labels)")
    .option("--config <file>", "config file (default: ./ragjudge.config.json)")
    .action(async (flags: SampleFlags) => (flags.panelSplits ? (await import("../actions/sample-panel.js")).samplePanelSplitsAction(flags) : flags.draw !== undefined ? (await import("../actions/sample-draw.js")).sampleDrawAction(flags) : (await import("../actions/sample.js")).sampleAction(flags)));
}
