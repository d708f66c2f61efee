import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, hashJson, sha256 } from "../../src/golden/hash.js";

/** The definition canonicalJson must match byte for byte: JSON.stringify of a key-sorted copy. */
function reference(value: unknown): string {
  const sortDeep = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortDeep);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) {
        const x = (v as Record<string, unknown>)[k];
        if (x !== undefined) out[k] = sortDeep(x);
      }
      return out;
    }
    return v;
  };
  return JSON.stringify(sortDeep(value));
}

/** A small seeded generator (mulberry32), so failures reproduce. */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = ["a", "b", "question", "Zed", "é", "10", "9", "0", "01", "__proto__", "", "a b", "\u{1F600}", "\ud800", "context"];
const STRINGS = ["", "x", 'quo"te', "back\\slash", "line\nbreak", "\u0001", "\u2028", "\ud800 lone", "emoji \u{1F600}", "é"];
const NUMBERS = [0, -0, 1, -1.5, 1e21, 1e-7, NaN, Infinity, -Infinity, 2 ** 53, 0.1 + 0.2];

function value(r: () => number, depth: number): unknown {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const kind = Math.floor(r() * (depth > 3 ? 6 : 9));
  switch (kind) {
    case 0: return pick(STRINGS);
    case 1: return pick(NUMBERS);
    case 2: return r() < 0.5;
    case 3: return null;
    case 4: return undefined;
    case 5: return pick([() => 1, Symbol("s"), new Date(0), new String("ab"), new Number(3), new Map([[1, 2]])]);
    case 6: {
      const a = Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth + 1));
      if (r() < 0.1) a.length += 2; // holes
      return a;
    }
    default: {
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 5); i > 0; i--) Object.defineProperty(o, pick(KEYS), { value: value(r, depth + 1), enumerable: true, configurable: true, writable: true });
      return o;
    }
  }
}

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }], u: undefined })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
  });

  it("gives the key-sorted copy's JSON.stringify bytes on 20,000 generated values (indices, __proto__, holes, lone surrogates, Dates, boxed values)", () => {
    const r = rng(19);
    for (let i = 0; i < 20_000; i++) {
      const v = value(r, 0);
      expect(canonicalJson(v)).toBe(reference(v));
    }
  });

  it("throws on a bigint as JSON.stringify does", () => {
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
  });

  it("pins the hash of an evidence record", () => {
    const evidence = { question: "What is the daily allowance?", answer: "100 rupees [1].", context: [{ id: "d#0", text: "The allowance is 100 rupees.", heading: "Allowances" }] };
    expect(hashJson(evidence)).toBe(createHash("sha256").update(reference(evidence)).digest("hex"));
    expect(sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256(new TextEncoder().encode("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
