import { describe, expect, it } from "vitest";
import { JudgeCache, cacheKey, type CacheKey, type CachedVerdict } from "../../../src/judge/schedule/cache.js";
import { tempDir } from "../helpers.js";

const FP = "a".repeat(64);
const OTHER = "c".repeat(64);
const hash = (i: number) => i.toString(16).padStart(64, "0");
const done = (i: number): CachedVerdict => ({
  status: "done", verdict: i % 2 ? "yes" : "no", reason: `reason ${i}`, judge: "llm", rubric: "faithfulness", model: "m", servedModel: "m-2025",
  usage: { prompt: 100 + i, completion: 20 }, attempts: 1, raw: `{"i":${i}}`, time: "2026-01-01T00:00:00.000Z",
  // a P(yes) on most (log-probabilities or the baseline's model), none on every third: both kinds of row come back as stored
  ...(i % 3 ? { pYes: (i % 1000) / 1000 } : {}),
});
const error = (i: number): CachedVerdict => ({ status: "error", verdict: "error", reason: "", error: `http-500: ${i}`, judge: "llm", rubric: "faithfulness", time: "2026-01-01T00:00:00.000Z" });

/** A cache holding done verdicts for hashes [0, n) of FP (every 7th an error instead), and n of another fingerprint. */
function filled(n: number): JudgeCache {
  const c = JudgeCache.open(tempDir());
  const entries: { key: CacheKey; verdict: CachedVerdict }[] = [];
  for (let i = 0; i < n; i++) entries.push({ key: cacheKey(FP, hash(i), 0), verdict: i % 7 === 3 ? error(i) : done(i) }, { key: cacheKey(OTHER, hash(i), 0), verdict: done(i + 1) });
  c.putMany(entries);
  return c;
}

describe("JudgeCache.getDoneMany", () => {
  it("answers exactly as getDone key by key, when most of a fingerprint's rows are asked (one scan)", () => {
    const c = filled(300);
    // Asked: all stored hashes, some never stored, a repeat never stored, a duplicate and the other fingerprint.
    const keys = [...Array.from({ length: 320 }, (_, i) => cacheKey(FP, hash(i), 0)), cacheKey(FP, hash(5), 1), cacheKey(FP, hash(8), 0), cacheKey(OTHER, hash(2), 0)];
    expect(c.getDoneMany(keys)).toEqual(keys.map((k) => c.getDone(k)));
    expect(c.getDoneMany(keys).filter(Boolean)).toHaveLength(300 - 43 + 2);
    expect(c.getDoneMany(keys)[4]?.pYes).toBe(0.004);
    c.close();
  });

  it("answers exactly as getDone key by key, when a few keys among many rows are asked (lookups by key)", () => {
    const c = filled(500);
    const keys = [cacheKey(FP, hash(1), 0), cacheKey(FP, hash(3), 0), cacheKey(FP, hash(900), 0), cacheKey(FP, hash(1), 0), cacheKey(FP, hash(2), 2)];
    expect(c.getDoneMany(keys)).toEqual(keys.map((k) => c.getDone(k)));
    expect(c.getDoneMany(keys).map((v) => v?.reason)).toEqual(["reason 1", undefined, undefined, "reason 1", undefined]);
    c.close();
  });

  it("returns all undefined for an empty cache and nothing for no keys", () => {
    const c = JudgeCache.open(tempDir());
    expect(c.getDoneMany([cacheKey(FP, hash(1), 0)])).toEqual([undefined]);
    expect(c.getDoneMany([])).toEqual([]);
    c.close();
  });
});

describe("JudgeCache.putMany", () => {
  it("resolves each entry as put would, in one transaction: a committed verdict is kept over a later one", () => {
    const c = JudgeCache.open(tempDir());
    c.put(cacheKey(FP, hash(1), 0), done(1));
    const r = c.putMany([
      { key: cacheKey(FP, hash(1), 0), verdict: done(2) },
      { key: cacheKey(FP, hash(2), 0), verdict: error(2) },
      { key: cacheKey(FP, hash(2), 0), verdict: done(3) },
    ]);
    expect(r.map((x) => x.stored)).toEqual([false, true, true]);
    expect(r[0]!.verdict.reason).toBe("reason 1");
    expect(c.getDone(cacheKey(FP, hash(2), 0))!.reason).toBe("reason 3");
    c.close();
  });

  it("stores none of a batch when one entry fails", () => {
    const c = JudgeCache.open(tempDir());
    const bad = { ...done(5), verdict: "error" as const };
    expect(() => c.putMany([{ key: cacheKey(FP, hash(4), 0), verdict: done(4) }, { key: cacheKey(FP, hash(5), 0), verdict: bad }])).toThrow(/status done needs/);
    expect(c.countDone()).toBe(0);
    c.close();
  });
});

