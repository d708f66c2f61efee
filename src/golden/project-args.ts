import { displayPath } from "./errors.js";

/**
 * Quotes one argument for a POSIX shell when it needs it.
 *
 * @example
 * shellArg("my dir/it's.json") // "'my dir/it'\\''s.json'"
 */
export function shellArg(a: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

/**
 * The flags that name a project on a command line: `--example` for the
 * shipped example, else `--config` and the config's path as the user would
 * type it from here. A bare `ragjudge run` finds only a config in the folder
 * it is typed in, so advice that names no project fails when typed anywhere
 * else (and for the example, anywhere at all).
 *
 * @example
 * projectArgs({ isShippedExample: false, file: "/work/eval/ragjudge.config.json" }) // ["--config", "eval/ragjudge.config.json"] from /work
 */
export function projectArgs(cfg: { isShippedExample: boolean; file: string }): string[] {
  return cfg.isShippedExample ? ["--example"] : ["--config", displayPath(cfg.file)];
}

/**
 * The advice for verdicts that are not there yet: the two commands that
 * write them where the reading command looks by default, for this project.
 *
 * @example
 * judgeFirst({ isShippedExample: true, file: "" }) // "run `ragjudge run --example` (or `ragjudge judge --example`) first"
 */
export function judgeFirst(cfg: { isShippedExample: boolean; file: string }): string {
  const project = projectArgs(cfg).map(shellArg).join(" ");
  return `run \`ragjudge run ${project}\` (or \`ragjudge judge ${project}\`) first`;
}
