import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findNodeAtLocation, parse as parseJsonc, parseTree, type Node, type ParseError } from "jsonc-parser";
import { displayPath, formatPath, InputError, InputErrors, locatedProblems } from "./errors.js";
import { readText } from "./files.js";
import { describeJsonError, lineColumnAt, tooDeep } from "./json-syntax.js";
import { MAX_DOCUMENT_BYTES, MAX_DOCUMENT_DEPTH } from "./limits.js";
import type { ReadPath } from "./paths.js";
import { RagjudgeConfig, type VariantConfig } from "./schema/config.js";

/** The config file name looked up in the working directory. */
export const CONFIG_FILE = "ragjudge.config.json";

/** A loaded config with every path made absolute, and where it came from. */
export interface ResolvedConfig {
  config: RagjudgeConfig;
  /** The config file read. */
  file: string;
  /** Folder that relative paths in the config are resolved against. */
  root: string;
  /** True when the config is the shipped example's own (`--example`, or this repository's root config). */
  isShippedExample: boolean;
  /** Resolves a path written in the config. */
  path(p: string): string;
  /**
   * Resolves a folder ragjudge writes to (`cacheDir`, `evaluationsDir`):
   * like {@link path}, except for the shipped example, whose outputs go to
   * the working directory so a run never writes into the installed package.
   */
  outPath(p: string): string;
  /** Top-level fields the config file itself sets (the others are defaults). */
  given: ReadonlySet<string>;
  /** 1-based line of a field in the config file (`["variants", 0, "chunks"]`), when it is there. */
  lineOf(path: readonly (string | number)[]): number | undefined;
}

/** The package's own folder (two levels above `src/golden` or `dist/golden`). */
export function packageRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
}

/** The package's own labels folder (package.json `files`), where the shipped example's labels are: never written from outside the package. */
export function packageLabelsDir(): string {
  return resolve(packageRoot(), "labels");
}

const realOrSelf = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/**
 * True when `dir` (resolved against `cwd`) is the package's own labels folder
 * once links are followed (by its own path, a symlink, `..`), named from
 * outside the package: a folder ragjudge never writes. From the package's
 * own folder (this repository, where the example's authors keep its labels)
 * it is the project's own folder, and false.
 *
 * @example
 * isPackageLabels("node_modules/ragjudge/labels") // true
 */
export function isPackageLabels(dir: string, cwd = process.cwd()): boolean {
  return !inPackage(cwd) && realOrSelf(resolve(cwd, dir)) === realOrSelf(packageLabelsDir());
}

/** Whether `cwd` is the package's own folder once links are followed (this repository, where the example's labels are the project's). */
export function inPackage(cwd = process.cwd()): boolean {
  return realOrSelf(cwd) === realOrSelf(packageRoot());
}

/** The shipped example's judge panel config, beside its config. */
export const EXAMPLE_PANEL_CONFIG = "ragjudge.panel.config.json";

/** The shipped example's config, which `--example` selects. */
export function exampleConfigPath(): string {
  return resolve(packageRoot(), CONFIG_FILE);
}

/** The rubrics that ship with ragjudge (the package's `rubrics/`). */
export function packagedRubricsDir(): string {
  return resolve(packageRoot(), "rubrics");
}

/**
 * No `--config` was given and the working directory has no
 * ragjudge.config.json. Never a silent fallback to the example: the message
 * names both ways on. The CLI prints it as one line and exits 2.
 */
export class ConfigNotFoundError extends Error {
  override name = "ConfigNotFoundError";
  /**
   * @param above a config in a folder above `cwd` (the project this folder is inside), when there is one.
   * @param without how the command runs without a config (`retrieval` and `validate` take the files themselves), said when there is no project above.
   */
  constructor(
    readonly cwd: string,
    readonly above?: string,
    without?: string,
  ) {
    super(above === undefined
      ? `no ${CONFIG_FILE} in ${cwd} and no --config: run \`ragjudge init\` to start one here, ${without ? `add --example to run the shipped example, or ${without}` : "or add --example to run the shipped example"}`
      : `no ${CONFIG_FILE} in ${cwd}, but this folder is inside the project of ${above}: run ragjudge from ${dirname(above)}, or pass --config ${relative(cwd, above)} (\`ragjudge init\` here would start a second project inside it)`);
  }
}

