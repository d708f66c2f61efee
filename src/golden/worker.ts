import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

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
