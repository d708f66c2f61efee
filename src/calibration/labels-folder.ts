import { existsSync, readdirSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { isPackageLabels } from "../golden/config.js";
import { InputError } from "../golden/errors.js";
import { fsWords } from "../golden/fs-words.js";

// Apart from labels.ts: the package check reads the config module (and its JSONC parser), which the
// labels' readers (the review page, the report's background thread) need not load.

/**
 * A labels folder named by hand (`--labels DIR`) for a command that reads
 * it, resolved against `cwd`, checked before any work: a path that is not
 * there is a typo, not "no labels yet" (every rubric would read as
 * uncalibrated); a file, or a folder that cannot be listed, is bad input
 * too (not a trust state found "unknown" after judging). The installed
 * package's own labels folder, by whatever path, is refused: the commands
 * printed after a run, a judge or a compare would write labels, draws and
 * records into the labels folder they name. Each is an InputError (exit 2).
 *
 * @example
 * givenLabelsFolder("mine") // "/work/proj/mine"
 */
export function givenLabelsFolder(labels: string, cwd = process.cwd()): string {
  const dir = resolve(cwd, labels);
  const problem = (why: string) => new InputError(dir, undefined, undefined, why);
  if (!existsSync(dir)) throw problem("labels folder not found");
  if (isPackageLabels(dir, cwd)) {
    throw problem("is the installed ragjudge package's labels folder (the shipped example's own), which is never written, and the commands printed next would write there: leave out --labels to read the example's own labels, or give a folder of your own (--labels example-labels)");
  }
  try {
    if (!statSync(dir).isDirectory()) throw problem("is a file, not a folder: --labels must be a labels folder");
    readdirSync(dir);
  } catch (e) {
    if (e instanceof InputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === undefined) throw e;
    throw problem(fsWords(code, "use") ?? `cannot read (${code})`);
  }
  return dir;
}