/**
 * {@link loadConfig} for a command that also runs on files named by flags:
 * when there is no config to find, the message says that way too.
 */
export function loadConfigOr(file: string | undefined, without: string): ResolvedConfig {
  try {
    return loadConfig(file);
  } catch (e) {
    if (e instanceof ConfigNotFoundError && e.above === undefined) throw new ConfigNotFoundError(e.cwd, undefined, without);
    throw e;
  }
}

/**
 * The nearest config in a folder above `cwd`, for messages only: a command
 * run from a project's subfolder is told where its project is, rather than
 * to start a new one inside it (`compare` names the config above an
 * evaluation folder the same way). Never loaded unasked (a config two
 * folders up may be another project's).
 */
export function configAbove(cwd: string): string | undefined {
  for (let dir = dirname(cwd); ; dir = dirname(dir)) {
    const file = join(dir, CONFIG_FILE);
    if (existsSync(file)) return file;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The node at `path`, else the deepest existing node on the way (for a missing field: its object). */
function nodeAt(tree: Node | undefined, path: readonly (string | number)[]): Node | undefined {
  if (!tree) return undefined;
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? tree : findNodeAtLocation(tree, path.slice(0, n) as (string | number)[]);
    if (node) return node.parent?.type === "property" ? node.parent : node;
  }
  return undefined;
}

/**
 * A key given twice in one object: JSON parsers keep the last and drop the
 * first without a word, so a block pasted below an existing one (say a
 * second `"trust"`) would silently replace it whole. One problem per repeat,
 * on its line, naming the line of the first.
 */
function duplicateKeys(tree: Node | undefined, text: string, file: string): InputError[] {
  const out: InputError[] = [];
  const walk = (node: Node, path: (string | number)[]) => {
    if (node.type === "object") {
      const seen = new Map<string, number>();
      for (const prop of node.children ?? []) {
        const [keyNode, value] = prop.children ?? [];
        if (!keyNode || typeof keyNode.value !== "string") continue;
        const key = keyNode.value;
        const line = lineColumnAt(text, keyNode.offset).line;
        const first = seen.get(key);
        if (first !== undefined) out.push(new InputError(file, line, formatPath([...path, key]), `given twice (first on line ${first}): JSON keeps only the last, so the first would be dropped without a word; keep one`));
        else seen.set(key, line);
        if (value) walk(value, [...path, key]);
      }
    } else if (node.type === "array") (node.children ?? []).forEach((c, i) => walk(c, [...path, i]));
  };
  if (tree) walk(tree, []);
  return out;
}

/**
 * Parses a config file's text: JSON with `//` and `/* *\/` comments and
 * trailing commas allowed (as tsconfig.json), so a starter config can explain
 * itself. Every problem, syntax or schema, names its line and field.
 *
 * @example
 * parseConfigText('{"golden": "q.jsonl", // the questions\n "variants": []}', "ragjudge.config.json")
 * // throws InputErrors: ragjudge.config.json:2: variants: must list at least 1 item
 */
export function parseConfigText(text: string, file: string): { config: RagjudgeConfig; given: Set<string>; lineOf: (path: readonly (string | number)[]) => number | undefined } {
  if (text.trim() === "") throw new InputError(file, undefined, undefined, "file is empty (expected a JSON document)");
  // Before parsing: the parser and the checks below recurse once per level (limits.ts).
  const deep = tooDeep(text, MAX_DOCUMENT_DEPTH);
  if (deep) throw new InputError(file, deep.line, undefined, `objects and arrays nested more than ${MAX_DOCUMENT_DEPTH} levels deep, over the limit (a config's fields nest 4 levels at most)`);
  const errors: ParseError[] = [];
  const json: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) {
    const { line, message } = describeJsonError(text, errors[0]!);
    throw new InputError(file, line, undefined, `not valid JSON: ${message}`);
  }
  const tree = parseTree(text, [], { allowTrailingComma: true });
  const repeated = duplicateKeys(tree, text, file);
  if (repeated.length) throw new InputErrors(repeated);
  const lineOf = (path: readonly (string | number)[]) => {
    const node = nodeAt(tree, path);
    return node ? lineColumnAt(text, node.offset).line : undefined;
  };
  const parsed = RagjudgeConfig.safeParse(json);
  if (!parsed.success) {
    throw new InputErrors(locatedProblems(parsed.error, json, file, lineOf, RagjudgeConfig));
  }
  const given = new Set(json !== null && typeof json === "object" && !Array.isArray(json) ? Object.keys(json) : []);
  return { config: parsed.data, given, lineOf };
}

