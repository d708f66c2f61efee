import { CommanderError } from "commander";
import { InputError, InputErrors } from "../golden/errors.js";
import { MeasureSpecError } from "../retrieval/measures/parse.js";
import { NoTrecNameError } from "../retrieval/trec/write.js";

/** Exit codes, the same for every command. */
export const EXIT = {
  ok: 0,
  /** A floor missed, a rubric untrusted under --require-trusted, a regression: the run worked, the result fails. */
  failed: 1,
  /** Bad input or usage: the message names file, line and field. */
  badInput: 2,
  /** A bug in ragjudge. */
  internal: 3,
} as const;

/** Thrown for usage problems found after parsing (conflicting flags and the like). */
export class UsageError extends Error {
  override name = "UsageError";
}

/**
 * A JudgeSetupError (judge/settings.ts), recognised by its name: importing
 * the class would load the judge's config schemas (zod) at every start-up,
 * and only a command that loaded that module can throw one.
 */
function isJudgeSetupError(e: unknown): e is Error {
  return e instanceof Error && e.name === "JudgeSetupError";
}

/** At most this many problems are printed; the count of the rest is given. */
const MAX_PRINTED = 30;

/**
 * Prints an error the way a user can act on it and returns the exit code.
 * Input problems print one line each (file:line: field: message); nothing
 * prints a stack trace unless RAGJUDGE_DEBUG is set.
 */
export function reportError(e: unknown, write: (s: string) => void = (s) => process.stderr.write(s)): number {
  if (e instanceof InputErrors || e instanceof InputError) {
    const problems = e instanceof InputErrors ? e.problems : [e];
    for (const p of problems.slice(0, MAX_PRINTED)) write(`ragjudge: error: ${p.message}\n`);
    if (problems.length > MAX_PRINTED) write(`ragjudge: ... and ${problems.length - MAX_PRINTED} more problems\n`);
    return EXIT.badInput;
  }
  // Library errors about how a command was asked (judge setup, measure names) are usage errors too.
  if (e instanceof UsageError || isJudgeSetupError(e) || e instanceof MeasureSpecError || e instanceof NoTrecNameError) {
    write(`ragjudge: error: ${e.message}\n`);
    return EXIT.badInput;
  }
  if (e instanceof CommanderError) {
    // commander already printed its message; help and version exit 0.
    return e.exitCode === 0 ? EXIT.ok : EXIT.badInput;
  }
  const err = e as Error;
  write(`ragjudge: internal error: ${err?.message ?? String(e)}\n`);
  if (process.env.RAGJUDGE_DEBUG) write(`${err?.stack ?? ""}\n`);
  else write("ragjudge: (set RAGJUDGE_DEBUG=1 to see the stack trace, and please report it)\n");
  return EXIT.internal;
}
