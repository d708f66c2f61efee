import { writeFileAtomic } from "../golden/files.js";

/**
 * Writes a whole output file (a review queue, a CSV export, a calibration
 * record) atomically. A path the user got wrong (a folder, a parent that is
 * a file, no permission, a symbolic link out of its folder) is an InputError
 * naming the file, so the CLI prints one line and exits 2 instead of
 * reporting an internal error; with `within`, the file must also stay
 * inside that folder (see writeFileAtomic).
 *
 * @example
 * writeOutputFile("labels.csv", csv)
 */
export function writeOutputFile(file: string, text: string, options: { within?: string } = {}): void {
  writeFileAtomic(file, text, options);
}
