import { describe, expect, it } from "vitest";
import { prettyJsonPieces } from "../../src/golden/pretty-json.js";
import { mulberry32 } from "../helpers/seeded.js";

const LEAVES: unknown[] = [0, -0, 1.5, 1e21, NaN, Infinity, "", "a\nb", 'q"uote', "मानक", "\u2028", true, false, null, undefined, () => 1, Symbol("s"), new Date(0), new Float64Array([1, 2]), new Map([[1, 2]]), { toJSON: () => "custom" }];

function value(next: () => number, level: number): unknown {
  const r = next();
  if (level > 5 || r < 0.35) return LEAVES[Math.floor(next() * LEAVES.length)];
  const n = Math.floor(next() * 4);
  if (r < 0.65) return Array.from({ length: n }, () => value(next, level + 1));
  const o: Record<string, unknown> = next() < 0.1 ? Object.create(null) : {};
  for (let i = 0; i < n; i++) o[next() < 0.2 ? `k "${i}"` : `k${i}`] = value(next, level + 1);
  return o;
}

describe("prettyJsonPieces", () => {
  it("joins to JSON.stringify(value, null, 2) at every walking depth and piece size", () => {
    const next = mulberry32(20261202);
    for (let i = 0; i < 3_000; i++) {
      const v = { root: value(next, 0), list: [value(next, 1), value(next, 1)] };
      const want = JSON.stringify(v, null, 2);
      for (const depth of [0, 1, 2, 4, 8]) {
        const got = [...prettyJsonPieces(v, { depth, size: 1 + (i % 50) })].join("");
        expect(got, `case ${i}, depth ${depth}`).toBe(want);
      }
    }
  });

  it("hands out pieces of about the asked size", () => {
    const v = { rows: Array.from({ length: 10_000 }, (_, i) => ({ i, text: "x".repeat(20) })) };
    const pieces = [...prettyJsonPieces(v, { size: 4096 })];
    expect(pieces.length).toBeGreaterThan(100);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(4096 + 200);
    expect(pieces.join("")).toBe(JSON.stringify(v, null, 2));
  });
});
