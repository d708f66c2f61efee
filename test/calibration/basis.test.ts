import { describe, expect, it } from "vitest";
import { basisNoun, describeBasis, labelBasis } from "../../src/calibration/basis.js";
import { resolveLabels, type LocatedLabel } from "../../src/calibration/labels.js";
import type { Label } from "../../src/golden/schema/items.js";

const H = (i: number) => i.toString(16).padStart(64, "0");
function l(i: number, over: Partial<Label>): LocatedLabel {
  return { value: { variant: "v", question: `q${i}`, rubric: "r", unit: "answer", inputHash: H(i), label: "yes", annotator: "a", provenance: "human", frame: "random", time: "2026-01-01T00:00:00.000Z", ...over } as Label, file: "labels/a.jsonl", line: i };
}

describe("labelBasis", () => {
  it("counts items by the provenance of the labels that decide them, with import sources", () => {
    const book = resolveLabels("labels", [], [
      l(1, { provenance: "author" }),
      l(2, { provenance: "human" }),
      l(3, { provenance: "import", source: "attribution-dev" }),
      l(4, { provenance: "human" }), l(4, { provenance: "author", annotator: "b" }),
      l(5, { provenance: "author" }), l(5, { provenance: "human", annotator: "lead", adjudication: true }),
    ]);
    const b = labelBasis([...book.items.values()]);
    expect(b).toEqual({ human: 1, author: 1, import: 1, mixed: 2, sources: ["attribution-dev"] });
    expect(describeBasis(5, b)).toBe("5 labels: 1 human, 1 author (the project's own labels, not human evidence), 1 imported (source attribution-dev), 2 of mixed provenance");
    expect(basisNoun(b)).toBe("labels of mixed provenance (human, author, imported, mixed; author labels are not human evidence)");
  });

  it("never calls author labels human", () => {
    const b = labelBasis([...resolveLabels("labels", [], [l(1, { provenance: "author" }), l(2, { provenance: "author" })]).items.values()]);
    expect(basisNoun(b)).toBe("author labels (the project's own labels, not human evidence)");
    expect(describeBasis(2, b)).not.toMatch(/\bhuman labels\b/);
    expect(basisNoun(labelBasis([]))).toBe("labels");
  });
});
