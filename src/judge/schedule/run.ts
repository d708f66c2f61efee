import type { Judgment } from "../../golden/schema/items.js";
import type { Judge, JudgeOutcome } from "../judges/judge.js";
import { requireJudgeNumbers } from "../judges/numbers.js";
import { cacheKey, type CachedVerdict, type JudgeCache } from "./cache.js";
import { planCalls, type Call } from "./calls.js";
import { CommitBatcher } from "./commits.js";
import { runPool, type PoolStats } from "./pool.js";
import { RULE_FINGERPRINT, type Item } from "../items/items.js";
import type { RetryCounts } from "../transport/client.js";
import { costUsd, type Price } from "./cost.js";
import type { Rubric } from "../rubric/rubric.js";

/** Live counters of a run, for the progress display. */
export interface ProgressState {
  /** Verdicts the run produces (calls, cache hits and rule verdicts). */
  total: number;
  done: number;
  cacheHits: number;
  /** Judge calls finished in this run (each may have taken several attempts). */
  calls: number;
  errors: number;
  /** Prompt plus completion tokens of this run's calls. */
  tokens: number;
  promptTokens: number;
  completionTokens: number;
  inFlight: number;
  startedAt: number;
  /** Calls this run has to make (the verdicts not in the cache, identical evidence judged once). */
  plannedCalls: number;
  /** Retries so far by cause, for a judge that calls an endpoint. */
  retries?: RetryCounts;
  /** USD of this run's calls so far, and projected for all its planned calls, when the model has a price. */
  cost?: number;
  projectedCost?: number;
}

/** Calls and tokens of one rubric in this run (cache hits cost nothing). */
export interface RubricUsage {
  calls: number;
  prompt: number;
  completion: number;
}

export interface RunOptions {
  items: readonly Item[];
  /** The judge (a {@link Judge} record): the scheduler reads its properties, never which judge it is. */
  backend: Judge;
  /** Required for a judge whose verdicts are cached (the LLM judge); ignored otherwise. */
  cache?: JudgeCache;
  /** Times each item is judged (repeat index 0..n-1) by a repeatable judge; rule verdicts and other judges' are made once. */
  repeats: number;
  /** Calls in flight at most (the judge's `maxConcurrency` may lower it). */
  concurrency: number;
  onProgress?: (p: Readonly<ProgressState>) => void;
  /** Who holds the cache's lease during the run, for the message a second run gets (default "ragjudge judge"). */
  holder?: string;
  /** false: the caller already holds the cache's lease. */
  lease?: false;
  /** The model's price (config `prices`), for the running cost and the projected total. */
  price?: Price;
  /** Verdicts at most per commit (default 256; see commits.ts). */
  commitBatch?: number;
  /** For tests and benchmarks: filled with the call pool's counters (see pool.ts). */
  poolStats?: PoolStats;
}

export interface RunResult {
  /** One per item and repeat, in item order. */
  judgments: Judgment[];
  progress: ProgressState;
  usage: Map<string, RubricUsage>;
}

// The judgments below copy the item's key field by field, in ItemKey's order: `{ ...item.key, ... }`
// took V8's slow object-clone path, 30 times the cost (1.2 s of CPU for 80,000 cached verdicts).

/** One frozen `meta` per attempt count, shared by the judgments that have it (a rerun's 80,000 verdicts need a handful). */
const metas: Judgment["meta"][] = [];
function metaOf(attempts: number | undefined): Judgment["meta"] {
  if (attempts === undefined) return undefined;
  if (!Number.isInteger(attempts) || attempts < 0 || attempts > 64) return { attempts };
  return (metas[attempts] ??= Object.freeze({ attempts }));
}

function fromCache(item: Item, repeat: number, fingerprint: string, c: CachedVerdict): Judgment {
  const k = item.key;
  return {
    variant: k.variant,
    question: k.question,
    rubric: k.rubric,
    unit: k.unit,
    inputHash: item.inputHash,
    fingerprint,
    judge: c.judge,
    model: c.model,
    servedModel: c.servedModel,
    repeat,
    verdict: c.verdict,
    reason: c.reason,
    pYes: c.pYes,
    error: c.error,
    usage: c.usage,
    cached: true,
    time: c.time,
    meta: metaOf(c.attempts),
  };
}

function fromOutcome(item: Item, repeat: number, backend: Judge, o: JudgeOutcome, time: string): Judgment {
  const k = item.key;
  return {
    variant: k.variant,
    question: k.question,
    rubric: k.rubric,
    unit: k.unit,
    inputHash: item.inputHash,
    fingerprint: o.fingerprint,
    judge: backend.kind,
    model: backend.model,
    servedModel: o.servedModel,
    repeat,
    verdict: o.verdict,
    reason: o.reason,
    pYes: o.pYes,
    error: o.error,
    usage: o.usage,
    cached: false,
    time,
    meta: o.attempts === undefined ? undefined : { attempts: o.attempts },
  };
}

