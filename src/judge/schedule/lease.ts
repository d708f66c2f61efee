import type Database from "better-sqlite3";
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { InputError } from "../../golden/errors.js";

/**
 * One run at a time per cache folder. Two runs on the same cache would both
 * pay for every call the other has not committed yet, and race each other's
 * commits; so a judge run (and every batch command) holds a lease: one row
 * in the cache's own SQLite file, taken in an IMMEDIATE transaction, so two
 * processes can never both take it. A second run is refused with one line
 * naming the holder.
 *
 * A lease left behind by a killed run (`kill -9`) is taken over: on the same
 * host when its process is gone, from another host (a shared folder) when
 * its heartbeat, renewed every {@link HEARTBEAT_MS}, is older than
 * {@link STALE_MS}.
 */

/** How often a held lease is renewed. */
export const HEARTBEAT_MS = 30_000;
/** A lease from another host not renewed for this long is abandoned. */
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

/** Whether a process with this id is running on this host. */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === "EPERM";
  }
}

/** For tests: a different identity (another process or host) and clock. */
export interface LeaseEnv {
  pid: number;
  host: string;
  now: () => number;
  alive: (pid: number) => boolean;
}

const defaultEnv = (): LeaseEnv => ({ pid: process.pid, host: hostname(), now: Date.now, alive: pidAlive });

function stale(row: LeaseRow, env: LeaseEnv): boolean {
  if (row.host === env.host) return row.pid === env.pid ? !held.has(row.token) : !env.alive(row.pid);
  return env.now() - row.heartbeat > STALE_MS;
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
      throw new InputError(
        file,
        undefined,
        undefined,
        `in use by another ragjudge run (${row.holder}, ${where}, since ${row.started}): wait for it to finish, or give this run another --cache-dir`,
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
