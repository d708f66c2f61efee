import { Command } from "commander";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { packageRoot } from "../golden/config.js";
import { commands } from "./commands/index.js";
import { EXIT, reportError } from "./errors.js";

function version(): string {
  try {
    return (JSON.parse(readFileSync(resolve(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
}

/** Builds the `ragjudge` program with every command registered. */
export function buildProgram(): Command {
  const program = new Command("ragjudge")
    .description("Tells whether a retrieval-augmented assistant fails at search or at answering.")
    .version(version())
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();
  for (const register of commands) register(program);
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
