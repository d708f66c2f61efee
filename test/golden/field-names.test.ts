import { describe, expect, it } from "vitest";
import { z } from "zod";
import { closestName, knownFields } from "../../src/golden/field-names.js";
import { RagjudgeConfig } from "../../src/golden/schema/config.js";

describe("knownFields", () => {
  it("walks objects, arrays, defaults and records to the object at the path", () => {
    const s = z.strictObject({ a: z.array(z.strictObject({ bc: z.string(), d: z.number().optional() })).default([]), m: z.record(z.string(), z.strictObject({ x: z.number() })) });
    expect(knownFields(s, [])).toEqual(["a", "m"]);
    expect(knownFields(s, ["a", 0])).toEqual(["bc", "d"]);
    expect(knownFields(s, ["m", "any"])).toEqual(["x"]);
    expect(knownFields(s, ["nope"])).toBeUndefined();
    expect(knownFields(s, ["a"])).toBeUndefined(); // an array, not an object
    expect(knownFields(z.union([z.string(), z.strictObject({ q: z.string() })]), [])).toBeUndefined();
  });

  it("knows the config's own fields, through its refinements", () => {
    expect(knownFields(RagjudgeConfig, [])).toContain("golden");
    expect(knownFields(RagjudgeConfig, ["variants", 0])).toContain("contextK");
  });
});

describe("closestName", () => {
  it("finds the name meant despite case, - and _, or a few edits", () => {
    expect(closestName("goldn", ["golden", "variants"])).toBe("golden");
    expect(closestName("context_k", ["contextK", "chunks"])).toBe("contextK");
    expect(closestName("relevent", ["relevant", "reference"])).toBe("relevant");
    expect(closestName("varaints", ["variants"])).toBe("variants"); // two letters swapped: one edit
  });

  it("takes a number padded another way as the same name, however short (q1 for q01)", () => {
    expect(closestName("q1", ["q10", "q01", "q11"])).toBe("q01");
    expect(closestName("fact-003", ["fact-30", "fact-03"])).toBe("fact-03");
    expect(closestName("q1", ["q10", "q11"])).toBeUndefined();
  });

  it("suggests nothing for a name that is nowhere near", () => {
    expect(closestName("zzz", ["golden", "variants"])).toBeUndefined();
    expect(closestName("ab", ["ac"])).toBeUndefined(); // short words: no edits allowed
    expect(closestName("x".repeat(100), ["x"])).toBeUndefined();
  });
});
