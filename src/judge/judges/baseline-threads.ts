import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import type { Evidence } from "../../golden/schema/items.js";
import { sameError, startWorker } from "../../golden/worker.js";
import { baselineOutcome, type BaselineOutcome } from "./baseline-outcome.js";
import type { BatchMessage, ReplyMessage } from "./baseline-worker.js";

/** Options of {@link BaselineThreads}. */
export interface ThreadOptions {
  /** Worker threads at most (0: this thread only). Default: the cores but this one, at most 3. */
  threads?: number;
  /** Calls judged on this thread before workers start (default 512). */
  startAfter?: number;
}

/** Calls per message to a worker: enough to make the message's cost small, few enough to share the tail of a run. */
const BATCH = 32;
/** Batches a worker holds at once: one to judge, one waiting, so it never waits for this thread. */
const IN_FLIGHT = 2;
/** Calls judged on this thread per turn of the event loop, between hand-outs to the workers. */
const LOCAL_BATCH = 8;
/** Worker threads at most, however many cores there are. */
const MAX_THREADS = 3;
/** A worker with nothing to do for this long stops. */
const IDLE_MS = 250;

interface Pending {
  rubric: string;
  evidence: Evidence;
  resolve: (o: BaselineOutcome) => void;
  reject: (e: unknown) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  inFlight: Map<number, Pending[]>;
  idle: NodeJS.Timeout | undefined;
}

/**
 * The calls in flight a baseline run asks for (its settings' `concurrency`):
 * enough for the most threads {@link defaultThreads} starts; the judge
 * record's own `maxConcurrency` lowers it to what its threads use.
 */
export const BASELINE_CONCURRENCY = threadsConcurrency(MAX_THREADS);

/** The default number of worker threads: every core but this thread's, at most 3. */
export function defaultThreads(): number {
  return Math.max(0, Math.min(MAX_THREADS, availableParallelism() - 1));
}

/** The calls a judge record of these threads should have in flight so that no thread waits: a batch or two per worker and this thread's share. */
export function threadsConcurrency(threads: number): number {
  return threads * IN_FLIGHT * BATCH + 4 * LOCAL_BATCH;
}

/**
 * The baseline judge on every core. It is pure CPU work (a run of 10,000
 * questions x 2 variants is 74,000 verdicts and seconds of tokenising), so
 * this thread alone leaves the machine's other cores idle. Calls queue here;
 * each turn of the event loop hands whole batches to the worker threads
 * (baseline-worker.ts) and judges a few calls on this thread too, so the
 * work is shared whatever each thread's speed, and the scheduler refills the
 * queue as verdicts come back.
 *
 * Worker threads start only once a run shows it is large: after
 * {@link ThreadOptions.startAfter} calls judged here, with a full batch
 * waiting (a run of a few hundred items, or a caller that sends one call at
 * a time, never starts one). A worker idle for {@link IDLE_MS} stops, so
 * nothing outlives the run. A worker that fails or exits gives its calls
 * back to the queue, which this thread judges: no verdict is lost to a
 * thread. Every thread calls the same {@link baselineOutcome}, so verdicts
 * and reasons do not depend on where they were made; the cache of indexed
 * chunks each thread keeps changes only the time taken.
 */
export class BaselineThreads {
  private queue: Pending[] = [];
  private head = 0;
  private slots: Slot[] = [];
  private started = false;
  /** Set when a worker failed: the rest of this record's work stays on this thread. */
  private broken = false;
  private scheduled = false;
  private judgedHere = 0;
  private nextId = 0;
  private readonly threads: number;
  private readonly startAfter: number;

  constructor(options: ThreadOptions = {}) {
    this.threads = Math.max(0, Math.floor(options.threads ?? defaultThreads()));
    this.startAfter = Math.max(0, options.startAfter ?? 512);
  }

  /** The calls to keep in flight for every thread to be busy. */
  get concurrency(): number {
    return threadsConcurrency(this.threads);
  }

  /** Worker threads running now (for tests and benchmarks). */
  get running(): number {
    return this.slots.length;
  }

  /** Worker threads that have loaded and take calls (for tests and benchmarks). */
  get readyWorkers(): number {
    return this.slots.filter((s) => s.ready).length;
  }

  /** Calls judged so far on this thread and on worker threads (for tests and benchmarks). */
  readonly judged = { here: 0, workers: 0 };

