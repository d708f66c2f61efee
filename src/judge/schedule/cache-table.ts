import type Database from "better-sqlite3";
import type { Usage } from "../transport/client.js";

/**
 * The judge cache's SQLite layout (tables, in-place additions) and how its
 * rows become {@link CachedVerdict}s, one row at a time or in a bulk scan's
 * arrays. Kept apart from cache.ts, which opens, locks, reads and writes.
 */

/** Bumped when the table layout changes; an older file is refused with a clear message. */
export const SCHEMA_VERSION = 1;

/**
 * One stored outcome. `status: "done"` is a committed verdict (yes/no) and is
 * final; `status: "error"` keeps the cause and raw reply for audit but is not
 * a verdict: the next run asks again.
 */
export interface CachedVerdict {
  status: "done" | "error";
  verdict: "yes" | "no" | "error";
  reason: string;
  error?: string;
  judge: "llm" | "baseline";
  rubric: string;
  model?: string;
  servedModel?: string;
  usage?: Usage;
  attempts?: number;
  /** The server's reply body as received (key redacted), for audit. */
  raw?: string;
  /** The judge's P(yes) of the verdict, when it had one (token log-probabilities). */
  pYes?: number;
  time: string;
}

/** A row of the verdicts table as better-sqlite3 returns it. */
export interface Row {
  status: "done" | "error";
  verdict: "yes" | "no" | "error";
  reason: string;
  error: string | null;
  judge: "llm" | "baseline";
  rubric: string;
  model: string | null;
  served_model: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  attempts: number | null;
  raw: string | null;
  p_yes: number | null;
  time: string;
}

/** The tables of layout {@link SCHEMA_VERSION}, created in a new file. */
export const DDL = `
CREATE TABLE IF NOT EXISTS verdicts (
  fingerprint TEXT NOT NULL,
  input_hash TEXT NOT NULL,
  repeat INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('done', 'error')),
  verdict TEXT NOT NULL CHECK (verdict IN ('yes', 'no', 'error')),
  reason TEXT NOT NULL,
  error TEXT,
  judge TEXT NOT NULL,
  rubric TEXT NOT NULL,
  model TEXT,
  served_model TEXT,
  prompt_tokens INTEGER,
  completion_tokens INTEGER,
  attempts INTEGER,
  raw TEXT,
  time TEXT NOT NULL,
  PRIMARY KEY (fingerprint, input_hash, repeat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS fingerprints (
  fingerprint TEXT PRIMARY KEY,
  rubric TEXT NOT NULL,
  template TEXT NOT NULL,
  created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS endpoints (
  base_url TEXT NOT NULL,
  model TEXT NOT NULL,
  response_mode TEXT NOT NULL,
  cause TEXT,
  time TEXT NOT NULL,
  PRIMARY KEY (base_url, model)
);`;

/**
 * Added to layout 1 in place (old files gain them on their first writable
 * open; a read-only open of an old file reads no pYes and no memory): the
 * verdict's P(yes), and the endpoints found without log-probabilities.
 */
const CONFIDENCE_DDL = `
CREATE TABLE IF NOT EXISTS endpoint_logprobs (
  base_url TEXT NOT NULL,
  model TEXT NOT NULL,
  supported INTEGER NOT NULL,
  cause TEXT,
  time TEXT NOT NULL,
  PRIMARY KEY (base_url, model)
);`;

export function hasColumn(db: Database.Database, table: string, column: string): boolean {
  return (db.pragma(`table_info(${table})`) as { name: string }[]).some((c) => c.name === column);
}

export function hasTable(db: Database.Database, table: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
}

/** Brings a layout-1 file up to the columns and tables above (a no-op when it has them). */
export function addConfidence(db: Database.Database): void {
  if (!hasColumn(db, "verdicts", "p_yes")) db.exec("ALTER TABLE verdicts ADD COLUMN p_yes REAL");
  db.exec(CONFIDENCE_DDL);
}

/** A stored verdict from its row. */
export function fromRow(r: Row): CachedVerdict {
  return {
    status: r.status,
    verdict: r.verdict,
    reason: r.reason,
    error: r.error ?? undefined,
    judge: r.judge,
    rubric: r.rubric,
    model: r.model ?? undefined,
    servedModel: r.served_model ?? undefined,
    usage: r.prompt_tokens === null || r.completion_tokens === null ? undefined : { prompt: r.prompt_tokens, completion: r.completion_tokens },
    attempts: r.attempts ?? undefined,
    raw: r.raw ?? undefined,
    ...(r.p_yes === null || r.p_yes === undefined ? {} : { pYes: r.p_yes }),
    time: r.time,
  };
}

/** Columns of a bulk scan, in order (see {@link fromScan}); its rows are all status 'done', so that one is not read. */
export const SCAN_COLUMNS = ["input_hash", "repeat", "NULL AS status", "verdict", "reason", "error", "judge", "rubric", "model", "served_model", "prompt_tokens", "completion_tokens", "attempts", "time"] as const;

/**
 * Keeps one copy of each low-cardinality string of a bulk scan (judge,
 * rubric, model, served model): the verdicts of a rerun are kept for the
 * whole run, and 80,000 copies of the same few names were old-generation
 * garbage-collector work.
 */
export function interner(): (s: string | null) => string | undefined {
  const seen = new Map<string, string>();
  return (s) => {
    if (s === null) return undefined;
    const had = seen.get(s);
    if (had !== undefined) return had;
    seen.set(s, s);
    return s;
  };
}

/** {@link fromRow} for a row of SCAN_COLUMNS and p_yes read as an array (the same object, built without a Row in between); a scan reads committed verdicts only. */
export function fromScan(c: unknown[], intern: (s: string | null) => string | undefined): CachedVerdict {
  const prompt = c[10] as number | null;
  const completion = c[11] as number | null;
  const pYes = c[14] as number | null;
  const verdict = c[3] === "yes" ? "yes" : c[3] === "no" ? "no" : (c[3] as Row["verdict"]);
  return {
    status: "done",
    verdict,
    reason: c[4] as string,
    error: (c[5] as string | null) ?? undefined,
    judge: intern(c[6] as string) as Row["judge"],
    rubric: intern(c[7] as string)!,
    model: intern(c[8] as string | null),
    servedModel: intern(c[9] as string | null),
    usage: prompt === null || completion === null ? undefined : { prompt, completion },
    attempts: (c[12] as number | null) ?? undefined,
    raw: undefined,
    ...(pYes === null || pYes === undefined ? {} : { pYes }),
    time: c[13] as string,
  };
}
