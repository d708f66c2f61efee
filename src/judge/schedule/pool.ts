/**
 * A bounded worker pool over a lazily read source: `width` workers each take
 * the next task from the iterator only when their previous one has finished,
 * so at most `width` tasks exist at once whatever the source's length. The
 * judge's runs stream their calls through it instead of queueing one promise
 * and closure per call up front (80,000 calls queued at once grew a run past
 * a gigabyte).
 *
 * `stopped()` is asked before each task is taken: once it says true, no new
 * task starts and the pool resolves when the tasks in flight have finished.
 * A task that throws stops the pool the same way and the first error is
 * re-thrown at the end (the judge's own tasks never throw: they record their
 * failure and make `stopped()` true).
 *
 * @example
 * await runPool(calls.values(), 32, (call) => judgeOne(call), () => failed);
 */
export interface PoolStats {
  /** Tasks taken from the source and not finished yet. */
  active: number;
  /** The most tasks that were ever active at once (never above `width`). */
  peak: number;
  /** Tasks taken from the source so far. */
  taken: number;
}

export async function runPool<T>(source: Iterator<T>, width: number, task: (t: T) => Promise<void>, stopped: () => boolean = () => false, stats: PoolStats = { active: 0, peak: 0, taken: 0 }): Promise<PoolStats> {
  let failure: { error: unknown } | undefined;
  let drained = false;
  const worker = async () => {
    try {
      while (failure === undefined && !stopped()) {
        const next = source.next();
        if (next.done) {
          drained = true;
          return;
        }
        stats.taken++;
        stats.active++;
        if (stats.active > stats.peak) stats.peak = stats.active;
        try {
          await task(next.value);
        } catch (e) {
          failure ??= { error: e };
        } finally {
          stats.active--;
        }
      }
    } catch (e) {
      // the source or stopped() threw: the pool stops as for a task's failure
      failure ??= { error: e };
    }
  };
  if (!Number.isFinite(width)) throw new RangeError(`runPool: width must be a finite number, got ${width}`);
  // Workers start one at a time, each taking its first task before the next starts (a task runs synchronously up to
  // its first await), and none starts once the source is drained: never more workers than tasks, whatever the width
  // asked (a width of 100,000,000 over 40 calls allocated 100,000,000 workers, and one of 2^32 threw).
  const limit = Math.max(1, Math.floor(width));
  const workers: Promise<void>[] = [];
  while (workers.length < limit && !drained && failure === undefined && !stopped()) workers.push(worker());
  await Promise.all(workers);
  if (failure) throw failure.error;
  return stats;
}
