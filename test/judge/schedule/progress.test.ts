import { describe, expect, it } from "vitest";
import { formatProgress, progressReporter } from "../../../src/judge/schedule/progress.js";
import type { ProgressState } from "../../../src/judge/schedule/run.js";

const state = (over: Partial<ProgressState> = {}): ProgressState => ({ total: 8000, done: 1200, cacheHits: 300, calls: 900, errors: 2, tokens: 1_234_567, promptTokens: 1_000_000, completionTokens: 234_567, inFlight: 8, startedAt: 0, plannedCalls: 7000, ...over });

describe("formatProgress", () => {
  it("shows done/total, calls/s, cache hits, errors, tokens and ETA", () => {
    expect(formatProgress(state(), 3000)).toBe("1200/8000 15% | 300.0 calls/s | cache 300 | errors 2 | tokens 1.2M | ETA 0:23");
    expect(formatProgress(state({ calls: 0 }), 1000)).toContain("ETA --:--");
    expect(formatProgress(state({ done: 8000 }), 1000)).toContain("ETA 0:00");
  });
});

describe("progressReporter", () => {
  it("redraws one line in place on a terminal", () => {
    const out: string[] = [];
    let t = 0;
    const r = progressReporter({ write: (s: string) => out.push(s), isTTY: true, columns: 120 }, { now: () => t });
    t = 1000;
    r.update(state());
    t = 1050;
    r.update(state()); // throttled
    r.finish(state({ done: 8000 }));
    expect(out).toHaveLength(3);
    expect(out[0]).toMatch(/^\r\[#+\.+\] 1200\/8000/);
    expect(out[2]).toBe("\n");
  });

  it("prints plain periodic lines when stderr is not a terminal", () => {
    const out: string[] = [];
    let t = 100_000;
    const r = progressReporter({ write: (s: string) => out.push(s) }, { now: () => t, intervalMs: 10_000 });
    r.update(state());
    t += 5_000;
    r.update(state());
    t += 6_000;
    r.update(state());
    r.finish(state({ done: 8000 }));
    expect(out).toHaveLength(3);
    for (const line of out) expect(line).toMatch(/^judge: \d+\/8000 .*\n$/);
    expect(out.join("")).not.toContain("\r");
  });
});

describe("formatProgress: retries and cost", () => {
  it("shows retries by cause, with the time 429s waited, and the running and projected cost", () => {
    const retries = { rateLimited: 4, rateLimitWaitMs: 12_400, serverErrors: 2, timeouts: 1, connection: 0, other: 0 };
    const line = formatProgress(state({ retries, cost: 0.031, projectedCost: 0.20662 }), 3000);
    expect(line).toBe("1200/8000 15% | 300.0 calls/s | cache 300 | errors 2 | retries 7: 429 x4 waited 0:12, 5xx x2, timeout x1 | tokens 1.2M | $0.0310, ~$0.2066 total | ETA 0:23");
    expect(formatProgress(state({ retries: { ...retries, rateLimited: 0, serverErrors: 0, timeouts: 0 } }), 3000)).toContain("| retries 0 |");
  });
});
