import { sha256 } from "./hash.js";
import { accessSync, closeSync, constants, copyFileSync, fstatSync, fsyncSync, lstatSync, openSync, readSync, renameSync, unlinkSync, writeSync, type Stats } from "node:fs";
import { dirname, basename, join } from "node:path";
import { InputError } from "./errors.js";
import { fsWords } from "./fs-words.js";
import { fileTooLarge, MAX_DATA_FILE_BYTES } from "./limits.js";
import { checkFolder, writableTarget, writeProblem } from "./paths.js";
import { checkUtf8, newlinesBefore } from "./utf8.js";

/**
 * Reads a UTF-8 text file as users produce them: a leading byte-order mark is
 * dropped (spreadsheet exports add one) and CRLF line ends become LF.
 * A missing file, a folder, a named pipe or device, and a file over `limit`
 * bytes are {@link InputError}s, not stack traces, hangs or exhausted memory
 * (see {@link readBytes}).
 */
export function readText(file: string, limit = MAX_DATA_FILE_BYTES): string {
  // bytes first, then text: their UTF-8 is checked (utf8.ts), at the cost of holding both for a moment
  const bytes = readBytes(file, limit);
  checkUtf8(file, bytes);
  return decodeText(bytes.toString("utf8"));
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
export function readTextHashed(file: string, limit = MAX_DATA_FILE_BYTES): { text: string; sha256: string } {
  const bytes = readBytes(file, limit);
  checkUtf8(file, bytes);
  return { text: decodeText(bytes.toString("utf8")), sha256: sha256(bytes) };
}

/**
 * {@link readText} a block of whole lines at a time, so a 200 MB JSONL file
 * is never one string: `onBlock` gets the file's text in order, each block
 * ending with a line end (the last one perhaps not), decoded and cleaned as
 * readText does (the byte-order mark dropped, CRLF and CR made LF). Blocks
 * are cut just after a "\n" byte, so no UTF-8 sequence and no CRLF is split.
 * The same checks as readText's: a regular file only ({@link openRegular}),
 * of at most `limit` bytes, before reading and while reading (a file that
 * grows as it is read is held to the limit too). Blocks are 32 KiB by
 * default (a longer line grows the buffer): a block's text is garbage once
 * its lines are parsed, and strings that small die in V8's young generation,
 * where freeing them is free; megabyte blocks would sit in the large-object
 * space until a full collection, hundreds of megabytes for a large file.
 *
 * `onBlock`'s second argument says where the block lies in the file, so
 * that a caller can read a line back later instead of keeping its text
 * (chunk-text.ts): the byte offset of its first character and, when its
 * characters are not its bytes one for one (multi-byte UTF-8, CR line ends
 * made LF), its bytes, valid during the call only, in which the k-th line
 * end ("\n", "\r\n" or a lone "\r") ends the k-th line of the text.
 * `range` reads part of the file only (two threads reading one file).
 */
export function readTextBlocks(file: string, onBlock: (text: string, where: BlockBytes | undefined) => void, blockBytes = 32 << 10, limit = MAX_DATA_FILE_BYTES, range?: ByteRange): void {
  const { fd, size } = openRegular(file);
  try {
    if (size > limit) throw fileTooLarge(file, size, limit);
    let total = 0;
    let buf = Buffer.allocUnsafe(blockBytes);
    let carry = 0;
    // the file offset of buf[0]
    let offset = range?.from ?? 0;
    // a byte-order mark can only be at the file's start
    let first = offset === 0;
    // where the next read starts; null: where the last one ended (the whole file is read in order)
    let at: number | null = range ? offset : null;
    const emit = (end: number) => {
      checkUtf8(file, buf.subarray(0, end), () => newlinesBefore(fd, offset) + 1);
      let text = buf.toString("utf8", 0, end);
      let skipped = 0;
      if (first) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) {
          text = text.slice(1);
          skipped = 3;
        }
      }
      const cr = text.includes("\r");
      const where = !cr && text.length === end - skipped ? { offset: offset + skipped } : { offset: offset + skipped, bytes: buf.subarray(skipped, end) };
      onBlock(cr ? text.replace(/\r\n?/g, "\n") : text, where);
    };
    for (;;) {
      if (carry === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, carry);
        buf = bigger;
      }
      let n: number;
      try {
        n = readSync(fd, buf, carry, range ? Math.max(0, Math.min(buf.length - carry, range.to - at!)) : buf.length - carry, at);
      } catch (e) {
        throw unreadable(file, e);
      }
      if (at !== null) at += n;
      total += n;
      if (total > limit) throw fileTooLarge(file, total, limit);
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
      offset += nl + 1;
      carry = end - (nl + 1);
      if (buf.length > blockBytes && carry < blockBytes) {
        // back to blocks of the usual size once a long line is through: a grown buffer made every later block as large
        const usual = Buffer.allocUnsafe(blockBytes);
        buf.copy(usual, 0, nl + 1, end);
        buf = usual;
      } else buf.copy(buf, 0, nl + 1, end);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Part of a file, [from, to) in bytes; `from` is the start of a line (0, or
 * just after a "\n"), and a part ending mid-line ends there.
 */
export interface ByteRange {
  from: number;
  to: number;
}

/** Where a block of {@link readTextBlocks} lies in its file. */
export interface BlockBytes {
  /** The file offset of the block's first character. */
  offset: number;
  /** The block's bytes when they are not its characters one for one (valid during the call only): the k-th line end in them ("\n", "\r\n" or "\r") ends the text's k-th line. */
  bytes?: Buffer;
}

/** Drops a leading byte-order mark and turns CRLF and CR line ends into LF. */
function decodeText(raw: string): string {
  if (raw.charCodeAt(0) === 0xfeff) raw = raw.slice(1);
  return raw.includes("\r") ? raw.replace(/\r\n?/g, "\n") : raw;
}

/** Flags for opening an input: never wait (a FIFO with no writer would block `open` for ever). */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Opens an input file and checks, on the open descriptor (so nothing can be
 * swapped in between), that it is a regular file: a folder, a named pipe, a
 * device (/dev/zero never ends) or a socket is refused at once. The caller
 * closes `fd`. One `open` and one `fstat`: cheap for any file size.
 *
 * @example
 * const { fd, size } = openRegular("golden.jsonl");
 * try { ... } finally { closeSync(fd); }
 */
export function openRegular(file: string): { fd: number; size: number } {
  let fd: number;
  try {
    fd = openSync(file, READ_FLAGS);
  } catch (e) {
    throw unreadable(file, e);
  }
  let st: Stats;
  try {
    st = fstatSync(fd);
  } catch (e) {
    closeSync(fd);
    throw unreadable(file, e);
  }
  if (!st.isFile()) {
    closeSync(fd);
    throw notRegular(file, st);
  }
  return { fd, size: st.size };
}

/** Why a path that is not a regular file cannot be read, in words. */
function notRegular(file: string, st: Stats): InputError {
  const why =
    st.isDirectory() ? fsWords("EISDIR", "read")!
    : st.isFIFO() ? "is a named pipe (FIFO), not a regular file: give a file"
    : st.isCharacterDevice() || st.isBlockDevice() ? "is a device, not a regular file: give a file"
    : st.isSocket() ? "is a socket, not a regular file: give a file"
    : "is not a regular file: give a file";
  return new InputError(file, undefined, undefined, why);
}

/**
 * Reads a whole regular file (see {@link openRegular}) of at most `limit`
 * bytes: the size is checked before reading, and again while reading, so a
 * file that grows as it is read cannot exceed it either.
 */
export function readBytes(file: string, limit = MAX_DATA_FILE_BYTES): Buffer {
  const { fd, size } = openRegular(file);
  try {
    if (size > limit) throw fileTooLarge(file, size, limit);
    const parts: Buffer[] = [];
    let total = 0;
    let buf = Buffer.allocUnsafe(size);
    let got = 0;
    for (;;) {
      if (got === buf.length) {
        if (got > 0) parts.push(buf);
        buf = Buffer.allocUnsafe(64 * 1024);
        got = 0;
      }
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
      total += n;
      if (total > limit) throw fileTooLarge(file, total, limit);
    }
    parts.push(buf.subarray(0, got));
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, total);
  } catch (e) {
    throw e instanceof InputError ? e : unreadable(file, e);
  } finally {
    closeSync(fd);
  }
}

