import { closeSync, readSync } from "node:fs";
import { openRegular, unreadable } from "../../golden/files.js";
import { lineTooLongBytes, MAX_LINE_CHARS } from "../../golden/limits.js";

/** C's isspace() as a table: space, \t, \n, \v, \f, \r separate TREC fields (so CRLF works). */
export const WS = new Uint8Array(256);
for (const c of [9, 10, 11, 12, 13, 32]) WS[c] = 1;

const NL = 10;

/** Chunk size for streaming reads: large enough that per-chunk costs vanish. */
const CHUNK = 1 << 20;
/** Size of the first read of a file (see streamRange). */
const FIRST_CHUNK = 16 << 10;

/**
 * Streams a file as whole lines without decoding it: `onLines(buf, start,
 * end)` receives byte ranges that end just after a newline (a final line
 * without one gets one appended). A leading UTF-8 byte-order mark is dropped.
 * Reading a missing file, a folder, a named pipe or a device is an
 * {@link InputError}, not a stack trace or a hang; so is a line longer than
 * `maxLine` bytes (limits.ts), found without counting lines on the way (the
 * line number is counted only for the message).
 *
 * @returns the number of bytes read (0 for an empty file).
 */
export function streamLines(file: string, onLines: (buf: Uint8Array, start: number, end: number) => void, chunkSize = CHUNK, maxLine = MAX_LINE_CHARS): number {
  return streamRange(file, 0, Infinity, onLines, chunkSize, maxLine);
}

/**
 * {@link streamLines} over the bytes [from, to) of a file only, so that
 * threads can read disjoint parts of one file: `from` must be the start of a
 * line and `to` the end of one (just after a newline) or past the end of the
 * file. The byte-order mark is dropped only at offset 0. The same checks
 * apply: a regular file only, no line over `maxLine` bytes (its number
 * counted from the start of the file).
 *
 * @returns the number of bytes read.
 */
export function streamRange(file: string, from: number, to: number, onLines: (buf: Uint8Array, start: number, end: number) => void, chunkSize = CHUNK, maxLine = MAX_LINE_CHARS): number {
  const { fd } = openRegular(file);
  let buf = Buffer.allocUnsafe(Math.max(2, Math.min(chunkSize, to - from + 1)) + 1);
  let carry = 0; // bytes of an unfinished line kept at the start of buf
  let total = 0;
  let pos = from;
  // The first read is small, so the parser returns once (and V8 learns its exit path) before
  // its loop is optimized: else the optimized code is thrown away at the end of every chunk.
  let want = FIRST_CHUNK;
  try {
    for (;;) {
      if (carry === buf.length - 1) {
        // One line fills the buffer: grow it, up to a line of maxLine bytes and its newline.
        if (carry > maxLine) throw lineTooLongBytes(file, lineNumberAt(fd, pos - carry), maxLine);
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxLine + 3));
        buf.copy(bigger, 0, 0, carry);
        buf = bigger;
      }
      let n: number;
      try {
        n = pos >= to ? 0 : readSync(fd, buf, carry, Math.min(buf.length - 1 - carry, to - pos, want), pos);
        want = Infinity;
      } catch (e) {
        throw unreadable(file, e);
      }
      if (pos === 0 && n >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
        buf.copy(buf, 0, 3, n);
        n -= 3;
        total += 3;
        pos += 3;
      }
      total += n;
      pos += n;
      const eof = n === 0;
      const end = carry + n;
      if (eof) {
        if (end > 0) {
          buf[end] = NL;
          onLines(buf, 0, end + 1);
        }
        return total;
      }
      const last = end > 0 ? buf.lastIndexOf(NL, end - 1) : -1;
      if (last < 0) {
        carry = end; // no newline yet: keep reading
        continue;
      }
      onLines(buf, 0, last + 1);
      carry = end - (last + 1);
      if (carry > 0) buf.copy(buf, 0, last + 1, end);
    }
  } finally {
    closeSync(fd);
  }
}

/** The 1-based number of the line that starts at byte `offset` (re-reads the file up to there; only for a message). */
function lineNumberAt(fd: number, offset: number): number {
  const buf = Buffer.allocUnsafe(1 << 20);
  let line = 1;
  for (let pos = 0; pos < offset; ) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, offset - pos), pos);
    if (n === 0) break;
    for (let i = buf.indexOf(NL, 0); i !== -1 && i < n; i = buf.indexOf(NL, i + 1)) line++;
    pos += n;
  }
  return line;
}

/**
 * Offset of the first byte at or after `p` that is not a blank: C's
 * isspace() without "\n" (space, \t, \v, \f, \r), so a line end stops it.
 * Tested by comparisons, cheaper than a table lookup; small enough for V8
 * to inline into the run parser's byte loop (scan.ts; the qrels loop keeps
 * its own copies, measured faster there).
 */
export function skipBlanks(buf: Uint8Array, p: number): number {
  let c = buf[p]!;
  while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p]!;
  return p;
}

/**
 * Offset just past the field that starts at `p`: bytes that are not C's
 * isspace(). `c > 32` is tested first: it holds for every byte of a field
 * but a few control bytes.
 */
export function skipField(buf: Uint8Array, p: number): number {
  let c = buf[p]!;
  while (c > 32 || (c !== 32 && (c < 9 || c > 13))) c = buf[++p]!;
  return p;
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];
const LATIN1 = new TextDecoder("latin1");

/**
 * Parses a decimal number from bytes with the same result as C's strtod
 * (correctly rounded), without allocating: the digits are gathered into an
 * exact integer and scaled by one exact power of ten (Clinger's fast path,
 * exact when the integer is below 2^53 and the power at most 10^22). Other
 * numbers fall back to `Number()`, which is also correctly rounded.
 * Returns NaN for anything that is not a finite decimal number.
 *
 * @example
 * parseDecimal(Buffer.from("-0.332131"), 0, 9) // -0.332131
 */
export function parseDecimal(buf: Uint8Array, start: number, end: number): number {
  let p = start;
  let neg = false;
  let c = buf[p]!;
  if (c === 45 /* - */ || c === 43 /* + */) {
    neg = c === 45;
    p++;
  }
  let mant = 0;
  let digits = 0;
  let scale = 0;
  while (p < end && (c = buf[p]!) >= 48 && c <= 57) {
    mant = mant * 10 + (c - 48);
    digits++;
    p++;
  }
  if (p < end && buf[p] === 46 /* . */) {
    p++;
    while (p < end && (c = buf[p]!) >= 48 && c <= 57) {
      mant = mant * 10 + (c - 48);
      digits++;
      scale--;
      p++;
    }
  }
  if (digits === 0) return NaN;
  if (p < end) {
    c = buf[p]!;
    if (c !== 101 && c !== 69) return NaN; // e / E
    return slowDecimal(buf, start, end);
  }
  if (mant > 9007199254740991 || scale < -22) return slowDecimal(buf, start, end);
  const v = scale === 0 ? mant : mant / POW10[-scale]!;
  return neg ? 0 - v : v; // 0 - 0 is +0: C's comparisons see -0 and 0 as equal, sorting must too
}

function slowDecimal(buf: Uint8Array, start: number, end: number): number {
  const text = LATIN1.decode(buf.subarray(start, end));
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return NaN;
  const v = Number(text);
  return Number.isFinite(v) ? v + 0 : NaN;
}

/** Text of a byte range (UTF-8), for ids and messages. */
export function text(buf: Uint8Array, start: number, end: number): string {
  return Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString("utf8");
}
