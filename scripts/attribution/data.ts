/**
 * Reading `attribution-dev-full.jsonl`, the AttributionBench development
 * split (OSU-NLP-Group/AttributionBench, 1,198 claims) with human labels of
 * whether each claim is supported by the references it cites
 * (`attribution-dev.jsonl` is a 400-claim sample of it, in the same format).
 *
 * It is third-party data: it lives in `../shared/data/` beside the checkout,
 * is read from there, and is never copied into the repository. A user's
 * clone has no such folder; the scripts say so in one line and stop.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { packageRoot } from "../../src/golden/config.js";
import { InputError } from "../../src/golden/errors.js";
import { loadJsonl } from "../../src/golden/jsonl.js";

/** Where the development data sits relative to the checkout. */
export const DEFAULT_DATA_FILE = resolve(packageRoot(), "..", "shared", "data", "attribution-dev-full.jsonl");

/** The AttributionBench label strings and what they mean for ragjudge ("yes" = supported). */
export const LABELS = { attributable: "yes", "not attributable": "no" } as const;

/**
 * One AttributionBench row. Only the fields the conversion uses are required;
 * others are allowed, so a later release with extra columns still loads.
 */
export const AttributionRow = z.object({
  id: z.string().min(1).refine((s) => s.trim() === s, "must not start or end with white space"),
  question: z.string(),
  claim: z.string().min(1, "must not be empty"),
  response: z.string().optional(),
  references: z.array(z.string()).min(1, "needs at least one reference"),
  attribution_label: z.enum(["attributable", "not attributable"]),
  src_dataset: z.string().optional(),
});
export type AttributionRow = z.infer<typeof AttributionRow>;

/**
 * Loads the rows; a malformed line is an InputError naming file, line and
 * field, and a repeated id is one too (ids become ragjudge question ids).
 */
export function loadAttributionRows(file: string): AttributionRow[] {
  const rows = loadJsonl(file, AttributionRow);
  const seen = new Map<string, number>();
  for (const { line, value } of rows) {
    const first = seen.get(value.id);
    if (first !== undefined) {
      throw new InputError(file, line, "id", `${JSON.stringify(value.id)} repeats line ${first}`);
    }
    seen.set(value.id, line);
  }
  return rows.map((r) => r.value);
}

/** The data file if it exists, else `undefined` (a user's clone has none). */
export function findDataFile(file = process.env.RAGJUDGE_ATTRIBUTION_DATA ?? DEFAULT_DATA_FILE): string | undefined {
  return existsSync(file) ? file : undefined;
}

/**
 * The data file a script runs on: `--data FILE` (which must exist: an
 * InputError otherwise), else the default copy when there is one. Without
 * any it prints the one "skipped" line, prefixed with `script`, and returns
 * `undefined`, so the script exits 0 on a user's clone.
 *
 * @example
 * const file = dataFileOrSkip(flagValue(args, "--data"), "attribution:baseline");
 * if (!file) return 0;
 */
export function dataFileOrSkip(explicit: string | undefined, script: string): string | undefined {
  if (explicit !== undefined && !existsSync(explicit)) throw new InputError(explicit, undefined, undefined, "file not found");
  const file = findDataFile(explicit);
  if (!file) console.log(`${script}: skipped: ../shared/data/attribution-dev-full.jsonl is absent (third-party data, not shipped with ragjudge)`);
  return file;
}

/** The value of a `--name VALUE` flag of a script, or `undefined`; a flag without a value is an InputError. */
export function flagValue(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith("--")) throw new InputError("(command line)", undefined, name, "needs a value");
  return v;
}
