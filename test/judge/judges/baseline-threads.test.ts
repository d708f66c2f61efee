import { describe, expect, it } from "vitest";
import { hashJson } from "../../../src/golden/hash.js";
import type { Evidence } from "../../../src/golden/schema/items.js";
import { baselineOutcome } from "../../../src/judge/judges/baseline-outcome.js";
import { BaselineThreads, threadsConcurrency } from "../../../src/judge/judges/baseline-threads.js";
import { baselineBackend } from "../../../src/judge/judges/baseline.js";
import { runJudge } from "../../../src/judge/schedule/run.js";
import { ALL_RUBRICS, fixtureInputs } from "../helpers.js";

const { itemSet } = fixtureInputs(ALL_RUBRICS);
const judgedItems = itemSet.items.filter((i) => !i.rule);

/** `n` calls of the shipped example's items, each answer changed a little so no two are the same. */
function calls(n: number): [string, Evidence][] {
  return Array.from({ length: n }, (_, i) => {
    const item = judgedItems[i % judgedItems.length]!;
    const e = item.evidence;
    return [item.rubric.name, e.answer === undefined ? e : { ...e, answer: `${e.answer} (${i % 7} days)` }];
  });
}

/** Runs every call with at most `width` in flight, as the scheduler does. */
async function runAll(t: BaselineThreads, cs: readonly [string, Evidence][], width: number): Promise<unknown[]> {
  const out = new Array<unknown>(cs.length);
  let next = 0;
  const lane = async () => {
    while (next < cs.length) {
      const i = next++;
      out[i] = await t.judge(cs[i]![0], cs[i]![1]).catch((e: Error) => ({ rejected: `${e.name}: ${e.message}` }));
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return out;
}

/** Threads whose worker has started and loaded (a first burst of calls starts it; loading the sources through tsx takes a moment). */
async function warmThreads(): Promise<BaselineThreads> {
  const t = new BaselineThreads({ threads: 1, startAfter: 0 });
  await runAll(t, calls(64), 64);
  for (let waited = 0; t.readyWorkers === 0; waited += 20) {
    if (waited > 20_000) throw new Error("the worker thread did not start");
    await new Promise((r) => setTimeout(r, 20));
  }
  t.judged.here = t.judged.workers = 0;
  return t;
}

const direct = (cs: readonly [string, Evidence][]) => cs.map(([r, e]) => baselineOutcome(r, e));

describe("BaselineThreads", () => {
  it("gives every call the outcome this thread gives it, sharing the calls with a worker thread", async () => {
    const cs = calls(1500);
    const t = await warmThreads();
    const got = await runAll(t, cs, threadsConcurrency(1));
    expect(got).toEqual(direct(cs));
    // both threads judged a share: the worker path ran, and this thread kept working while it started
    expect(t.judged.workers).toBeGreaterThan(0);
    expect(t.judged.here).toBeGreaterThan(0);
    expect(t.judged.here + t.judged.workers).toBe(cs.length);
  }, 20_000);

  it("loses no call when its worker dies mid-run: the calls it held are judged here, and no worker starts again", async () => {
    const cs = calls(3000);
    const t = await warmThreads();
    const running = runAll(t, cs, threadsConcurrency(1));
    // wait until the worker holds work, then kill it
    while (t.judged.workers === 0) await new Promise((r) => setImmediate(r));
    await t.stopWorkers();
    const got = await running;
    expect(got).toEqual(direct(cs));
    expect(t.running).toBe(0);
    const before = t.judged.workers;
    expect(await runAll(t, calls(600), threadsConcurrency(1))).toEqual(direct(calls(600)));
    expect(t.judged.workers).toBe(before);
    expect(t.running).toBe(0);
  }, 20_000);

  it("starts no worker for a small run, nor for a caller that sends one call at a time", async () => {
    const small = new BaselineThreads({ threads: 1 });
    expect(await runAll(small, calls(300), threadsConcurrency(1))).toEqual(direct(calls(300)));
    expect(small.judged.workers).toBe(0);
    expect(small.running).toBe(0);
    const oneByOne = new BaselineThreads({ threads: 1, startAfter: 0 });
    expect(await runAll(oneByOne, calls(700), 1)).toEqual(direct(calls(700)));
    expect(oneByOne.judged.workers).toBe(0);
    expect(oneByOne.running).toBe(0);
  });

  it("fails a call the baseline cannot judge on either thread, and judges the others", async () => {
    const cs = calls(800);
    cs[10] = ["no-such-rubric", cs[10]![1]];
    cs[700] = ["no-such-rubric", cs[700]![1]];
    const t = await warmThreads();
    const got = await runAll(t, cs, threadsConcurrency(1));
    // the error this thread throws for it, name and message: a worker's rejection is the same
    let here = "";
    try {
      baselineOutcome("no-such-rubric", cs[10]![1]);
    } catch (e) {
      here = `${(e as Error).name}: ${(e as Error).message}`;
    }
    expect(here).toContain('no rule for rubric "no-such-rubric"');
    expect(got[10]).toEqual({ rejected: here });
    expect(got[700]).toEqual({ rejected: here });
    expect(t.judged.workers).toBeGreaterThan(0);
    const ok = (xs: unknown[]) => xs.filter((_, i) => i !== 10 && i !== 700);
    expect(ok(got)).toEqual(ok(direct(cs.map((c, i) => (i === 10 || i === 700 ? calls(1)[0]! : c)))));
  }, 20_000);
});

describe("the baseline judge record on worker threads", () => {
  it("gives a run the judgments it gives on one thread (1,500 distinct calls, enough for its worker to take batches)", async () => {
    // each copy's answers changed a little, so no two calls are the same and the queue fills past a batch
    const items = Array.from({ length: 40 }, (_, c) =>
      itemSet.items
        .filter((it) => c === 0 || (!it.rule && it.evidence.answer !== undefined))
        .map((it) => {
          if (c === 0) return it;
          const evidence = { ...it.evidence, answer: `${it.evidence.answer} (${c} days)` };
          return { ...it, key: { ...it.key, question: `${it.key.question}~${c}` }, evidence, inputHash: hashJson(evidence) };
        }),
    ).flat();
    expect(new Set(items.map((i) => i.inputHash)).size).toBeGreaterThan(1_000);
    const strip = (js: { time?: string }[]) => js.map(({ time: _t, ...j }) => j);
    const one = await runJudge({ items, backend: baselineBackend({ threads: 0 }), repeats: 1, concurrency: 256 });
    const shared = baselineBackend({ threads: 1, startAfter: 0 });
    // The first run starts the worker, which loads while this thread judges them all; 200 ms later (its idle
    // stop is 250 ms) the second run shares with it: a worker reply changed on purpose fails this test.
    const warm = await runJudge({ items, backend: shared, repeats: 1, concurrency: 256 });
    await new Promise((r) => setTimeout(r, 200));
    const two = await runJudge({ items, backend: shared, repeats: 1, concurrency: 256 });
    expect(strip(warm.judgments)).toEqual(strip(one.judgments));
    expect(strip(two.judgments)).toEqual(strip(one.judgments));
    expect(shared.maxConcurrency).toBe(threadsConcurrency(1));
  }, 20_000);
});
