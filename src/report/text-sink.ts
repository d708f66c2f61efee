import { writeSync } from "node:fs";

/**
 * Text written to a file descriptor through one reused buffer. An
 * evaluation folder holds hundreds of megabytes of text (items.jsonl alone is
 * over 100 MB at 20,000 items): joined into one string and encoded into one
 * Buffer, each file cost a large-object allocation, a flattening pass and
 * external memory that drove full garbage collections. A sink takes the
 * text in pieces (a line, a record) and encodes each straight into its
 * buffer, so no piece outlives its write. Large strings are encoded in
 * slices, never split inside a surrogate pair: the bytes are exactly those of
 * each piece's `Buffer.from(piece, "utf8")`, one after the other (the text
 * joined, when no surrogate pair is split across two pieces).
 */
export class TextSink {
  private readonly buf: Buffer;
  private used = 0;

  constructor(
    private fd: number,
    size = 1 << 20,
    /** Called after each write of the full buffer (other work can be slotted in between). */
    private readonly afterFlush?: () => void,
  ) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** The same buffer for another file (anything a failed write left unflushed is dropped). */
  retarget(fd: number): this {
    this.used = 0;
    this.fd = fd;
    return this;
  }

  /** Appends one piece of text. */
  write(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit (a surrogate pair: 4 bytes for 2 units)
    if (text.length * 3 <= this.buf.length - this.used) {
      this.used += this.buf.write(text, this.used, "utf8");
      return;
    }
    const slice = Math.floor(this.buf.length / 3);
    for (let at = 0; at < text.length; ) {
      let end = Math.min(text.length, at + slice);
      // a high surrogate at the end of a slice stays with its low surrogate
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
      if ((end - at) * 3 > this.buf.length - this.used) this.flush();
      this.used += this.buf.write(end - at === text.length ? text : text.slice(at, end), this.used, "utf8");
      at = end;
    }
  }

  /** Appends bytes as they are. */
  writeBytes(bytes: Uint8Array): void {
    if (bytes.length <= this.buf.length - this.used) {
      this.buf.set(bytes, this.used);
      this.used += bytes.length;
      return;
    }
    this.flush();
    writeAll(this.fd, bytes);
  }

  /** Writes out what the buffer holds (call once at the end; the caller fsyncs and closes). */
  flush(): void {
    if (this.used) writeAll(this.fd, this.buf.subarray(0, this.used));
    this.used = 0;
    this.afterFlush?.();
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** What {@link writeAll} sleeps on while a pipe is full (nothing ever wakes it: each wait times out). */
const SLEEP = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `bytes`. A pipe Node has made non-blocking (standard output
 * once `process.stdout` is touched) refuses a write while it is full
 * (EAGAIN): the write waits 50 microseconds for the reader and tries again.
 * A longer wait left the reader idle (100 MB through sha256sum: 0.34 s with
 * 50 us, 0.51 s with 200 us, 1.8 s with 1 ms), none at all spun a core the
 * reader needed. Files never refuse.
 */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let off = 0; off < bytes.length; ) {
    try {
      off += writeSync(fd, bytes, off, bytes.length - off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
      Atomics.wait(SLEEP, 0, 0, 0.05);
    }
  }
}

/**
 * What a file's content can be given as: one string, bytes, pieces written in
 * order, or a function that writes its pieces.
 */
export type FileContent = string | Uint8Array | Iterable<string> | ((write: (text: string) => void) => void);

/** Writes a file's content (see {@link FileContent}) to a sink. */
export function writeContent(sink: TextSink, content: FileContent): void {
  if (typeof content === "string") sink.write(content);
  else if (content instanceof Uint8Array) sink.writeBytes(content);
  else if (typeof content === "function") content((text) => sink.write(text));
  else for (const piece of content) sink.write(piece);
  sink.flush();
}
