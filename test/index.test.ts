/**
 * The package's public surface (src/index.ts, and every entry package.json
 * exports) as a team's own code meets it: the declarations its compiler
 * reads, and the names it can import.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import * as ragjudge from "../src/index.js";
import { isCi } from "./helpers/chromium.js";
import { bareImports, emitDeclarations, packageOf, shipsTypes, unexportedTypes, type Declarations } from "./helpers/declarations.js";
import { ROOT } from "./helpers/paths.js";

interface Manifest {
  name: string;
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

  it("resolve for TypeScript by each entry's name (ragjudge, ragjudge/retrieval) to that entry's declarations", () => {
    for (const entry of ENTRIES) {
      const name = manifest.name + entry.subpath.slice(1);
      const r = ts.resolveModuleName(name, join(ROOT, "test", "consumer.ts"), d.program.getCompilerOptions(), d.host);
      expect(r.resolvedModule?.resolvedFileName, name).toBe(join(ROOT, entry.types));
    }
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

/**
 * The relative modules `file` loads when it runs, followed through: every
 * import and export from that is not `import type` / `export type` (under
 * verbatimModuleSyntax `import { type X }` still loads its module), and
 * dynamic imports.
 */
function loadedModules(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const walk = (n: ts.Node): void => {
    let spec: ts.Expression | undefined;
    if (ts.isImportDeclaration(n) && !n.importClause?.isTypeOnly) spec = n.moduleSpecifier;
    else if (ts.isExportDeclaration(n) && !n.isTypeOnly) spec = n.moduleSpecifier;
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) spec = n.arguments[0];
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith(".")) loadedModules(resolve(dirname(file), spec.text.replace(/\.js$/, ".ts")), seen);
    ts.forEachChild(n, walk);
  };
  walk(sf);
  return seen;
}

describe("ragjudge/retrieval", () => {
  const entry = manifest.exports["./retrieval"]!;
  const source = join(ROOT, entry.import.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));

  it("is exported with its declarations beside its code", () => {
    expect(entry.types).toBe(entry.import.replace(/\.js$/, ".d.ts"));
  });

  it("exposes scoreRetrieval and the rest of retrieval, each name the root's own (summariseValues, not the judge's summarise)", async () => {
    const retrieval = (await import(source)) as Record<string, unknown>;
    expect(typeof retrieval.scoreRetrieval).toBe("function");
    expect(Object.keys(retrieval)).toContain("overallValue");
    const root = ragjudge as Record<string, unknown>;
    expect(Object.keys(retrieval).filter((k) => root[k] !== retrieval[k])).toEqual([]);
  });

  it("loads none of the judge, calibration, review or reports, which is why it imports faster than the root", () => {
    const src = join(ROOT, "src");
    const heavy = [...loadedModules(source)].map((f) => relative(src, f)).filter((f) => /^(judge|calibration|review|report|cli)\//.test(f));
    expect(heavy).toEqual([]);
  });

  it.runIf(isCi())("resolves by name from the build (CI only: dist/ is built by npm ci)", () => {
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", 'const m = await import("ragjudge/retrieval"); process.stdout.write(typeof m.scoreRetrieval)'], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("function");
  });
});
