import type Database from "better-sqlite3";
import type { JudgeCache } from "../schedule/cache.js";

/**
 * The extracted claims of answers, in the judge cache's SQLite file (a table
 * of its own beside `verdicts`): one JSON list per (extraction fingerprint,
 * answer input hash). Why cached: an extraction is a paid call, and the
 * claims must come back identical for `sample` and `review` to rebuild the
 * same claim items (same texts, same input hashes) the run judged.
 */

const DDL = `CREATE TABLE IF NOT EXISTS claims (
  fingerprint TEXT NOT NULL,
  input_hash TEXT NOT NULL,
  claims TEXT NOT NULL,
  model TEXT,
  served_model TEXT,
  prompt_tokens INTEGER,
  completion_tokens INTEGER,
  time TEXT NOT NULL,
  PRIMARY KEY (fingerprint, input_hash)
) WITHOUT ROWID`;

/** One stored extraction. */
export interface StoredClaims {
  claims: string[];
  model?: string;
  servedModel?: string;
  usage?: { prompt: number; completion: number };
  time: string;
}

/** The claims table of a writable cache (created on first use). */
export class ClaimsStore {
  private readonly get: Database.Statement<[string, string], { claims: string }>;
  private readonly put: Database.Statement<unknown[]>;

  constructor(cache: JudgeCache) {
    cache.db.exec(DDL);
    this.get = cache.db.prepare("SELECT claims FROM claims WHERE fingerprint = ? AND input_hash = ?");
    this.put = cache.db.prepare("INSERT OR IGNORE INTO claims (fingerprint, input_hash, claims, model, served_model, prompt_tokens, completion_tokens, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  }

  /** The claims stored for an answer under a fingerprint. */
  claims(fingerprint: string, inputHash: string): string[] | undefined {
    const row = this.get.get(fingerprint, inputHash);
    return row ? (JSON.parse(row.claims) as string[]) : undefined;
  }

  /** Stores an extraction; the first one stored for (fingerprint, answer) stays. */
  store(fingerprint: string, inputHash: string, s: StoredClaims): void {
    this.put.run(fingerprint, inputHash, JSON.stringify(s.claims), s.model ?? null, s.servedModel ?? null, s.usage?.prompt ?? null, s.usage?.completion ?? null, s.time);
  }
}

/**
 * The latest extraction of every answer in a cache, whatever its fingerprint
 * (for `sample` and `review`, which rebuild the items without a judge): a
 * map from answer input hash to its claims. Empty when the cache has no
 * claims table.
 */
export function latestClaims(cache: JudgeCache): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let rows: { input_hash: string; claims: string }[];
  try {
    rows = cache.db.prepare("SELECT input_hash, claims FROM claims ORDER BY time, fingerprint").all() as { input_hash: string; claims: string }[];
  } catch {
    return out; // no claims table yet
  }
  for (const r of rows) out.set(r.input_hash, JSON.parse(r.claims) as string[]);
  return out;
}
