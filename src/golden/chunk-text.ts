/**
 * Chunks that read their text back from their chunks file when first asked
 * for it, instead of keeping it from the load.
 *
 * Why: a chunks file is mostly text (500,000 chunks, 171 MB), and most of it
 * is never read again: 100 questions over it read the chunks of the
 * documents their anchors name and the chunks they retrieved. Kept, every
 * text survives the young generation, and copying it there and collecting
 * the old one was a third of golden-set mode's time; each chunk now keeps its
 * id, document and heading, and its line's place in the file. The load still
 * parses and checks every line exactly as before (same problems, same
 * messages); only what is kept differs.
 *
 * A text read back comes from the same bytes the load parsed, checked by
 * the file's size, modification time and inode and by the line's own id: a
 * chunks file changed since it was loaded is an input error (run again), never
 * another chunk's text. Lines read back are read in windows of
 * {@link WINDOW_BYTES}, so the chunks of one document (adjacent in the file)
 * cost one read between them.
 */
import { closeSync, fstatSync, readSync, statSync } from "node:fs";
import { InputError } from "./errors.js";
import { openRegular, unreadable } from "./files.js";
import type { LineBytes } from "./jsonl.js";
import type { Chunk } from "./schema/golden.js";

/**
 * Bytes read at a time when a text is read back: the chunks of a document of
 * ordinary size, which are read together. Reads in no order pay for the
 * whole window each time, so it stays small (64 KiB doubled the cost of
 * 300,000 texts read back in question order).
 */
const WINDOW_BYTES = 8 << 10;

/** What identifies the bytes of a file: a change to any of these is a changed file. */
function stampOf(st: { size: number; mtimeMs: number; ino: number }): string {
  return `${st.size}:${st.mtimeMs}:${st.ino}`;
}

/** Closes the descriptor of a source no longer reachable (a library caller may load many chunks files). */
const closer = new FinalizationRegistry<{ fd: number | undefined }>((held) => closeHeld(held));

/**
 * At most this many chunks files are held open for reading back at once,
 * the one used longest ago closed first (and opened again, its stamp checked
 * again, when next read): a process that loads many chunks files does not
 * run out of descriptors waiting for the garbage collector.
 */
const OPEN_MAX = 16;

/** The descriptors held, the one used longest ago first. */
const opened = new Set<{ fd: number | undefined }>();

function closeHeld(held: { fd: number | undefined }): void {
  opened.delete(held);
  if (held.fd === undefined) return;
  const fd = held.fd;
  held.fd = undefined;
  try {
    closeSync(fd);
  } catch {
    // already closed: nothing is held
  }
}

/**
 * One chunks file, for reading lines back. Created before the file is read
 * ({@link ChunkTextSource.before}), so that the stamp it checks later is the
 * one of the bytes the load parsed or an older one: a file changed during
 * the load fails the check rather than passing it. The stamp is checked
 * again at every read from the file (one fstat), so a file rewritten in
 * place after some texts were read is caught too.
 */
export class ChunkTextSource {
  private readonly held: { fd: number | undefined } = { fd: undefined };
  /** Where reads go: {@link WINDOW_BYTES}, grown for a longer line. */
  private scratch = Buffer.alloc(0);
  /** The part of `scratch` the last read filled, from file offset {@link windowAt}. */
  private window = Buffer.alloc(0);
  /** File offset of window[0]. */
  private windowAt = 0;

  private constructor(
    readonly file: string,
    private readonly stamp: string | undefined,
  ) {
    closer.register(this, this.held);
  }

  /** A source for `file` as it is now (undefined stamp: it cannot be stat'ed, and the load will say why). */
  static before(file: string): ChunkTextSource {
    let stamp: string | undefined;
    try {
      stamp = stampOf(statSync(file));
    } catch {
      stamp = undefined;
    }
    return new ChunkTextSource(file, stamp);
  }

  /** Whether the file is still the one stamped before the load (checked once the load is done). */
  unchanged(): boolean {
    try {
      return this.stamp !== undefined && stampOf(statSync(this.file)) === this.stamp;
    } catch {
      return false;
    }
  }