/**
 * Finds and loads the config: `--config FILE` when given, else
 * `./ragjudge.config.json`. With neither it throws
 * {@link ConfigNotFoundError}: ragjudge never runs the shipped example
 * unasked (`--example` names it explicitly; inside this repository the root
 * config is the example's, so `npx ragjudge run` still runs it).
 */
export function loadConfig(explicit?: string, cwd = process.cwd()): ResolvedConfig {
  let file: string;
  if (explicit) file = resolve(cwd, explicit);
  else if (existsSync(resolve(cwd, CONFIG_FILE))) file = resolve(cwd, CONFIG_FILE);
  else throw new ConfigNotFoundError(cwd, configAbove(cwd));
  const { config, given, lineOf } = parseConfigText(readText(file, MAX_DOCUMENT_BYTES), file);
  const root = dirname(file);
  // The example's panel config (ragjudge.panel.config.json beside it) is the shipped example too: its labels are the project's own.
  const isShippedExample = file === exampleConfigPath() || file === resolve(packageRoot(), EXAMPLE_PANEL_CONFIG);
  const path = (p: string) => (isAbsolute(p) ? p : resolve(root, p));
  return {
    config,
    file,
    root,
    isShippedExample,
    path,
    outPath: (p: string) => (isShippedExample ? resolve(cwd, p) : path(p)),
    given,
    lineOf,
  };
}

/** Where a run's rubrics come from. */
export interface RubricsSource {
  /** The folder read (absolute). */
  dir: string;
  /** True for the rubrics shipped with ragjudge, false for a folder of the team's own. */
  packaged: boolean;
}

/**
 * The rubrics folder a config uses: its `rubricsDir` when the config sets
 * it (a folder that does not exist is an error, never a silent swap of
 * prompts); else `rubrics/` beside the config when that folder exists; else
 * the packaged default rubrics. The judge's fingerprint covers each rubric's
 * text, so edited copies get their own fingerprints and nothing mixes.
 *
 * @example
 * resolveRubrics(loadConfig()) // { dir: "/work/project/rubrics", packaged: false }
 */
export function resolveRubrics(resolved: Pick<ResolvedConfig, "config" | "file" | "path" | "given" | "lineOf" | "root">): RubricsSource {
  const packaged = packagedRubricsDir();
  const dir = resolved.path(resolved.config.rubricsDir);
  const isDir = existsSync(dir) && statSync(dir).isDirectory();
  if (resolved.given.has("rubricsDir")) {
    if (!isDir) {
      throw new InputError(resolved.file, resolved.lineOf(["rubricsDir"]), "rubricsDir", `folder ${displayPath(dir)} not found (paths are relative to the config's folder ${displayPath(resolved.root) || "."}); remove "rubricsDir" to use the packaged rubrics, or run \`ragjudge init --rubrics\` to copy them out for editing`);
    }
    return { dir, packaged: dir === packaged };
  }
  return isDir ? { dir, packaged: dir === packaged } : { dir: packaged, packaged: true };
}

/** One line saying which rubrics a run uses, for `run` and `judge`. */
export function describeRubrics(source: RubricsSource, names: readonly string[]): string {
  const where = source.packaged ? `the packaged defaults (${displayPath(source.dir)}; \`ragjudge init --rubrics\` copies them out for editing)` : displayPath(source.dir);
  return `rubrics: ${names.join(", ") || "none"} from ${where}`;
}

/**
 * The config's input files that do not exist, one problem each at the
 * config's own file, line and field, saying where the path was looked for:
 * paths are relative to the config's folder, not the working directory, the
 * usual surprise with `--config other/ragjudge.config.json`.
 */
