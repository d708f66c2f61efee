import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { InputError, InputErrors } from "../golden/errors.js";
import { writeOutputFile } from "./output.js";
import { readBytes } from "../golden/files.js";
import { sha256 } from "../golden/hash.js";
import { loadJson } from "../golden/jsonl.js";
import { Id, Sha256, Time } from "../golden/schema/common.js";
import { TrustThresholds } from "../golden/schema/config.js";

/**
 * The calibration record: what `ragjudge calibrate` measured for one rubric
 * under one exact judge (fingerprint), written next to the labels
 * (`<labels>/calibration/<rubric>.<fingerprint prefix>.json`) so a team
 * commits it with them. The trust gate reads only these.
 */

const Num = z.number().finite().nullable();
const IntervalSchema = z.strictObject({ lo: z.number().finite(), hi: z.number().finite() }).nullable();
const Count = z.number().int().min(0);

/** The gate's figures as stored (nulls carry their reasons). */
export const RecordFigures = z.strictObject({
  n: Count,
  nEffective: z.number().min(0),
  weighted: z.boolean(),
  labelYes: Count,
  labelNo: Count,
  judgeErrors: Count,
  /** Drawn held-out items with no counting label, counted as disagreements in the confusion and kappa (not in n); 0 in older records. */
  skipped: Count.default(0),
  confusion: z.strictObject({ tp: z.number().min(0), fn: z.number().min(0), fp: z.number().min(0), tn: z.number().min(0) }),
  agreement: Num,
  tpr: Num,
  tnr: Num,
  kappa: Num,
  kappaSe: Num,
  kappaSe0: Num,
  kappaCi: IntervalSchema,
  kappaZ: Num,
  kappaP: Num,
  /** Donner & Eliasziw's goodness-of-fit interval at `level` (absent in older records); the gate's interval is its union with the asymptotic one. */
  kappaGofCi: IntervalSchema.optional(),
  /**
   * Present when kappa's interval is not informative: the labels or the
   * judge's verdicts are all one answer (kappa 0 by convention, zero-width
   * interval by formula). Absent in records written before it was added;
   * the gate recomputes it from `confusion` either way.
   */
  kappaCiUninformative: z.strictObject({
    cause: z.enum(["labels-constant", "judge-constant", "both-constant"]),
    label: z.enum(["yes", "no"]).optional(),
    judge: z.enum(["yes", "no"]).optional(),
    reason: z.string(),
  }).optional(),
  bootstrap: z.strictObject({
    ci: IntervalSchema,
    reps: Count,
    seed: z.number().int(),
    level: z.number().gt(0).lt(1),
    undefinedReps: Count,
    reason: z.string().optional(),
  }),
  level: z.number().gt(0).lt(1),
  prevalenceIndex: Num,
  biasIndex: Num,
  pabak: Num,
  ac1: Num,
  /** Why each null figure is null. */
  reasons: z.record(z.string(), z.string()).default({}),
});
/** The stored figures (see {@link RecordFigures}). */
export type RecordFigures = z.infer<typeof RecordFigures>;

/** Labels left out of the gate's figures, by why. */
export const RecordExcluded = z.strictObject({
  /** Labels from disagreement, balanced or manual frames. */
  nonRandom: Count,
  /** Random-frame labels on items no recorded draw drew (and not attested). */
  notDrawn: Count.default(0),
  /** Labels drawn only by draws whose frame lacks items the judge judged. */
  drawNotCovering: Count.default(0),
  /** Labels drawn only by draws labelled below `minCoverage`. */
  drawIncomplete: Count.default(0),
  /** Random labels outside the held-out split (no split counts as dev). */
  notHeldout: Count,
  /** Items whose annotators tie with no adjudication label. */
  ties: Count,
});

/** Whose labels the gate's figures rest on (items by provenance; see `labelBasis`). */
export const RecordBasis = z.strictObject({
  human: Count,
  author: Count,
  import: Count,
  mixed: Count,
  sources: z.array(z.string()),
});

/** The schema tag written now; `ragjudge.calibration/1` records (before draws and per-rubric label hashes) are read but always stale. */
export const RECORD_SCHEMA = "ragjudge.calibration/2";