function ruleJudgment(item: Item, time: string): Judgment {
  const r = item.rule!;
  const k = item.key;
  return { variant: k.variant, question: k.question, rubric: k.rubric, unit: k.unit, inputHash: item.inputHash, fingerprint: RULE_FINGERPRINT, judge: "rule", repeat: 0, verdict: r.verdict, reason: r.reason, rule: r.rule, cached: false, time };
}

function toCached(backend: Judge, rubric: Rubric, o: JudgeOutcome, time: string): CachedVerdict {
  return {
    status: o.verdict === "error" ? "error" : "done",
    verdict: o.verdict,
    reason: o.reason,
    error: o.error,
    judge: backend.kind,
    rubric: rubric.name,
    model: backend.model,
    servedModel: o.servedModel,
    usage: o.usage,
    attempts: o.attempts,
    raw: o.raw,
    pYes: o.pYes,
    time,
  };
}

/**
 * Judges every item: rule items directly; the others through the judge,
 * `repeats` times each when the judge is `repeatable`. With a `cached`
 * judge, committed verdicts come from the cache without a call (one bulk
 * lookup) and every reply is committed within the event-loop turn it is read
 * in (group commit, commits.ts), its call slot waiting for that commit, so a
 * killed run loses at most `concurrency` replies and resumes where it
 * stopped. The calls stream through a bounded pool (pool.ts). Identical evidence under one rubric is judged once per repeat. At
 * most `concurrency` calls (and no more than the judge's `maxConcurrency`)
 * are in flight. A {@link FatalJudgeError} (or any other failure) stops
 * scheduling, lets the calls in flight finish and commit, then is thrown.
 * With a cached judge the run holds the cache folder's lease (lease.ts): a
 * second run on the same cache is refused with an InputError instead of
 * paying for the same calls; and a verdict another process committed first
 * is reported as it is in the cache, never this run's different reply.
 * Nothing here asks which judge it is: only the record's properties.
 * A `repeats` or `concurrency` outside the bounds of `--repeats` and
 * `--concurrency` (golden/bounds.ts) is refused with a RangeError before
 * anything runs: 2^32 calls in flight would abort V8.
 *
 * @example
 * const { judgments } = await runJudge({ items, backend, cache, repeats: 1, concurrency: 8 });
 */
export async function runJudge(opts: RunOptions): Promise<RunResult> {
  requireJudgeNumbers({ repeats: opts.repeats, concurrency: opts.concurrency });
  const { backend } = opts;
  if (backend.cached && !opts.cache) throw new Error(`runJudge: ${backend.name} caches its verdicts and needs a cache`);
  // One run per cache folder at a time: a second one is refused before it pays for anything.
  const lease = backend.cached && opts.cache && opts.lease !== false ? opts.cache.acquireLease(opts.holder ?? "ragjudge judge") : undefined;
  try {
    return await judgeAll(opts, backend);
  } finally {
    lease?.release();
  }
}

