import { describe, expect, it } from "vitest";
import { runPool, type PoolStats } from "../../../src/judge/schedule/pool.js";

/** A source that counts how many of its items were taken; `live` is taken minus finished. */
function counted(n: number) {
  const c = { taken: 0, finished: 0, maxLive: 0 };
  function* items() {
    for (let i = 0; i < n; i++) {
      c.taken++;
      c.maxLive = Math.max(c.maxLive, c.taken - c.finished);
      yield i;
    }
  }
  return { c, source: items() };
}

const tick = () => new Promise<void>((r) => setImmediate(r));

describe("runPool", () => {
  it("holds at most `width` tasks at once however long the source: memory bounded by the width, not the calls", async () => {
    const { c, source } = counted(20_000);
    const order: number[] = [];
    const stats = await runPool(source, 16, async (i) => {
      await tick();
      order.push(i);
      c.finished++;
    });
    expect(c.taken).toBe(20_000);
    expect(c.maxLive).toBeLessThanOrEqual(16);
    expect(stats.peak).toBe(16);
    expect(stats.active).toBe(0);
    expect(stats.taken).toBe(20_000);
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: 20_000 }, (_, i) => i));
  });

  it("takes nothing more once stopped, and lets the tasks in flight finish", async () => {
    const { c, source } = counted(1000);
    let stop = false;
    const stats: PoolStats = { active: 0, peak: 0, taken: 0 };
    await runPool(
      source,
      4,
      async (i) => {
        await tick();
        if (i === 10) stop = true;
        c.finished++;
      },
      () => stop,
      stats,
    );
    expect(c.finished).toBe(c.taken);
    expect(c.taken).toBeLessThanOrEqual(11 + 4);
    expect(stats.active).toBe(0);
  });

  it("re-throws the first failure after the tasks in flight have finished", async () => {
    const { c, source } = counted(100);
    const finished: number[] = [];
    await expect(
      runPool(source, 3, async (i) => {
        await tick();
        if (i === 5) throw new Error("boom 5");
        if (i === 6) throw new Error("boom 6");
        finished.push(i);
      }),
    ).rejects.toThrow("boom 5");
    expect(c.taken).toBeLessThanOrEqual(9);
  });

  it("starts no more workers than there are tasks, whatever the width (a width of 2^32 threw \"Invalid array length\")", async () => {
    const { c, source } = counted(3);
    const done: number[] = [];
    const stats = await runPool(source, 2 ** 32, async (i) => {
      await tick();
      done.push(i);
      c.finished++;
    });
    expect(done.sort()).toEqual([0, 1, 2]);
    expect(stats.peak).toBe(3);
    expect(stats.taken).toBe(3);
  });

  it("re-throws a source that throws, after the tasks in flight have finished", async () => {
    let n = 0;
    const source: Iterator<number> = { next: () => (n < 2 ? { done: false, value: n++ } : (() => { throw new Error("source broke"); })()) };
    const finished: number[] = [];
    await expect(runPool(source, 8, async (i) => { await tick(); finished.push(i); })).rejects.toThrow("source broke");
    expect(finished.sort()).toEqual([0, 1]);
  });

  it("refuses an endless width", async () => {
    await expect(runPool([1].values(), Number.POSITIVE_INFINITY, async () => {})).rejects.toThrow(/finite/);
  });
});
