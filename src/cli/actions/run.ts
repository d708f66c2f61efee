import { join } from "node:path";
import { displayPath } from "../../golden/errors.js";
import { FatalJudgeError } from "../../judge/judges/judge.js";
import { progressReporter } from "../../judge/schedule/progress.js";
import type { ProgressState } from "../../judge/schedule/run.js";
import { runEvaluation } from "../../report/evaluation.js";
import { nextCommands, type Invocation } from "../../report/next.js";
import { EXIT, UsageError } from "../errors.js";

export interface RunFlags {
  config?: string;
  name?: string;
  evaluationsDir?: string;
  cacheDir?: string;
  labels?: string;
  requireTrusted?: boolean;
  failUnder?: string;
  judge?: string;
  baseUrl?: string;
  model?: string;
  concurrency?: number;
  timeoutMs?: number;
  maxRetries?: number;
  /** The request options (commands/request-options.ts); `false` is commander's `--no-x`. */
  temperature?: number | false;
  seed?: number | false;
  maxTokens?: number | false;
  responseFormat?: string;
  quiet?: boolean;
  progress?: boolean;
  allowErrors?: boolean;
  example?: boolean;
}

/**
 * The flags of this run that the next commands must repeat: the config; the
 * judge overrides (the endpoint and model set the fingerprint; a deadline or
 * retry budget the user raised for a slow server is needed again); the gate
 * and folders of the run (a CI command without the floor this run failed on
 * would pass); with `--cache-dir`, where its judgments are for the
 * commands that read them; and with `--labels`, the labels folder.
 */
function invocation(flags: RunFlags): Invocation {
  const config = flags.example ? ["--example"] : flags.config !== undefined ? ["--config", flags.config] : [];
  const judge: string[] = [];
  if (flags.judge !== undefined) judge.push("--judge", flags.judge);
  if (flags.baseUrl !== undefined) judge.push("--base-url", flags.baseUrl);
  if (flags.model !== undefined) judge.push("--model", flags.model);
  if (flags.cacheDir !== undefined) judge.push("--cache-dir", flags.cacheDir);
  if (flags.timeoutMs !== undefined) judge.push("--timeout-ms", String(flags.timeoutMs));
  if (flags.maxRetries !== undefined) judge.push("--max-retries", String(flags.maxRetries));
  // the request options are part of the fingerprint: a run without them would judge anew under another one
  for (const [name, v] of [["temperature", flags.temperature], ["seed", flags.seed], ["max-tokens", flags.maxTokens]] as const) {
    if (v === false) judge.push(`--no-${name}`);
    else if (v !== undefined) judge.push(`--${name}`, String(v));
  }
  if (flags.responseFormat !== undefined) judge.push("--response-format", flags.responseFormat);
  const run: string[] = [];
  if (flags.failUnder !== undefined) run.push("--fail-under", flags.failUnder);
  if (flags.evaluationsDir !== undefined) run.push("--evaluations-dir", flags.evaluationsDir);
  if (flags.name !== undefined) run.push("--name", flags.name);
  // a CI command pasted back must gate as it did
  if (flags.requireTrusted) run.push("--require-trusted");
  if (flags.allowErrors) run.push("--allow-errors");
  const judgments = flags.cacheDir !== undefined ? ["--judgments", join(flags.cacheDir, "judgments.jsonl")] : [];
  // the labels this run was gated on: labelling, calibrating and running again must use the same folder
  const labels = flags.labels !== undefined ? ["--labels", flags.labels] : [];
  return { config, judge, run, judgments, labels };
}

/** At most this many input warnings are printed; validation.json has them all. */
const WARNINGS_SHOWN = 10;

/** `ragjudge run`'s action (see commands/run.ts). */
export async function runAction(flags: RunFlags): Promise<void> {
  const progress = flags.quiet || flags.progress === false ? undefined : progressReporter(process.stderr);
  const log = (s: string) => {
    if (flags.quiet) return;
    progress?.interrupt(); // a status line (a judge panel's, after the main judge) starts on a line of its own
    process.stderr.write(s);
  };
  let last: Readonly<ProgressState> | undefined;
  let result;
  try {
    result = await runEvaluation({
      config: flags.config,
      name: flags.name,
      evaluationsDir: flags.evaluationsDir,
      cacheDir: flags.cacheDir,
      labels: flags.labels,
      requireTrusted: flags.requireTrusted ?? false,
      failUnder: flags.failUnder,
      judge: { judge: flags.judge, baseUrl: flags.baseUrl, model: flags.model, concurrency: flags.concurrency, timeoutMs: flags.timeoutMs, maxRetries: flags.maxRetries, temperature: flags.temperature, seed: flags.seed, maxTokens: flags.maxTokens, responseFormat: flags.responseFormat },
      log,
      onProgress: progress ? (p) => {
        last = p;
        progress.update(p);
      } : undefined,
    });
  } catch (e) {
    if (e instanceof FatalJudgeError) {
      const message = `the judge stopped: ${e.message}; verdicts already committed stay in the cache, and a rerun continues from there (nothing was written to the evaluations folder)`;
      if (e.kind === "setup") throw new UsageError(message);
      // The endpoint, not the setup: a judge that could not finish (exit 4), neither bad input (2) nor a failed gate (1).
      progress?.interrupt();
      process.stderr.write(`ragjudge: ${message}\n`);
      process.exitCode = EXIT.judgeUnfinished;
      return;
    }
    throw e;
  }
  if (progress && last) progress.finish(last);
  if (!flags.quiet) {
    for (const w of result.warnings.slice(0, WARNINGS_SHOWN)) process.stderr.write(`${w}\n`);
    if (result.warnings.length > WARNINGS_SHOWN) process.stderr.write(`... and ${result.warnings.length - WARNINGS_SHOWN} more (validation.json)\n`);
    process.stdout.write(result.summary);
    const next = nextCommands(result.report, { ...invocation(flags), annotator: result.annotator });
    if (next.length) process.stdout.write(`\n${next.join("\n")}\n`);
  } else process.stdout.write(`${displayPath(result.folder)}\n`);
  for (const f of result.failures) process.stderr.write(`ragjudge: ${f}\n`);
  const unfinished = result.errors > 0 && !flags.allowErrors;
  if (unfinished) process.stderr.write(`ragjudge: the judge did not finish: ${result.errors} item${result.errors === 1 ? "" : "s"} ended as error verdicts (not yes or no); rerun to retry them, or pass --allow-errors\n`);
  // An unfinished judge comes first: a gate computed on missing verdicts says little.
  if (unfinished) process.exitCode = EXIT.judgeUnfinished;
  else if (result.failed) process.exitCode = EXIT.failed;
}
