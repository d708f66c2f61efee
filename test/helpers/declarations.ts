/**
 * The declaration files `npm run build` would write, emitted in memory from
 * the sources, so tests of the public types check what a consumer's compiler
 * reads without trusting a dist/ folder that may be stale or absent.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";
import { ROOT } from "./paths.js";

/** The emitted declarations, by absolute path under dist/, and a program over them. */
export interface Declarations {
  files: Map<string, string>;
  program: ts.Program;
  /** The consumer's compiler host: reads the emitted declarations, and the rest from disk. */
  host: ts.CompilerHost;
  /** The absolute path in dist/ of an emitted file, e.g. `at("index.d.ts")`. */
  at: (relative: string) => string;
}

/**
 * Emits the declarations of every source file reachable from `entries`
 * (paths under src/) with tsconfig.build.json's options, then compiles them
 * as a strict consumer would (skipLibCheck off). Takes a full type check of
 * the sources: about ten seconds.
 */
export function emitDeclarations(entries: readonly string[]): Declarations {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.build.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  });
  if (!parsed) throw new Error("tsconfig.build.json could not be read");
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: false, declaration: true, emitDeclarationOnly: true, declarationMap: false, sourceMap: false };
  const files = new Map<string, string>();
  const host = ts.createCompilerHost(options);
  host.writeFile = (name, text) => files.set(resolve(name), text);
  const source = ts.createProgram({ rootNames: entries.map((e) => join(ROOT, e)), options, host });
  const emitted = source.emit(undefined, undefined, undefined, true);
  if (emitted.emitSkipped || emitted.diagnostics.length > 0) {
    throw new Error(ts.formatDiagnostics(emitted.diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => "\n" }));
  }
  const dist = resolve(options.outDir!);
  const inDist = (f: string) => resolve(f).startsWith(dist + "/");
  const consumer: ts.CompilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, skipLibCheck: false, noEmit: true, types: ["node"] };
  const read = ts.createCompilerHost(consumer);
  // A stale dist/ on disk must not stand in for a file the sources no longer emit.
  read.fileExists = (f) => (inDist(f) ? files.has(resolve(f)) : ts.sys.fileExists(f));
  read.readFile = (f) => (inDist(f) ? files.get(resolve(f)) : ts.sys.readFile(f));
  const roots = entries.map((e) => join(dist, e.replace(/^src\//, "").replace(/\.ts$/, ".d.ts")));
  const program = ts.createProgram({ rootNames: roots, options: consumer, host: read });
  return { files, program, host: read, at: (relative) => join(dist, relative) };
}

/** A bare module specifier (a package or a Node built-in) and the emitted file that imports it. */
export interface BareImport {
  specifier: string;
  from: string;
}

/**
 * The module specifiers of the emitted declarations reachable from `entry`
 * by relative imports (import, export from, `import("…")` types and
 * triple-slash type references) that name a package rather than a file.
 */
export function bareImports(d: Declarations, entry: string): BareImport[] {
  const seen = new Set<string>();
  const found: BareImport[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = d.files.get(file);
    if (text === undefined) throw new Error(`${file} is imported but was not emitted`);
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const specifiers: string[] = sf.typeReferenceDirectives.map((r) => r.fileName);
    const walk = (n: ts.Node): void => {
      if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) specifiers.push(n.moduleSpecifier.text);
      if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) specifiers.push(n.argument.literal.text);
      ts.forEachChild(n, walk);
    };
    walk(sf);
    for (const s of specifiers) {
      if (s.startsWith(".")) visit(resolve(dirname(file), s.replace(/\.js$/, ".d.ts")));
      else found.push({ specifier: s, from: file });
    }
  };
  visit(entry);
  return found;
}

/** The package a bare specifier names: `zod` for `zod/v4`, `@scope/name` for `@scope/name/sub`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** Whether an installed package ships its own declarations (else they come from `@types/<name>`). */
export function shipsTypes(name: string): boolean {
  const manifest = JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")) as Record<string, unknown>;
  if (typeof manifest.types === "string" || typeof manifest.typings === "string") return true;
  return JSON.stringify(manifest.exports ?? {}).includes('"types"');
}

/**
 * The types a public declaration names that the entry does not export
 * (under any name): a consumer can see them in a signature, but cannot write
 * them down. Followed through: a type found this way is checked in turn.
 * Private class members are skipped (their types are not emitted).
 */
export function unexportedTypes(d: Declarations, entry: string): { name: string; file: string; usedBy: string }[] {
  const checker = d.program.getTypeChecker();
  const dist = dirname(d.at("index.d.ts"));
  const sf = d.program.getSourceFile(entry);
  const moduleSymbol = sf && checker.getSymbolAtLocation(sf);
  if (!moduleSymbol) throw new Error(`${entry} is not in the program`);
  const real = (s: ts.Symbol) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  const ours = (decl: ts.Declaration) => decl.getSourceFile().fileName.startsWith(dist + "/");
  const exported = new Set(checker.getExportsOfModule(moduleSymbol).map(real));
  const missing = new Map<ts.Symbol, string>();
  const queue = [...exported];
  const done = new Set<ts.Symbol>();
  while (queue.length > 0) {
    const s = queue.shift()!;
    if (done.has(s)) continue;
    done.add(s);
    const walk = (n: ts.Node): void => {
      if ((ts.isPropertyDeclaration(n) || ts.isMethodDeclaration(n)) && n.modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword)) return;
      let name: ts.Node | undefined;
      if (ts.isTypeReferenceNode(n)) name = n.typeName;
      else if (ts.isExpressionWithTypeArguments(n)) name = n.expression;
      else if (ts.isTypeQueryNode(n)) name = n.exprName;
      else if (ts.isImportTypeNode(n)) name = n.qualifier;
      if (name) {
        const last = ts.isQualifiedName(name) ? name.right : ts.isPropertyAccessExpression(name) ? name.name : name;
        const found = checker.getSymbolAtLocation(last);
        const t = found && real(found);
        if (t && !(t.flags & ts.SymbolFlags.TypeParameter) && t.declarations?.some(ours) && !exported.has(t)) {
          if (!missing.has(t)) missing.set(t, s.name);
          queue.push(t);
        }
      }
      ts.forEachChild(n, walk);
    };
    for (const decl of s.declarations ?? []) if (ours(decl)) walk(decl);
  }
  return [...missing].map(([t, usedBy]) => ({ name: t.name, file: t.declarations![0]!.getSourceFile().fileName.slice(dist.length + 1), usedBy }));
}