/**
 * A file-system error on reading `file` as the input problem a user can act
 * on ("file not found", "is a folder, where a file is needed", "permission
 * denied": {@link fsWords}), never an errno stack trace. Used by every reader.
 *
 * @example
 * try { readFileSync(f) } catch (e) { throw unreadable(f, e) }
 */
export function unreadable(file: string, e: unknown): InputError {
  const code = (e as NodeJS.ErrnoException).code;
  const why = (code !== undefined && fsWords(code, "read")) || `cannot read (${code ?? String(e)})`;
  return new InputError(file, undefined, undefined, why);
}

/** Writes all of `bytes` (a single write may be short). */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
}

/**
 * Writes a file so that readers never see half of it: the text goes to a
 * new temporary file beside the target (created exclusively, so a planted
 * link cannot redirect it), is flushed to disk, then renamed over it (rename
 * is atomic within one file system). The target is resolved first
 * ({@link writableTarget}): a folder, pipe or device, a symbolic link out of
 * its folder, or, with `within`, any path leaving that folder is refused
 * before anything is written. On any failure the temporary file is removed,
 * and a problem the user can fix (permission, a full disk) is an
 * InputError naming the file.
 *
 * @example
 * writeFileAtomic("out/judgments.jsonl", text)
 * writeFileAtomic("out/judgments.jsonl", [part1, part2]) // parts written in order, never joined
 * writeFileAtomic("labels/calibration/faithfulness.0db4794a352f.json", text, { within: "labels" })
 */
