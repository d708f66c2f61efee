import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/golden/errors.js";
import { CACHE_FILE, JudgeCache, cacheKey, type CachedVerdict } from "../../src/judge/cache.js";
import { tempDir } from "./helpers.js";

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
