import type Database from "better-sqlite3";
import type { ItemKey } from "../../golden/schema/items.js";
import { cacheKey, type JudgeCache } from "../schedule/cache.js";

/**
 * Where a batch request stands:
 * - `exported`: written to an export file, not in a submitted batch;
 * - `submitted`: in a batch that has not been collected yet;
 * - `done`: its verdict is in the cache;
 * - `error`: its result was an error verdict (the next export or online run asks again);
 * - `pending`: it never ran (batch expired, cancelled, failed, or lost): asked again like an error.
 */
export type RequestState = "exported" | "submitted" | "done" | "error" | "pending";

/** One exported judge call: the cache key it fills and the items it judges. */
export interface BatchRequestRow {
  customId: string;
  fingerprint: string;
  inputHash: string;
  repeat: number;
  rubric: string;
  /** The model asked for (the request body's `model`). */
  model: string;
  /** Every item this call judges (identical evidence under one rubric is judged once). */
  items: ItemKey[];
  exportFile: string;
  state: RequestState;
  /** The batch that has it in flight, or that last returned its result. */
  batchId?: string;
  /** Why it is an error or pending again. */
  cause?: string;
  updated: string;
}

/** Last known state of a batch, as the API reported it. */
export interface BatchCounts {
  total: number;
  completed: number;
  failed: number;
}

/** One export file submitted (or being submitted) to one endpoint. */
export interface Submission {
  sha256: string;
  baseURL: string;
  /** The export file's absolute path at submit time. */
  file: string;
  /** The file name it is uploaded under (contains the content hash, so it can be found again). */
  uploadName: string;
  requests: number;
  bytes: number;
  fileId?: string;
  batchId?: string;
  status?: string;
  counts?: BatchCounts;
  /** When its results were stored in the cache; a collected batch is never fetched again. */
  collected?: string;
  /** When the intent to submit was recorded (list searches stop well before it). */
  intent: string;
  updated: string;
}

const DDL = `
CREATE TABLE IF NOT EXISTS batch_requests (
  custom_id TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  input_hash TEXT NOT NULL,
  repeat INTEGER NOT NULL,
  rubric TEXT NOT NULL,
  model TEXT NOT NULL,
  items TEXT NOT NULL,
  export_file TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('exported', 'submitted', 'done', 'error', 'pending')),
  batch_id TEXT,
  cause TEXT,
  updated TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS batch_requests_batch ON batch_requests (batch_id, state);
CREATE TABLE IF NOT EXISTS batch_submissions (
  sha256 TEXT NOT NULL,
  base_url TEXT NOT NULL,
  file TEXT NOT NULL,
  upload_name TEXT NOT NULL,
  requests INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  file_id TEXT,
  batch_id TEXT,
  status TEXT,
  counts TEXT,
  collected TEXT,
  intent TEXT NOT NULL,
  updated TEXT NOT NULL,
  PRIMARY KEY (sha256, base_url)
);`;

interface RequestRecord {
  custom_id: string;
  fingerprint: string;
  input_hash: string;
  repeat: number;
  rubric: string;
  model: string;
  items: string;
  export_file: string;
  state: RequestState;
  batch_id: string | null;
  cause: string | null;
  updated: string;
}

interface SubmissionRecord {
  sha256: string;
  base_url: string;
  file: string;
  upload_name: string;
  requests: number;
  bytes: number;
  file_id: string | null;
  batch_id: string | null;
  status: string | null;
  counts: string | null;
  collected: string | null;
  intent: string;
  updated: string;
}

function toRequest(r: RequestRecord): BatchRequestRow {
  return {
    customId: r.custom_id,
    fingerprint: r.fingerprint,
    inputHash: r.input_hash,
    repeat: r.repeat,
    rubric: r.rubric,
    model: r.model,
    items: JSON.parse(r.items) as ItemKey[],
    exportFile: r.export_file,
    state: r.state,
    batchId: r.batch_id ?? undefined,
    cause: r.cause ?? undefined,
    updated: r.updated,
  };
}

function toSubmission(r: SubmissionRecord): Submission {
  return {
    sha256: r.sha256,
    baseURL: r.base_url,
    file: r.file,
    uploadName: r.upload_name,
    requests: r.requests,
    bytes: r.bytes,
    fileId: r.file_id ?? undefined,
    batchId: r.batch_id ?? undefined,
    status: r.status ?? undefined,
    counts: r.counts ? (JSON.parse(r.counts) as BatchCounts) : undefined,
    collected: r.collected ?? undefined,
    intent: r.intent,
    updated: r.updated,
  };
}

