import Database from "better-sqlite3";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../../golden/errors.js";
import { confinedPath } from "../../golden/paths.js";
import { CACHE_FILE } from "../../golden/config.js";
import { addConfidence, DDL, fromRow, fromScan, hasColumn, hasTable, interner, SCAN_COLUMNS, SCHEMA_VERSION, type CachedVerdict, type Row } from "./cache-table.js";
import { acquireLease, type Lease } from "./lease.js";

export type { CachedVerdict } from "./cache-table.js";

export { CACHE_FILE } from "../../golden/config.js";

/** Keys per statement of {@link JudgeCache.getDoneMany}. */
const MANY_CHUNK = 10_000;

/**
 * Where one verdict is stored: the judge's fingerprint, the item's input hash
 * and the repeat index. The model is inside the fingerprint, so a cached
 * verdict is never reused for another model, prompt or parameter.
 */
export interface CacheKey {
  fingerprint: string;
  inputHash: string;
  repeat: number;
}

/** Builds a {@link CacheKey}; batch mode stores its verdicts under the same keys. */
export function cacheKey(fingerprint: string, inputHash: string, repeat = 0): CacheKey {
  return { fingerprint, inputHash, repeat };
}

/**
 * The judge's verdict cache and resume log: SQLite (better-sqlite3) in WAL
 * mode. A judge run commits the replies read in one event-loop turn together
 * ({@link JudgeCache.putMany}, commits.ts), each call waiting for its commit,
 * so a killed run loses only the calls that were in flight and a rerun
 * repeats none that were committed. `synchronous = NORMAL` keeps commits
 * safe against a killed process (not against power loss) at a fraction of
 * the cost of a sync per verdict.
 *
 * @example
 * const cache = JudgeCache.open(".ragjudge");
 * const hit = cache.getDone(cacheKey(fp, item.inputHash, 0));
 * if (!hit) cache.put(cacheKey(fp, item.inputHash, 0), { status: "done", verdict: "yes", ... });
 */
export class JudgeCache {
  private readonly stmts: {
    get: Database.Statement<[string, string, number], Row>;
    raw: Database.Statement<[string, string, number], { raw: string | null }>;
    /** Absent only for a read-only open of a file without the p_yes column (nothing can be written to it anyway). */
    put?: Database.Statement<unknown[]>;
    fp: Database.Statement<[string, string, string, string]>;
    mode: Database.Statement<[string, string], { response_mode: string }>;
    setMode: Database.Statement<[string, string, string, string | null, string]>;
    logprobs?: Database.Statement<[string, string], { supported: number }>;
    setLogprobs?: Database.Statement<[string, string, number, string | null, string]>;
    many: Database.Statement<[json: string, fingerprint: string], Row & { i: number }>;
    scan: Database.Statement<[string], unknown[]>;
  };
  private readonly putBatch: (entries: readonly { key: CacheKey; verdict: CachedVerdict }[]) => { stored: boolean; verdict: CachedVerdict }[];

