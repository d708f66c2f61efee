import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { isCi } from "../helpers/chromium.js";
import { ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

/**
 * `npm run build` bundles the compiled CLI (scripts/bundle-cli.mjs). A worker
 * thread is started by file name beside the calling module, which in the
 * bundle is a chunk in dist/cli/: a worker missing from the bundle's entry
 * points would only fail when a large input starts it (and some callers fall
 * back to one thread, so it would fail silently, just slower).
 */
const SRC = join(ROOT, "src");
const CI = isCi();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

interface BundleScript {
  WORKERS: Record<string, string>;
  bundleCli: (dist: string) => Promise<void>;
}

async function bundleScript(): Promise<BundleScript> {
  return (await import(pathToFileURL(join(ROOT, "scripts", "bundle-cli.mjs")).href)) as BundleScript;
}

async function bundledWorkers(): Promise<Record<string, string>> {
  return (await bundleScript()).WORKERS;
}

describe("the CLI bundle", () => {
  it("has an entry point for every worker a module starts, at the path the module asks for", async () => {
    const started = new Map<string, string>();
    for (const file of sourceFiles(SRC)) {
      for (const m of readFileSync(file, "utf8").matchAll(/startWorker\(import\.meta\.url, "([\w-]+)"/g)) {
        started.set(m[1]!, relative(SRC, join(dirname(file), `${m[1]}.js`)).split("\\").join("/"));
      }
    }
    expect(started.size).toBeGreaterThanOrEqual(4);
    expect(await bundledWorkers()).toEqual(Object.fromEntries(started));
  });

  it("refuses to bundle its own bundle again (its chunks would be gone), naming the file and what to run", async () => {
    const dist = tempDir("ragjudge-bundle-");
    mkdirSync(join(dist, "cli"));
    const main = join(dist, "cli", "main.js");
    writeFileSync(main, '#!/usr/bin/env node\nimport { createRequire as __ragjudgeRequire } from "node:module"; const require = __ragjudgeRequire(import.meta.url);\nimport "./chunk-ABCDEFGH.js";\n');
    await expect((await bundleScript()).bundleCli(dist)).rejects.toThrow(`${main} is already bundled: run npm run build (tsc, then this script)`);
    expect(readdirSync(join(dist, "cli"))).toEqual(["main.js"]);
  });

  describe.runIf(CI)("as npm ci built it (CI only: dist/ may be stale elsewhere)", () => {
    const cli = join(ROOT, "dist", "cli");

    it("puts every worker beside the chunks that start it", async () => {
      for (const name of Object.keys(await bundledWorkers())) expect(existsSync(join(cli, `${name}.js`)), name).toBe(true);
    });

    it("leaves only files it wrote, Node's built-ins and better-sqlite3 (a native addon) to import", async () => {
      expect(readFileSync(join(cli, "main.js"), "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
      const builtins = new Set(builtinModules);
      // Every file the entry points load, statically or through import(): the chunks they need.
      const seen = new Set<string>();
      const walk = (f: string) => {
        if (seen.has(f)) return;
        seen.add(f);
        const text = readFileSync(join(cli, f), "utf8");
        for (const m of text.matchAll(/(?:^import[^"\n]*?(?:from\s*)?|\bimport\()"([^"]+)"/gm)) {
          const spec = m[1]!;
          if (spec.startsWith("./")) {
            expect(existsSync(resolve(cli, spec)), `${f} imports ${spec}`).toBe(true);
            walk(spec.slice(2));
          } else expect(spec === "better-sqlite3" || spec.startsWith("node:") || builtins.has(spec), `${f} imports ${spec}`).toBe(true);
        }
      };
      for (const entry of ["main", "program", ...Object.keys(await bundledWorkers())]) walk(`${entry}.js`);
      // the lazy commands are chunks of their own: more than a few files, far fewer than the modules bundled
      expect(seen.size).toBeGreaterThan(10);
    });
  });
});
