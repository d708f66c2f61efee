import type { CacheKey, CachedVerdict } from "./cache.js";

/** What {@link CommitBatcher} needs of the cache: one transaction for many puts (JudgeCache.putMany). */
export interface BatchStore {
  putMany(entries: readonly { key: CacheKey; verdict: CachedVerdict }[]): { stored: boolean; verdict: CachedVerdict }[];
}

/** Options of {@link CommitBatcher}. */
export interface CommitBatcherOptions {
  /** Verdicts at most in one transaction; reaching it commits at once (default 256). */
  maxBatch?: number;
  /** For tests: how a commit is scheduled after the first verdict of a batch (default setImmediate). */
  schedule?: (commit: () => void) => void;
}

interface Waiting {
  key: CacheKey;
  verdict: CachedVerdict;
  resolve: (r: { stored: boolean; verdict: CachedVerdict }) => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit of verdicts: every verdict handed over during one turn of the
 * event loop is committed in one SQLite transaction at the end of that turn
 * (or as soon as `maxBatch` are waiting), instead of one transaction each,
 * which was the harness's largest single cost per call.
 *
 * Crash safety is kept by the caller waiting: `put` resolves only once the
 * verdict is committed, and the judge run takes its next call only then. So
 * each call slot holds at most one uncommitted verdict, for at most one
 * event-loop turn: a run killed with `kill -9` loses at most `concurrency`
 * verdicts (the replies in flight or waiting for their commit), exactly the
 * bound of one commit per verdict, and a rerun asks only for those.
 *
 * What `put` resolves to is what the cache holds (see JudgeCache.put): the
 * verdict stored, or the one another run committed first. A failed commit
 * rejects every verdict of its batch.
 *
 * @example
 * const commits = new CommitBatcher(cache);
 * const { stored, verdict } = await commits.put(key, outcome);
 */
export class CommitBatcher {
  private waiting: Waiting[] = [];
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly schedule: (commit: () => void) => void;
  /** Transactions committed so far, and the verdicts in them (for tests and benchmarks). */
  readonly stats = { commits: 0, verdicts: 0, largest: 0 };

  constructor(
    private readonly store: BatchStore,
    opts: CommitBatcherOptions = {},
  ) {
    this.maxBatch = Math.max(1, opts.maxBatch ?? 256);
    this.schedule = opts.schedule ?? ((f) => void setImmediate(f));
  }

  /** Verdicts handed over and not committed yet. */
  get uncommitted(): number {
    return this.waiting.length;
  }

  /** Queues one verdict for the next commit; resolves with what the cache holds once it is committed. */
  put(key: CacheKey, verdict: CachedVerdict): Promise<{ stored: boolean; verdict: CachedVerdict }> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ key, verdict, resolve, reject });
      if (this.waiting.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        this.schedule(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  /** Commits every waiting verdict now, in one transaction. */
  flush(): void {
    if (this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    let results: { stored: boolean; verdict: CachedVerdict }[];
    try {
      results = this.store.putMany(batch);
    } catch (e) {
      for (const w of batch) w.reject(e);
      return;
    }
    this.stats.commits++;
    this.stats.verdicts += batch.length;
    if (batch.length > this.stats.largest) this.stats.largest = batch.length;
    for (let i = 0; i < batch.length; i++) batch[i]!.resolve(results[i]!);
  }
}
