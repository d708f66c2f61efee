import { readFileSync } from "node:fs";
import { readBytes } from "../../golden/files.js";
import { resolve } from "node:path";
import type { LabelBook } from "../../calibration/labels.js";
import { packageRoot, type ResolvedConfig, type RubricsSource } from "../../golden/config.js";
import type { GoldenSet, VariantData } from "../../golden/dataset.js";
import { displayPath } from "../../golden/errors.js";
import { sha256 } from "../../golden/hash.js";
import type { Judgment } from "../../golden/schema/items.js";
import type { Judge } from "../../judge/judges/judge.js";
import type { Rubric } from "../../judge/rubric/rubric.js";
import type { RubricUsage } from "../../judge/schedule/run.js";
import type { JudgeSettings } from "../../judge/judges/settings.js";
import type { RubricFigures } from "../../judge/summary/summary.js";
import { costTotals } from "../../judge/schedule/cost.js";
import type { VariantDiagnostics } from "../../retrieval/diagnostics/diagnose.js";
import { kindOf } from "../../retrieval/diagnostics/kinds.js";
import { formatMissedValue, type FloorMiss } from "../../retrieval/floors.js";
import type { RetrievalScore } from "../../retrieval/score.js";
import { relPath } from "../folder.js";
import { isClaimUnit } from "../../judge/items/claims.js";
import { unsupportedClaims } from "../claims.js";
import { REPORT_SCHEMA, ReportJson, type FloorJson, type RubricJson, type SearchOrAnswerJson } from "../schema.js";
import { failuresJson, missesJson, poolJson, retrievalJson } from "./retrieval.js";