export function missingInputs(resolved: Pick<ResolvedConfig, "config" | "file" | "root" | "path" | "lineOf">): InputError[] {
  const problems: InputError[] = [];
  const check = (p: string | undefined, field: (string | number)[]) => {
    if (p === undefined) return;
    const abs = resolved.path(p);
    if (existsSync(abs)) return;
    const rel = isAbsolute(p) ? "" : ` (paths are relative to the config's folder ${displayPath(resolved.root) || "."})`;
    // where it was looked for, unless that reads as the path given (the config's folder is the working one)
    const shown = displayPath(abs);
    problems.push(new InputError(resolved.file, resolved.lineOf(field), formatPath(field), `${JSON.stringify(p)} not found${shown === p ? "" : `: ${shown}`}${rel}`));
  };
  check(resolved.config.golden, ["golden"]);
  resolved.config.variants.forEach((v, i) => {
    check(v.output, ["variants", i, "output"]);
    check(v.chunks, ["variants", i, "chunks"]);
  });
  return problems;
}

/**
 * The config's variants, or only the one named by `--variant`; an unknown
 * name is an {@link InputError} naming the config and the variants it has.
 *
 * @example
 * chooseVariants(loadConfig(), "bm25").map((v) => v.name) // ["bm25"]
 */
export function chooseVariants(cfg: Pick<ResolvedConfig, "config" | "file">, name: string | undefined): VariantConfig[] {
  const all = cfg.config.variants;
  if (name === undefined) return all;
  const chosen = all.filter((v) => v.name === name);
  if (chosen.length === 0) throw new InputError(cfg.file, undefined, "variants", `no variant ${JSON.stringify(name)} (it has ${all.map((v) => v.name).join(", ")})`);
  return chosen;
}

/** The judge's verdict cache inside the cache folder (`config.cacheDir`, default `.ragjudge/`): SQLite in WAL mode. */
export const CACHE_FILE = "judge-cache.sqlite";

/** What a config names for reading, by kind: the `reads` of {@link configInputs}. */
export type ConfigInput = "config" | "golden" | "variants" | "labels" | "rubrics" | "cache";

/** What `judge` and the commands that write review queues read, by default: all but the judge cache, which they name as ragjudge's. */
const JUDGED_INPUTS: readonly ConfigInput[] = ["config", "golden", "variants", "labels", "rubrics"];

/**
 * The files and folders a config names for reading (itself, the golden set,
 * each variant's output and chunks, the labels and rubrics folders, the
 * judge cache with the -wal and -shm files SQLite keeps beside it), for a
 * writer that must replace none of them ({@link refuseOverInput} in
 * paths.ts). `reads` are the kinds this command reads; the message names the
 * others as read by ragjudge (`labels export --out questions.jsonl` reads no
 * golden set, but must not replace it either).
 *
 * @example
 * refuseOverInput(target, flags.out, configInputs(loadConfig()))
 * outputTarget(flags.out, configInputs(cfg, ["config", "labels"])) // labels export
 */
export function configInputs(resolved: Pick<ResolvedConfig, "config" | "file" | "path" | "outPath">, reads: readonly ConfigInput[] = JUDGED_INPUTS): ReadPath[] {
  const { config } = resolved;
  const cache = join(resolved.outPath(config.cacheDir), CACHE_FILE);
  const named: Record<ConfigInput, ReadPath[]> = {
    config: [{ path: resolved.file, what: "the config file" }],
    golden: [{ path: resolved.path(config.golden), what: "the golden set" }],
    variants: config.variants.flatMap((v) => [
      { path: resolved.path(v.output), what: `the pipeline output of variant ${v.name}` },
      ...(v.chunks === undefined ? [] : [{ path: resolved.path(v.chunks), what: `the chunks file of variant ${v.name}` }]),
    ]),
    labels: [{ path: resolved.path(config.labels), what: "the labels folder", folder: true }],
    rubrics: [{ path: resolved.path(config.rubricsDir), what: "the rubrics folder", folder: true }],
    cache: [
      { path: cache, what: "the judge cache" },
      { path: `${cache}-wal`, what: "the judge cache's write-ahead log" },
      { path: `${cache}-shm`, what: "the judge cache's shared-memory index" },
    ],
  };
  return (Object.entries(named) as [ConfigInput, ReadPath[]][]).flatMap(([kind, list]) => (reads.includes(kind) ? list : list.map((r) => ({ ...r, readBy: "ragjudge" }))));
}
