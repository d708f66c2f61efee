import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { labelHistoryProblems, lookalikeOf, nameSkeleton, namesInUse } from "../../src/calibration/label-checks.js";
import { loadLabels, type LocatedLabel } from "../../src/calibration/labels.js";
import type { Label } from "../../src/golden/schema/items.js";
import { inputErrorMessages } from "../helpers/input-errors.js";
import { tempDir } from "../helpers/temp.js";

const NOW = Date.parse("2026-12-06T12:00:00Z");
const at = (file: string, line: number, over: Partial<Label>): LocatedLabel => ({
  file, line,
  value: { variant: "v", question: "q1", rubric: "r", unit: "answer", inputHash: "a".repeat(64), label: "yes", annotator: "asha", provenance: "human", frame: "random", time: "2026-12-01T00:00:00Z", ...over } as Label,
});
const messages = (history: LocatedLabel[]) => labelHistoryProblems(history, NOW).map((p) => p.message);

describe("label history checks", () => {
  it("gives names that read the same one skeleton, and different names different ones", () => {
    for (const lookalike of ["аsha", "ASHA", "as\u200dha", "\u0430s\u04bba", "ａｓｈａ", "asha\u034f", "asha\ufe0f", "asha\u3164"]) expect(nameSkeleton(lookalike)).toBe(nameSkeleton("asha"));
    // capitals count as they print (Greek capital Eta, Nu, Mu, Upsilon; Latin capital I beside l)
    for (const [a, b] of [["\u0397ans", "Hans"], ["\u039dina", "Nina"], ["\u039cary", "Mary"], ["\u03a5an", "Yan"], ["Iisa", "lisa"], ["Ivy", "ivy"]]) expect(nameSkeleton(a!)).toBe(nameSkeleton(b!));
    for (const other of ["ash", "asher", "sasha", "bob"]) expect(nameSkeleton(other)).not.toBe(nameSkeleton("asha"));
  });

  it("refuses a second annotator whose name reads like the first (Cyrillic а), naming both places", () => {
    expect(messages([at("labels/asha.jsonl", 1, {}), at("labels/x.jsonl", 3, { annotator: "\u0430sha" }), at("labels/x.jsonl", 4, { annotator: "\u0430sha" })])).toEqual([
      'labels/x.jsonl:3: annotator: "аsha" reads like "asha" (labels/asha.jsonl:1) but is another name: two annotators whose names look the same are refused (one person, one spelling: write the same name in both places)',
    ]);
  });

  it("names the newer of two look-alike names as the likely typo, wherever it reads, and blames neither when they are as old", () => {
    // Asha.jsonl reads before asha.jsonl (capitals sort first), but asha labelled first
    expect(messages([at("labels/Asha.jsonl", 1, { annotator: "Asha", time: "2026-12-05T09:00:00Z" }), at("labels/asha.jsonl", 1, {}), at("labels/asha.jsonl", 2, { time: "2026-11-20T00:00:00Z" })])).toEqual([
      'labels/Asha.jsonl:1: annotator: "Asha" reads like "asha" (labels/asha.jsonl:1), who labelled first (2026-11-20T00:00:00Z; "Asha" from 2026-12-05T09:00:00Z), so "Asha" is likely a typo of it: two annotators whose names look the same are refused (one person, one spelling: write "asha" for "Asha" as the annotator)',
    ]);
    expect(messages([at("labels/Asha.jsonl", 1, { annotator: "Asha" }), at("labels/asha.jsonl", 1, {})])).toEqual([
      'labels/asha.jsonl:1: annotator: "asha" reads like "Asha" (labels/Asha.jsonl:1) but is another name: two annotators whose names look the same are refused (one person, one spelling: write the same name in both places)',
    ]);
  });

  it("finds the name in use a new name reads like, a labeller's before a draw's", () => {
    const inUse = namesInUse([at("labels/asha.jsonl", 1, {}), at("labels/bob.jsonl", 1, { annotator: "bob" })], [{ file: "labels/draws/0123456789abcdef.json", draw: { annotator: "Asha" } }, { file: "labels/draws/fedcba9876543210.json", draw: { annotator: "Ravi" } }]);
    expect(inUse.map((n) => [n.name, n.file, n.line])).toEqual([["asha", "labels/asha.jsonl", 1], ["bob", "labels/bob.jsonl", 1], ["Asha", "labels/draws/0123456789abcdef.json", undefined], ["Ravi", "labels/draws/fedcba9876543210.json", undefined]]);
    expect(lookalikeOf("Asha", inUse)?.name).toBe("asha");
    expect(lookalikeOf("asha", inUse)).toBeUndefined();
    expect(lookalikeOf("ravi", inUse)?.file).toBe("labels/draws/fedcba9876543210.json");
    expect(lookalikeOf("Ravi", inUse)).toBeUndefined();
    expect(lookalikeOf("chen", inUse)).toBeUndefined();
  });

  it("refuses an invisible character in a name (a zero-width joiner), once per name", () => {
    const m = messages([at("labels/a.jsonl", 1, { annotator: "as\u200dha" }), at("labels/a.jsonl", 2, { annotator: "as\u200dha" })]);
    expect(m).toEqual(['labels/a.jsonl:1: annotator: "as\u200dha" holds an invisible character (U+200D): a name must read as what it is']);
  });

  it("refuses a time in the future beyond a day of clock skew, and accepts one within it", () => {
    expect(messages([at("labels/asha.jsonl", 2, { time: "2099-01-01T00:00:00Z" })])).toEqual([
      "labels/asha.jsonl:2: time: 2099-01-01T00:00:00Z is in the future (this machine's clock says 2026-12-06T12:00:00.000Z): a later time supersedes every label given before it, so a future one could never be replaced",
    ]);
    expect(messages([at("labels/asha.jsonl", 2, { time: "2026-12-07T06:00:00Z" })])).toEqual([]);
  });

  it("accepts distinct people, the same person in several files, and past times", () => {
    expect(messages([at("labels/asha.jsonl", 1, {}), at("labels/bob.jsonl", 1, { annotator: "bob" }), at("labels/import.jsonl", 9, {}), at("labels/ben.jsonl", 1, { annotator: "ben" })])).toEqual([]);
  });

  it("is applied when a labels folder is loaded (exit 2 through every command that reads labels)", () => {
    const dir = tempDir("ragjudge-label-checks-");
    const line = (o: Partial<Label>) => JSON.stringify(at("", 0, o).value);
    writeFileSync(join(dir, "asha.jsonl"), line({}) + "\n");
    writeFileSync(join(dir, "zz.jsonl"), line({ annotator: "\u0430sha", question: "q2" }) + "\n" + line({ question: "q3", time: "2099-01-01T00:00:00Z" }) + "\n");
    const m = inputErrorMessages(() => loadLabels(dir));
    expect(m).toHaveLength(2);
    expect(m[0]).toMatch(/zz\.jsonl:1: annotator: "аsha" reads like "asha"/);
    expect(m[1]).toMatch(/zz\.jsonl:2: time: 2099-01-01T00:00:00Z is in the future/);
  });
});