  /** Closes the file now (a later read opens it again, checked again); the garbage collector does it otherwise. */
  close(): void {
    closeHeld(this.held);
  }

  /** The text and heading of chunk `id` on line `line`, read back from its bytes. */
  read(id: string, line: number, bytes: LineBytes): { text: string; heading?: unknown } {
    const changed = () => new InputError(this.file, line, "text", `the chunks file changed after it was loaded (chunk ${JSON.stringify(id)}); run again`);
    const raw = this.bytesOf(bytes, changed);
    let json: unknown;
    try {
      json = JSON.parse(raw.toString("utf8"));
    } catch {
      throw changed();
    }
    const j = json as { id?: unknown; text?: unknown; heading?: unknown } | null;
    if (j === null || typeof j !== "object" || j.id !== id || typeof j.text !== "string") throw changed();
    return j as { text: string; heading?: unknown };
  }

  private bytesOf({ start, end }: LineBytes, changed: () => InputError): Buffer {
    const w = this.window;
    if (start >= this.windowAt && end <= this.windowAt + w.length) return w.subarray(start - this.windowAt, end - this.windowAt);
    const fd = this.open(changed);
    const size = Math.max(end - start, WINDOW_BYTES);
    if (this.scratch.length < size) this.scratch = Buffer.allocUnsafe(size);
    const buf = this.scratch;
    // refilled from its start: until the read is done the window holds nothing
    this.window = buf.subarray(0, 0);
    let got = 0;
    try {
      while (got < size) {
        const n = readSync(fd, buf, got, size - got, start + got);
        if (n === 0) break;
        got += n;
      }
    } catch (e) {
      this.close();
      throw unreadable(this.file, e);
    }
    if (got < end - start) throw changed();
    this.window = buf.subarray(0, got);
    this.windowAt = start;
    return buf.subarray(0, end - start);
  }

  /** The file's descriptor, opened if need be, after checking that the file is still the one loaded. */
  private open(changed: () => InputError): number {
    const { held } = this;
    if (held.fd === undefined) {
      let fd: number;
      try {
        ({ fd } = openRegular(this.file));
      } catch {
        // gone, or no longer readable: not the file loaded
        throw changed();
      }
      held.fd = fd;
      if (opened.size >= OPEN_MAX) closeHeld(opened.values().next().value!);
    }
    opened.delete(held);
    opened.add(held);
    let same = false;
    try {
      same = this.stamp !== undefined && stampOf(fstatSync(held.fd)) === this.stamp;
    } catch {
      same = false;
    }
    if (!same) {
      this.close();
      throw changed();
    }
    return held.fd;
  }
}

/**
 * A chunk whose text and heading are read back from its file when first
 * asked for, then kept. Its id, document and meta are own fields, as a
 * parsed chunk's; `text` and `heading` are accessors, which `toJSON` writes
 * as the fields they stand for (nothing in ragjudge spreads a chunk; JSON of
 * one is the same as of a parsed chunk).
 */
export class ChunkReadingBack {
  declare readonly meta?: Chunk["meta"];
  private kept: { text: string; heading?: unknown } | undefined;

  constructor(
    readonly id: string,
    readonly doc: string,
    /** Whether the line has a heading: a chunk without one reads nothing back to say so. */
    private readonly headed: boolean,
    meta: Chunk["meta"],
    private readonly source: ChunkTextSource,
    private readonly line: number,
    private readonly start: number,
    private readonly end: number,
  ) {
    if (meta !== undefined) (this as { meta?: Chunk["meta"] }).meta = meta;
  }

  get text(): string {
    return (this.kept ??= this.source.read(this.id, this.line, { start: this.start, end: this.end })).text;
  }

  get heading(): string | undefined {
    if (!this.headed) return undefined;
    return (this.kept ??= this.source.read(this.id, this.line, { start: this.start, end: this.end })).heading as string;
  }

  toJSON(): Chunk {
    const out: Chunk = { id: this.id, doc: this.doc, text: this.text };
    if (this.headed) out.heading = this.heading;
    if (this.meta !== undefined) out.meta = this.meta;
    return out;
  }
}
