import { InvalidArgumentError, type Command } from "commander";
import { resolve } from "node:path";
import { describeRubrics, loadConfig } from "../../golden/config.js";
import { writeFileAtomic } from "../../golden/files.js";
import { checkFolder, writableTarget } from "../../golden/paths.js";
import { baselineBackend, baselineUnsupported } from "../../judge/judges/baseline.js";
import { FatalJudgeError, type Judge } from "../../judge/judges/judge.js";
import { llmBackend, type OpenAIBackend } from "../../judge/judges/llm.js";
import { JudgeCache } from "../../judge/schedule/cache.js";
import { estimateRun, formatEstimate } from "../../judge/schedule/estimate.js";
import { exportBatch } from "../../judge/batch/export.js";
import { BATCH_LIMITS } from "../../judge/batch/format.js";
import { formatExport } from "../../judge/batch/report.js";
import { loadJudgeInputs } from "../../judge/items/inputs.js";
import { progressReporter } from "../../judge/schedule/progress.js";
import { redact } from "../../judge/transport/redact.js";
import { runJudge } from "../../judge/schedule/run.js";
import { resolveJudge, type JudgeFlags, type OpenAISettings } from "../../judge/judges/settings.js";
import { summarise } from "../../judge/summary/summary.js";
import { formatSummary } from "../../judge/summary/format.js";
import { costLine, costTotals } from "../../judge/schedule/cost.js";
import { summaryTrust } from "../../calibration/summary-trust.js";
import { EXIT, UsageError } from "../errors.js";

interface Flags extends JudgeFlags {
  config?: string;
  rubrics?: string;
  variant?: string[];
  out?: string;
  cacheDir?: string;
  dryRun?: boolean;
  allowErrors?: boolean;
  progress?: boolean;
  json?: boolean;
  by?: string;
  batchExport?: string;
  batchMaxRequests?: number;
  batchMaxBytes?: number;
}

