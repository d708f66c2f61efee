import { sha256 } from "./hash.js";
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, readSync, renameSync, writeSync, mkdirSync, unlinkSync } from "node:fs";
import { dirname, basename, join } from "node:path";
import { InputError } from "./errors.js";

/**
 * Reads a UTF-8 text file as users produce them: a leading byte-order mark is
 * dropped (spreadsheet exports add one) and CRLF line ends become LF.
 * A missing file is an {@link InputError}, not an ENOENT stack trace.
 */
export function readText(file: string): string {
  let raw: string;
  try {
    raw = readFileSync(file, "utf8");
  } catch (e) {
    throw unreadable(file, e);
  }
  return decodeText(raw);
}

/**
 * Reads a file once for both of its uses: its text as {@link readText} gives
 * it and the SHA-256 of its exact bytes (labels files are recorded by it in
 * calibration records). Hashing a second read would cost twice the I/O and
 * could hash other bytes than were parsed if the file changed in between.
 *
 * @example
 * const { text, sha256 } = readTextHashed("labels/asha.jsonl");
 */
export function readTextHashed(file: string): { text: string; sha256: string } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw unreadable(file, e);
  }
  return { text: decodeText(bytes.toString("utf8")), sha256: sha256(bytes) };
}

/**
 * {@link readText} a block of whole lines at a time, so a 200 MB JSONL file
 * is never one string: `onBlock` gets the file's text in order, each block
 * ending with a line end (the last one perhaps not), decoded and cleaned as
 * readText does (the byte-order mark dropped, CRLF and CR made LF). Blocks
 * are cut just after a "\n" byte, so no UTF-8 sequence and no CRLF is split.
 */
export function readTextBlocks(file: string, onBlock: (text: string) => void, blockBytes = 4 << 20): void {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (e) {
    throw unreadable(file, e);
  }
  try {
    let buf = Buffer.allocUnsafe(blockBytes);
    let carry = 0;
    let first = true;
    const emit = (end: number) => {
      let text = buf.toString("utf8", 0, end);
      if (first) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      onBlock(text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text);
    };
    for (;;) {
      if (carry === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, carry);
        buf = bigger;
      }
      let n: number;
      try {
        n = readSync(fd, buf, carry, buf.length - carry, null);
      } catch (e) {
        throw unreadable(file, e); // a directory opens, then fails here with EISDIR
      }
      const end = carry + n;
      if (n === 0) {
        if (end > 0) emit(end);
        return;
      }
      const nl = buf.lastIndexOf(10, end - 1);
      if (nl < 0) {
        carry = end;
        continue;
      }
      emit(nl + 1);
      carry = end - (nl + 1);
      buf.copy(buf, 0, nl + 1, end);
    }
  } finally {
    closeSync(fd);
  }
}

/** Drops a leading byte-order mark and turns CRLF and CR line ends into LF. */
function decodeText(raw: string): string {
  if (raw.charCodeAt(0) === 0xfeff) raw = raw.slice(1);
  return raw.includes("\r") ? raw.replace(/\r\n?/g, "\n") : raw;
}

/**
 * A file-system error on reading `file` as the input problem a user can act
 * on ("file not found", "is a directory, expected a file", "permission
 * denied"), never an errno stack trace. Used by every reader.
 *
 * @example
 * try { readFileSync(f) } catch (e) { throw unreadable(f, e) }
 */
export function unreadable(file: string, e: unknown): InputError {
  const code = (e as NodeJS.ErrnoException).code;
  const why =
    code === "ENOENT" ? "file not found"
    : code === "EISDIR" ? "is a directory, expected a file"
    : code === "EACCES" || code === "EPERM" ? "permission denied"
    : `cannot read (${code ?? String(e)})`;
  return new InputError(file, undefined, undefined, why);
}

/**
 * Writes a file so that readers never see half of it: the text goes to a
 * temporary file beside the target, is flushed to disk, then renamed over it
 * (rename is atomic within one file system).
 */
export function writeFileAtomic(file: string, text: string | Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, typeof text === "string" ? Buffer.from(text, "utf8") : text);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    try { unlinkSync(tmp); } catch { /* already gone */ }
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, file);
  fsyncDir(dirname(file));
}

/**
 * Appends one line and flushes it to disk before returning, for append-only
 * logs (labels, review progress) where a killed process must lose nothing
 * that was acknowledged.
 */
export function appendLineDurable(file: string, line: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const created = !existsSync(file);
  const fd = openSync(file, "a");
  try {
    writeSync(fd, Buffer.from(line.endsWith("\n") ? line : line + "\n", "utf8"));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  // A brand-new file is only durable once its directory entry is too.
  if (created) fsyncDir(dirname(file));
}

/** Flushes a directory's entries (new or renamed files) to disk; a no-op where unsupported. */
function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some platforms (Windows) cannot open or fsync a directory.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export { existsSync };
