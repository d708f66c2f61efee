import { existsSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { CONFIG_FILE } from "../../golden/config.js";
import { displayPath, InputError, InputErrors } from "../../golden/errors.js";
import { writeFileAtomic } from "../../golden/files.js";
import { convertRows, IMPORT_FIELDS, type Converted, type ImportField } from "../../golden/import/convert.js";
import { fieldLabel } from "../../golden/import/fields.js";
import { readCsvRows, readJsonlRows } from "../../golden/import/rows.js";
import { GITIGNORE_ENTRY, gitignoreOf, ignoreCache, starterConfig } from "../../golden/starter.js";
import { shellArg } from "../../golden/project-args.js";
import { UsageError } from "../errors.js";

export interface ImportFlags {
  /** A new project's folder; or `into`, a project's config to add a variant to. */
  out?: string;
  into?: string;
  variant?: string;
  split?: string;
  emptyReferenceUnanswerable?: boolean;
  listSep?: string;
  [flag: string]: unknown;
}

/** Commander's option key of a `--x-col` flag: `--reference-contexts-col` -> `referenceContextsCol`. */
const key = (flag: string) => flag.slice(2).replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * Reads and converts the dataset file as the flags map its columns; every
 * row it cannot convert is thrown at once (InputErrors), before anything is
 * written. `outputsOnly`: only the pipeline's side (`--into`).
 */
export function convertFile(format: string, file: string, flags: ImportFlags, outputsOnly = false): Converted {
  if (format !== "ragas" && format !== "csv") throw new UsageError(`import: the format is ragas or csv, got ${JSON.stringify(format)}`);
  const problems: InputError[] = [];
  const table = format === "ragas" ? readJsonlRows(file, problems) : readCsvRows(file, problems);
  const columns: Partial<Record<ImportField, string>> = {};
  for (const [field, spec] of Object.entries(IMPORT_FIELDS) as [ImportField, { flag: string }][]) {
    const v = flags[key(spec.flag)];
    if (typeof v === "string") columns[field] = v;
  }
  const converted = convertRows(table, {
    columns,
    ...(flags.emptyReferenceUnanswerable ? { emptyReferenceUnanswerable: true } : {}),
    ...(flags.split !== undefined ? { split: flags.split } : {}),
    ...(flags.listSep !== undefined ? { listSep: flags.listSep } : {}),
    ...(outputsOnly ? { outputsOnly: true } : {}),
  });
  problems.push(...converted.problems);
  if (problems.length) throw new InputErrors(problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)));
  return converted;
}

/** The variant's name: --variant, else the file's name made one. */
export function variantOf(file: string, flags: ImportFlags): string {
  return flags.variant ?? (basename(file).replace(/\.(jsonl|json|csv|tsv)$/i, "").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, "") || "imported");
}

/** `ragjudge import`'s action (see commands/import.ts). */
export async function importAction(format: string, file: string, flags: ImportFlags): Promise<void> {
  if (flags.into !== undefined) {
    if (flags.out !== undefined) throw new UsageError("--out and --into do not combine: --out makes a new project, --into adds a variant to one");
    return (await import("./import-into.js")).importInto(format, file, flags as ImportFlags & { into: string });
  }
  if (flags.out === undefined) throw new UsageError("import needs --out DIR (a new project) or --into CONFIG (another variant of a project)");
  const outDir = flags.out;
  if (existsSync(outDir) && !statSync(outDir).isDirectory()) throw new InputError(outDir, undefined, undefined, "is a file, expected a folder for --out");
  const variant = variantOf(file, flags);
  const targets = { config: join(outDir, CONFIG_FILE), golden: join(outDir, "golden", "questions.jsonl"), output: join(outDir, "outputs", `${variant}.output.jsonl`) };
  // --variant names only the output file: it is the way on for that file alone.
  const taken = Object.entries(targets).filter(([, t]) => existsSync(t));
  // checked before anything is written, as the files are (ignoreCache adds the cache's line after them)
  gitignoreOf(outDir);
  // a project there already: its config is the way to add this file as another variant of it
  const into = (what: string) => (what === "config" ? ` (to add this file as another variant of that project: --into ${shellArg(displayPath(targets.config))} instead of --out)` : "");
  if (taken.length) throw new InputErrors(taken.map(([what, t]) => new InputError(t, undefined, undefined, `exists: import never overwrites; choose another --out${what === "output" ? " or --variant" : ""}, or move it away${into(what)}`)));
  const converted = convertFile(format, file, flags);

  const jsonl = (rows: readonly unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
  const rel = (p: string) => relative(outDir, p).split("\\").join("/");
  writeFileAtomic(targets.golden, jsonl(converted.golden));
  writeFileAtomic(targets.output, jsonl(converted.outputs));
  writeFileAtomic(targets.config, starterConfig({ name: variant, golden: rel(targets.golden), variant, output: rel(targets.output) }));
  // as init does: the judge's cache (every verdict and raw reply) is not for the project's repository
  const ignored = ignoreCache(outDir);
  const unanswerable = converted.golden.filter((q) => q.answerable === false).length;
  const mapped = Object.entries(converted.mapping).map(([f, c]) => `${fieldLabel(f)} <- ${c}`).join(", ");
  const cd = relative(process.cwd(), outDir);
  process.stdout.write([
    `import: ${displayPath(file)}: ${converted.golden.length} questions (${converted.golden.length - unanswerable} answerable, ${unanswerable} unanswerable); columns ${mapped}`,
    `  wrote ${displayPath(targets.golden)}, ${displayPath(targets.output)} (variant ${variant}, passages as text), ${displayPath(targets.config)}${ignored === "added" ? `; added ${GITIGNORE_ENTRY} (the judge's cache) to ${displayPath(join(outDir, ".gitignore"))}` : ""}`,
    "Next:",
    ...(cd && cd !== "." ? [`  cd ${shellArg(cd)}`] : []),
    "  ragjudge validate",
    "  ragjudge run",
  ].join("\n") + "\n");
}
