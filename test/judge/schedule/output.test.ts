import { describe, expect, it } from "vitest";
import type { Judgment } from "../../../src/golden/schema/items.js";
import { judgmentsJsonl } from "../../../src/judge/schedule/output.js";

const judgment = (i: number, reason: string): Judgment => ({
  variant: "v", question: `q${i}`, rubric: "faithfulness", unit: "answer", inputHash: "a".repeat(64), fingerprint: "f".repeat(64),
  judge: "llm", model: "m", servedModel: undefined, repeat: 0, verdict: i % 3 ? "yes" : "no", reason, pYes: undefined, error: undefined,
  usage: i % 2 ? { prompt: 10, completion: 2 } : undefined, cached: true, time: "2026-12-02T04:00:00.000Z", meta: i % 5 ? { attempts: 1 } : undefined,
} as Judgment);

const reference = (js: readonly Judgment[]) => js.map((j) => JSON.stringify(j)).join("\n") + (js.length ? "\n" : "");

describe("judgmentsJsonl", () => {
  it("is the bytes of one JSON.stringify line per judgment, across block boundaries", () => {
    for (const n of [0, 1, 2, 2047, 2048, 2049, 5000]) {
      const js = Array.from({ length: n }, (_, i) => judgment(i, `reason ${i} é`));
      expect(Buffer.concat(judgmentsJsonl(js)).toString("utf8")).toBe(reference(js));
    }
  });

  it("keeps a reason holding the block seam '},{' inside one line", () => {
    const js = Array.from({ length: 3000 }, (_, i) => judgment(i, i === 7 ? 'odd {"a":1},{"b":2} text' : i === 2500 ? "},{" : "plain"));
    const text = Buffer.concat(judgmentsJsonl(js)).toString("utf8");
    expect(text).toBe(reference(js));
    expect(text.split("\n")).toHaveLength(3001);
  });
});

describe("judgmentsJsonl parts", () => {
  it("spreads a large file over several parts whose bytes join to the reference, each a whole number of lines", () => {
    // ~31 MB: more than one 16 MB part; reasons of 2-byte and 3-byte characters
    const long = "é€ ".repeat(1500);
    const js = Array.from({ length: 5000 }, (_, i) => judgment(i, i === 4100 ? `${long} },{ ` : `${long}${i}`));
    const parts = judgmentsJsonl(js);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p[p.length - 1]).toBe(0x0a);
    expect(Buffer.concat(parts).toString("utf8")).toBe(reference(js));
  });

  it("gives no part for no judgments", () => {
    expect(judgmentsJsonl([])).toEqual([]);
  });
});
