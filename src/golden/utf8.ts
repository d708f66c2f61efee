import { isUtf8 } from "node:buffer";
import { readSync } from "node:fs";
import { InputError } from "./errors.js";

/**
 * Text files must be UTF-8. Node's decoder turns bytes that are not into
 * U+FFFD without a word, so a golden set or a labels CSV saved as Latin-1 or
 * Windows-1252 (a spreadsheet's plain "CSV") loaded with its accented
 * letters gone: an anchor then matched no chunk and a label no item, far from
 * the cause. Checking the bytes costs little (node:buffer's isUtf8 runs at
 * gigabytes a second); finding the line runs only when the check fails.
 */
export const NOT_UTF8 = "not UTF-8 text (Latin-1 or Windows-1252?): save the file as UTF-8 (a spreadsheet's \"CSV UTF-8\")";

/**
 * The 0-based index of the first line of `bytes` that is not UTF-8, or -1
 * when all of it is. Lines end as the readers end them: "\n", "\r\n" or a
 * lone "\r" (a spreadsheet's "CSV (Macintosh)").
 *
 * @example
 * firstNonUtf8Line(Buffer.from([0x61, 0x0a, 0x63, 0x61, 0x66, 0xe9, 0x0a])) // 1
 */
export function firstNonUtf8Line(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1;
  let start = 0;
  for (let line = 0; ; line++) {
    let end = start;
    while (end < bytes.length && bytes[end] !== 10 && bytes[end] !== 13) end++;
    // the line's bytes and its end
    const next = end < bytes.length ? (bytes[end] === 13 && bytes[end + 1] === 10 ? end + 2 : end + 1) : end;
    if (!isUtf8(bytes.subarray(start, end)) || next >= bytes.length) return line;
    start = next;
  }
}

/** The line ends ("\n", "\r\n", a lone "\r") among the first `upTo` bytes of the open file `fd`: a block starting at `upTo` starts on line this + 1. */
export function newlinesBefore(fd: number, upTo: number): number {
  const buf = Buffer.allocUnsafe(Math.min(upTo, 1 << 20) || 1);
  let count = 0;
  let lastWasCr = false;
  for (let at = 0; at < upTo; ) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, upTo - at), at);
    if (n === 0) break;
    for (let i = 0; i < n; i++) {
      const b = buf[i];
      // a "\n" after a "\r" ends the line the "\r" ended
      if (b === 10 && !lastWasCr) count++;
      else if (b === 13) count++;
      lastWasCr = b === 13;
    }
    at += n;
  }
  return count;
}

/**
 * Refuses `bytes` of `file` that are not UTF-8, naming the first line that is
 * not; `firstLine` gives the 1-based line of `bytes[0]` (asked only then).
 */
export function checkUtf8(file: string, bytes: Uint8Array, firstLine: () => number = () => 1): void {
  const bad = firstNonUtf8Line(bytes);
  if (bad < 0) return;
  const line = firstLine() + bad;
  // A UTF-16 byte-order mark at the file's start (Excel's "Unicode text", PowerShell's default): say what it is.
  const utf16 = line === 1 && bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  throw new InputError(file, line, undefined, utf16 ? NOT_UTF8_BUT_UTF16 : NOT_UTF8);
}

/** A file that starts with a UTF-16 byte-order mark: its text is UTF-16, not Latin-1. */
export const NOT_UTF8_BUT_UTF16 = "UTF-16 text, not UTF-8 (it starts with a UTF-16 byte-order mark, as Excel's \"Unicode text\" and PowerShell write): save the file as UTF-8";
