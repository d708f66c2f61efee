import { Command } from "commander";
import { createRequire } from "node:module";
import { commands } from "./commands/index.js";
import { EXIT, reportError, UsageError } from "./errors.js";
import { addExampleOption } from "./example.js";

/**
 * The package version, read from package.json two folders up (from src/cli
 * or dist/cli) as report/build/report.ts's ragjudgeVersion reads it; here
 * without loading the report code, so `ragjudge --version` starts fast.
 */
function version(): string {
  try {
    return (createRequire(import.meta.url)("../../package.json") as { version: string }).version;
  } catch {
    return "unknown";
  }
}

/**
 * Builds the `ragjudge` program with every command registered. Registering
 * loads only the command definitions (options, help); each action imports
 * the code it runs when it runs (see commands/*.ts and actions/*.ts).
 */
export function buildProgram(): Command {
  const program = new Command("ragjudge")
    .description("Tells whether a retrieval-augmented assistant fails at search or at answering.")
    .version(version())
    .showHelpAfterError("(run with --help for usage)")
    // Usage errors from commander read like every other error: "ragjudge: error: ...".
    .configureOutput({ outputError: (text, write) => write(text.startsWith("error:") ? `ragjudge: ${text}` : text) })
    .exitOverride();
  for (const register of commands) register(program);
  addExampleOption(program);
  checkRequiredAfterUnknown(program);
  return program;
}

/**
 * Checks each command's required options (`sample --annotator`) after its
 * unknown ones: commander checks required options first, so a typo in one
 * (`sample --anotator asha`) said "required option '--annotator <name>' not
 * specified" and never named the flag typed, nor suggested the right one. The
 * check moves to a preAction hook, which commander runs after its unknown-option
 * check, with commander's own message and exit.
 */
function checkRequiredAfterUnknown(command: Command): void {
  const required = command.options.filter((o) => o.mandatory);
  for (const o of required) o.mandatory = false;
  if (required.length > 0) {
    command.hook("preAction", () => {
      const missing = required.find((o) => command.getOptionValue(o.attributeName()) === undefined);
      if (missing) {
        command.error(`error: required option '${missing.flags}' not specified`, { code: "commander.missingMandatoryOptionValue" });
      }
    });
  }
  for (const sub of command.commands) checkRequiredAfterUnknown(sub);
}

/**
 * Refuses a flag value or an argument given as an empty text (`--config
 * "$CONFIG"` with the variable unset), read from the command line as typed:
 * each command would otherwise take its default (the working folder's config,
 * the default evaluations folder) as if the flag were left out, and a number
 * parsed from "" is 0 (`--max-retries ""`). A value of white space is a value
 * (`--list-sep " "`). The empty word is named as the value of the flag before
 * it only when that flag takes a value there (`init --rubrics ""` is an empty
 * folder argument after a switch).
 */
function refuseEmptyValues(program: Command, args: readonly string[]): void {
  // the command the words name (`labels import`, `batch submit`), whose flags and its parents' apply
  let command = program;
  for (const a of args) {
    const sub = a.startsWith("-") ? undefined : command.commands.find((c) => c.name() === a || c.aliases().includes(a));
    if (!sub) break;
    command = sub;
  }
  const takesValue = (flag: string) => {
    for (let c: Command | null = command; c; c = c.parent) {
      const o = c.options.find((x) => x.long === flag || x.short === flag);
      if (o) return o.required || o.optional;
    }
    return false;
  };
  args.forEach((a, i) => {
    const inline = /^(--[A-Za-z][\w-]*)=$/.exec(a);
    if (inline) throw new UsageError(`${inline[1]}: an empty value (an unset variable?): give a value`);
    if (a !== "") return;
    const before = args[i - 1];
    if (before !== undefined && /^-{1,2}[A-Za-z][\w-]*$/.test(before) && takesValue(before)) {
      throw new UsageError(`${before}: an empty value (an unset variable?): give a value`);
    }
    throw new UsageError(`argument ${i + 1}: empty (an unset variable?): give a value`);
  });
}

/**
 * Runs the CLI with the given arguments (without `node` and the script) and
 * returns the exit code instead of exiting, so tests call it in-process.
 */
export async function runCli(args: string[]): Promise<number> {
  process.exitCode = undefined;
  const program = buildProgram();
  try {
    refuseEmptyValues(program, args);
    await program.parseAsync(args, { from: "user" });
  } catch (e) {
    return reportError(e);
  }
  return typeof process.exitCode === "number" ? process.exitCode : EXIT.ok;
}
