import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "src");

/** The modules a file loads when it is imported: its static value imports, transitively (`import type` and `import()` load nothing then). */
function staticClosure(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+"([^"]+)"|^import\s+"([^"]+)"/gms)) {
      const spec = (m[1] ?? m[2])!;
      if (spec.startsWith(".")) {
        const ts = resolve(dirname(file), spec).replace(/\.js$/, ".ts");
        if (existsSync(ts)) walk(ts);
      } else if (!spec.startsWith("node:")) packages.add(spec);
    }
  };
  walk(entry);
  return { files: [...files].map((f) => f.slice(SRC.length + 1)), packages: [...packages] };
}

describe("start-up", () => {
  // `ragjudge --version` and `ragjudge <command> --help` load only the command definitions:
  // the judge, its SDK, SQLite, schemas, HTML and calibration code load when a command runs.
  it("loads no heavy package and no pipeline stage before a command runs", () => {
    const { files, packages } = staticClosure(resolve(SRC, "cli", "main.ts"));
    expect(packages).toEqual(["commander"]);
    const stages = files.filter((f) => /^(judge|calibration|report|review)\//.test(f) || f.startsWith("golden/schema/"));
    expect(stages).toEqual([]);
    // the command definitions, their shared number bounds (golden/bounds.ts), the request options judge and run share, and the error printer
    expect(files.length).toBeLessThanOrEqual(31);
  });
});
