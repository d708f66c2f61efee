import { constants } from "node:buffer";
import { InputError } from "./errors.js";

/**
 * The size limits every reader enforces, so that no input (a 50 MB line, a
 * file of several GB, /dev/zero) can make ragjudge hang or run out of
 * memory. They sit far above anything a team produces by accident: a golden
 * set of 100,000 questions, a chunk file of 500,000 chunks or pipeline
 * output of 50,000 questions x 100 retrieved is a small fraction of them.
 * The README's "Limits" section states them; each refusal is one line
 * naming the file (and line) and the limit.
 */

/**
 * Longest line of a line-based input (JSONL, a CSV record, a TREC line):
 * 16 MiB. A chunk of a whole book is a tenth of it; a longer line is a
 * mistake (a file without line breaks, a binary file) and would cost
 * hundreds of MB to parse.
 */
export const MAX_LINE_CHARS = 16 * 1024 * 1024;

/**
 * Largest data file read whole (golden set, chunks, pipeline output,
 * judgments, labels, review queue, batch files, report.json): the longest
 * text one JavaScript string can hold, 512 MiB less 24 bytes. A file of at
 * most this many bytes always decodes (UTF-8 never has fewer bytes than
 * UTF-16 code units). TREC qrels and runs are streamed and have no file
 * limit.
 */
export const MAX_DATA_FILE_BYTES = constants.MAX_STRING_LENGTH;

/**
 * Largest file written by hand and parsed as one document (the config, a
 * rubric's YAML): 4 MiB, a hundred times a long rubric. A YAML parser needs
 * many times a file's size in memory, so these get a limit of their own.
 */
export const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;

/**
 * Deepest nesting of objects and arrays in the config: 64 levels. The
 * config's own fields nest 4 deep at most (`trust.perRubric.<rubric>.minLabels`),
 * so anything deeper is a mistake; and the config's reader (JSON with
 * comments, for the line of every problem) recurses once per level, so a
 * document nested some thousands deep ran out of stack (exit 3). JSONL and
 * other JSON files are parsed by `JSON.parse`, which has no such limit.
 */
export const MAX_DOCUMENT_DEPTH = 64;

/** A size in the units people read: "16 MiB", "512 MiB", "3.2 GiB", "900 KiB", "12 bytes". */
export function formatSize(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  if (u === 0) return `${bytes} bytes`;
  const rounded = v >= 100 || Number.isInteger(Math.round(v * 10) / 10) ? Math.round(v) : Math.round(v * 10) / 10;
  return `${rounded} ${units[u]}`;
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * The problem of a line over {@link MAX_LINE_CHARS}, or undefined when it is
 * within the limit: the readers call it once per line, before parsing it.
 *
 * @example
 * const long = lineTooLong(line, file, i + 1);
 * if (long) { problems.push(long); continue; }
 */
export function lineTooLong(line: string, file: string, lineNo: number, limit = MAX_LINE_CHARS): InputError | undefined {
  if (line.length <= limit) return undefined;
  return new InputError(file, lineNo, undefined, `line is ${count(line.length)} characters long, over the limit of ${formatSize(limit)} (${count(limit)} characters) per line`);
}

/** The problem of a line over the limit, for readers that count bytes (TREC files). */
export function lineTooLongBytes(file: string, lineNo: number, limit = MAX_LINE_CHARS): InputError {
  return new InputError(file, lineNo, undefined, `line is longer than the limit of ${formatSize(limit)} (${count(limit)} bytes) per line`);
}

/** The problem of a file over its size limit. */
export function fileTooLarge(file: string, size: number, limit: number): InputError {
  return new InputError(file, undefined, undefined, `file is ${formatSize(size)} (${count(size)} bytes), over the limit of ${formatSize(limit)} (${count(limit)} bytes) for this kind of file`);
}
