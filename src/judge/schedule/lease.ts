import type Database from "better-sqlite3";
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { InputError } from "../../golden/errors.js";
import { pidAlive } from "../../golden/process.js";

/**
 * One run at a time per cache folder. Two runs on the same cache would both
 * pay for every call the other has not committed yet, and race each other's
 * commits; so a judge run (and every batch command) holds a lease: one row
 * in the cache's own SQLite file, taken in an IMMEDIATE transaction, so two
 * processes can never both take it. A second run is refused with one line
 * naming the holder.
 *
 * A lease left behind by a killed run (`kill -9`) is taken over: on the same
 * host as soon as its process is gone, and from any host (a shared folder,
 * or a pid since reused by an unrelated process) once its heartbeat, renewed
 * every {@link HEARTBEAT_MS}, is older than {@link STALE_MS}. The refusal
 * says when the lease expires, so a user never has to clear it by hand.
 */

/** How often a held lease is renewed. */
export const HEARTBEAT_MS = 30_000;
/** A lease not renewed for this long is abandoned (four missed heartbeats). */
export const STALE_MS = 120_000;

const DDL = `CREATE TABLE IF NOT EXISTS lease (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  token TEXT NOT NULL,
  holder TEXT NOT NULL,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  started TEXT NOT NULL,
  heartbeat INTEGER NOT NULL
)`;

interface LeaseRow {
  token: string;
  holder: string;
  pid: number;
  host: string;
  started: string;
  heartbeat: number;
}

/** Tokens of the leases this process holds (a second run inside one process is refused too). */
const held = new Set<string>();

/** For tests: a different identity (another process or host) and clock. */
export interface LeaseEnv {
  pid: number;
  host: string;
  now: () => number;
  alive: (pid: number) => boolean;
}

const defaultEnv = (): LeaseEnv => ({ pid: process.pid, host: hostname(), now: Date.now, alive: pidAlive });

/**
 * Whether a lease row was left by a run that is gone. A live run renews its
 * heartbeat every HEARTBEAT_MS, so one not renewed for STALE_MS is abandoned
 * whoever holds it (its pid may since belong to another, unrelated process);
 * on this host a lease whose process is gone is abandoned at once.
 */
function stale(row: LeaseRow, env: LeaseEnv): boolean {
  if (env.now() - row.heartbeat > STALE_MS) return true;
  if (row.host === env.host) return row.pid === env.pid ? !held.has(row.token) : !env.alive(row.pid);
  return false;
}

/** A held lease; {@link release} gives it up (idempotent). */
export interface Lease {
  readonly token: string;
  release(): void;
}

/**
 * Takes the cache's lease for `holder` (e.g. "ragjudge judge"), or throws an
 * {@link InputError} on `file` when a live run holds it.
 *
 * @example
 * const lease = acquireLease(cache.db, cache.file, "ragjudge judge");
 * try { ... } finally { lease.release(); }
 */
export function acquireLease(db: Database.Database, file: string, holder: string, envOverride?: Partial<LeaseEnv>): Lease {
  const env = { ...defaultEnv(), ...envOverride };
  db.exec(DDL);
  const token = randomUUID();
  const take = db.transaction(() => {
    const row = db.prepare<[], LeaseRow>("SELECT token, holder, pid, host, started, heartbeat FROM lease WHERE id = 1").get();
    if (row && !stale(row, env)) {
      const where = row.host === env.host ? `pid ${row.pid}` : `pid ${row.pid} on ${row.host}`;
      const ago = Math.max(0, Math.round((env.now() - row.heartbeat) / 1000));
      const expires = new Date(row.heartbeat + STALE_MS).toISOString();
      throw new InputError(
        file,
        undefined,
        undefined,
        `in use by another ragjudge run (${row.holder}, ${where}, since ${row.started}, last heartbeat ${ago} s ago): wait for it to finish, or give this run another --cache-dir; if no ragjudge run is alive, the lease expires by itself at ${expires} (${STALE_MS / 1000} s after its last heartbeat)`,
      );
    }
    db.prepare("INSERT OR REPLACE INTO lease (id, token, holder, pid, host, started, heartbeat) VALUES (1, ?, ?, ?, ?, ?, ?)").run(
      token, holder, env.pid, env.host, new Date(env.now()).toISOString(), env.now(),
    );
  });
  take.immediate();
  held.add(token);
  const renew = db.prepare("UPDATE lease SET heartbeat = ? WHERE token = ?");
  const timer = setInterval(() => {
    if (db.open) renew.run(env.now(), token);
  }, HEARTBEAT_MS);
  timer.unref();
  let released = false;
  return {
    token,
    release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      held.delete(token);
      if (db.open && !db.readonly) db.prepare("DELETE FROM lease WHERE token = ?").run(token);
    },
  };
}
