import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/golden/errors.js";
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { CACHE_FILE, JudgeCache, cacheKey, type CachedVerdict } from "../../../src/judge/schedule/cache.js";
import { STALE_MS, acquireLease } from "../../../src/judge/schedule/lease.js";
import { tempDir } from "../helpers.js";

const FP = "a".repeat(64);
const H = "b".repeat(64);
const done = (verdict: "yes" | "no", extra: Partial<CachedVerdict> = {}): CachedVerdict => ({
  status: "done", verdict, reason: `because ${verdict}`, judge: "llm", rubric: "faithfulness", model: "m", servedModel: "m-2025",
  usage: { prompt: 100, completion: 20 }, attempts: 1, raw: '{"choices":[]}', time: "2026-01-01T00:00:00.000Z", ...extra,
});
const error = (cause: string): CachedVerdict => ({ status: "error", verdict: "error", reason: "", error: cause, judge: "llm", rubric: "faithfulness", time: "2026-01-01T00:00:00.000Z" });

describe("JudgeCache", () => {
  it("stores a verdict under fingerprint, input hash and repeat, and reads it back after reopening", () => {
    const dir = tempDir();
    const c = JudgeCache.open(dir);
    c.put(cacheKey(FP, H, 0), done("yes"));
    c.put(cacheKey(FP, H, 1), done("no"));
    c.close();
    const again = JudgeCache.open(dir);
    expect(again.getDone(cacheKey(FP, H, 0))).toEqual({ ...done("yes"), raw: undefined });
    expect(again.raw(cacheKey(FP, H, 0))).toBe('{"choices":[]}');
    expect(again.getDone(cacheKey(FP, H, 1))!.verdict).toBe("no");
    expect(again.getDone(cacheKey(FP, H, 2))).toBeUndefined();
    expect(again.getDone(cacheKey("c".repeat(64), H, 0))).toBeUndefined();
    expect(again.countDone()).toBe(2);
    again.close();
  });

  it("uses WAL journaling", () => {
    const c = JudgeCache.open(tempDir());
    expect(c.db.pragma("journal_mode", { simple: true })).toBe("wal");
    c.close();
  });

  it("keeps errors for audit but never returns them as verdicts, and lets a later verdict replace them", () => {
    const c = JudgeCache.open(tempDir());
    const k = cacheKey(FP, H, 0);
    c.put(k, error("http-500: boom"));
    expect(c.get(k)).toMatchObject({ status: "error", error: "http-500: boom" });
    expect(c.getDone(k)).toBeUndefined();
    c.put(k, done("no"));
    expect(c.getDone(k)!.verdict).toBe("no");
    c.close();
  });

  it("never replaces a committed verdict (by an error or another verdict)", () => {
    const c = JudgeCache.open(tempDir());
    const k = cacheKey(FP, H, 0);
    c.put(k, done("yes"));
    c.put(k, error("timeout"));
    c.put(k, done("no"));
    expect(c.get(k)).toMatchObject({ status: "done", verdict: "yes" });
    c.close();
  });

  it("returns what it holds after a put: the caller's outcome, or the verdict committed before it", () => {
    const dir = tempDir();
    const a = JudgeCache.open(dir);
    const b = JudgeCache.open(dir);
    const k = cacheKey(FP, H, 0);
    expect(a.put(k, error("timeout"))).toEqual({ stored: true, verdict: error("timeout") });
    expect(b.put(k, done("yes"))).toEqual({ stored: true, verdict: done("yes") });
    // Another connection (another run) committed "yes" first: its "no" is not stored, and it learns the "yes".
    expect(a.put(k, done("no", { reason: "mine" }))).toMatchObject({ stored: false, verdict: { status: "done", verdict: "yes", reason: "because yes" } });
    expect(a.put(k, error("late"))).toMatchObject({ stored: false, verdict: { verdict: "yes" } });
    a.close();
    b.close();
  });

  it("refuses inconsistent rows", () => {
    const c = JudgeCache.open(tempDir());
    expect(() => c.put(cacheKey(FP, H, 0), { ...done("yes"), status: "error" })).toThrow();
    c.close();
  });

  it("remembers an endpoint's response mode per base URL and model", () => {
    const dir = tempDir();
    const c = JudgeCache.open(dir);
    expect(c.responseMode("http://x/v1", "m")).toBeUndefined();
    c.rememberResponseMode("http://x/v1", "m", "text", "400");
    c.close();
    const again = JudgeCache.open(dir);
    expect(again.responseMode("http://x/v1", "m")).toBe("text");
    expect(again.responseMode("http://x/v1", "other")).toBeUndefined();
    again.close();
  });

  it("opens read-only only when a cache exists", () => {
    const dir = tempDir();
    expect(JudgeCache.openReadOnly(dir)).toBeUndefined();
    JudgeCache.open(dir).close();
    const ro = JudgeCache.openReadOnly(dir)!;
    expect(ro.getDone(cacheKey(FP, H, 0))).toBeUndefined();
    ro.close();
  });

  it("reports a file that is not a cache as an input error naming it", () => {
    const dir = tempDir();
    writeFileSync(join(dir, CACHE_FILE), "this is not sqlite, just text that is long enough to have a header".repeat(10));
    expect(() => JudgeCache.open(dir)).toThrow(InputError);
    expect(() => JudgeCache.open(dir)).toThrow(/judge-cache\.sqlite: .*delete it/);
  });
});