/**
 * One calibration record (`<labels>/calibration/<rubric>.<fingerprint prefix>[.<served prefix>].json`):
 * the exact judge and the model it was served as, the labels, draws and
 * verdicts measured (by content hash), the gate's figures, whose labels they
 * rest on, and the gate's verdict then. The gate never takes that verdict on
 * trust: it recomputes from today's verdicts and labels, and a record whose
 * hashes or served model differ from today's is stale.
 */
export const CalibrationRecord = z.strictObject({
  schema: z.enum(["ragjudge.calibration/1", RECORD_SCHEMA]),
  rubric: Id,
  fingerprint: z.string().min(1),
  judge: z.enum(["llm", "baseline"]),
  models: z.array(z.string()),
  servedModels: z.array(z.string()),
  time: Time,
  thresholds: TrustThresholds,
  heldoutOnly: z.boolean(),
  /** The held-out split the gate used (absent in older records). */
  heldout: z.string().min(1).optional(),
  labels: z.strictObject({
    /** SHA-256 over every labels file's name and content hash. */
    hash: Sha256,
    /** SHA-256 over every label of this rubric (its whole history): what staleness is checked on, so labelling another rubric leaves this record valid. */
    rubricHash: Sha256.optional(),
    files: z.array(z.strictObject({ name: z.string(), sha256: Sha256, labels: Count })),
  }),
  /**
   * The wording hash of the rubric's question when the record was made (judge/rubric/wording.ts; absent in
   * records written before it was recorded, or when the rubric file did not read): a record of another wording
   * is stale, since labels that record no wording count for whatever the question asks today.
   */
  wordingHash: Sha256.optional(),
  /** The draws whose labels counted (ids are hashes of their content) and the hash over them. */
  draws: z.strictObject({ hash: Sha256, ids: z.array(z.string()) }).optional(),
  /** The judgments file, the SHA-256 of the verdicts measured (item, input hash, verdict) and their count. */
  judgments: z.strictObject({ file: z.string(), sha256: Sha256, items: Count }),
  figures: RecordFigures,
  /** Whose labels these are (absent in records written before it was added). */
  basis: RecordBasis.optional(),
  excluded: RecordExcluded,
  /** The gate's verdict under `thresholds` when the record was written. */
  gate: z.strictObject({ trusted: z.boolean(), reason: z.string().optional(), message: z.string() }),
});
/** A calibration record as stored (see {@link CalibrationRecord}). */
export type CalibrationRecord = z.infer<typeof CalibrationRecord>;

/** A record as loaded, with its file. */
export interface LoadedRecord {
  file: string;
  record: CalibrationRecord;
}

/**
 * The key a record is known by in maps of written records (rubric and
 * fingerprint): what writers of records fill and the renderers read.
 *
 * @example
 * written.set(recordKey(r.record), writeRecordIfChanged(labelsDir, r.record));
 */
export function recordKey(record: Pick<CalibrationRecord, "rubric" | "fingerprint"> & { servedModels?: readonly string[] }): string {
  return `${record.rubric}\u0000${record.fingerprint}\u0000${record.servedModels?.[0] ?? ""}`;
}

/** The folder of calibration records inside a labels folder. */
export function recordsDir(labelsDir: string): string {
  return join(labelsDir, "calibration");
}

/** First 12 hex digits of a fingerprint (of its SHA-256 when it is not hex itself), for file names. */
export function fingerprintPrefix(fingerprint: string): string {
  return /^[0-9a-f]{12}/.test(fingerprint) ? fingerprint.slice(0, 12) : sha256(fingerprint).slice(0, 12);
}

/**
 * A record's file name: `<rubric>.<first 12 hex of fingerprint>.json`, with
 * `.<first 8 hex of the served model's SHA-256>` before `.json` when the
 * server named the model it served (verdicts of two served models under one
 * fingerprint are two calibrations). Records of the older schema keep the
 * older name.
 */
export function recordFileName(rubric: string, fingerprint: string, servedModel?: string | null, schema: string = RECORD_SCHEMA): string {
  const served = servedModel && schema === RECORD_SCHEMA ? `.${sha256(servedModel).slice(0, 8)}` : "";
  return `${rubric}.${fingerprintPrefix(fingerprint)}${served}.json`;
}

