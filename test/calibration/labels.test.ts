import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputErrors } from "../../src/golden/errors.js";
import { evidenceKey } from "../../src/calibration/keys.js";
import { appendLabel, appendLabels, loadLabels } from "../../src/calibration/labels.js";
import { inputErrorMessages } from "../helpers/input-errors.js";
import { tempDir } from "../helpers/temp.js";

const H1 = "a".repeat(64);
const H2 = "b".repeat(64);
const item = { variant: "bm25", question: "q1", rubric: "faithfulness", unit: "answer" };

function label(over: Record<string, unknown> = {}) {
  return { ...item, inputHash: H1, label: "yes", annotator: "asha", provenance: "human", frame: "random", time: "2026-01-01T00:00:00Z", ...over };
}

function dirWith(files: Record<string, unknown[] | string>): string {
  const dir = tempDir("ragjudge-labels-");
  for (const [name, rows] of Object.entries(files)) {
    writeFileSync(join(dir, name), typeof rows === "string" ? rows : rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  }
  return dir;
}

describe("loadLabels", () => {
  it("treats a missing folder as no labels", () => {
    const book = loadLabels(join(tmpdir(), "ragjudge-no-such-folder-xyz"));
    expect(book.history).toEqual([]);
    expect(book.items.size).toBe(0);
  });

  it("keeps the history and lets a later label by the same annotator supersede", () => {
    const dir = dirWith({ "asha.jsonl": [label({ label: "no", time: "2026-01-02T00:00:00Z" }), label({ label: "yes", time: "2026-01-01T00:00:00Z" })] });
    const book = loadLabels(dir);
    expect(book.history).toHaveLength(2);
    expect(book.effective).toHaveLength(1);
    expect(book.effective[0]!.value.label).toBe("no"); // later by time, though earlier in the file
    const it0 = book.items.get(evidenceKey(item, H1))!;
    expect(it0.label).toBe("no");
    expect(it0.resolution).toBe("single");
  });

  it("breaks equal times by reading order", () => {
    const dir = dirWith({ "asha.jsonl": [label({ label: "no" }), label({ label: "yes" })] });
    expect(loadLabels(dir).effective[0]!.value.label).toBe("yes");
  });

  it("keeps labels on different evidence (input hash) of the same item apart", () => {
    const dir = dirWith({ "asha.jsonl": [label({ label: "no" }), label({ inputHash: H2, label: "yes", time: "2026-02-01T00:00:00Z" })] });
    const book = loadLabels(dir);
    expect(book.effective).toHaveLength(2);
    expect(book.items.get(evidenceKey(item, H1))!.label).toBe("no");
    expect(book.items.get(evidenceKey(item, H2))!.label).toBe("yes");
  });

  it("takes the majority of annotators, leaves a tie unresolved, and lets an adjudication decide", () => {
    const three = loadLabels(dirWith({ "a.jsonl": [label({ annotator: "a", label: "no" })], "b.jsonl": [label({ annotator: "b" })], "c.jsonl": [label({ annotator: "c" })] }));
    const m = three.items.get(evidenceKey(item, H1))!;
    expect(m).toMatchObject({ label: "yes", resolution: "majority" });
    expect(m.byAnnotator.map((l) => l.value.annotator)).toEqual(["a", "b", "c"]);

    const tie = loadLabels(dirWith({ "a.jsonl": [label({ annotator: "a", label: "no" })], "b.jsonl": [label({ annotator: "b" })] }));
    expect(tie.items.get(evidenceKey(item, H1))).toMatchObject({ label: null, resolution: "tie" });

    const adj = loadLabels(dirWith({
      "a.jsonl": [label({ annotator: "a", label: "no" })],
      "b.jsonl": [label({ annotator: "b" })],
      "lead.jsonl": [label({ annotator: "lead", label: "no", adjudication: true, frame: "manual" })],
    }));
    const a = adj.items.get(evidenceKey(item, H1))!;
    expect(a).toMatchObject({ label: "no", resolution: "adjudication" });
    expect(a.byAnnotator).toHaveLength(2); // the adjudicator is not a third vote
    expect(a.frames).toEqual(["manual", "random"]);
    expect(a.random?.value.annotator).toBe("b"); // the latest random-frame label (same time: later file)
  });

  it("reports every bad line with file, line and field, and accepts empty files", () => {
    const dir = dirWith({
      "asha.jsonl": [label(), label({ label: "maybe" }), label({ inputHash: "XYZ" })].map((r) => JSON.stringify(r)).join("\n") + "\n",
      "empty.jsonl": "",
    });
    const msgs = inputErrorMessages(() => loadLabels(dir));
    expect(msgs).toHaveLength(2);
    expect(msgs[0]).toMatch(/asha\.jsonl:2: label: /);
    expect(msgs[1]).toMatch(/asha\.jsonl:3: inputHash: must be a lower-case hex SHA-256/);
  });

  it("changes its hash when any label file changes", () => {
    const dir = dirWith({ "asha.jsonl": [label()] });
    const before = loadLabels(dir).hash;
    appendLabel(dir, label({ label: "no", time: "2026-03-01T00:00:00Z" }));
    expect(loadLabels(dir).hash).not.toBe(before);
  });
});

describe("appendLabel", () => {
  it("validates first: an invalid label writes nothing", () => {
    const dir = dirWith({});
    const msgs = inputErrorMessages(() => appendLabel(dir, label({ label: "maybe" })));
    expect(msgs[0]).toMatch(/asha\.jsonl: label: /);
    expect(existsSync(join(dir, "asha.jsonl"))).toBe(false);
  });

  it("appends one line per label to labels/<annotator>.jsonl", () => {
    const dir = dirWith({});
    const { file } = appendLabel(dir, label());
    appendLabel(dir, label({ label: "no", time: "2026-01-03T00:00:00Z" }));
    expect(file).toBe(join(dir, "asha.jsonl"));
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!).label).toBe("no");
    expect(loadLabels(dir).history).toHaveLength(2);
  });

  it("starts a new line when a hand-edited file lacks its final newline", () => {
    const dir = dirWith({ "asha.jsonl": JSON.stringify(label()) });
    appendLabel(dir, label({ label: "no" }));
    expect(loadLabels(dir).history).toHaveLength(2);
  });

  it("refuses an annotator name that cannot be a file name", () => {
    const dir = dirWith({});
    expect(inputErrorMessages(() => appendLabel(dir, label({ annotator: "../evil" })))[0]).toMatch(/annotator: "\.\.\/evil" cannot name a labels file/);
  });

  it("requires a source for imported labels", () => {
    expect(inputErrorMessages(() => appendLabel(dirWith({}), label({ provenance: "import" })))[0]).toMatch(/source: an imported label/);
  });

  it("appendLabels writes nothing when any label is bad", () => {
    const dir = dirWith({});
    expect(() => appendLabels(dir, [label(), label({ annotator: "b" }), label({ frame: "convenience" })])).toThrow(InputErrors);
    expect(existsSync(join(dir, "asha.jsonl"))).toBe(false);
    expect(existsSync(join(dir, "b.jsonl"))).toBe(false);
    const ok = appendLabels(dir, [label(), label({ annotator: "b" })]);
    expect(ok.files.sort()).toEqual([join(dir, "asha.jsonl"), join(dir, "b.jsonl")]);
  });
});
