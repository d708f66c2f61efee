import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { InputError, InputErrors } from "./errors.js";

/**
 * Starts a worker thread on the script `name` beside the calling module
 * (`from`: its `import.meta.url`): `name.js` in the compiled build; when the
 * caller runs from source (tests, tsx), `name.ts` through tsx's loader,
 * registered by a one-line bootstrap (a worker does not inherit it). Throws
 * when the worker cannot be created (for example, tsx missing from source).
 *
 * @example
 * const w = startWorker(import.meta.url, "worker", { task });
 */
export function startWorker(from: string, name: string, workerData?: unknown): Worker {
  if (!from.endsWith(".ts")) return new Worker(new URL(`./${name}.js`, from), { workerData });
  // tsx's ESM API ("tsx/esm/api" for import), found from its package folder
  const tsx = pathToFileURL(join(dirname(createRequire(from).resolve("tsx/package.json")), "dist", "esm", "api", "index.mjs")).href;
  const script = new URL(`./${name}.ts`, from).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(script)}); });`, { eval: true, workerData });
}

/**
 * An error as a worker posts it (a class does not cross threads): input
 * problems keep their location and whether they came as one
 * {@link InputError} or as {@link InputErrors}; anything else its message
 * and stack.
 */
export type PostedError =
  | { kind: "input"; many: boolean; problems: { file: string; line: number | undefined; field: string | undefined; detail: string }[] }
  | { kind: "internal"; name: string; message: string; stack?: string | undefined };

/** Turns an error into plain data a worker can post ({@link rebuiltError} turns it back). */
export function postedError(e: unknown): PostedError {
  if (e instanceof InputErrors || e instanceof InputError) {
    const problems = e instanceof InputErrors ? e.problems : [e];
    return { kind: "input", many: e instanceof InputErrors, problems: problems.map((p) => ({ file: p.file, line: p.line, field: p.field, detail: p.detail })) };
  }
  const err = e as Error;
  return { kind: "internal", name: err?.name ?? "Error", message: err?.message ?? String(e), stack: err?.stack };
}

/** The error a worker posted, as this thread throws it: the same input problems, or an internal error naming the worker thread. */
export function rebuiltError(e: PostedError): Error {
  if (e.kind === "input") {
    const problems = e.problems.map((p) => new InputError(p.file, p.line, p.field, p.detail));
    return e.many ? new InputErrors(problems) : problems[0]!;
  }
  const err = new Error(`worker thread: ${e.message}`);
  if (e.stack) err.stack = e.stack;
  return err;
}

/**
 * The error a worker posted, thrown here as the thread that called the
 * worker would have thrown it itself: input problems as {@link rebuiltError}
 * gives them, anything else an Error of the same name and message (the
 * worker's stack kept), for a caller whose failures must not depend on the
 * thread that did the work (the baseline judge).
 */
export function sameError(e: PostedError): Error {
  if (e.kind === "input") return rebuiltError(e);
  const err = new Error(e.message);
  err.name = e.name;
  if (e.stack) err.stack = e.stack;
  return err;
}
