import type { Command } from "commander";

/**
 * `ragjudge init [dir]`: a starter project (commented config, two example
 * lines of the golden set and of a pipeline output, a .gitignore entry for
 * the cache; `--rubrics` copies the packaged rubrics out for editing).
 * Never overwrites; a rerun says what exists, and into a folder that has a
 * config writes no example data (the project's files are its own).
 */
export function registerInit(program: Command): void {
  program
    .command("init")
    .description("Start a ragjudge project in a folder: a commented ragjudge.config.json naming its files, a golden set and a pipeline output with two example lines each (passages as text), and a .gitignore entry for the judge's cache. Never overwrites a file, and writes no example data into a folder that already has a config.")
    .argument("[dir]", "the folder (created when missing)", ".")
    .option("--rubrics", "also copy the packaged rubrics to rubrics/ for editing (a copy there is used instead of the packaged ones)")
    .action(async (dir: string, flags: { rubrics?: boolean }) => (await import("../actions/init.js")).initAction(dir, flags));
}
