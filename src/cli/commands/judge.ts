import type { Command } from "commander";
import { BOUNDS } from "../../golden/bounds.js";
import type { JudgeCommandFlags as Flags } from "../actions/judge.js";
import { BATCH_LIMITS_SHOWN } from "./help-values.js";
import { numberFlag } from "./numbers.js";
import { requestOptions } from "./request-options.js";

/**
 * Repeated values, each a comma list the action splits (and refuses when it
 * names nothing); no commander default, so --help shows only the text's
 * "(default: all)".
 */
function collect(v: string, prev: string[] | undefined): string[] {
  return [...(prev ?? []), v];
}

/**
 * `ragjudge judge`: judges every item of the configured dataset with the LLM
 * judge or the offline baseline, caches and resumes, writes judgments JSONL
 * and prints pass rates.
 */
export function registerJudge(program: Command): void {
  const judge = program
    .command("judge")
    .description(
      "Judge the answers: one yes/no verdict with its reason per item and rubric (faithfulness, correctness, citation accuracy, not found), by an LLM over any OpenAI-compatible endpoint or by the offline baseline. Cached and resumable; one run per cache folder at a time.",
    )
    .addHelpText(
      "after",
      [
        "",
        "API key: read only from the environment, never from flags or files: OPENAI_API_KEY, or the variable named by",
        '"judge": {"apiKeyEnv": "NAME"} in the config. A loopback --base-url (localhost, 127.0.0.1) needs none; --dry-run needs none.',
        "",
        "Exit status: 0 all judged; 2 bad input or setup (config, key, model, flags); 3 internal error; 4 the judge could not",
        "finish: some items ended as error verdicts (see --allow-errors), or the endpoint stopped the run (rate limited, down or",
        "too slow: rerun later, committed verdicts are kept).",
      ].join("\n"),
    )
    .option("--config <file>", "config file (default: ./ragjudge.config.json)")
    .option("--judge <kind>", "baseline (offline lexical baseline, no key) or openai (an LLM over an OpenAI-compatible endpoint); default: the config's judge")
    .option("--base-url <url>", "OpenAI-compatible endpoint including /v1, e.g. http://localhost:8000/v1 (default: config judge.baseUrl, else OPENAI_BASE_URL, else OpenAI)")
    .option("--model <name>", "judge model (default: config judge.model)")
    .option("--concurrency <n>", `calls in flight at once, at most ${BOUNDS.concurrency.max} (default: config judge.concurrency, 8)`, numberFlag("--concurrency", "concurrency"))
    .option("--repeats <n>", `judge each item n times, at most ${BOUNDS.repeats.max}, and report self-disagreement (default: config judge.repeats, 1)`, numberFlag("--repeats", "repeats"))
    .option("--rubrics <list>", "rubrics to judge, comma separated (default: config rubrics, else every non-optional rubric)")
    .option("--variant <names>", "variants to judge, comma separated or repeated (default: all)", collect)
    .option("--out <file>", "judgments JSONL to write (default: <cacheDir>/judgments.jsonl)")
    .option("--cache-dir <dir>", "cache folder (default: config cacheDir, .ragjudge)")
    .option("--labels <dir>", "labels folder the trust lines are decided against (default: the config's labels)")
    .option("--dry-run", "print the number of calls, estimated tokens and cost, and send nothing")
    .option("--timeout-ms <ms>", `deadline of one attempt, at most ${BOUNDS.timeoutMs.max} (Node's timer limit; default: config, 60000)`, numberFlag("--timeout-ms", "timeoutMs"))
    .option("--max-retries <n>", `retries per call for 429, 5xx, timeouts, resets, at most ${BOUNDS.maxRetries.max} (default: config, 4)`, numberFlag("--max-retries", "maxRetries"))
    .option("--allow-errors", "exit 0 (not 4) even when some items end as error verdicts")
    .option("--no-progress", "no progress display on stderr")
    .option("--by <list>", "break pass rates down by kind, tags (comma list: kind,tags), or none (default: kind)")
    .option("--json", "print the summary as JSON instead of tables")
    .option("--batch-export <file>", "judge nothing: write the pending calls (not in the cache) as Batch API JSONL for  ragjudge batch submit  or vLLM's run_batch; split into <file>, <name>.2.jsonl, ... at the per-file limits")
    .option("--batch-max-requests <n>", `requests per batch file (default ${BATCH_LIMITS_SHOWN.maxRequests}, the OpenAI Batch API's limit)`, numberFlag("--batch-max-requests", "batchRequests"))
    .option("--batch-max-bytes <n>", `bytes per batch file (default ${BATCH_LIMITS_SHOWN.maxBytes})`, numberFlag("--batch-max-bytes", "batchBytes"))
    .action(async (flags: Flags) => (await import("../actions/judge.js")).judgeAction(flags));
  requestOptions(judge);
}