describe("the cache folder's lease", () => {
  it("lets one run at a time hold it, naming the holder to the second, and frees it on release", () => {
    const dir = tempDir();
    const a = JudgeCache.open(dir);
    const b = JudgeCache.open(dir);
    const lease = a.acquireLease("ragjudge judge");
    expect(() => b.acquireLease("ragjudge batch import")).toThrow(InputError);
    expect(() => b.acquireLease("ragjudge batch import")).toThrow(new RegExp(`judge-cache\\.sqlite: in use by another ragjudge run \\(ragjudge judge, pid ${process.pid}, since .*\\): wait for it to finish, or give this run another --cache-dir`));
    lease.release();
    lease.release();
    const second = b.acquireLease("ragjudge batch import");
    second.release();
    a.close();
    b.close();
  });

  it("openLeased holds the lease until close, and a refused lease leaves no cache open", () => {
    const dir = tempDir();
    const held = JudgeCache.openLeased(dir, "ragjudge batch collect");
    expect(() => JudgeCache.openLeased(dir, "ragjudge batch import")).toThrow(/in use by another ragjudge run \(ragjudge batch collect,/);
    held.close();
    expect(held.cache.db.open).toBe(false);
    const next = JudgeCache.openLeased(dir, "ragjudge batch import");
    next.close();
  });

  it("takes over a lease left by a killed run: on this host when its process is gone, from another host when its heartbeat is stale", () => {
    const dir = tempDir();
    const c = JudgeCache.open(dir);
    // A run in another live process (here: this test's parent) holds it.
    acquireLease(c.db, c.file, "other run", { pid: process.ppid });
    expect(() => c.acquireLease("me")).toThrow(new RegExp(`other run, pid ${process.ppid},`));
    // Once that process is gone (kill -9 leaves its row behind), the lease is free.
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid!;
    c.db.prepare("UPDATE lease SET pid = ?").run(gone);
    expect(c.acquireLease("me").token).toMatch(/-/);
    c.db.prepare("DELETE FROM lease").run();
    // Another host: a fresh heartbeat holds, one older than STALE_MS does not.
    acquireLease(c.db, c.file, "remote run", { host: "elsewhere", pid: 5 });
    expect(() => c.acquireLease("me")).toThrow(/pid 5 on elsewhere/);
    c.db.prepare("UPDATE lease SET heartbeat = ?").run(Date.now() - STALE_MS - 1000);
    const mine = c.acquireLease("me");
    expect(c.db.prepare("SELECT holder FROM lease").get()).toEqual({ holder: "me" });
    mine.release();
    expect(c.db.prepare("SELECT count(*) AS n FROM lease").get()).toEqual({ n: 0 });
    c.close();
  });

  it("takes over a lease of this very pid that this process does not hold (a container restarted with the same pid)", () => {
    const dir = tempDir();
    const c = JudgeCache.open(dir);
    c.db.exec("CREATE TABLE IF NOT EXISTS lease (id INTEGER PRIMARY KEY CHECK (id = 1), token TEXT NOT NULL, holder TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL, started TEXT NOT NULL, heartbeat INTEGER NOT NULL)");
    c.db.prepare("INSERT INTO lease VALUES (1, 'old-token', 'old run', ?, ?, '2026-01-01T00:00:00.000Z', ?)").run(process.pid, hostname(), Date.now());
    c.acquireLease("me").release();
    c.close();
  });

  it("expires a lease by heartbeat age even when its pid now belongs to another live process, and says how to clear it", () => {
    const dir = tempDir();
    const c = JudgeCache.open(dir);
    // A killed run's row whose pid was reused by a live process (here: this test's parent).
    acquireLease(c.db, c.file, "old run", { pid: process.ppid });
    const refused = (() => {
      try {
        c.acquireLease("me");
      } catch (e) {
        return (e as Error).message;
      }
      return "";
    })();
    expect(refused).toMatch(/in use by another ragjudge run \(old run, pid \d+, since [^)]+, last heartbeat \d+ s ago\): wait for it to finish, or give this run another --cache-dir; if no ragjudge run is alive, the lease expires by itself at .+ \(\d+ s after its last heartbeat\)$/);
    c.db.prepare("UPDATE lease SET heartbeat = ?").run(Date.now() - STALE_MS - 1000);
    const mine = c.acquireLease("me");
    expect(c.db.prepare("SELECT holder FROM lease").get()).toEqual({ holder: "me" });
    mine.release();
    c.close();
  });
});
