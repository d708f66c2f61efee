import type { RetryCounts } from "../transport/client.js";
import type { ProgressState } from "./run.js";

/** Where progress goes: stderr, or a test double. */
export interface ProgressStream {
  write(s: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

function clock(seconds: number): string {
  if (!Number.isFinite(seconds)) return "--:--";
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

function compact(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(0)}k`;
  return String(n);
}

/**
 * The retries so far: `retries 0`, or their count by cause, the 429s with the
 * time waited (`retries 7: 429 x4 waited 0:12, 5xx x2, timeout x1`).
 */
export function formatRetries(r: Readonly<RetryCounts>): string {
  const parts: string[] = [];
  if (r.rateLimited) parts.push(`429 x${r.rateLimited} waited ${clock(r.rateLimitWaitMs / 1000)}`);
  if (r.serverErrors) parts.push(`5xx x${r.serverErrors}`);
  if (r.timeouts) parts.push(`timeout x${r.timeouts}`);
  if (r.connection) parts.push(`connection x${r.connection}`);
  if (r.other) parts.push(`other x${r.other}`);
  const n = r.rateLimited + r.serverErrors + r.timeouts + r.connection + r.other;
  return n === 0 ? "retries 0" : `retries ${n}: ${parts.join(", ")}`;
}

/**
 * One progress line: done/total, calls per second, cache hits, errors,
 * retries by cause (for a judge that calls an endpoint), tokens, the cost so
 * far and projected for the whole run (when the model has a price), and the
 * estimated time left (from this run's call rate).
 *
 * @example
 * formatProgress(state, Date.now()) // "1200/8000 15% | 412.3 calls/s | cache 300 | errors 2 | retries 3: 429 x3 waited 0:04 | tokens 1.2M | $0.0310, ~$0.2066 total | ETA 0:16"
 */
export function formatProgress(p: Readonly<ProgressState>, now: number): string {
  const elapsed = Math.max(0.001, (now - p.startedAt) / 1000);
  const rate = p.calls / elapsed;
  const left = p.total - p.done;
  const eta = left === 0 ? 0 : rate > 0 ? left / rate : Number.POSITIVE_INFINITY;
  const share = p.total ? Math.floor((100 * p.done) / p.total) : 100;
  const retries = p.retries ? ` | ${formatRetries(p.retries)}` : "";
  const cost = p.cost === undefined ? "" : ` | $${p.cost.toFixed(4)}${p.projectedCost === undefined ? "" : `, ~$${p.projectedCost.toFixed(4)} total`}`;
  return `${p.done}/${p.total} ${share}% | ${rate.toFixed(1)} calls/s | cache ${p.cacheHits} | errors ${p.errors}${retries} | tokens ${compact(p.tokens)}${cost} | ETA ${clock(eta)}`;
}

/**
 * Progress on stderr: on a terminal, a bar redrawn in place at most ten
 * times a second; otherwise (CI logs, pipes) a plain line every
 * `intervalMs` (default 10 s) and one at the end, so logs stay short.
 */
export function progressReporter(stream: ProgressStream, opts: { intervalMs?: number; now?: () => number } = {}) {
  const now = opts.now ?? Date.now;
  const tty = stream.isTTY === true;
  const interval = tty ? 100 : (opts.intervalMs ?? 10_000);
  let last = 0;
  let drawn = false;
  const draw = (p: Readonly<ProgressState>) => {
    const line = formatProgress(p, now());
    if (!tty) {
      stream.write(`judge: ${line}\n`);
      return;
    }
    const width = Math.max(10, Math.min(30, (stream.columns ?? 100) - line.length - 4));
    const filled = p.total ? Math.round((width * p.done) / p.total) : width;
    stream.write(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${line}\x1b[K`);
    drawn = true;
  };
  return {
    update(p: Readonly<ProgressState>): void {
      const t = now();
      if (t - last < interval) return;
      last = t;
      draw(p);
    },
    finish(p: Readonly<ProgressState>): void {
      draw(p);
      if (tty && drawn) stream.write("\n");
    },
    /** Ends the bar's line without a last draw (a run that stopped), so a message starts on its own line. */
    interrupt(): void {
      if (tty && drawn) stream.write("\n");
      drawn = false;
    },
  };
}