const now = () => new Date().toISOString();

/** A request to record at export time (its state becomes `exported`). */
export type NewRequest = Omit<BatchRequestRow, "state" | "batchId" | "cause" | "updated">;

/**
 * Batch mode's state, in the judge cache's SQLite file (two tables beside
 * the verdicts, created on first use; the verdict tables are untouched):
 * every exported request with the cache key and items it stands for, and
 * every submission with its intent, uploaded file and batch id. Each step is
 * committed before the next network call, so a crash at any point leaves a
 * record that the next `batch submit` or `batch collect` resumes from.
 *
 * @example
 * const store = BatchStore.open(JudgeCache.open(".ragjudge"));
 * store.recordExport(requests);
 */
export class BatchStore {
  private readonly prepared = new Map<string, Database.Statement>();

  private constructor(
    readonly db: Database.Database,
    readonly cache: JudgeCache,
  ) {}

  /** A prepared statement, compiled once per store (lookups run once per request line). */
  private sql<P extends unknown[] = unknown[], R = unknown>(text: string): Database.Statement<P, R> {
    let st = this.prepared.get(text);
    if (!st) this.prepared.set(text, (st = this.db.prepare(text)));
    return st as unknown as Database.Statement<P, R>;
  }

  /** The batch tables of an open (writable) judge cache, created when missing. */
  static open(cache: JudgeCache): BatchStore {
    cache.db.exec(DDL);
    return new BatchStore(cache.db, cache);
  }

  /** Runs `f` in one transaction: all of it is committed, or none. */
  transaction<T>(f: () => T): T {
    return this.db.transaction(f)();
  }

  /** Records (or refreshes) exported requests as `exported`, in one transaction. */
  recordExport(rows: readonly NewRequest[]): void {
    const stmt = this.sql(
      `INSERT INTO batch_requests (custom_id, fingerprint, input_hash, repeat, rubric, model, items, export_file, state, batch_id, cause, updated)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'exported', NULL, NULL, ?)
       ON CONFLICT (custom_id) DO UPDATE SET items = excluded.items, export_file = excluded.export_file, model = excluded.model,
         state = 'exported', batch_id = NULL, cause = NULL, updated = excluded.updated`,
    );
    const t = now();
    this.transaction(() => {
      for (const r of rows) stmt.run(r.customId, r.fingerprint, r.inputHash, r.repeat, r.rubric, r.model, JSON.stringify(r.items), r.exportFile, t);
    });
  }

  /** The exported request under a custom_id; undefined when this cache never exported it. */
  request(customId: string): BatchRequestRow | undefined {
    const r = this.sql<[string], RequestRecord>("SELECT * FROM batch_requests WHERE custom_id = ?").get(customId);
    return r ? toRequest(r) : undefined;
  }

  /** Whether the cache holds a committed verdict for this request (from a batch or an online run). */
  isJudged(customId: string): boolean {
    const r = this.request(customId);
    return r !== undefined && this.cache.getDone(cacheKey(r.fingerprint, r.inputHash, r.repeat)) !== undefined;
  }

  /** Sets a request's state (and the batch that decided it, and why). */
  setState(customId: string, state: RequestState, cause?: string, batchId?: string): void {
    this
      .sql("UPDATE batch_requests SET state = ?, cause = ?, batch_id = coalesce(?, batch_id), updated = ? WHERE custom_id = ?")
      .run(state, cause ?? null, batchId ?? null, now(), customId);
  }

  /** Requests still `submitted` in a batch (after collecting it: the ones it returned nothing for). */
  inFlight(batchId: string): string[] {
    return this
      .sql<[string], { custom_id: string }>("SELECT custom_id FROM batch_requests WHERE batch_id = ? AND state = 'submitted'")
      .all(batchId)
      .map((r) => r.custom_id);
  }

  /**
   * Marks `done` the requests whose verdict reached the cache another way
   * (an online run, another batch), so the counts tell the truth. Requests
   * in a batch not collected yet stay `submitted`.
   */
  reconcile(): number {
    return this
      .sql(
        `UPDATE batch_requests SET state = 'done', cause = NULL, updated = ?
         WHERE state IN ('exported', 'error', 'pending') AND EXISTS (
           SELECT 1 FROM verdicts v WHERE v.fingerprint = batch_requests.fingerprint AND v.input_hash = batch_requests.input_hash
             AND v.repeat = batch_requests.repeat AND v.status = 'done')`,
      )
      .run(now()).changes;
  }

