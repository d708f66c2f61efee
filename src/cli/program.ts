import { Command } from "commander";
import { ragjudgeVersion } from "../report/build/report.js";
import { commands } from "./commands/index.js";
import { EXIT, reportError } from "./errors.js";
import { addExampleOption } from "./example.js";

/** Builds the `ragjudge` program with every command registered. */
export function buildProgram(): Command {
  const program = new Command("ragjudge")
    .description("Tells whether a retrieval-augmented assistant fails at search or at answering.")
    .version(ragjudgeVersion())
    .showHelpAfterError("(run with --help for usage)")
    // Usage errors from commander read like every other error: "ragjudge: error: ...".
    .configureOutput({ outputError: (text, write) => write(text.startsWith("error:") ? `ragjudge: ${text}` : text) })
    .exitOverride();
  for (const register of commands) register(program);
  addExampleOption(program);
  return program;
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
