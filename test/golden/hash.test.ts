import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, hashJson, sha256 } from "../../src/golden/hash.js";

const viaCreateHash = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

describe("sha256", () => {
  it("is createHash's digest for strings (UTF-8, lone surrogates included) and bytes", () => {
    for (const s of ["", "abc", "é \u{1F600}", "\ud800 lone", "x".repeat(100_000)]) {
      expect(sha256(s)).toBe(viaCreateHash(s));
      expect(sha256(new TextEncoder().encode(s))).toBe(viaCreateHash(new TextEncoder().encode(s)));
    }
    expect(sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("keeps input hashes as they were: the SHA-256 of the canonical JSON", () => {
    const evidence = { question: "What is the daily allowance?", answer: "100 rupees [1].", context: [{ id: "d#0", text: "The allowance is 100 rupees.", heading: "Allowances" }] };
    expect(canonicalJson(evidence)).toBe('{"answer":"100 rupees [1].","context":[{"heading":"Allowances","id":"d#0","text":"The allowance is 100 rupees."}],"question":"What is the daily allowance?"}');
    expect(hashJson(evidence)).toBe(viaCreateHash(canonicalJson(evidence)));
  });
});
