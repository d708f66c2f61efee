import { displayPath } from "../../golden/errors.js";
import { FatalJudgeError } from "../../judge/backend.js";
import { progressReporter } from "../../judge/progress.js";
import type { ProgressState } from "../../judge/run.js";
import { runEvaluation } from "../../report/evaluation.js";
import { EXIT, UsageError } from "../errors.js";

export interface RunFlags {
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
}

/** At most this many input warnings are printed; validation.json has them all. */
const WARNINGS_SHOWN = 10;

/** `ragjudge run`'s action (see commands/run.ts). */
export async function runAction(flags: RunFlags): Promise<void> {
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
      // The endpoint, not the setup: a run that did not finish (exit 1), not bad input (exit 2).
      progress?.interrupt();
      process.stderr.write(`ragjudge: ${message}\n`);
      process.exitCode = EXIT.failed;
      return;
    }
    throw e;
  }
  if (progress && last) progress.finish(last);
  if (!flags.quiet) {
    for (const w of result.warnings.slice(0, WARNINGS_SHOWN)) process.stderr.write(`${w}\n`);
    if (result.warnings.length > WARNINGS_SHOWN) process.stderr.write(`... and ${result.warnings.length - WARNINGS_SHOWN} more (validation.json)\n`);
    process.stdout.write(result.summary);
  } else process.stdout.write(`${displayPath(result.folder)}\n`);
  for (const f of result.failures) process.stderr.write(`ragjudge: ${f}\n`);
  if (result.failed) process.exitCode = EXIT.failed;
}