/** The package version, for report.json and `ragjudge --version`. */
export function ragjudgeVersion(): string {
  try {
    return (JSON.parse(readFileSync(resolve(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
}

/**
 * A file as report.json names it: path relative to the config's folder, and
 * its SHA-256 (from `known`, hashed earlier off the main thread, or read now).
 */
export function fileHash(root: string, file: string, known?: ReadonlyMap<string, string>): { path: string; sha256: string } {
  return { path: relPath(root, file), sha256: known?.get(file) ?? sha256(readBytes(file)) };
}

/** Everything a run computed, in memory, before any file is written. */
export interface RunFindings {
  resolved: ResolvedConfig;
  name: string;
  folder: string;
  time: Date;
  durationMs: number;
  settings: JudgeSettings;
  backend: Judge;
  golden: GoldenSet;
  variants: VariantData[];
  rubrics: Rubric[];
  judgments: Judgment[];
  usage: ReadonlyMap<string, RubricUsage>;
  figures: RubricFigures[];
  scores: RetrievalScore[];
  diagnostics: VariantDiagnostics[];
  ambiguityJudged: boolean;
  searchOrAnswer: SearchOrAnswerJson[];
  rubricReports: RubricJson[];
  /** Where the rubrics were read: the team's folder or the packaged defaults. */
  rubricsSource: RubricsSource;
  book: LabelBook;
  warnings: string[];
  floors: { variant: string; label: string; min: number; value: number | undefined; miss: FloorMiss | undefined }[];
  requireTrusted: boolean;
  files: string[];
  /** SHA-256 of input files by path, when hashed beforehand (src/report/background.ts); any other is read here. */
  hashes?: ReadonlyMap<string, string>;
}

/**
 * Assembles report.json from a run's findings and validates it against its
 * own schema (a failure here is a bug in ragjudge, not bad input).
 */
export function assembleReport(f: RunFindings): ReportJson {
  const { config } = f.resolved;
  const root = f.resolved.root;
  const { calls, prompt, completion, cost, note } = costTotals(f.backend, f.backend.kind === "llm" ? f.usage.values() : [], f.resolved.config.prices);
  const causes = new Map<string, number>();
  for (const fig of f.figures) for (const [c, n] of fig.errorCauses) causes.set(c, (causes.get(c) ?? 0) + n);
  const floors: FloorJson[] = f.floors.map((x) => ({ variant: x.variant, measure: x.label, min: x.min, value: x.value ?? null, passed: x.value !== undefined && !x.miss }));
  const untrusted = [...new Set(f.rubricReports.filter((r) => !r.trust.trusted).map((r) => r.rubric))];
  const failures = floors.filter((x) => !x.passed).map((x) => `floor missed: ${x.variant}: ${x.measure} = ${x.value === null ? "n/a (not computed)" : formatMissedValue({ label: x.measure, value: x.value, min: x.min })}, below its floor ${x.min}`);
  if (f.requireTrusted && untrusted.length) failures.push(`untrusted rubric${untrusted.length === 1 ? "" : "s"} under --require-trusted: ${untrusted.join(", ")}`);
  // The badge says exactly what was checked, and is never a plain pass while a rubric is untrusted and trust was not checked.
  const checked = f.requireTrusted
    ? (floors.length ? "floors and trust" : "trust (no floors configured)")
    : `${floors.length ? "floors only" : "no floors configured"}; trust not required`;
  const badge = failures.length ? "fail" : f.requireTrusted || untrusted.length === 0 ? "pass" : "partial";
  const s = f.settings;
  const report: ReportJson = {
    schema: REPORT_SCHEMA,
    name: f.name,
    folder: f.folder,
    time: f.time.toISOString(),
    ragjudgeVersion: ragjudgeVersion(),
    durationMs: f.durationMs,
    config: {
      file: displayPath(f.resolved.file),
      shippedExample: f.resolved.isShippedExample,
      k: [...config.k],
      mainK: Math.max(...config.k),
      poolDepth: config.poolDepth,
      requireCitations: config.requireCitations,
    },
    inputs: {
      config: fileHash(root, f.resolved.file, f.hashes),
      golden: fileHash(root, f.golden.file, f.hashes),
      variants: f.variants.map((v) => ({ name: v.name, output: fileHash(root, v.outputFile, f.hashes), chunks: v.chunksFile === undefined ? null : fileHash(root, v.chunksFile, f.hashes) })),
      rubrics: f.rubrics.map((r) => ({ name: r.name, file: fileHash(root, r.file, f.hashes) })),
      rubricsSource: { dir: displayPath(f.rubricsSource.dir), packaged: f.rubricsSource.packaged },
      labels: { dir: relPath(root, f.book.dir), hash: f.book.hash, files: f.book.files.map((x) => ({ name: x.name, sha256: x.sha256, labels: x.labels })) },
    },
    judge: {
      kind: s.kind,
      label: f.backend.label,
      model: s.kind === "openai" ? s.model : null,
      baseUrl: s.kind === "openai" ? s.baseURL : null,
    },
    questions: f.golden.questions.map((q) => ({ id: q.id, kind: kindOf(q), tags: [...q.tags], answerable: q.answerable, split: q.split ?? null })),
    warnings: [...f.warnings],
    variants: f.variants.map((v, i) => ({
      name: v.name,
      contextK: v.contextK,
      searchOrAnswer: f.searchOrAnswer[i]!,
      retrieval: retrievalJson(f.scores[i]!, config.k),
      pool: poolJson(f.diagnostics[i]!),
      failures: failuresJson(f.diagnostics[i]!, f.ambiguityJudged),
      misses: missesJson(f.diagnostics[i]!),
    })),
    rubrics: f.rubricReports,
    ...(f.judgments.some((j) => isClaimUnit(j.unit)) ? { unsupportedClaims: unsupportedClaims(f.judgments, f.variants, f.golden.questions.map((q) => q.id)) } : {}),
    judgeTotals: {
      // Answer verdicts derived from claims are not judgments made: counted through their claims.
      judgments: f.judgments.filter((j) => !j.derived).length,
      errors: f.judgments.filter((j) => j.verdict === "error" && !j.derived).length,
      cached: f.judgments.filter((j) => j.cached && !j.derived).length,
      rule: f.judgments.filter((j) => j.judge === "rule").length,
      calls,
      promptTokens: prompt,
      completionTokens: completion,
      cost,
      costNote: note,
      errorCauses: [...causes].sort((a, b) => b[1] - a[1]).slice(0, 5),
    },
    gate: { requireTrusted: f.requireTrusted, floors, untrusted, failures, checked, badge },
    files: [...f.files],
  };
  return ReportJson.parse(report);
}
