import { describe, expect, it } from "vitest";
import { readLabelsCsv, labelsToCsv } from "../../src/calibration/labels-csv.js";
import { appendLabels, loadLabels } from "../../src/calibration/labels.js";
import { inputErrorMessages } from "../helpers/input-errors.js";
import { numberedFiles, tempDir } from "../helpers/temp.js";

const H = "c".repeat(64);
const csv = numberedFiles(tempDir("ragjudge-csv-"), ".csv");
const flags = { annotator: "asha", provenance: "human", frame: "random", attestation: "a 1-in-10 uniform sample drawn by our labelling vendor", time: "2026-01-01T00:00:00Z" };

describe("readLabelsCsv", () => {
  it("reads rows with flags filling the columns it lacks, any header case and order, BOM and CRLF", () => {
    const f = csv(`\ufeffQuestion,variant,rubric,unit,InputHash,label,comment\r\nq1,bm25,faithfulness,answer,${H.toUpperCase()},Yes,looks fine\r\nq2,bm25,faithfulness,answer,${H},NO,\r\n,,,,,,\r\n`);
    const { labels, ignoredColumns } = readLabelsCsv(f, flags);
    expect(ignoredColumns).toEqual(["comment"]);
    expect(labels).toHaveLength(2);
    expect(labels[0]).toMatchObject({ question: "q1", inputHash: H, label: "yes", annotator: "asha", provenance: "human", frame: "random", time: flags.time });
    expect(labels[1]!.label).toBe("no");
  });

  it("names file, line and column of a missing column in one line", () => {
    const f = csv(`variant,question,rubric,unit,label\nbm25,q1,faithfulness,answer,yes\n`);
    expect(inputErrorMessages(() => readLabelsCsv(f, flags))).toEqual([`${f}:1: inputHash: missing column (the header needs variant, question, rubric, unit, inputHash, label)`]);
  });

  it("names every missing column in one line, with the header's names that look meant for them", () => {
    const f = csv(`variant,question,rubric,unit,input_hash,verdict\nbm25,q1,faithfulness,answer,${H},yes\n`);
    expect(inputErrorMessages(() => readLabelsCsv(f, flags))).toEqual([
      `${f}:1: inputHash, label: missing columns (the header needs variant, question, rubric, unit, inputHash, label; did you mean "input_hash" for inputHash?)`,
    ]);
    // and the columns a flag could fill, beside them
    expect(inputErrorMessages(() => readLabelsCsv(f, { provenance: "human" }))).toEqual([
      `${f}:1: inputHash, label: missing columns (the header needs variant, question, rubric, unit, inputHash, label; did you mean "input_hash" for inputHash?)`,
      `${f}:1: annotator, frame: missing columns: add annotator and frame columns or pass --annotator and --frame`,
    ]);
  });

  it("reports every problem of every row: a bad time beside a \"maybe\", a rubric the project lacks", () => {
    const f = csv(`variant,question,rubric,unit,inputHash,label,time\nbm25,q1,faithfulness,answer,${H},yes,yesterday\nbm25,q2,faithfulness,answer,${H},maybe,2026-13-01\nbm25,q3,faithfulnes,answer,${H},yes,2026-01-01T00:00:00Z\n`);
    const known = { rubrics: new Set(["faithfulness", "correctness"]) };
    expect(inputErrorMessages(() => readLabelsCsv(f, { ...flags, known }))).toEqual([
      `${f}:2: time: Invalid ISO datetime`,
      `${f}:3: label: expected yes or no (or y, n), got "maybe"`,
      `${f}:3: time: Invalid ISO datetime`,
      `${f}:4: rubric: unknown rubric "faithfulnes" (known: correctness, faithfulness; did you mean "faithfulness"?)`,
    ]);
  });

  it("refuses a question and a variant the project lacks, beside the row's other problems", () => {
    const f = csv(`variant,question,rubric,unit,inputHash,label\nbm52,q9,faithfulness,answer,${H},maybe\nbm25,q1,faithfulness,answer,${H},yes\nxyz,q1,faithfulness,answer,${H},yes\n`);
    const known = { question: (id: string) => (id === "q9" ? `"q9" is not in the golden set golden.jsonl` : undefined), variants: { names: ["bm25", "hybrid"], file: "ragjudge.config.json" } };
    expect(inputErrorMessages(() => readLabelsCsv(f, { ...flags, known }))).toEqual([
      `${f}:2: variant: "bm52" is not a variant of ragjudge.config.json (variants: bm25, hybrid; did you mean "bm25"?)`,
      `${f}:2: question: "q9" is not in the golden set golden.jsonl`,
      `${f}:2: label: expected yes or no (or y, n), got "maybe"`,
      `${f}:4: variant: "xyz" is not a variant of ragjudge.config.json (variants: bm25, hybrid)`,
    ]);
  });

  it("stops after 50 problems and says where it stopped", () => {
    const rows = Array.from({ length: 60 }, (_, i) => `bm25,q${i},faithfulness,answer,${H},maybe\n`).join("");
    const m = inputErrorMessages(() => readLabelsCsv(csv(`variant,question,rubric,unit,inputHash,label\n${rows}`), flags));
    expect(m).toHaveLength(51);
    expect(m[50]).toMatch(/: stopped reading after 50 problems \(line 52 and on not checked\): fix these, then run again$/);
  });

  it("asks for a frame column or --frame instead of guessing", () => {
    const f = csv(`variant,question,rubric,unit,inputHash,label\nbm25,q1,faithfulness,answer,${H},yes\n`);
    expect(inputErrorMessages(() => readLabelsCsv(f, { annotator: "a", provenance: "human" }))[0]).toBe(`${f}:1: frame: missing column: add a frame column or pass --frame`);
  });

  it("reports every bad cell with its line, counting lines inside quoted cells", () => {
    const f = csv(`variant,question,rubric,unit,inputHash,label,note\nbm25,q1,faithfulness,answer,${H},maybe,"two\nlines"\nbm25,q2,faithfulness,answer,${H},yes,\nbm25,q3,faithfulness,answer,nothex,no,\n`);
    expect(inputErrorMessages(() => readLabelsCsv(f, flags))).toEqual([
      `${f}:2: label: expected yes or no (or y, n), got "maybe"`,
      `${f}:5: inputHash: must be a lower-case hex SHA-256`,
    ]);
  });

  it("takes y and n (any case) as review --tty does, and stores yes and no", () => {
    const f = csv(`variant,question,rubric,unit,inputHash,label\nbm25,q1,faithfulness,answer,${H},Y\nbm25,q2,faithfulness,answer,${H},n\nbm25,q3,faithfulness,answer,${H},YES\n`);
    expect(readLabelsCsv(f, flags).labels.map((l) => l.label)).toEqual(["yes", "no", "yes"]);
  });

  it("reports a row with the wrong number of cells and malformed quoting", () => {
    const short = csv(`variant,question,rubric,unit,inputHash,label\nbm25,q1,faithfulness,answer\n`);
    expect(inputErrorMessages(() => readLabelsCsv(short, flags))[0]).toBe(`${short}:2: has 4 cells, the header has 6`);
    const bad = csv(`variant,question,rubric,unit,inputHash,label\nbm25,"q1,faithfulness,answer,${H},yes\n`);
    expect(inputErrorMessages(() => readLabelsCsv(bad, flags))[0]).toMatch(new RegExp(`^${bad.replace(/[.]/g, "\\.")}(:\\d+)?: not valid CSV`));
  });

  it("needs a source for imported labels and validates flag values", () => {
    const f = csv(`variant,question,rubric,unit,inputHash,label\nbm25,q1,faithfulness,answer,${H},yes\n`);
    expect(inputErrorMessages(() => readLabelsCsv(f, { ...flags, provenance: "import" }))[0]).toMatch(/source: imported labels/);
    expect(inputErrorMessages(() => readLabelsCsv(f, { ...flags, frame: "convenience" }))[0]).toMatch(/--frame must be one of random, disagreement, balanced, manual/);
    expect(readLabelsCsv(f, { ...flags, provenance: "import", source: "vendor-2026" }).labels[0]!.source).toBe("vendor-2026");
  });

  it("refuses a random row that no draw drew unless it is attested, and stamps the attestation", () => {
    const f = csv(`variant,question,rubric,unit,inputHash,label\nbm25,q1,faithfulness,answer,${H},yes\n`);
    const { attestation: _a, ...unattested } = flags;
    expect(inputErrorMessages(() => readLabelsCsv(f, unattested))).toEqual([
      `${f}:2: frame: random, but no recorded draw (labels/draws/) drew this item: pass --attest "who drew the sample and how" (or an attestation column) for labels drawn outside ragjudge, or use another frame, such as manual`,
    ]);
    expect(readLabelsCsv(f, flags).labels[0]!.attestation).toBe(flags.attestation);
    // An item a recorded draw drew needs no attestation, and gets none.
    expect(readLabelsCsv(f, { ...unattested, isDrawn: () => true }).labels[0]!.attestation).toBeUndefined();
    expect(readLabelsCsv(f, { ...unattested, frame: "manual" }).labels[0]!.frame).toBe("manual");
  });

  it("round-trips through export", () => {
    const labelsDir = tempDir("ragjudge-csv-labels-");
    appendLabels(labelsDir, [
      { variant: "bm25", question: "q1", rubric: "faithfulness", unit: "s1:doc#2", inputHash: H, label: "no", annotator: "asha", provenance: "human", frame: "random", inclusionProbability: 0.25, stratum: "long answers", split: "heldout", attestation: "stratified by answer length at the vendor", note: "cites, \"quoted\"\nand a new line", time: "2026-01-01T00:00:00.000Z" },
      { variant: "bm25", question: "q1", rubric: "faithfulness", unit: "s1:doc#2", inputHash: H, label: "yes", annotator: "lead", provenance: "human", frame: "manual", adjudication: true, time: "2026-01-02T00:00:00.000Z" },
    ]);
    const book = loadLabels(labelsDir);
    const out = csv(labelsToCsv(book));
    const back = readLabelsCsv(out).labels;
    const original = book.history.map((l) => l.value);
    expect(back).toEqual(expect.arrayContaining(original));
    expect(back).toHaveLength(2);
    // The stratum survives the spreadsheet: it decides whether the gate weights a random label.
    expect(back.find((l) => l.annotator === "asha")!.stratum).toBe("long answers");
  });

  it("neutralises cells a spreadsheet would run as formulas, and reads them back unchanged", () => {
    const labelsDir = tempDir("ragjudge-csv-formula-");
    const notes = ["=HYPERLINK(\"http://evil.example\",\"x\")", "+1 for this", "-3 points", "@SUM(A1)", "'=already quoted", "plain"];
    appendLabels(labelsDir, notes.map((note, i) => ({ variant: "=bm25", question: `q${i}`, rubric: "faithfulness", unit: "answer", inputHash: H, label: "yes" as const, annotator: "asha", provenance: "human" as const, frame: "manual" as const, note, time: "2026-01-01T00:00:00.000Z" })));
    const book = loadLabels(labelsDir);
    const text = labelsToCsv(book);
    // No cell starts with a formula character: each such cell is led by a quote.
    const cells = text.split(/[,\n]/).map((c) => c.replace(/^"/, ""));
    expect(cells.filter((c) => /^[=+\-@]/.test(c))).toEqual([]);
    expect(text).toContain("'=HYPERLINK(");
    expect(text).toContain("'-3 points");
    expect(text).toContain("''=already quoted");
    expect(text).toMatch(/^'=bm25,/m);
    const back = readLabelsCsv(csv(text)).labels;
    expect(back.map((l) => l.note).sort()).toEqual([...notes].sort());
    expect(new Set(back.map((l) => l.variant))).toEqual(new Set(["=bm25"]));
  });
});