describe("JudgeCache.eachDone", () => {
  it("calls back once per key with a committed verdict, matching input hash and repeat, the same as getDoneMany", () => {
    const c = JudgeCache.open(tempDir());
    // Three repeats of some hashes, so a scan row must match its repeat, not only its hash.
    const entries: { key: CacheKey; verdict: CachedVerdict }[] = [];
    for (let i = 0; i < 40; i++) for (let r = 0; r < (i % 3) + 1; r++) entries.push({ key: cacheKey(FP, hash(i), r), verdict: done(i * 10 + r) });
    c.putMany(entries);
    const keys = [...Array.from({ length: 40 }, (_, i) => [cacheKey(FP, hash(i), 0), cacheKey(FP, hash(i), 1), cacheKey(FP, hash(i), 2)]).flat(), cacheKey(FP, hash(7), 1)];
    const seen = new Map<number, CachedVerdict>();
    c.eachDone(keys, (i, v) => {
      expect(seen.has(i)).toBe(false);
      seen.set(i, v);
    });
    const many = c.getDoneMany(keys);
    expect(many).toEqual(keys.map((k) => c.getDone(k)));
    expect(keys.map((_, i) => seen.get(i))).toEqual(many);
    expect(many.filter(Boolean)).toHaveLength(40 + 26 + 13 + 1);
    expect(many[3 * 7 + 1]?.reason).toBe("reason 71");
    c.close();
  });
});

describe("JudgeCache.eachDone over a large cache", () => {
  it("stops its scan after twice as many rows as keys and looks the rest up, calling back once per key either way", () => {
    const c = filled(1000);
    // Some keys early in key order (found by the scan before it stops), some late (looked up), some absent or errors, one twice.
    const ids = [0, 1, 2, 5, 10, 3, 642, 641, 999, 1500, 17, 2];
    const keys = [...ids.map((i) => cacheKey(FP, hash(i), 0)), cacheKey(OTHER, hash(700), 0)];
    const calls = keys.map(() => 0);
    const seen: (CachedVerdict | undefined)[] = keys.map(() => undefined);
    c.eachDone(keys, (i, v) => {
      calls[i]!++;
      seen[i] = v;
    });
    expect(seen).toEqual(keys.map((k) => c.getDone(k)));
    expect(calls).toEqual(seen.map((v) => (v ? 1 : 0)));
    expect(seen.map((v) => v?.reason)).toEqual(["reason 0", "reason 1", "reason 2", "reason 5", undefined, undefined, "reason 642", "reason 641", "reason 999", undefined, undefined, "reason 2", "reason 701"]);
    c.close();
  });
});

describe("JudgeCache bulk scan of rows whose names differ", () => {
  // The scan asks SQLite for each name only where it differs from the first row's (see cache.ts):
  // every mix of equal, other and missing names must come back as stored.
  const names = [
    { judge: "llm", rubric: "faithfulness", model: "m", servedModel: "m-2025" },
    { judge: "llm", rubric: "faithfulness", model: undefined, servedModel: undefined },
    { judge: "baseline", rubric: "correctness", model: "other", servedModel: "m-2026" },
    { judge: "llm", rubric: "faithfulness", model: "m", servedModel: undefined },
    { judge: "llm", rubric: "faithfulness", model: undefined, servedModel: "m-2025" },
  ] as const;
  for (const start of [0, 1, 2]) {
    it(`reads every row as getDone does when the first row has the names of case ${start}`, () => {
      const c = JudgeCache.open(tempDir());
      const keys = Array.from({ length: 60 }, (_, i) => cacheKey(FP, hash(i), 0));
      c.putMany(keys.map((key, i) => ({ key, verdict: { ...done(i), ...names[(i + start) % names.length]! } as CachedVerdict })));
      const seen: (CachedVerdict | undefined)[] = keys.map(() => undefined);
      c.eachDone(keys, (i, v) => (seen[i] = v));
      expect(seen).toEqual(keys.map((k) => c.getDone(k)));
      expect(seen.map((v) => [v?.judge, v?.rubric, v?.model, v?.servedModel])).toEqual(keys.map((_, i) => {
        const n = names[(i + start) % names.length]!;
        return [n.judge, n.rubric, n.model, n.servedModel];
      }));
      c.close();
    });
  }
});
