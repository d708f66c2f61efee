import type { Command } from "commander";
import { BOUNDS } from "../../golden/bounds.js";
import type { CommonFlags } from "../actions/batch.js";
import { BATCH_LIMITS_SHOWN } from "./help-values.js";
import { numberFlag } from "./numbers.js";

function common(cmd: Command): Command {
  return cmd
    .option("--config <file>", "config file (default: ./ragjudge.config.json; --example: the shipped example)")
    .option("--cache-dir <dir>", "cache folder holding the verdicts and the batch records (default: config cacheDir, .ragjudge)");
}

function withEndpoint(cmd: Command): Command {
  return common(cmd).option("--base-url <url>", "Batch API endpoint including /v1 (default: config judge.baseUrl, else OPENAI_BASE_URL, else OpenAI); the key comes from OPENAI_API_KEY or judge.apiKeyEnv");
}

/**
 * `ragjudge batch submit|status|collect|forget|import`: judge through the OpenAI
 * Batch API (or any endpoint offering /files and /batches), or import the
 * output of vLLM's batch runner, into the same cache the online judge uses.
 */
export function registerBatch(program: Command): void {
  const batch = program
    .command("batch")
    .description("Judge through the OpenAI Batch API or vLLM's batch runner: submit files written by  ragjudge judge --batch-export, poll them, collect their verdicts into the cache, or import an output file made elsewhere.");

  withEndpoint(batch.command("submit").argument("<files...>", "export files written by ragjudge judge --batch-export"))
    .description("Upload export files and create one batch per file. Idempotent: run it again after any failure; a file already submitted is not sent twice.")
    .option("--max-requests <n>", `refuse files with more requests than this (default ${BATCH_LIMITS_SHOWN.maxRequests})`, numberFlag("--max-requests", "batchRequests"))
    .option("--max-bytes <n>", `refuse files larger than this (default ${BATCH_LIMITS_SHOWN.maxBytes})`, numberFlag("--max-bytes", "batchBytes"))
    .action(async (files: string[], flags: CommonFlags & { maxRequests?: number; maxBytes?: number }) => (await import("../actions/batch.js")).batchSubmit(files, flags));

  withEndpoint(batch.command("status"))
    .description("Poll every batch not collected yet and print its state and counts, and where every exported request stands.")
    .option("--all", "also list batches already collected")
    .action(async (flags: CommonFlags & { all?: boolean }) => (await import("../actions/batch.js")).batchStatus(flags));

  withEndpoint(batch.command("collect"))
    .description("Store the verdicts of every finished batch in the cache (failed lines as error verdicts; expired or cancelled requests back to pending). Afterwards  ragjudge judge  makes no calls for them.")
    .option("--wait", "poll until every batch has finished, collecting each as it does")
    .option("--poll-interval <seconds>", `seconds between polls with --wait (default 60, at most ${BOUNDS.pollInterval.max})`, numberFlag("--poll-interval", "pollInterval"))
    .action(async (flags: CommonFlags & { wait?: boolean; pollInterval?: number }) => (await import("../actions/batch.js")).batchCollect(flags));

  common(batch.command("forget").argument("<batch-ids...>", "batches to give up on (see ragjudge batch status)"))
    .description("Give up on batches that will never be collected from here (endpoint gone, another account): their requests return to pending, so the next export includes them. A later output file can still be brought in with  ragjudge batch import.")
    .action(async (ids: string[], flags: CommonFlags) => (await import("../actions/batch.js")).batchForget(ids, flags));

  common(batch.command("import").argument("<file>", "a Batch API output or error file (OpenAI, vLLM's run_batch)"))
    .description("Store the verdicts of a batch output file made elsewhere (e.g. by vLLM's batch runner on a GPU machine) in the cache. Lines must answer requests exported from this cache.")
    .action(async (file: string, flags: CommonFlags) => (await import("../actions/batch.js")).batchImport(file, flags));
}
