import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { InputError } from "../../golden/errors.js";
import { loadJson } from "../../golden/jsonl.js";
import { REPORT_FILE } from "../folder.js";
import { ReportJson, type VariantJson } from "../schema.js";
import type { TrustRecheck } from "./trust.js";

/** An evaluation folder read back: its path and its validated report.json. */
export interface LoadedEvaluation {
  folder: string;
  report: ReportJson;
  /** Its trust decided again against the project's calibration records ({@link recheckTrust}); absent: not re-checked. */
  trust?: TrustRecheck;
}

/** One side of a comparison: an evaluation and one of its variants. */
export interface CompareSide {
  evaluation: LoadedEvaluation;
  variant: VariantJson;
}

/**
 * Reads an evaluation folder's report.json and validates it against its
 * schema; a missing folder, a folder without report.json (not an evaluation,
 * or one still being written) or a report that fails the schema is an
 * InputError naming the file and field.
 *
 * @example
 * const ev = loadEvaluation("evaluations/20261130T134501Z-example");
 */
export function loadEvaluation(folder: string): LoadedEvaluation {
  const dir = resolve(folder);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new InputError(folder, undefined, undefined, "evaluation folder not found");
  const file = join(dir, REPORT_FILE);
  if (!existsSync(file)) throw new InputError(file, undefined, undefined, "not an evaluation folder: report.json is missing (run ragjudge run)");
  return { folder: dir, report: loadJson(file, ReportJson) };
}

/**
 * Splits `FOLDER#variant` at its last `#` (a folder name may hold `#`
 * itself only when a variant follows).
 *
 * @example
 * parseSide("evaluations/x#hybrid-rerank") // { folder: "evaluations/x", variant: "hybrid-rerank" }
 * parseSide("evaluations/x")               // { folder: "evaluations/x" }
 */
export function parseSide(spec: string): { folder: string; variant?: string } {
  const i = spec.lastIndexOf("#");
  if (i <= 0 || i === spec.length - 1) return { folder: spec };
  return { folder: spec.slice(0, i), variant: spec.slice(i + 1) };
}

/** One variant of an evaluation; an unknown name is an InputError listing the variants it has. */
export function pickVariant(ev: LoadedEvaluation, name: string): VariantJson {
  const v = ev.report.variants.find((x) => x.name === name);
  if (!v) throw new InputError(join(ev.folder, REPORT_FILE), undefined, "variants", `no variant ${JSON.stringify(name)} in this evaluation (it has ${ev.report.variants.map((x) => x.name).join(", ")})`);
  return v;
}

/**
 * The variant pairs to compare between two evaluations: the named variants
 * when given; otherwise the one variant of each when both have one, else
 * every variant name the two share (the same pipelines before and after a
 * change). No pair at all is an InputError.
 */
export function variantPairs(a: LoadedEvaluation, aVariant: string | undefined, b: LoadedEvaluation, bVariant: string | undefined): [CompareSide, CompareSide][] {
  if (aVariant !== undefined || bVariant !== undefined) {
    const an = aVariant ?? (a.report.variants.length === 1 ? a.report.variants[0]!.name : bVariant!);
    const bn = bVariant ?? (b.report.variants.length === 1 ? b.report.variants[0]!.name : aVariant!);
    return [[{ evaluation: a, variant: pickVariant(a, an) }, { evaluation: b, variant: pickVariant(b, bn) }]];
  }
  if (a.report.variants.length === 1 && b.report.variants.length === 1) {
    return [[{ evaluation: a, variant: a.report.variants[0]! }, { evaluation: b, variant: b.report.variants[0]! }]];
  }
  const shared = a.report.variants.filter((v) => b.report.variants.some((w) => w.name === v.name));
  if (shared.length === 0) {
    throw new InputError(join(b.folder, REPORT_FILE), undefined, "variants", `the evaluations share no variant name (A has ${a.report.variants.map((v) => v.name).join(", ")}; B has ${b.report.variants.map((v) => v.name).join(", ")}): name them as FOLDER#variant`);
  }
  return shared.map((v) => [{ evaluation: a, variant: v }, { evaluation: b, variant: pickVariant(b, v.name) }]);
}
