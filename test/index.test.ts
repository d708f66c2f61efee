/**
 * The package's public surface (src/index.ts, and every entry package.json
 * exports) as a team's own code meets it: the declarations its compiler
 * reads, and the names it can import.
 */
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import * as ragjudge from "../src/index.js";
import { bareImports, emitDeclarations, packageOf, shipsTypes, unexportedTypes, type Declarations } from "./helpers/declarations.js";
import { ROOT } from "./helpers/paths.js";

interface Manifest {
  dependencies: Record<string, string>;
  exports: Record<string, { types: string; import: string }>;
}
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Manifest;

/** Each entry package.json exports, as its source file under src/ and its declarations under dist/. */
const ENTRIES = Object.entries(manifest.exports).map(([subpath, e]) => ({
  subpath,
  source: e.types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts"),
  types: e.types.replace(/^\.\//, ""),
}));

describe("the public declarations", () => {
  let d: Declarations;
  beforeAll(() => {
    d = emitDeclarations(ENTRIES.map((e) => e.source));
  }, 180_000);

  it("import only packages whose types a consumer's install has: its dependencies (Node's built-ins come with @types/node, as for any Node library)", () => {
    const builtins = new Set(builtinModules);
    const wrong: string[] = [];
    for (const entry of ENTRIES) {
      for (const { specifier, from } of bareImports(d, join(ROOT, entry.types))) {
        if (specifier.startsWith("node:") || builtins.has(specifier)) continue;
        const name = packageOf(specifier);
        const where = `${relative(ROOT, from)} imports "${specifier}"`;
        if (!(name in manifest.dependencies)) wrong.push(`${where}, which is not a dependency`);
        else if (!shipsTypes(name) && !(`@types/${name}` in manifest.dependencies)) wrong.push(`${where}, whose types (@types/${name}) are not a dependency`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("compile for a strict consumer (skipLibCheck off)", () => {
    const errors = d.program.getSemanticDiagnostics().concat(d.program.getSyntacticDiagnostics());
    expect(errors.map((e) => `${e.file ? relative(ROOT, e.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(e.messageText, " ")}`)).toEqual([]);
  });

  it("name no type in a public signature that the entry does not export, so a caller can write down every type it is handed", () => {
    const missing = ENTRIES.flatMap((entry) => unexportedTypes(d, join(ROOT, entry.types)).map((t) => `${entry.subpath}: ${t.name} (${t.file}, named by ${t.usedBy})`));
    expect(missing).toEqual([]);
  });
});

describe("the package root's names", () => {
  it("include the errors its functions throw, so a caller can tell them apart", () => {
    expect(() => ragjudge.parseMeasures(["R@10", "nope"], [10])).toThrow(ragjudge.UnknownMeasureError);
    expect(new ragjudge.UnknownMeasureError("nope")).toBeInstanceOf(ragjudge.MeasureSpecError);
  });

  it("are ragjudge's own: none is one of Node's functions passed through (which would make it part of ragjudge's API)", async () => {
    const node = new Set<unknown>();
    for (const m of ["node:fs", "node:fs/promises", "node:path", "node:os", "node:url", "node:util", "node:crypto", "node:child_process", "node:worker_threads", "node:stream"]) {
      for (const v of Object.values(await import(m) as Record<string, unknown>)) if (typeof v === "function") node.add(v);
    }
    expect(Object.entries(ragjudge).filter(([, v]) => node.has(v)).map(([k]) => k)).toEqual([]);
  });
});
