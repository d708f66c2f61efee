/**
 * For tests of outputs refused over a file the command reads (refuseOverInput,
 * golden/paths.ts): the line such a refusal prints, and every file of a
 * folder, to show that nothing was written.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The one line a refused output prints: `is` names what the file is and who reads it.
 *
 * @example
 * expect(r.err).toBe(overInput(config, "is the config file, which this command reads"));
 */
export function overInput(file: string, is: string): string {
  return `ragjudge: error: ${file}: ${is}: give another file to write\n`;
}

/** Every file under `dir` (recursively) with its content, keyed by path. */
export function filesIn(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? Object.entries(filesIn(p)) : [[p, readFileSync(p, "utf8")]];
  }));
}
