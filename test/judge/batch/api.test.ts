import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { MAX_TIMER_MS } from "../../../src/golden/bounds.js";
import { callSignal, uploadTimeoutMs } from "../../../src/judge/batch/api.js";

describe("batch call deadlines", () => {
  // judge.timeoutMs may be Node's longest timer; a call's deadline adds up its tries and waits, and a timer past the
  // limit fires after 1 ms: every batch call ended before it began.
  it("stay within Node's timer limit however long a try may take", async () => {
    const sdk = new OpenAI({ apiKey: "k", baseURL: "http://127.0.0.1:9/v1", timeout: MAX_TIMER_MS, maxRetries: 4 });
    const signal = callSignal(sdk);
    await new Promise((r) => setTimeout(r, 30));
    expect(signal.aborted).toBe(false);
    expect(uploadTimeoutMs(MAX_TIMER_MS, 200_000_000)).toBe(MAX_TIMER_MS);
    expect(uploadTimeoutMs(60_000, 262_144)).toBe(61_000);
  });
});
