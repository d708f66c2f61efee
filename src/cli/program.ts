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
  program.hook("preAction", (_program, action) => refuseEmptyValues(action));
  return program;
}

/**
 * Refuses a flag or an argument given as an empty text (`--config "$CONFIG"`
 * with the variable unset): each command would otherwise take its default (the
 * config of the working folder, the default evaluations folder) as if the flag
 * were left out, and a CI job would run on other inputs without a word.
 */
function refuseEmptyValues(command: Command): void {
  const values = command.opts();
  for (const option of command.options) {
    const value = values[option.attributeName()] as unknown;
    const texts = Array.isArray(value) ? value : [value];
    if (texts.some((v) => typeof v === "string" && v.trim() === "")) {
      // a required option has no default to fall back to
      const or = option.mandatory ? "" : ", or leave the flag out for its default";
      throw new UsageError(`${option.long ?? option.short ?? option.flags}: an empty value (an unset variable?): give a value${or}`);
    }
  }
  command.registeredArguments.forEach((argument, i) => {
    const value = command.processedArgs[i] as unknown;
    const texts = Array.isArray(value) ? value : [value];
    if (texts.some((v) => typeof v === "string" && v.trim() === "")) {
      throw new UsageError(`${argument.name().toUpperCase()}: an empty argument (an unset variable?): give a value`);
    }
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
    await program.parseAsync(args, { from: "user" });
  } catch (e) {
    return reportError(e);
  }
  return typeof process.exitCode === "number" ? process.exitCode : EXIT.ok;
}
