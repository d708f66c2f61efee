import { Worker } from "node:worker_threads";
import { gzipBase64, type Compress } from "./sections/explorer.js";

/**
 * The explorer's evidence compressed on a second thread while this one
 * writes the rest of the evaluation folder. At 20,000 items the blocks are
 * about 160 MB of JSON and gzip is seconds of work; zlib's own asynchronous
 * calls would not help here, since they need this thread's event loop
 * between steps and the folder is written synchronously. The worker runs
 * gzipSync with zlib's defaults, so the bytes are those of
 * {@link gzipBase64}. Without worker threads (or when one fails to start)
 * the blocks are compressed here, as before.
 */
export interface GzipWorker {
  compress: Compress;
  /** Stops the thread (after every promise has settled, or to give up). */
  close(): Promise<void>;
}

/** Plain CommonJS, run with `eval`: no module file to resolve from the source tree or the build. */
const WORKER_CODE = `
const { parentPort } = require("node:worker_threads");
const { gzipSync } = require("node:zlib");
parentPort.on("message", (m) => {
  let out;
  try { out = { id: m.id, text: gzipSync(m.json).toString("base64") }; } catch (e) { out = { id: m.id, error: String(e) }; }
  parentPort.postMessage(out);
});
`;

/** Starts the thread; `compress` then returns promises, resolved in any order. */
export function startGzipWorker(): GzipWorker {
  let worker: Worker;
  try {
    worker = new Worker(WORKER_CODE, { eval: true });
  } catch {
    return { compress: gzipBase64, close: async () => {} };
  }
  // alive while a block is pending (an awaited promise alone would let the process exit), idle otherwise
  worker.unref();
  const pending = new Map<number, { resolve: (s: string) => void; reject: (e: Error) => void }>();
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
    if (m.text !== undefined) p.resolve(m.text);
    else p.reject(new Error(`internal: gzip worker: ${m.error}`));
  });
  worker.on("error", (e) => fail(e instanceof Error ? e : new Error(String(e))));
  worker.on("exit", (code) => { if (pending.size) fail(new Error(`internal: gzip worker exited (${code}) with blocks pending`)); });
  return {
    compress: (json) => {
      if (failed) return gzipBase64(json);
      const id = next++;
      return new Promise<string>((resolve, reject) => {
        if (pending.size === 0) worker.ref();
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, json });
      });
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