async function judgeAll(opts: RunOptions, backend: Judge): Promise<RunResult> {
  const repeats = backend.repeatable ? Math.max(1, opts.repeats) : 1;
  const usage = new Map<string, RubricUsage>();
  const progress: ProgressState = { total: 0, done: 0, cacheHits: 0, calls: 0, errors: 0, tokens: 0, promptTokens: 0, completionTokens: 0, inFlight: 0, startedAt: Date.now(), plannedCalls: 0 };
  const runTime = new Date().toISOString();
  const report = () => {
    if (!opts.onProgress) return;
    if (backend.retries) progress.retries = { ...backend.retries };
    if (opts.price) {
      progress.cost = costUsd(progress.promptTokens, progress.completionTokens, opts.price);
      // The calls made so far priced the average call; the planned ones will cost about as much each.
      progress.projectedCost = progress.calls > 0 ? (progress.cost / progress.calls) * progress.plannedCalls : undefined;
    }
    opts.onProgress(progress);
  };

  // Slots in item order; rule verdicts at once; identical evidence under one rubric is one call per repeat.
  const plan = planCalls(opts.items, repeats);
  const judgments = new Array<Judgment | undefined>(plan.slots);
  for (const s of plan.rules) judgments[s.index] = ruleJudgment(s.item, runTime);
  const registered = new Set<string>();
  /** Records in the cache what the rubric's current fingerprint stands for (once per fingerprint). */
  const register = (rubric: Rubric): string => {
    const fp = backend.fingerprint(rubric);
    if (opts.cache && !registered.has(fp)) {
      registered.add(fp);
      opts.cache.registerFingerprint(fp, rubric.name, backend.template(rubric));
    }
    return fp;
  };
  for (const call of plan.calls) register(call.item.rubric);
  progress.total = plan.slots;
  progress.done = plan.rules.length;

  const fill = (task: Call, make: (item: Item) => Judgment) => {
    for (const s of task.slots) judgments[s.index] = make(s.item);
    progress.done += task.slots.length;
  };

  const lookup = (task: Call): boolean => {
    if (!opts.cache || !backend.cached) return false;
    const fp = backend.fingerprint(task.item.rubric);
    const hit = opts.cache.getDone(cacheKey(fp, task.item.inputHash, task.repeat));
    if (!hit) return false;
    hitFrom(task, fp, hit);
    return true;
  };
  const hitFrom = (task: Call, fp: string, hit: CachedVerdict) => {
    fill(task, (item) => fromCache(item, task.repeat, fp, hit));
    progress.cacheHits += task.slots.length;
  };

  // Every committed verdict in one bulk lookup (a rerun asks nothing per item).
  let pending: Call[] = plan.calls;
  if (opts.cache && backend.cached && plan.calls.length > 0) {
    const cache = opts.cache;
    const fps = plan.calls.map((task) => backend.fingerprint(task.item.rubric));
    // Each hit becomes its judgments as its row is read: no array of cached verdicts kept in between.
    const hit = new Uint8Array(plan.calls.length);
    cache.eachDone(plan.calls.map((task, i) => cacheKey(fps[i]!, task.item.inputHash, task.repeat)), (i, v) => {
      hit[i] = 1;
      hitFrom(plan.calls[i]!, fps[i]!, v);
    });
    pending = plan.calls.filter((_, i) => hit[i] === 0);
    if (pending.length < plan.calls.length) backend.committed?.(plan.calls.length - pending.length);
  }
  progress.plannedCalls = pending.length;
  report();

  // The first failure that stops the run: a FatalJudgeError, or a bug or disk error. Calls in flight still commit.
  let stopped: unknown;
  const commits = opts.cache && backend.cached ? new CommitBatcher(opts.cache, { maxBatch: opts.commitBatch }) : undefined;
  const fingerprintsAtStart = new Map(pending.map((t) => [t.item.rubric.name, backend.fingerprint(t.item.rubric)]));
  const execute = async (task: Call) => {
    if (stopped !== undefined) return;
    progress.inFlight++;
    try {
      // The response mode may have switched since the first lookup: look again under the new fingerprint.
      const rubric = task.item.rubric;
      const fp = register(rubric);
      if (fp !== fingerprintsAtStart.get(rubric.name) && lookup(task)) return;
      const o = await backend.judge(rubric, task.item.evidence);
      const time = new Date().toISOString();
      // Report what the cache holds: a verdict another run committed first wins over this reply.
      // The slot waits for the commit before taking the next call: at most one uncommitted verdict per slot (commits.ts).
      const kept = backend.cached && commits ? await commits.put(cacheKey(o.fingerprint, task.item.inputHash, task.repeat), toCached(backend, rubric, o, time)) : undefined;
      if (kept && !kept.stored) fill(task, (item) => fromCache(item, task.repeat, o.fingerprint, kept.verdict));
      else fill(task, (item) => fromOutcome(item, task.repeat, backend, o, time));
      progress.calls++;
      if ((kept && !kept.stored ? kept.verdict.verdict : o.verdict) === "error") progress.errors += task.slots.length;
      const u = usage.get(rubric.name) ?? { calls: 0, prompt: 0, completion: 0 };
      u.calls++;
      if (o.usage) {
        u.prompt += o.usage.prompt;
        u.completion += o.usage.completion;
        progress.tokens += o.usage.prompt + o.usage.completion;
        progress.promptTokens += o.usage.prompt;
        progress.completionTokens += o.usage.completion;
      }
      usage.set(rubric.name, u);
    } catch (e) {
      stopped ??= e;
    } finally {
      progress.inFlight--;
      report();
    }
  };

  // A bounded pool pulls the calls one at a time: never more than `width` exist as promises at once.
  const width = Math.max(1, Math.min(opts.concurrency, backend.maxConcurrency));
  await runPool(pending.values(), width, execute, () => stopped !== undefined, opts.poolStats);
  if (stopped !== undefined) throw stopped;
  return { judgments: judgments as Judgment[], progress, usage };
}