/** `<labels>/calibration/<recordFileName>`. */
export function recordPath(labelsDir: string, rubric: string, fingerprint: string, servedModel?: string | null): string {
  return join(recordsDir(labelsDir), recordFileName(rubric, fingerprint, servedModel));
}

/** Validates and writes a record atomically (a reader never sees half of it); returns its path. */
export function writeRecord(labelsDir: string, record: CalibrationRecord): string {
  const checked = CalibrationRecord.parse(record);
  const file = recordPath(labelsDir, checked.rubric, checked.fingerprint, checked.servedModels[0]);
  writeOutputFile(file, recordText(checked), { within: labelsDir });
  return file;
}

function recordText(record: CalibrationRecord): string {
  return JSON.stringify(record, null, 2) + "\n";
}

/** What {@link writeRecordIfChanged} did. */
export interface RecordWrite {
  file: string;
  /** `unchanged`: the file already held this record except for its `time`, and was left alone. */
  status: "written" | "unchanged";
}

/**
 * Writes a record atomically unless its file already holds the same record
 * but for `time`: a committed record changes only when what it measured
 * changed (labels, judgments, figures, thresholds, gate), so running
 * `ragjudge calibrate` again does not churn it. A file that is not byte for
 * byte the record with its old time (hand-edited, another layout, an older
 * format) is rewritten.
 *
 * @example
 * writeRecordIfChanged("labels", record) // { file: "labels/calibration/faithfulness.0db4794a352f.json", status: "unchanged" }
 */
export function writeRecordIfChanged(labelsDir: string, record: CalibrationRecord): RecordWrite {
  const checked = CalibrationRecord.parse(record);
  const file = recordPath(labelsDir, checked.rubric, checked.fingerprint, checked.servedModels[0]);
  const old = existingText(file);
  if (old !== undefined) {
    const oldTime = timeOf(old);
    if (oldTime !== undefined && recordText({ ...checked, time: oldTime }) === old) return { file, status: "unchanged" };
  }
  writeOutputFile(file, recordText(checked), { within: labelsDir });
  return { file, status: "written" };
}

function existingText(file: string): string | undefined {
  try {
    return readBytes(file).toString("utf8");
  } catch {
    return undefined; // missing or unreadable: write it (a real problem surfaces there)
  }
}

function timeOf(text: string): string | undefined {
  try {
    const t = (JSON.parse(text) as { time?: unknown }).time;
    return typeof t === "string" ? t : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Loads every record in `<labels>/calibration/` (none when the folder is
 * missing). A record that fails the schema, or whose file name does not match
 * its rubric and fingerprint (copied or renamed by hand, so it could be taken
 * for another judge's), is an InputError naming the file and field.
 */
export function loadRecords(labelsDir: string): LoadedRecord[] {
  const dir = recordsDir(labelsDir);
  if (!existsSync(dir)) return [];
  const problems: InputError[] = [];
  const out: LoadedRecord[] = [];
  for (const name of readdirSync(dir).filter((f) => f.endsWith(".json") && !f.startsWith(".")).sort()) {
    const file = join(dir, name);
    try {
      const record = loadJson(file, CalibrationRecord);
      const expected = recordFileName(record.rubric, record.fingerprint, record.servedModels.length === 1 ? record.servedModels[0] : undefined, record.schema);
      if (name !== expected) {
        const served = record.schema === RECORD_SCHEMA && record.servedModels.length === 1 ? `, served model ${JSON.stringify(record.servedModels[0])}` : "";
        problems.push(new InputError(file, undefined, "fingerprint", `record is for rubric ${JSON.stringify(record.rubric)} and fingerprint ${record.fingerprint.slice(0, 12)}…${served}, so its file must be named ${expected}`));
        continue;
      }
      out.push({ file, record });
    } catch (e) {
      if (e instanceof InputErrors) problems.push(...e.problems);
      else if (e instanceof InputError) problems.push(e);
      else throw e;
    }
  }
  if (problems.length) throw new InputErrors(problems);
  return out;
}
