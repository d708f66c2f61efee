import { InvalidArgumentError, type Command } from "commander";
import { displayPath } from "../../golden/errors.js";
import { FatalJudgeError } from "../../judge/judges/judge.js";
import { progressReporter } from "../../judge/schedule/progress.js";
import type { ProgressState } from "../../judge/schedule/run.js";
import { runEvaluation } from "../../report/evaluation.js";
import { nextCommands, type Invocation } from "../../report/next.js";
import { EXIT, UsageError } from "../errors.js";

interface RunFlags {
  config?: string;
  name?: string;
  evaluationsDir?: string;
  cacheDir?: string;
  requireTrusted?: boolean;
  failUnder?: string;
  judge?: string;
  baseUrl?: string;
  model?: string;
  concurrency?: number;
  quiet?: boolean;
  progress?: boolean;
  allowErrors?: boolean;
  example?: boolean;
}

/** The flags of this run that the next commands must repeat: the config, and the judge overrides (they set the fingerprint). */
function invocation(flags: RunFlags): Invocation {
  const config = flags.example ? ["--example"] : flags.config !== undefined ? ["--config", flags.config] : [];
  const judge: string[] = [];
  if (flags.judge !== undefined) judge.push("--judge", flags.judge);
  if (flags.baseUrl !== undefined) judge.push("--base-url", flags.baseUrl);
  if (flags.model !== undefined) judge.push("--model", flags.model);
  if (flags.cacheDir !== undefined) judge.push("--cache-dir", flags.cacheDir);
  return { config, judge };
}

/** At most this many input warnings are printed; validation.json has them all. */
const WARNINGS_SHOWN = 10;

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a whole number >= 1");
  return n;
}

/**
 * `ragjudge run`: the whole evaluation in one command (library:
 * `runEvaluation`). Prints the terminal summary, writes the evaluation
 * folder, and ends with the exact next commands. Exits 1 on a missed floor
 * or, with --require-trusted, an untrusted rubric; 2 on bad input (nothing
 * written); 4 when the judge could not finish (the endpoint stopped the run,
 * or error verdicts are left without --allow-errors).
 */
export function registerRun(program: Command): void {
  program
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
    .option("--concurrency <n>", "judge calls in flight at once (default: config judge.concurrency, 8)", positiveInt)
    .option("--cache-dir <dir>", "the LLM judge's cache folder (default: config cacheDir, shared with ragjudge judge)")
    .option("--allow-errors", "exit 0 (not 4) when some items end as error verdicts; they still count as unjudged, never as yes or no")
    .option("--no-progress", "no judge progress display on stderr")
    .option("--quiet", "print only the evaluation folder (and failures on stderr)")
    .action(async (flags: RunFlags) => {
      const log = (s: string) => {
        if (!flags.quiet) process.stderr.write(s);
      };
      const progress = flags.quiet || flags.progress === false ? undefined : progressReporter(process.stderr);
      let last: Readonly<ProgressState> | undefined;
      let result;
      try {
        result = await runEvaluation({
          config: flags.config,
          name: flags.name,
          evaluationsDir: flags.evaluationsDir,
          cacheDir: flags.cacheDir,
          requireTrusted: flags.requireTrusted ?? false,
          failUnder: flags.failUnder,
          judge: { judge: flags.judge, baseUrl: flags.baseUrl, model: flags.model, concurrency: flags.concurrency },
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
        const next = nextCommands(result.report, invocation(flags));
        if (next.length) process.stdout.write(`\n${next.join("\n")}\n`);
      } else process.stdout.write(`${displayPath(result.folder)}\n`);
      for (const f of result.failures) process.stderr.write(`ragjudge: ${f}\n`);
      const unfinished = result.errors > 0 && !flags.allowErrors;
      if (unfinished) process.stderr.write(`ragjudge: the judge did not finish: ${result.errors} item${result.errors === 1 ? "" : "s"} ended as error verdicts (not yes or no); rerun to retry them, or pass --allow-errors\n`);
      // An unfinished judge comes first: a gate computed on missing verdicts says little.
      if (unfinished) process.exitCode = EXIT.judgeUnfinished;
      else if (result.failed) process.exitCode = EXIT.failed;
    });
}
