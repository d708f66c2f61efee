import { statSync } from "node:fs";
import { InputError } from "../golden/errors.js";
import { writeFileAtomic } from "../golden/files.js";

/**
 * Writes a whole output file (a review queue, a CSV export, a calibration
 * record) atomically. A path the user got wrong (a folder, a parent that is
 * a file, no permission) is an InputError naming the file, so the CLI prints
 * one line and exits 2 instead of reporting an internal error.
 *
 * @example
 * writeOutputFile("labels.csv", csv)
 */
export function writeOutputFile(file: string, text: string): void {
  try {
    if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
      throw new InputError(file, undefined, undefined, "is a folder: give a file name to write");
    }
    writeFileAtomic(file, text);
  } catch (e) {
    if (e instanceof InputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === undefined) throw e;
    const why = code === "ENOTDIR" ? "part of the path is a file, not a folder" : code === "EACCES" || code === "EPERM" ? "permission denied" : code === "EROFS" ? "read-only file system" : `cannot write (${code})`;
    throw new InputError(file, undefined, undefined, why);
  }
}
