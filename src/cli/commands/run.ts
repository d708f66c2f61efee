import type { Command } from "commander";
import { BOUNDS } from "../../golden/bounds.js";
import type { RunFlags } from "../actions/run.js";
import { numberFlag } from "./numbers.js";
import { requestOptions } from "./request-options.js";

/**
 * `ragjudge run`: the whole evaluation in one command (library:
 * `runEvaluation`). Prints the terminal summary, writes the evaluation
 * folder, and ends with the exact next commands. Exits 1 on a missed floor
 * or, with --require-trusted, an untrusted rubric; 2 on bad input (nothing
 * written); 4 when the judge could not finish (the endpoint stopped the run,
 * or error verdicts are left without --allow-errors).
 */
export function registerRun(program: Command): void {
  const run = program
    .command("run")
    .description("Run the whole evaluation: validate, score retrieval and diagnose misses, judge the answers, calibrate the judge against labels, join search with answering, and write evaluations/<time>-<name>/ with every artifact and report (terminal, Markdown, JSON, JUnit, HTML). --example runs the shipped example (offline baseline judge, no key).")
    .option("--config <file>", "config file (default: ./ragjudge.config.json)")
    .option("--name <name>", "evaluation name in the folder name (default: the config's name)")
    .option("--evaluations-dir <dir>", "where evaluation folders go (default: the config's evaluationsDir, evaluations/)")
    .option("--require-trusted", "exit 1 when any rubric's judge is untrusted (not calibrated, too few labels, kappa too low)")
    .option("--fail-under <floors>", "retrieval floors added to the config's, e.g. 'R@10=0.70,RR=0.5': exit 1 when a variant is below one")
    .option("--judge <kind>", "baseline (offline, no key) or openai (an LLM over an OpenAI-compatible endpoint); default: the config's judge")
    .option("--base-url <url>", "OpenAI-compatible endpoint including /v1 (default: config judge.baseUrl, else OPENAI_BASE_URL)")
    .option("--model <name>", "judge model (default: config judge.model)")
    .option("--concurrency <n>", `judge calls in flight at once, at most ${BOUNDS.concurrency.max} (default: config judge.concurrency, 8)`, numberFlag("--concurrency", "concurrency"))
    .option("--timeout-ms <ms>", `the LLM judge's deadline of one attempt, at most ${BOUNDS.timeoutMs.max} (Node's timer limit; default: config judge.timeoutMs, 60000)`, numberFlag("--timeout-ms", "timeoutMs"))
    .option("--max-retries <n>", `the LLM judge's retries per call for 429, 5xx, timeouts, resets, at most ${BOUNDS.maxRetries.max} (default: config judge.maxRetries, 4)`, numberFlag("--max-retries", "maxRetries"))
    .option("--cache-dir <dir>", "the LLM judge's cache folder (default: config cacheDir, shared with ragjudge judge)")
    .option("--labels <dir>", "labels folder the judge is calibrated against (default: the config's labels; with --example, a folder of your own such as example-labels)")
    .option("--allow-errors", "exit 0 (not 4) when some items end as error verdicts; they still count as unjudged, never as yes or no")
    .option("--no-progress", "no judge progress display on stderr")
    .option("--quiet", "print only the evaluation folder (and failures on stderr)")
    .action(async (flags: RunFlags) => (await import("../actions/run.js")).runAction(flags));
  requestOptions(run);
}
