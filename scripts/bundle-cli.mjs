/**
 * The second step of `npm run build`: bundles the compiled CLI (dist/cli/main.js
 * and program.js) and its worker threads with esbuild into a handful of files
 * in dist/cli/, so a command loads a few dozen files instead of hundreds of
 * modules (`ragjudge judge`: 50 ES module files instead of 294). Node
 * resolves, reads and links each one on its own: bundled, `ragjudge --version`
 * took 0.147 s against 0.166 s and an 8,000-verdict cached rerun 0.95 s
 * against 1.16 s (see README "Performance").
 *
 * Laid out so the code keeps working unchanged:
 * - Every output stays in dist/cli/, the depth of the files it came from, so
 *   `import.meta.url`-relative paths (the package root `../..`, package.json)
 *   resolve as before.
 * - The worker scripts are entry points named as `startWorker` asks for them
 *   (`chunks-worker.js`, `output-worker.js`, `worker.js`, `baseline-worker.js`),
 *   beside the chunks that start them.
 * - The commands' lazy `import()`s stay lazy: each becomes its own chunk, so
 *   `ragjudge --version` still loads no judge, SDK or SQLite code.
 * - better-sqlite3 (a native addon) stays an ordinary import.
 * The library entry (dist/index.js) and its typings are tsc's, untouched.
 * Not minified: an 8,000-verdict cached rerun took the same time either way
 * (medians of 9 interleaved runs, 1.07 s and 1.08 s), and unminified stack
 * traces keep their function names.
 *
 * Usage: node scripts/bundle-cli.mjs [distFolder]   (default: dist)
 */
import { build } from "esbuild";
import { chmodSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Every worker thread's script, by the name `startWorker(import.meta.url, name)`
 * starts it under, and its compiled file in dist/ (test/cli/bundle.test.ts
 * checks that every `startWorker` call in src/ is here).
 */
export const WORKERS = {
  "chunks-worker": "golden/chunks-worker.js",
  "output-worker": "golden/output-worker.js",
  worker: "retrieval/trec/worker.js",
  "baseline-worker": "judge/judges/baseline-worker.js",
};

/** The first line of every bundled file: bundled CommonJS dependencies call require() for Node's built-ins; an ES module has none of its own. */
const BANNER = 'import { createRequire as __ragjudgeRequire } from "node:module"; const require = __ragjudgeRequire(import.meta.url);';

/** Bundles `dist`'s CLI in place (see the top of this file). */
export async function bundleCli(dist) {
  const cli = join(dist, "cli");
  // Bundling reads tsc's output: a second pass over its own bundle would find its chunks deleted.
  if (readFileSync(join(cli, "main.js"), "utf8").includes(BANNER)) {
    throw new Error(`${join(cli, "main.js")} is already bundled: run npm run build (tsc, then this script)`);
  }
  // Chunks of an earlier bundle would pile up (their names carry a content hash).
  for (const f of readdirSync(cli)) if (/^[\w-]+-[A-Z0-9]{8}\.js(\.map)?$/.test(f)) rmSync(join(cli, f));
  const entryPoints = { main: join(cli, "main.js"), program: join(cli, "program.js") };
  for (const [name, file] of Object.entries(WORKERS)) entryPoints[name] = join(dist, file);
  await build({
    entryPoints,
    outdir: cli,
    allowOverwrite: true,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // jsonc-parser's "main" is a UMD build whose relative requires esbuild cannot follow: take its ESM build.
    mainFields: ["module", "main"],
    external: ["better-sqlite3"],
    banner: { js: BANNER },
    legalComments: "none",
    logLevel: "warning",
  });
  // npx and a global install run the binary itself: it must stay executable.
  chmodSync(join(cli, "main.js"), 0o755);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    await bundleCli(resolve(process.argv[2] ?? "dist"));
  } catch (e) {
    // esbuild has printed its own errors; one line says what failed
    process.stderr.write(`bundle-cli: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}\n`);
    process.exitCode = 1;
  }
}