  /** Number of requests in each state. */
  stateCounts(): Record<RequestState, number> {
    const out: Record<RequestState, number> = { exported: 0, submitted: 0, done: 0, error: 0, pending: 0 };
    for (const r of this.sql<[], { state: RequestState; n: number }>("SELECT state, count(*) AS n FROM batch_requests GROUP BY state").all()) out[r.state] = r.n;
    return out;
  }

  /** The submission of an export (by content hash) to an endpoint. */
  submission(sha256: string, baseURL: string): Submission | undefined {
    const r = this.sql<[string, string], SubmissionRecord>("SELECT * FROM batch_submissions WHERE sha256 = ? AND base_url = ?").get(sha256, baseURL);
    return r ? toSubmission(r) : undefined;
  }

  /** Every submission, oldest first; only one endpoint's when `baseURL` is given. */
  submissions(baseURL?: string): Submission[] {
    const rows =
      baseURL === undefined
        ? this.sql<[], SubmissionRecord>("SELECT * FROM batch_submissions ORDER BY intent, sha256").all()
        : this.sql<[string], SubmissionRecord>("SELECT * FROM batch_submissions WHERE base_url = ? ORDER BY intent, sha256").all(baseURL);
    return rows.map(toSubmission);
  }

  /** Step 1 of a submit: the intent, committed before any network call. */
  recordIntent(s: Pick<Submission, "sha256" | "baseURL" | "file" | "uploadName" | "requests" | "bytes">): Submission {
    const t = now();
    this
      .sql("INSERT OR IGNORE INTO batch_submissions (sha256, base_url, file, upload_name, requests, bytes, intent, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
      .run(s.sha256, s.baseURL, s.file, s.uploadName, s.requests, s.bytes, t, t);
    return this.submission(s.sha256, s.baseURL)!;
  }

  /** Step 2: the uploaded (or found) input file. */
  recordFile(sha256: string, baseURL: string, fileId: string): void {
    this.sql("UPDATE batch_submissions SET file_id = ?, updated = ? WHERE sha256 = ? AND base_url = ?").run(fileId, now(), sha256, baseURL);
  }

  /**
   * Step 3: the created (or found) batch, and its requests marked
   * `submitted` under it, in one transaction.
   */
  recordBatch(sha256: string, baseURL: string, batch: { id: string; fileId: string; status: string; counts?: BatchCounts }, customIds: readonly string[]): void {
    const mark = this.sql("UPDATE batch_requests SET state = 'submitted', batch_id = ?, cause = NULL, updated = ? WHERE custom_id = ? AND state <> 'done'");
    const t = now();
    this.transaction(() => {
      this
        .sql("UPDATE batch_submissions SET file_id = ?, batch_id = ?, status = ?, counts = ?, updated = ? WHERE sha256 = ? AND base_url = ?")
        .run(batch.fileId, batch.id, batch.status, batch.counts ? JSON.stringify(batch.counts) : null, t, sha256, baseURL);
      for (const id of customIds) mark.run(batch.id, t, id);
    });
  }

  /** The batch's state as last polled. */
  recordStatus(batchId: string, status: string, counts: BatchCounts | undefined): void {
    this.sql("UPDATE batch_submissions SET status = ?, counts = ?, updated = ? WHERE batch_id = ?").run(status, counts ? JSON.stringify(counts) : null, now(), batchId);
  }

  /**
   * Gives up on a batch that will never be collected here (an endpoint gone,
   * another account): its requests still in flight return to pending, so the
   * next export includes them, and the batch is marked collected. Its output,
   * if it ever turns up, can still be brought in with `batch import`.
   * Returns the number of requests returned.
   */
  forget(batchId: string): number {
    return this.transaction(() => {
      const ids = this.inFlight(batchId);
      for (const id of ids) this.setState(id, "pending", `batch ${batchId} forgotten (ragjudge batch forget)`, batchId);
      this.markCollected(batchId);
      return ids.length;
    });
  }

  /** Marks a batch collected (call inside the transaction that stores its results). */
  markCollected(batchId: string): void {
    const t = now();
    this.sql("UPDATE batch_submissions SET collected = ?, updated = ? WHERE batch_id = ?").run(t, t, batchId);
  }
}
