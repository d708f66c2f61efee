import { describe, expect, it } from "vitest";
import { prettyJson } from "../../src/golden/pretty-json.js";

const pieces = (v: unknown): string => {
  let s = "";
  prettyJson(v, (p) => (s += p));
  return s;
};

/** A seeded random JSON-ish value: nested, long arrays, empties, undefined, functions, toJSON, unicode. */
function randomValue(next: () => number, depth: number): unknown {
  const r = next() % (depth > 5 ? 6 : 12);
  const str = () => ["", "a", "é", "नीति", "😀x", 'q"\\\n\t', "\u2028"][next() % 7]! + String(next() % 100);
  switch (r) {
    case 0: return next() % 1000 / 7;
    case 1: return str();
    case 2: return null;
    case 3: return next() % 2 === 0;
    case 4: return undefined;
    case 5: return next() % 3 === 0 ? (() => 1) : new Date(Date.UTC(2026, 0, 1 + (next() % 300)));
    case 6: case 7: return Array.from({ length: next() % 3 === 0 ? 40 + (next() % 10) : next() % 4 }, () => randomValue(next, depth + 1));
    case 8: return { toJSON: (k: string) => (next() % 4 === 0 ? undefined : { k, v: randomValue(next, depth + 1) }) };
    default: {
      const o: Record<string, unknown> = {};
      for (let i = next() % 5; i > 0; i--) o[str()] = randomValue(next, depth + 1);
      return o;
    }
  }
}

describe("prettyJson", () => {
  it("writes the bytes of JSON.stringify(value, null, 2), piece by piece", () => {
    expect(pieces({})).toBe("{}");
    expect(pieces([])).toBe("[]");
    expect(pieces({ a: undefined, b: () => 1 })).toBe("{}");
    expect(pieces([undefined, () => 1, Symbol("x")])).toBe(JSON.stringify([undefined, () => 1, Symbol("x")], null, 2));
    expect(pieces({ d: new Date(0), n: { toJSON: () => undefined } })).toBe(JSON.stringify({ d: new Date(0), n: { toJSON: () => undefined } }, null, 2));
    let seed = 20261202;
    const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8);
    for (let i = 0; i < 400; i++) {
      const v = randomValue(next, 0);
      // toJSON functions here draw from `next`: give both sides the same draws
      const saved = seed;
      const want = JSON.stringify(v, null, 2) as string | undefined;
      seed = saved;
      expect(pieces(v)).toBe(want ?? "");
    }
  });
});
