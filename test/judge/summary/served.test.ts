import { describe, expect, it } from "vitest";
import { servedKeys } from "../../../src/judge/summary/served.js";

describe("servedKeys", () => {
  it("gives a judgment its own served model, else its rubric and fingerprint's most frequent (ties by name), else empty", () => {
    const j = (rubric: string, fingerprint: string, servedModel?: string) => ({ rubric, fingerprint, servedModel });
    const judgments = [j("a", "f1", "m2"), j("a", "f1", "m1"), j("b", "f1", "m3"), j("a", "f1", "m2"), j("a", "f2", "x"), j("a", "f2", "w"), j("a", "f1")];
    const served = servedKeys(judgments);
    expect(judgments.map(served)).toEqual(["m2", "m1", "m3", "m2", "x", "w", "m2"]);
    expect(served(j("a", "f2"))).toBe("w");
    expect(served(j("b", "f1"))).toBe("m3");
    expect(served(j("b", "f2"))).toBe("");
    expect(served(j("c", "f1"))).toBe("");
  });
});
