import { Worker } from "node:worker_threads";
import { gzipBase64, type Compress } from "./html/sections/explorer.js";

/**
 * A second thread for the run's bulk work that needs none of its state: the
 * explorer's evidence compressed while this thread writes the rest of the
 * evaluation folder (at 20,000 items about 160 MB of JSON, seconds of gzip),
 * and the input files hashed for report.json while the judge runs. zlib's own
 * asynchronous calls would not help: they need this thread's event loop
 * between steps, and the folder is written synchronously. The worker runs
 * gzipSync with zlib's defaults, so the bytes are those of
 * {@link gzipBase64}. Without worker threads (or when one fails) the work is
 * done here, as before.
 */
export interface Background {
  compress: Compress;
  /** SHA-256 (hex) of a regular file's bytes; undefined when the worker could not read it (the caller reads it itself). */
  hashFile(file: string): Promise<string | undefined>;
  /** Stops the thread (after every promise has settled, or to give up). */
  close(): Promise<void>;
}

/** Plain CommonJS, run with `eval`: no module file to resolve from the source tree or the build. */
const WORKER_CODE = `
const { parentPort } = require("node:worker_threads");
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
    out = m.json !== undefined ? { id: m.id, text: gzipSync(m.json).toString("base64") } : { id: m.id, text: hashFile(m.file) };
  } catch (e) {
    out = { id: m.id, error: String(e) };
  }
  parentPort.postMessage(out);
});
`;

const inline: Background = { compress: gzipBase64, hashFile: async () => undefined, close: async () => {} };

/** Starts the thread; `compress` then returns promises, resolved in any order. */
export function startBackground(): Background {
  let worker: Worker;
  try {
    worker = new Worker(WORKER_CODE, { eval: true });
  } catch {
    return inline;
  }
  // alive while work is pending (an awaited promise alone would let the process exit), idle otherwise
  worker.unref();
  const pending = new Map<number, { resolve: (s: string | undefined) => void; reject: (e: Error) => void }>();
  let next = 0;
  let failed: Error | undefined;
  const fail = (e: Error) => {
    failed = e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
    worker.unref();
  };
  worker.on("message", (m: { id: number; text?: string; error?: string }) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (pending.size === 0) worker.unref();
    if (m.error === undefined) p.resolve(m.text);
    else p.reject(new Error(`internal: background worker: ${m.error}`));
  });
  worker.on("error", (e) => fail(e instanceof Error ? e : new Error(String(e))));
  worker.on("exit", (code) => { if (pending.size) fail(new Error(`internal: background worker exited (${code}) with work pending`)); });
  const send = (message: { json: string } | { file: string }) => {
    const id = next++;
    return new Promise<string | undefined>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...message });
    });
  };
  return {
    compress: (json) => (failed ? gzipBase64(json) : (send({ json }) as Promise<string>)),
    // a file the worker cannot hash is read by the caller, which reports it as any read does
    hashFile: (file) => (failed ? Promise.resolve(undefined) : send({ file }).catch(() => undefined)),
    close: async () => {
      await worker.terminate();
    },
  };
}
