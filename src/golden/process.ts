import { createHash } from "node:crypto";
import { hostname } from "node:os";

/**
 * Whether a process with this id is running on this host. A process we may
 * not signal (EPERM) is running too. Used to tell a killed run's leftovers
 * (a lease row, a half-written evaluation folder) from a live run's.
 *
 * @example
 * pidAlive(process.pid) // true
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === "EPERM";
  }
}

/** Eight hex digits naming this host in temporary names, so runs on two hosts sharing a folder never take each other's leftovers for their own. */
export function hostTag(host = hostname()): string {
  return createHash("sha256").update(host).digest("hex").slice(0, 8);
}
