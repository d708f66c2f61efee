import { Worker } from "node:worker_threads";
import { GZIP_LEVEL, gzipBase64, type Compress } from "./html/sections/explorer.js";

/**
 * A second thread for the run's bulk work that needs none of its state: the
 * explorer's evidence compressed while this thread writes the rest of the
 * evaluation folder (at 20,000 items about 160 MB of JSON, seconds of gzip),
 * and the input files hashed for report.json while the judge runs. zlib's own
 * asynchronous calls would not help: they need this thread's event loop
 * between steps, and the folder is written synchronously. The worker runs
 * gzipSync at the same level, so the bytes are those of
 * {@link gzipBase64}. Without worker threads (or when one fails) the work is
 * done here, as before.
 */
export interface Background {
  compress: Compress;
  /**
   * Whether the thread has room for more: compress() past that point
   * compresses here instead, so the blocks waiting for the thread stay few
   * (each is megabytes of JSON). Read without the event loop (a shared counter).
   */
  hasRoom(): boolean;
  /** SHA-256 (hex) of a regular file's bytes; undefined when the worker could not read it (the caller reads it itself). */
  hashFile(file: string): Promise<string | undefined>;
  /** Stops the thread (after every promise has settled, or to give up: pending blocks then reject). */
  close(): Promise<void>;
}

/** Plain CommonJS, run with `eval`: no module file to resolve from the source tree or the build. */
const WORKER_CODE = `
const { parentPort, workerData } = require("node:worker_threads");
const done = new Int32Array(workerData.done);
const level = workerData.level;
const { gzipSync } = require("node:zlib");
const { createHash } = require("node:crypto");
const fs = require("node:fs");
function hashFile(file) {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW || 0) | (fs.constants.O_NONBLOCK || 0));
  try {
    if (!fs.fstatSync(fd).isFile()) return undefined;
    const h = createHash("sha256");
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0; ) h.update(buf.subarray(0, n));
    return h.digest("hex");
  } finally {
    fs.closeSync(fd);
  }
}
parentPort.on("message", (m) => {
  let out;
  try {
    out = m.bytes !== undefined ? { id: m.id, text: gzipSync(m.bytes, { level }).toString("base64") } : { id: m.id, text: hashFile(m.file) };
  } catch (e) {
    out = { id: m.id, error: String(e) };
  }
  Atomics.add(done, 0, 1);
  parentPort.postMessage(out);
});
`;

const inline: Background = { compress: gzipBase64, hasRoom: () => false, hashFile: async () => undefined, close: async () => {} };

/** Blocks of more UTF-16 units than this are measured before they are encoded (see `send`). */
const EXACT_SIZE_FROM = 16 << 20;

/** Jobs the thread may have waiting: enough to keep it busy between two checks, few enough to hold little. */
const ROOM = 3;

/** Starts the thread; `compress` then returns promises, resolved in any order. */
export function startBackground(): Background {
  let worker: Worker;
  const done = new Int32Array(new SharedArrayBuffer(4));
  try {
    worker = new Worker(WORKER_CODE, { eval: true, workerData: { done: done.buffer, level: GZIP_LEVEL } });
  } catch {
    return inline;
  }
  // alive while work is pending (an awaited promise alone would let the process exit), idle otherwise
  worker.unref();
  // Results arrive only when this thread next yields (at the end of the folder's writing), so a pending job
  // keeps nothing of its input here: a job lost with the thread fails the run as an internal error.
  const pending = new Map<number, { resolve: (s: string | undefined) => void; reject: (e: Error) => void; hash: boolean }>();
  let next = 0;
  let failed: Error | undefined;
  let closing = false;
  const fail = (e: Error) => {
    failed = e;
    for (const p of pending.values()) {
      if (p.hash) p.resolve(undefined); // the caller reads the file itself
      else p.reject(e);
    }
    pending.clear();
    worker.unref();
  };
  worker.on("message", (m: { id: number; text?: string; error?: string }) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    // once close() has begun, the thread stays referenced until it has exited (see close)
    if (pending.size === 0 && !closing) worker.unref();
    if (m.error === undefined || p.hash) p.resolve(m.error === undefined ? m.text : undefined);
    else p.reject(new Error(`internal: background worker: ${m.error}`));
  });
  worker.on("error", (e) => fail(new Error(`internal: background worker: ${e instanceof Error ? e.message : String(e)}`)));
  worker.on("exit", (code) => fail(new Error(`internal: background worker exited (${code}) with work pending`)));
  const hasRoom = () => !failed && next - Atomics.load(done, 0) < ROOM;
  const send = (message: { json: string } | { file: string }) => {
    const id = next++;
    const p = new Promise<string | undefined>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve, reject, hash: !("json" in message) });
      if ("json" in message) {
        // bytes, moved rather than copied: a copied string would sit in the thread's heap until its next full
        // collection. Encoded by Buffer#write: 2.5 times TextEncoder's speed on text with a non-ASCII character,
        // which V8 stores two bytes a character (0.33 s of main-thread time for 20,000 items' evidence, profiled);
        // into room for the worst case (3 bytes per UTF-16 unit, never initialised) for a shard, into the exact
        // size for a larger block (the chunk table), whose worst case could be gigabytes of address space.
        const { json } = message;
        const room = Buffer.allocUnsafeSlow(json.length <= EXACT_SIZE_FROM ? json.length * 3 : Buffer.byteLength(json, "utf8"));
        const bytes = new Uint8Array(room.buffer, 0, room.write(json, "utf8"));
        worker.postMessage({ id, bytes }, [room.buffer]);
      } else worker.postMessage({ id, file: message.file });
    });
    // a caller that fails before awaiting leaves this unawaited: its rejection (the thread stopped) is not news
    p.catch(() => {});
    return p;
  };
  return {
    compress: (json) => (hasRoom() ? (send({ json }) as Promise<string>) : gzipBase64(json)),
    hasRoom,
    // a file the worker cannot hash is read by the caller, which reports it as any read does
    hashFile: (file) => (failed ? Promise.resolve(undefined) : send({ file })),
    close: async () => {
      closing = true;
      await terminate(worker);
    },
  };
}

/** How long {@link terminate} keeps the process alive for a thread's exit: far longer than an exit takes (2 ms). */
const EXIT_WAIT_MS = 10_000;

/**
 * Stops a worker thread and waits for its exit. terminate() resolves on the
 * thread's exit event, but neither the thread (referenced or not) nor that
 * promise keeps the event loop alive while the thread stops: with nothing
 * else pending, Node ended the program that awaited it with exit code 13 and
 * no message (a run that failed on bad labels, about one time in three, with
 * its error never printed). A timer holds the loop until the exit, at most
 * {@link EXIT_WAIT_MS}: a thread that never reports its exit is left to the
 * process's own.
 */
async function terminate(worker: Worker): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([worker.terminate(), new Promise((done) => (timer = setTimeout(done, EXIT_WAIT_MS)))]);
  } finally {
    clearTimeout(timer);
  }
}