function int(min: number, name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be a whole number >= ${min}`);
    return n;
  };
}

function num(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n)) throw new InvalidArgumentError("must be a number");
  return n;
}

/** Repeated or comma-separated values; no commander default, so --help shows only the text's "(default: all)". */
function collect(v: string, prev: string[] | undefined): string[] {
  return [...(prev ?? []), ...v.split(",").map((s) => s.trim()).filter(Boolean)];
}


function parseBy(v: string): ("kind" | "tags")[] {
  const parts = v.split(",").map((s) => s.trim()).filter(Boolean);
  if (parts.length === 1 && parts[0] === "none") return [];
  for (const p of parts) if (p !== "kind" && p !== "tags") throw new UsageError(`--by takes kind, tags or none, got ${JSON.stringify(p)}`);
  return parts as ("kind" | "tags")[];
}

function makeBackend(s: OpenAISettings, cache: JudgeCache | undefined, log: (s: string) => void): OpenAIBackend {
  return llmBackend(s, {
    cache,
    onModeChange: (_mode, cause) => log(`judge: the server rejects structured outputs (${redact(cause, [s.apiKey])}); asking for JSON in the text from now on (remembered for ${s.baseURL}, model ${s.model})\n`),
  });
}

/**
 * `ragjudge judge`: judges every item of the configured dataset with the LLM
 * judge or the offline baseline, caches and resumes, writes judgments JSONL
 * and prints pass rates.
 */
export function registerJudge(program: Command): void {
  program
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
    .option("--concurrency <n>", "calls in flight at once (default: config judge.concurrency, 8)", int(1, "--concurrency"))
    .option("--repeats <n>", "judge each item n times and report self-disagreement (default: config judge.repeats, 1)", int(1, "--repeats"))
    .option("--rubrics <list>", "rubrics to judge, comma separated (default: config rubrics, else every non-optional rubric)")
    .option("--variant <names>", "variants to judge, comma separated or repeated (default: all)", collect)
    .option("--out <file>", "judgments JSONL to write (default: <cacheDir>/judgments.jsonl)")
    .option("--cache-dir <dir>", "cache folder (default: config cacheDir, .ragjudge)")
    .option("--dry-run", "print the number of calls, estimated tokens and cost, and send nothing")
    .option("--temperature <t>", "sampling temperature (default: config, 0)", num)
    .option("--no-temperature", "omit temperature from requests (for models that reject it)")
    .option("--seed <n>", "seed (default: config, 0)", int(0, "--seed"))
    .option("--no-seed", "omit seed from requests")
    .option("--max-tokens <n>", "max_tokens per reply (default: config, 512)", int(1, "--max-tokens"))
    .option("--no-max-tokens", "omit max_tokens from requests")
    .option("--response-format <mode>", "json_schema (structured outputs; falls back to text when the server rejects it) or text (JSON asked for in the prompt)")
    .option("--timeout-ms <ms>", "deadline of one attempt (default: config, 60000)", int(1, "--timeout-ms"))
    .option("--max-retries <n>", "retries per call for 429, 5xx, timeouts, resets (default: config, 4)", int(0, "--max-retries"))
    .option("--allow-errors", "exit 0 (not 4) even when some items end as error verdicts")
    .option("--no-progress", "no progress display on stderr")
    .option("--by <list>", "break pass rates down by kind, tags (comma list: kind,tags), or none (default: kind)")
    .option("--json", "print the summary as JSON instead of tables")
    .option("--batch-export <file>", "judge nothing: write the pending calls (not in the cache) as Batch API JSONL for  ragjudge batch submit  or vLLM's run_batch; split into <file>, <name>.2.jsonl, ... at the per-file limits")
    .option("--batch-max-requests <n>", `requests per batch file (default ${BATCH_LIMITS.maxRequests}, the OpenAI Batch API's limit)`, int(1, "--batch-max-requests"))
    .option("--batch-max-bytes <n>", `bytes per batch file (default ${BATCH_LIMITS.maxBytes})`, int(1, "--batch-max-bytes"))
    .action(async (flags: Flags) => {
      const log = (s: string) => process.stderr.write(s);
      const by = parseBy(flags.by ?? "kind");
      const resolved = loadConfig(flags.config);
      // Where the judge writes, checked before any work: a folder given as --out fails now, not after judging.
      const cacheDir = checkFolder(flags.cacheDir ? resolve(flags.cacheDir) : resolved.outPath(resolved.config.cacheDir), "the cache folder");
      const out = writableTarget(flags.out ? resolve(flags.out) : resolve(cacheDir, "judgments.jsonl"), { create: false });
      // A dry run sends nothing, so it needs no key.
      const settings = resolveJudge(resolved.config, flags, process.env, { keyless: flags.dryRun === true });
      const rubricNames = flags.rubrics?.split(",").map((s) => s.trim()).filter(Boolean);
      const inputs = loadJudgeInputs(resolved, { rubrics: rubricNames, variants: flags.variant });
      const { itemSet, rubrics } = inputs;
      log(`judge: ${describeRubrics(inputs.rubricsSource, rubrics.map((r) => r.name))}\n`);

      if (flags.batchExport !== undefined) {
        if (settings.kind !== "openai") throw new UsageError("--batch-export needs the LLM judge (--judge openai --model NAME); the baseline makes no calls");
        if (flags.dryRun) throw new UsageError("--batch-export and --dry-run do not combine");
        const limits = { maxRequests: flags.batchMaxRequests ?? BATCH_LIMITS.maxRequests, maxBytes: flags.batchMaxBytes ?? BATCH_LIMITS.maxBytes };
        const { cache, close } = JudgeCache.openLeased(cacheDir, "ragjudge judge --batch-export");
        try {
          const { plan, result } = exportBatch({ items: itemSet.items, backend: makeBackend(settings, cache, log), cache, repeats: settings.repeats, file: resolve(flags.batchExport), limits });
          process.stdout.write(formatExport(plan, result, settings.model));
        } finally {
          close();
        }
        return;
      }
      if (flags.batchMaxRequests !== undefined || flags.batchMaxBytes !== undefined) throw new UsageError("--batch-max-requests and --batch-max-bytes go with --batch-export");

      if (settings.kind === "baseline") {
        const unsupported = baselineUnsupported(rubrics);
        if (unsupported.length) throw new UsageError(`the baseline judge has no rule for rubric ${unsupported.join(", ")}`);
        if (flags.repeats && flags.repeats > 1) log("judge: the baseline is deterministic; --repeats is ignored\n");
      }
      if (flags.dryRun) {
        if (settings.kind === "baseline") {
          const calls = itemSet.items.filter((i) => !i.rule).length;
          process.stdout.write(`dry run: the baseline judge makes no calls and costs nothing (${calls} items judged locally, ${itemSet.items.length - calls} by rule).\n`);
          return;
        }
        const cache = JudgeCache.openReadOnly(cacheDir);
        try {
          const backend = makeBackend(settings, cache, log);
          process.stdout.write(formatEstimate(estimateRun({ items: itemSet.items, backend, cache, repeats: settings.repeats, maxTokens: settings.maxTokens, prices: resolved.config.prices })));
        } finally {
          cache?.close();
        }
        return;
      }

      let cache: JudgeCache | undefined;
      let backend: Judge;
      if (settings.kind === "openai") {
        cache = JudgeCache.open(cacheDir);
        backend = makeBackend(settings, cache, log);
      } else backend = baselineBackend();
      log(`judge: ${backend.label}; ${itemSet.items.length} items${settings.kind === "openai" && settings.repeats > 1 ? ` x ${settings.repeats} repeats` : ""}; cache ${cache ? cache.file : "off (baseline)"}\n`);
      const progress = flags.progress === false ? undefined : progressReporter(process.stderr);
      let result;
      try {
        result = await runJudge({
          items: itemSet.items,
          backend,
          cache,
          repeats: settings.repeats,
          concurrency: settings.concurrency,
          onProgress: progress ? (p) => progress.update(p) : undefined,
          ...(settings.kind === "openai" && resolved.config.prices[settings.model] ? { price: resolved.config.prices[settings.model] } : {}),
        });
      } catch (e) {
        if (e instanceof FatalJudgeError) {
          const committed = cache ? `; the verdicts already committed stay in ${cache.file}, and a rerun continues from there` : "";
          progress?.interrupt();
          if (e.kind === "setup") throw new UsageError(`the judge stopped: ${e.message}${committed}`);
          // The endpoint, not the setup: not bad input (exit 2) but a judge that could not finish (exit 4).
          log(`ragjudge: the judge stopped: ${e.message}${committed}\n`);
          process.exitCode = EXIT.judgeUnfinished;
          return;
        }
        throw e;
      } finally {
        cache?.close();
      }
      progress?.finish(result.progress);
      writeFileAtomic(out, result.judgments.map((j) => JSON.stringify(j)).join("\n") + (result.judgments.length ? "\n" : ""));
      const summary = summarise({ judgments: result.judgments, golden: inputs.golden, rubrics, requireCitations: resolved.config.requireCitations, skipped: itemSet.skipped, usage: backend.kind === "llm" ? result.usage : undefined });
      const trust = summaryTrust(result.judgments, resolved.path(resolved.config.labels), resolved.config.trust, inputs.golden.questions);
      if (trust.problem) log(`judge: ${trust.problem}\n`);
      const cost = costTotals(backend, result.usage.values(), resolved.config.prices);
      process.stdout.write(flags.json ? JSON.stringify({ ...summary, trust: trust.states, cost }, null, 2) + "\n" : formatSummary(summary, { by, trust: trust.lines }) + costLine(cost) + "\n");
      log(`judge: wrote ${result.judgments.length} judgments to ${out}\n`);
      const errors = result.judgments.filter((j) => j.verdict === "error").length;
      if (errors && !flags.allowErrors) {
        log(`ragjudge: the judge did not finish: ${errors} item${errors === 1 ? "" : "s"} ended as error verdicts (not yes or no); rerun to retry them, or pass --allow-errors\n`);
        process.exitCode = EXIT.judgeUnfinished;
      }
    });
}
