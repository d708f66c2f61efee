import { describe, expect, it } from "vitest";
import { costLine, costTotals } from "../../../src/judge/schedule/cost.js";

describe("costLine", () => {
  it("says a model without a price is unknown once, with how to price it", () => {
    const t = costTotals({ kind: "llm", model: "judge-model" }, [{ calls: 1, prompt: 10, completion: 2 }] as unknown as Parameters<typeof costTotals>[1], {});
    expect(costLine(t)).toBe('tokens: 1 calls, 10 prompt + 2 completion; cost: unknown (add "prices": {"judge-model": {"input": USD_PER_MILLION, "output": USD_PER_MILLION}} to the config)');
  });
});