  private constructor(
    readonly db: Database.Database,
    readonly file: string,
  ) {
    const pYes = hasColumn(db, "verdicts", "p_yes") ? "p_yes" : "NULL AS p_yes";
    const memory = hasTable(db, "endpoint_logprobs");
    this.stmts = {
      get: db.prepare(`SELECT status, verdict, reason, error, judge, rubric, model, served_model, prompt_tokens, completion_tokens, attempts, NULL AS raw, ${pYes}, time FROM verdicts WHERE fingerprint = ? AND input_hash = ? AND repeat = ?`),
      raw: db.prepare("SELECT raw FROM verdicts WHERE fingerprint = ? AND input_hash = ? AND repeat = ?"),
      put: pYes === "p_yes" ? db.prepare(
        `INSERT INTO verdicts (fingerprint, input_hash, repeat, status, verdict, reason, error, judge, rubric, model, served_model, prompt_tokens, completion_tokens, attempts, raw, p_yes, time)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (fingerprint, input_hash, repeat) DO UPDATE SET
           status = excluded.status, verdict = excluded.verdict, reason = excluded.reason, error = excluded.error,
           judge = excluded.judge, rubric = excluded.rubric, model = excluded.model, served_model = excluded.served_model,
           prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens,
           attempts = excluded.attempts, raw = excluded.raw, p_yes = excluded.p_yes, time = excluded.time
         WHERE verdicts.status = 'error'`,
      ) : undefined,
      fp: db.prepare("INSERT OR IGNORE INTO fingerprints (fingerprint, rubric, template, created) VALUES (?, ?, ?, ?)"),
      mode: db.prepare("SELECT response_mode FROM endpoints WHERE base_url = ? AND model = ?"),
      setMode: db.prepare("INSERT OR REPLACE INTO endpoints (base_url, model, response_mode, cause, time) VALUES (?, ?, ?, ?, ?)"),
      ...(memory
        ? {
            logprobs: db.prepare("SELECT supported FROM endpoint_logprobs WHERE base_url = ? AND model = ?"),
            setLogprobs: db.prepare("INSERT OR REPLACE INTO endpoint_logprobs (base_url, model, supported, cause, time) VALUES (?, ?, ?, ?, ?)"),
          }
        : {}),
      // Many keys of one fingerprint in one statement (a JSON array of [input hash, repeat]): a primary-key lookup per key, inside SQLite.
      many: db.prepare(
        `SELECT j.key AS i, v.status, v.verdict, v.reason, v.error, v.judge, v.rubric, v.model, v.served_model, v.prompt_tokens, v.completion_tokens, v.attempts, NULL AS raw, ${pYes === "p_yes" ? "v.p_yes" : pYes}, v.time
         FROM json_each(?) AS j CROSS JOIN verdicts AS v
         WHERE v.fingerprint = ? AND v.input_hash = json_extract(j.value, '$[0]') AND v.repeat = json_extract(j.value, '$[1]') AND v.status = 'done'`,
      ),
      // Rows as arrays (no object per row): the columns of SCAN_COLUMNS, then p_yes.
      scan: db.prepare<[string], unknown[]>(`SELECT ${SCAN_COLUMNS.join(", ")}, ${pYes} FROM verdicts WHERE fingerprint = ? AND status = 'done'`).raw(true),
    };
    this.putBatch = db.transaction((entries: readonly { key: CacheKey; verdict: CachedVerdict }[]) => entries.map((e) => this.put(e.key, e.verdict)));
  }

  /** Opens (creating when needed) the cache in `dir`. A file that is not a ragjudge cache is an input error. */
  static open(dir: string): JudgeCache {
    // A file named as the folder, or a cache file that links out of it, is one line (exit 2), not an EEXIST.
    confinedPath(dir, CACHE_FILE, { folder: "the cache folder" });
    return JudgeCache.openFile(join(dir, CACHE_FILE), false);
  }

  /**
   * Opens (creating when needed) the cache in `dir` holding its lease for
   * `holder` (see {@link acquireLease}), for the commands that store into it
   * outside `runJudge`: a batch export, submit, collect or import. `close`
   * releases the lease and closes the cache; when the lease is refused the
   * cache is closed before the error is thrown.
   *
   * @example
   * const { cache, close } = JudgeCache.openLeased(".ragjudge", "ragjudge batch import");
   * try { ... } finally { close(); }
   */
  static openLeased(dir: string, holder: string): { cache: JudgeCache; close: () => void } {
    const cache = JudgeCache.open(dir);
    let lease: Lease;
    try {
      lease = cache.acquireLease(holder);
    } catch (e) {
      cache.close();
      throw e;
    }
    return {
      cache,
      close: () => {
        lease.release();
        cache.close();
      },
    };
  }

  /** Opens an existing cache without writing to it (dry runs); undefined when there is none yet. */
  static openReadOnly(dir: string): JudgeCache | undefined {
    const file = join(dir, CACHE_FILE);
    if (!existsSync(file)) return undefined;
    return JudgeCache.openFile(file, true);
  }

