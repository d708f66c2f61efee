import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadGolden, loadVariant, loadVariants } from "../../src/golden/dataset.js";
import { loadJsonl } from "../../src/golden/jsonl.js";
import { passageId } from "../../src/golden/passages.js";
import { relevantSet } from "../../src/golden/relevance.js";
import { PipelineOutput } from "../../src/golden/schema/pipeline.js";
import { validateInputs } from "../../src/golden/validate.js";
import { inputErrorMessages } from "../helpers/input-errors.js";
import { numberedFiles, tempDir } from "../helpers/temp.js";

const dir = tempDir("ragjudge-passages-");
const file = numberedFiles(dir, ".jsonl");
const lines = (...rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

describe("pipeline output with passages as text", () => {
  it("derives each passage's id from its normalised text: stable, and blind to case and white space", () => {
    expect(passageId("Unused leave  lapses.")).toBe(passageId("unused LEAVE lapses."));
    expect(passageId("Unused leave lapses.")).toMatch(/^p-[0-9a-f]{12}$/);
    expect(passageId("a")).not.toBe(passageId("b"));
    // Pinned: the id is part of every input hash and label, so it must never change between versions.
    expect(passageId("Unused earned leave can be carried forward up to 45 days.")).toBe(passageId("unused earned leave can be carried forward up to 45 days."));
  });

  it("parses through loadJsonl: ids in retrieved, stages and context, the passages listed once with the first doc given", () => {
    const f = file(lines({ id: "q1", retrieved: [{ text: "Alpha text.", doc: "d1", score: 2 }, { text: "Beta text." }, "chunk#1"], context: [{ text: "Beta text.", doc: "d2" }, "chunk#1"], stages: { bm25: [{ text: "Alpha text." }] }, answer: "A [1]." }));
    const value = loadJsonl(f, PipelineOutput)[0]?.value;
    expect(value!.retrieved).toEqual([passageId("Alpha text."), passageId("Beta text."), "chunk#1"]);
    expect(value!.context).toEqual([passageId("Beta text."), "chunk#1"]);
    expect(value!.stages!.bm25).toEqual([passageId("Alpha text.")]);
    expect(value!.passages).toEqual([{ id: passageId("Alpha text."), doc: "d1", text: "Alpha text." }, { id: passageId("Beta text."), doc: "d2", text: "Beta text." }]);
  });

  it("rejects an empty passage and two passages with identical text in one list, naming line and field", () => {
    const f = file(lines({ id: "q1", retrieved: [{ text: "ok" }] }, { id: "q2", retrieved: [{ text: " \n " }] }, { id: "q3", retrieved: [{ text: "Same text." }, { text: "x" }, { text: "same   TEXT." }] }, { id: "q4", retrieved: [{ text: "a", id: "b" }] }));
    expect(inputErrorMessages(() => loadJsonl(f, PipelineOutput))).toEqual([
      `${f}:2: retrieved[0].text: must not be empty or only white space`,
      `${f}:3: retrieved[2]: passage text identical to retrieved[0] after normalising: one text is one passage with one id (${passageId("Same text.")}); drop the repeat`,
      `${f}:4: retrieved[0]: expected a chunk id, {"id", "score"?}, or a passage {"text", "doc"?, "score"?}`,
    ]);
  });

  it("loadVariants reads a chunks file two variants share once; passages as text join a copy, never the shared index", () => {
    const golden = file(lines({ id: "q1", question: "?", relevant: ["c#1"] }));
    const chunks = file(lines({ id: "c#1", doc: "c", text: "Leave lapses in March." }, { id: "c#2", doc: "c", text: "Ask HR." }));
    const plain = file(lines({ id: "q1", retrieved: ["c#2", "c#1"] }));
    const withText = file(lines({ id: "q1", retrieved: [{ text: "A passage as text.", doc: "c" }, "c#1"] }));
    const g = loadGolden(golden);
    const cfg = (name: string, output: string) => ({ name, output, chunks, contextK: 5, stages: { first: [] } });
    const [a, b, c] = loadVariants([cfg("a", plain), cfg("b", plain), cfg("c", withText)], g);
    expect(b!.chunks).toBe(a!.chunks);
    expect(c!.chunks).not.toBe(a!.chunks);
    const id = passageId("A passage as text.");
    expect(c!.chunks.byId.has(id) && c!.chunks.passages.has(id)).toBe(true);
    expect(a!.chunks.byId.has(id) || a!.chunks.passages.has(id) || a!.chunks.byDoc.get("c")!.length !== 2).toBe(false);
    expect(c!.chunks.byDoc.get("c")!.map((x) => x.chunk.id)).toEqual(["c#1", "c#2", id]);
    // the same figures as variants loaded one by one
    const alone = loadVariant(cfg("c", withText), g);
    expect([...alone.chunks.byId.keys()]).toEqual([...c!.chunks.byId.keys()]);
    expect([...relevantSet(g.byId.get("q1")!, c!.chunks)]).toEqual([...relevantSet(g.byId.get("q1")!, alone.chunks)]);
  });

  it("needs no chunks file: passages join the variant's chunk index, so relevance, context and validation work on ids", () => {
    const golden = file(lines(
      { id: "q1", question: "?", relevantText: ["Leave can be carried forward up to 45 days"] },
      { id: "q2", question: "?", anchor: { doc: "hr", text: "carried forward up to 45 days" } },
      { id: "q3", question: "?", relevantText: ["A passage nobody retrieved."] },
    ));
    const output = file(lines(
      { id: "q1", retrieved: [{ text: "Unrelated." }, { text: "Earned leave can be carried forward up to 45 days, says HR." }], answer: "45 days [2]." },
      { id: "q2", retrieved: [{ text: "Earned leave can be carried forward up to 45 days, says HR.", doc: "hr" }, { text: "Up to 45 days." }] },
      { id: "q3", retrieved: ["not-a-passage"] },
    ));
    const g = loadGolden(golden);
    const v = loadVariant({ name: "v", output, contextK: 5, stages: { first: [] } }, g);
    const long = passageId("Earned leave can be carried forward up to 45 days, says HR.");
    // relevantText: the retrieved passage contains the marked one (containment either way)
    expect([...relevantSet(g.byId.get("q1")!, v.chunks)]).toEqual([long]);
    // the anchor: passages of its document, or without a document, that contain it
    expect([...relevantSet(g.byId.get("q2")!, v.chunks)]).toEqual([long]);
    // a marked passage nobody retrieved counts once, under its own text's id, so recall's denominator has it
    expect([...relevantSet(g.byId.get("q3")!, v.chunks)]).toEqual([passageId("A passage nobody retrieved.")]);
    const report = validateInputs({ golden, variants: [{ name: "v", output, contextK: 5 }] });
    expect(report.problems.map((p) => p.message)).toEqual([`${output}:3: chunk id "not-a-passage" and no chunks file to look it up in: name one in the config (the variant's "chunks"), or give each passage as {"text": ...}`]);
    expect(report.variants[0]).toMatchObject({ chunks: 3, passages: 3 });
    // seen first without a document, then with one: filed under it
    expect(v.chunks.byId.get(long)!.doc).toBe("hr");
  });

  it("the golden set's relevantText: checked against a chunks file (a note when it matches no chunk), refused on unanswerable questions", () => {
    const chunks = join(dir, "chunks.jsonl");
    writeFileSync(chunks, lines({ id: "c1", doc: "d", text: "Leave lapses at year end." }, { id: "c2", doc: "d", text: "" }));
    const golden = file(lines({ id: "q1", question: "?", relevantText: ["leave lapses"] }, { id: "q2", question: "?", relevantText: ["nowhere to be found"] }, { id: "q3", question: "?", answerable: false, relevantText: ["x"] }));
    const output = file(lines({ id: "q1", retrieved: ["c1"] }));
    const report = validateInputs({ golden, variants: [{ name: "v", chunks, output, contextK: 5 }] });
    expect(report.problems.map((p) => p.message)).toEqual([`${golden}:3: relevantText: an unanswerable question (answerable: false) must have no relevant passages`]);
    expect(report.notes).toContain(`${chunks}: a relevantText passage of 1 question (q2) matches no chunk: it counts as a relevant passage never retrieved`);
  });
});
