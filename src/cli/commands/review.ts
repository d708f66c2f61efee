import type { Command } from "commander";
import { Option } from "commander";
import type { ReviewFlags } from "../actions/review.js";

/** Default queue file, shared with `ragjudge sample --out`. */
export const DEFAULT_QUEUE = "review-queue.jsonl";

/** Where `--item` draws its one-item queue when no queue file is named. */
export const ITEM_QUEUE = "review-item-queue.jsonl";

/**
 * `ragjudge review [queue]`: label a review queue in a local web page (or,
 * with `--tty`, in the terminal). Paths default from the config; the config
 * is read only when a default is needed.
 */
export function registerReview(program: Command): void {
  program
    .command("review")
    .description("Label a review queue by hand: a local web page on 127.0.0.1 (or --tty in the terminal). Each label is saved to labels/<annotator>.jsonl before the next item shows; restarting resumes where you stopped.")
    .argument("[queue]", `review queue JSONL written by \`ragjudge sample\` (default: <cacheDir>/${DEFAULT_QUEUE}; with --item, where its queue is written, default <cacheDir>/${ITEM_QUEUE})`)
    .option("--item <variant/question[/rubric[/unit]]>", "review one item (every judged rubric and unit of that question, or the one named): drawn into a queue of its own in the manual frame, which the trust gate never counts; the HTML report's explorer shows this command for each item")
    .requiredOption("--annotator <name>", "who is labelling; labels go to <labels>/<name>.jsonl")
    .option("--tty", "review in the terminal instead of a web page (for remote shells)")
    .addOption(new Option("--provenance <kind>", "human, or author for the project's own example labels (default: author when every earlier label of this annotator is one, else human)").choices(["human", "author"]))
    .option("--labels <dir>", "labels folder (default: the config's labels)")
    .option("--judgments <file>", "judgments JSONL, to reveal the judge's verdict after you answer (default: <cacheDir>/judgments.jsonl)")
    .option("--rubrics-dir <dir>", "rubrics folder, for each rubric's yes/no question (default: the config's rubricsDir)")
    .addOption(new Option("--order <order>", "queue: as drawn; uncertain: within each draw, the items whose judge was least sure (P(yes) nearest 0.5) first, without changing which items are drawn").choices(["queue", "uncertain"]).default("queue"))
    .option("--port <n>", "port on 127.0.0.1 (default: a free one)", "0")
    .option("--config <file>", "config file (default: ./ragjudge.config.json)")
    .action(async (queueArg: string | undefined, flags: ReviewFlags) => (await import("../actions/review.js")).reviewAction(queueArg, flags));
}