  private static openFile(file: string, readonly: boolean): JudgeCache {
    let db: Database.Database | undefined;
    try {
      db = new Database(file, { readonly, fileMustExist: readonly });
      db.pragma("busy_timeout = 10000");
      if (!readonly) {
        db.pragma("journal_mode = WAL");
        db.pragma("synchronous = NORMAL");
        // Checkpoint every ~40 MB of WAL instead of every 4 MB: one commit per verdict
        // stays cheap, and closing the cache checkpoints the rest.
        db.pragma("wal_autocheckpoint = 10000");
      }
      const version = db.pragma("user_version", { simple: true }) as number;
      if (version === 0 && !readonly) {
        db.exec(DDL);
        db.pragma(`user_version = ${SCHEMA_VERSION}`);
      } else if (version !== SCHEMA_VERSION) {
        throw new InputError(file, undefined, undefined, `judge cache has layout version ${version}, this ragjudge needs ${SCHEMA_VERSION}: delete the file to start afresh`);
      }
      if (!readonly) addConfidence(db);
      return new JudgeCache(db, file);
    } catch (e) {
      db?.close();
      if (e instanceof InputError) throw e;
      const code = (e as { code?: string }).code;
      if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT") {
        throw new InputError(file, undefined, undefined, "not a ragjudge judge cache (or damaged): delete it to start afresh");
      }
      throw new InputError(file, undefined, undefined, `cannot open the judge cache (${(e as Error).message})`);
    }
  }

  /** The stored outcome under `key`, a committed verdict or a stored error (without the raw reply: see {@link raw}). */
  get(key: CacheKey): CachedVerdict | undefined {
    const row = this.stmts.get.get(key.fingerprint, key.inputHash, key.repeat);
    return row ? fromRow(row) : undefined;
  }

  /** The server's raw reply stored under `key`, for audits. */
  raw(key: CacheKey): string | undefined {
    return this.stmts.raw.get(key.fingerprint, key.inputHash, key.repeat)?.raw ?? undefined;
  }

  /** The committed verdict under `key`; a stored error counts as absent (it is retried). */
  getDone(key: CacheKey): CachedVerdict | undefined {
    const v = this.get(key);
    return v?.status === "done" ? v : undefined;
  }

  /**
   * The committed verdicts under many keys at once, aligned with `keys`
   * (undefined where there is none, or only a stored error): what a rerun
   * asks before judging, without a statement per key: the rows of each
   * fingerprint read in one scan when most of them are wanted, else (the scan
   * stopped after twice as many rows as keys) the rest looked up by primary
   * key {@link MANY_CHUNK} keys per statement.
   */
  getDoneMany(keys: readonly CacheKey[]): (CachedVerdict | undefined)[] {
    const out = new Array<CachedVerdict | undefined>(keys.length);
    this.eachDone(keys, (i, v) => (out[i] = v));
    return out;
  }

  /**
   * {@link getDoneMany} without the array: `onHit(index, verdict)` for each
   * key with a committed verdict, as the rows are read (in no particular
   * order; keys asked twice get the same object), so a caller that turns
   * them into something else keeps nothing in between.
   */
  eachDone(keys: readonly CacheKey[], onHit: (index: number, verdict: CachedVerdict) => void): void {
    const byFingerprint = new Map<string, number[]>();
    for (let i = 0; i < keys.length; i++) {
      const fp = keys[i]!.fingerprint;
      const list = byFingerprint.get(fp);
      if (list) list.push(i);
      else byFingerprint.set(fp, [i]);
    }
    const intern = interner();
    const hit = new Uint8Array(keys.length);
    for (const [fp, indices] of byFingerprint) {
      // Read the fingerprint's rows in key order and match them, by input hash then repeat (no key
      // string built per key or per row), one row at a time: a rerun wants most of them. A scan that
      // reads more than twice as many rows as keys were asked stops, and the keys it has not found are
      // looked up by primary key instead (a few keys among many rows). Not a count of the rows first:
      // counting reads as many pages as the scan (a tenth of a second for 80,000 rows).
      const want = new Map<string, number[]>();
      for (const i of indices) {
        const h = keys[i]!.inputHash;
        const list = want.get(h);
        if (list) list.push(i);
        else want.set(h, [i]);
      }
      const limit = 2 * indices.length;
      let read = 0;
      let complete = true;
      for (const cols of this.stmts.scan.iterate(fp)) {
        if (++read > limit) {
          complete = false;
          break;
        }
        const at = want.get(cols[0] as string);
        if (!at) continue;
        const repeat = cols[1] as number;
        let v: CachedVerdict | undefined;
        for (const i of at) {
          if (keys[i]!.repeat !== repeat) continue;
          hit[i] = 1;
          onHit(i, (v ??= fromScan(cols, intern)));
        }
      }
      if (complete) continue;
      const rest = indices.filter((i) => hit[i] === 0);
      for (let start = 0; start < rest.length; start += MANY_CHUNK) {
        const chunk = rest.slice(start, start + MANY_CHUNK);
        const json = JSON.stringify(chunk.map((i) => [keys[i]!.inputHash, keys[i]!.repeat]));
        for (const row of this.stmts.many.iterate(json, fp)) onHit(chunk[row.i]!, fromRow(row));
      }
    }
  }

  /**
   * {@link put} for many outcomes in one transaction (one commit), each
   * resolved exactly as `put` would: the group commit of a judge run
   * (commits.ts). All or nothing: when the transaction fails none is stored.
   */
  putMany(entries: readonly { key: CacheKey; verdict: CachedVerdict }[]): { stored: boolean; verdict: CachedVerdict }[] {
    return this.putBatch(entries);
  }

  /**
   * Commits one outcome under `key` and returns what the cache holds now. A
   * committed verdict is final: a later put for the same key (a concurrent
   * run, a late error) does not replace it, and `stored: false` comes back
   * with that earlier verdict, which the caller must report instead of its
   * own (so judgments never disagree with the cache). An error is replaced
   * by whatever comes next.
   *
   * @example
   * const { stored, verdict } = cache.put(key, mine);
   * // stored === false: another run committed `verdict` first
   */
  put(key: CacheKey, v: CachedVerdict): { stored: boolean; verdict: CachedVerdict } {
    if ((v.status === "done") !== (v.verdict !== "error")) throw new Error("cache: status done needs a yes/no verdict, status error an error verdict");
    if (!this.stmts.put) throw new Error("cache: opened read-only");
    const info = this.stmts.put.run(
      key.fingerprint, key.inputHash, key.repeat, v.status, v.verdict, v.reason, v.error ?? null, v.judge, v.rubric,
      v.model ?? null, v.servedModel ?? null, v.usage?.prompt ?? null, v.usage?.completion ?? null, v.attempts ?? null, v.raw ?? null, v.pYes ?? null, v.time,
    );
    if (info.changes > 0) return { stored: true, verdict: v };
    // The upsert only skips a row that is already a committed verdict, and those never change.
    const kept = this.get(key);
    if (!kept) throw new Error("cache: a verdict was neither stored nor found");
    return { stored: false, verdict: kept };
  }

  /**
   * Takes this cache folder's lease for a run (see lease.ts): a second run
   * on the same folder is refused with one line instead of paying for the
   * same calls twice. Release it when the run ends.
   */
  acquireLease(holder: string): Lease {
    return acquireLease(this.db, this.file, holder);
  }

  /** Records what a fingerprint stands for (its request template), for audits. */
  registerFingerprint(fingerprint: string, rubric: string, template: unknown): void {
    if (this.db.readonly) return;
    this.stmts.fp.run(fingerprint, rubric, JSON.stringify(template), new Date().toISOString());
  }

  /** The response mode remembered for an endpoint and model (a server found to lack structured outputs). */
  responseMode(baseURL: string, model: string): "json_schema" | "text" | undefined {
    const r = this.stmts.mode.get(baseURL, model);
    return r?.response_mode === "text" || r?.response_mode === "json_schema" ? r.response_mode : undefined;
  }

  /** Remembers an endpoint's response mode, so the next run starts in it and finds its cached verdicts. */
  rememberResponseMode(baseURL: string, model: string, mode: "json_schema" | "text", cause?: string): void {
    if (this.db.readonly) return;
    this.stmts.setMode.run(baseURL, model, mode, cause ?? null, new Date().toISOString());
  }

  /** Whether an endpoint and model were found with (true) or without (false) token log-probabilities; undefined: not known. */
  logprobsSupport(baseURL: string, model: string): boolean | undefined {
    const r = this.stmts.logprobs?.get(baseURL, model);
    return r === undefined ? undefined : r.supported === 1;
  }

  /** Remembers whether an endpoint and model return token log-probabilities, so the next run asks (or not) from its first call. */
  rememberLogprobs(baseURL: string, model: string, supported: boolean, cause?: string): void {
    if (this.db.readonly) return;
    this.stmts.setLogprobs?.run(baseURL, model, supported ? 1 : 0, cause ?? null, new Date().toISOString());
  }

  /** Number of committed verdicts, optionally for one fingerprint. */
  countDone(fingerprint?: string): number {
    const sql = fingerprint === undefined ? "SELECT count(*) AS n FROM verdicts WHERE status = 'done'" : "SELECT count(*) AS n FROM verdicts WHERE status = 'done' AND fingerprint = ?";
    const stmt = this.db.prepare<unknown[], { n: number }>(sql);
    return (fingerprint === undefined ? stmt.get() : stmt.get(fingerprint))!.n;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