export function writeFileAtomic(file: string, text: string | Uint8Array | readonly Uint8Array[], options: { within?: string } = {}): void {
  replaceAtomic(file, options, (tmp) => {
    const fd = openSync(tmp, "wx");
    try {
      if (typeof text === "string") writeAll(fd, Buffer.from(text, "utf8"));
      else if (text instanceof Uint8Array) writeAll(fd, text);
      else for (const part of text) writeAll(fd, part);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  });
}

/**
 * {@link writeFileAtomic} with the bytes of another file, copied by the
 * operating system (no text to encode again: the run's judgments, tens of
 * megabytes, go to the cache folder this way once written in the evaluation).
 *
 * @example
 * copyFileAtomic("evaluations/20261206T0457Z-demo/judgments.jsonl", ".ragjudge/judgments.jsonl")
 */
export function copyFileAtomic(from: string, file: string, options: { within?: string } = {}): void {
  // a source that cannot be read is named as such (the copy's own error would name the target)
  try {
    accessSync(from, constants.R_OK);
  } catch (e) {
    throw unreadable(from, e);
  }
  replaceAtomic(file, options, (tmp) => {
    copyFileSync(from, tmp, constants.COPYFILE_EXCL);
    // opened for writing: Windows flushes a file only through a handle that may write to it
    const fd = openSync(tmp, "r+");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  });
}

/** Fills a temporary file beside `file` (`fill` creates it, complete and flushed) and renames it into place. */
function replaceAtomic(file: string, options: { within?: string }, fill: (tmp: string) => void): void {
  const target = writableTarget(file, { ...options, create: true });
  const dir = dirname(target);
  const tmp = join(dir, `.${basename(target)}.${process.pid}.${Date.now()}.tmp`);
  try {
    fill(tmp);
    renameSync(tmp, target);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* never created, or already gone */
    }
    throw writeProblem(file, e);
  }
  fsyncDir(dir);
}

/** Flags for appending: create, never follow a link at the target, never wait on a FIFO. */
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Appends one line and flushes it to disk before returning, for append-only
 * logs (labels, review progress) where a killed process must lose nothing
 * that was acknowledged. The log must be a regular file: a symbolic link at
 * its place, a pipe or a device is refused before a byte is written.
 * Callers resolve `file` inside its folder first (see `confinedPath`).
 */
export function appendLineDurable(file: string, line: string): void {
  checkFolder(dirname(file), "its folder", { create: true });
  const created = lstatSync(file, { throwIfNoEntry: false }) === undefined;
  let fd: number;
  try {
    fd = openSync(file, APPEND_FLAGS, 0o666);
  } catch (e) {
    throw writeProblem(file, e);
  }
  try {
    if (!fstatSync(fd).isFile()) throw new InputError(file, undefined, undefined, "is not a regular file (a named pipe, device or socket): refusing to write to it");
    writeAll(fd, Buffer.from(line.endsWith("\n") ? line : line + "\n", "utf8"));
    fsyncSync(fd);
  } catch (e) {
    throw writeProblem(file, e);
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