  /**
   * Stops every worker at once, as if each had crashed: their calls in
   * flight go back to the queue and are judged on this thread, and no worker
   * starts again. For tests of that path.
   */
  async stopWorkers(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  /**
   * Judges one call on whichever thread is free first. Until workers may
   * start (and always with none to start) the call is judged at once, as a
   * plain function call: queueing it would cost a turn of the event loop per
   * batch for nothing.
   */
  judge(rubric: string, evidence: Evidence): Promise<BaselineOutcome> {
    if (this.threads === 0 || this.broken || (!this.started && this.judgedHere < this.startAfter)) {
      this.judgedHere++;
      this.judged.here++;
      try {
        return Promise.resolve(baselineOutcome(rubric, evidence));
      } catch (e) {
        return Promise.reject(e);
      }
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ rubric, evidence, resolve, reject });
      this.schedule();
    });
  }

  private get size(): number {
    return this.queue.length - this.head;
  }

  private take(n: number): Pending[] {
    const out = this.queue.slice(this.head, this.head + n);
    this.head += out.length;
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 4096) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return out;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.drain());
  }

  private drain(): void {
    this.scheduled = false;
    this.dispatch();
    const here = this.take(LOCAL_BATCH);
    for (const p of here) {
      try {
        p.resolve(baselineOutcome(p.rubric, p.evidence));
      } catch (e) {
        p.reject(e);
      }
    }
    this.judgedHere += here.length;
    this.judged.here += here.length;
    if (!this.started && !this.broken && this.threads > 0 && this.judgedHere >= this.startAfter && this.size >= BATCH) this.start();
    if (this.size > 0) this.schedule();
  }

  /** Hands batches to every ready worker with room. */
  private dispatch(): void {
    for (const s of this.slots) {
      while (s.ready && s.inFlight.size < IN_FLIGHT && this.size > 0) {
        const batch = this.take(BATCH);
        const id = this.nextId++;
        if (s.inFlight.size === 0) {
          clearTimeout(s.idle);
          s.worker.ref();
        }
        s.inFlight.set(id, batch);
        s.worker.postMessage({ id, calls: batch.map((p) => [p.rubric, p.evidence]) } satisfies BatchMessage);
      }
    }
  }

  private start(): void {
    this.started = true;
    for (let i = 0; i < this.threads; i++) {
      let worker: Worker;
      try {
        worker = startWorker(import.meta.url, "baseline-worker");
      } catch {
        // no worker can start here (from source without tsx): the rest is judged directly on this thread
        if (this.slots.length === 0) this.broken = true;
        return;
      }
      const slot: Slot = { worker, ready: false, inFlight: new Map(), idle: undefined };
      this.slots.push(slot);
      worker.on("message", (m: "ready" | ReplyMessage) => this.onMessage(slot, m));
      worker.on("error", () => this.lose(slot));
      worker.on("exit", () => this.lose(slot));
      worker.unref();
    }
  }

  private onMessage(s: Slot, m: "ready" | ReplyMessage): void {
    if (m === "ready") {
      s.ready = true;
      this.dispatch();
      this.idleCheck(s);
      return;
    }
    const batch = s.inFlight.get(m.id);
    if (!batch) return;
    s.inFlight.delete(m.id);
    this.judged.workers += batch.length;
    batch.forEach((p, i) => {
      const r = m.out[i]!;
      if ("ok" in r) p.resolve(r.ok);
      else p.reject(sameError(r.thrown));
    });
    this.dispatch();
    this.idleCheck(s);
  }

  /** An idle worker lets the process exit, and stops after {@link IDLE_MS} unless work comes. */
  private idleCheck(s: Slot): void {
    if (s.inFlight.size > 0) return;
    s.worker.unref();
    clearTimeout(s.idle);
    s.idle = setTimeout(() => {
      if (s.inFlight.size > 0) return;
      this.remove(s);
      void s.worker.terminate();
    }, IDLE_MS);
    s.idle.unref();
  }

  private remove(s: Slot): void {
    clearTimeout(s.idle);
    const i = this.slots.indexOf(s);
    if (i < 0) return;
    this.slots.splice(i, 1);
    // Every worker gone: a later burst of calls (another run on this record) may start them again.
    if (this.slots.length === 0) {
      this.started = false;
      this.judgedHere = 0;
    }
  }

  /** A worker that failed or exited: its calls go back to the queue, judged by whoever is left. */
  private lose(s: Slot): void {
    if (!this.slots.includes(s)) return; // stopped when idle, or already lost
    this.broken = true;
    const back = [...s.inFlight.values()].flat();
    s.inFlight.clear();
    this.remove(s);
    if (back.length === 0) return;
    this.queue = [...back, ...this.queue.slice(this.head)];
    this.head = 0;
    this.schedule();
  }
}
