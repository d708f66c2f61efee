import { CommanderError } from "commander";
import { displayPath, InputError, InputErrors, isStoppedNote } from "../golden/errors.js";
import { fsWords } from "../golden/fs-words.js";
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
  /** The judge could not finish: the endpoint stopped the run, or error verdicts are left (see --allow-errors). */
  judgeUnfinished: 4,
} as const;

/** Thrown for usage problems found after parsing (conflicting flags and the like). */
export class UsageError extends Error {
  override name = "UsageError";
}

/**
 * A ConfigNotFoundError (golden/config.ts) or JudgeSetupError
 * (judge/transport/endpoint.ts), recognised by its name: importing the
 * classes would load the config parser and the judge's schemas (zod) at every
 * start-up, and only a command that loaded those modules can throw one.
 */
function isNamed(e: unknown, name: "ConfigNotFoundError" | "JudgeSetupError"): e is Error {
  return e instanceof Error && e.name === name;
}

/**
 * A Node file-system error with its path (`ENOTDIR: not a directory, scandir
 * 'x'`) in words ({@link fsWords}): these are the user's paths, not
 * ragjudge's bugs, so they exit 2 with the path named instead of 3 with
 * "please report it".
 */
function fsProblem(e: unknown): string | undefined {
  if (!(e instanceof Error)) return undefined;
  const { code, path } = e as NodeJS.ErrnoException;
  if (typeof code !== "string" || typeof path !== "string") return undefined;
  const words = fsWords(code, "use");
  return words === undefined ? undefined : `${displayPath(path)}: ${words} (${code})`;
}

/** At most this many problems are printed; the count of the rest is given. */
const MAX_PRINTED = 30;

/** Lines named in a group's note before "and N more". */
const LINES_NAMED = 5;

/**
 * Input problems as printed lines, one per distinct problem: problems that
 * differ only in their line (a field renamed in every line of a file) print
 * once, with the other lines named, instead of once per line of the file.
 * Each line is made safe for a terminal ({@link oneLine}).
 *
 * @example
 * problemLines(errors.problems) // ['out.jsonl:1: id: missing (expected string) (the same on 4,999 more lines: 2, 3, 4, 5, 6, ...)']
 */
export function problemLines(all: readonly InputError[]): string[] {
  // a reader's note that it stopped goes after the problems it is about
  const problems = [...all.filter((p) => !isStoppedNote(p)), ...all.filter(isStoppedNote)];
  const groups = new Map<string, { first: InputError; lines: number[] }>();
  let n = 0;
  for (const p of problems) {
    const key = p.line === undefined ? `#${n++}` : JSON.stringify([p.file, p.field ?? null, p.detail]);
    const g = groups.get(key);
    if (g) g.lines.push(p.line!);
    else groups.set(key, { first: p, lines: [] });
  }
  return [...groups.values()].map(({ first, lines }) => {
    if (!lines.length) return oneLine(first.message);
    const named = lines.slice(0, LINES_NAMED).join(", ") + (lines.length > LINES_NAMED ? ", ..." : "");
    return oneLine(`${first.message} (the same on ${lines.length.toLocaleString("en-US")} more line${lines.length === 1 ? "" : "s"}: ${named})`);
  });
}

/**
 * A message made safe for one terminal line: control characters (a newline
 * or an escape sequence taken from a user's file into a message) are shown
 * as `\uXXXX`, so each problem stays one line and cannot drive the terminal.
 *
 * @example
 * oneLine('unknown field "a\nb"') // 'unknown field "a\u000ab"'
 */
export function oneLine(s: string): string {
  return s.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Prints an error the way a user can act on it and returns the exit code.
 * Input problems print one line each (file:line: field: message); nothing
 * prints a stack trace unless RAGJUDGE_DEBUG is set.
 */
export function reportError(e: unknown, write: (s: string) => void = (s) => process.stderr.write(s)): number {
  if (e instanceof InputErrors || e instanceof InputError) {
    const problems = e instanceof InputErrors ? e.problems : [e];
    const lines = problemLines(problems);
    // the readers' "stopped reading" notes close the list (problemLines puts them last), past the cap too
    const notes = problems.filter(isStoppedNote).length;
    const body = lines.slice(0, lines.length - notes);
    for (const line of body.slice(0, MAX_PRINTED)) write(`ragjudge: error: ${line}\n`);
    if (body.length > MAX_PRINTED) write(`ragjudge: ... and ${body.length - MAX_PRINTED} more problems\n`);
    for (const line of lines.slice(lines.length - notes)) write(`ragjudge: error: ${line}\n`);
    return EXIT.badInput;
  }
  // Library errors about how a command was asked (judge setup, measure names) are usage errors too.
  if (e instanceof UsageError || isNamed(e, "ConfigNotFoundError") || isNamed(e, "JudgeSetupError") || e instanceof MeasureSpecError || e instanceof NoTrecNameError) {
    // ragjudge's own text laid out on lines (JudgeSetupError's `lines`: "no judge configured"'s choices) keeps them;
    // any other message may quote a user's input and stays one line
    const laidOut = isNamed(e, "JudgeSetupError") && (e as { lines?: unknown }).lines === true;
    write(`ragjudge: error: ${laidOut ? e.message.split("\n").map(oneLine).join("\n") : oneLine(e.message)}\n`);
    return EXIT.badInput;
  }
  const fs = fsProblem(e);
  if (fs !== undefined) {
    write(`ragjudge: error: ${oneLine(fs)}\n`);
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
