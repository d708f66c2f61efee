import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { CACHE_FILE, JudgeCache, cacheKey, type CachedVerdict } from "../../../src/judge/schedule/cache.js";
import { CommitBatcher } from "../../../src/judge/schedule/commits.js";
import { join } from "node:path";
import { tempDir } from "../helpers.js";

const FP = "a".repeat(64);
const hash = (i: number) => i.toString(16).padStart(64, "0");
const done = (i: number): CachedVerdict => ({ status: "done", verdict: i % 2 ? "yes" : "no", reason: `reason ${i}`, judge: "llm", rubric: "faithfulness", model: "m", time: "2026-01-01T00:00:00.000Z" });

/** Committed verdicts as another connection sees them (what survives a kill -9). */
function committed(dir: string): number {
  const db = new Database(join(dir, CACHE_FILE), { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM verdicts WHERE status = 'done'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe("CommitBatcher", () => {
  it("commits every verdict handed over in one event-loop turn in one transaction, and resolves only once it is committed", async () => {
    const dir = tempDir();
    const cache = JudgeCache.open(dir);
    const commits = new CommitBatcher(cache);
    const seen: number[] = [];
    const puts = Array.from({ length: 50 }, (_, i) => commits.put(cacheKey(FP, hash(i), 0), done(i)).then(() => seen.push(committed(dir))));
    expect(commits.uncommitted).toBe(50);
    expect(committed(dir)).toBe(0);
    await Promise.all(puts);
    // Every put resolved with its verdict already visible to another connection.
    expect(seen.every((n) => n === 50)).toBe(true);
    expect(commits.stats).toEqual({ commits: 1, verdicts: 50, largest: 50 });
    expect(commits.uncommitted).toBe(0);
    cache.close();
  });

  it("commits at once when maxBatch verdicts wait", async () => {
    const dir = tempDir();
    const cache = JudgeCache.open(dir);
    const commits = new CommitBatcher(cache, { maxBatch: 10 });
    const puts = Array.from({ length: 25 }, (_, i) => commits.put(cacheKey(FP, hash(i), 0), done(i)));
    expect(committed(dir)).toBe(20);
    expect(commits.uncommitted).toBe(5);
    await Promise.all(puts);
    expect(commits.stats).toEqual({ commits: 3, verdicts: 25, largest: 10 });
    cache.close();
  });

  it("resolves what the cache holds: the verdict committed first, never a later reply", async () => {
    const cache = JudgeCache.open(tempDir());
    cache.put(cacheKey(FP, hash(1), 0), done(1));
    const commits = new CommitBatcher(cache);
    const [a, b] = await Promise.all([commits.put(cacheKey(FP, hash(1), 0), done(3)), commits.put(cacheKey(FP, hash(2), 0), done(2))]);
    expect(a).toEqual({ stored: false, verdict: { ...done(1), raw: undefined, servedModel: undefined, usage: undefined, attempts: undefined, error: undefined } });
    expect(b).toEqual({ stored: true, verdict: done(2) });
    cache.close();
  });

  it("rejects every verdict of a failed commit, storing none of them", async () => {
    const dir = tempDir();
    const cache = JudgeCache.open(dir);
    const commits = new CommitBatcher(cache);
    const good = commits.put(cacheKey(FP, hash(1), 0), done(1));
    const bad = commits.put(cacheKey(FP, hash(2), 0), { ...done(2), verdict: "error" });
    await expect(good).rejects.toThrow(/status done needs/);
    await expect(bad).rejects.toThrow(/status done needs/);
    expect(committed(dir)).toBe(0);
    cache.close();
  });
});
