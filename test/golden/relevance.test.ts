import { describe, expect, it } from "vitest";
import { parseJsonl } from "../../src/golden/jsonl.js";
import { checkAnchors } from "../../src/golden/anchors.js";
import { addPassages, anchorChunks, indexChunks, noteAnchorChunks, relevantSet } from "../../src/golden/relevance.js";
import { GoldenQuestion } from "../../src/golden/schema/golden.js";

const index = indexChunks([
  { id: "hr#0", doc: "hr", text: "Casual leave. Twelve days a year." },
  { id: "hr#1", doc: "hr", text: "Unused casual leave cannot be\ncarried forward to the NEXT year." },
  { id: "it#0", doc: "it", text: "Unused casual leave cannot be carried forward to the next year." },
]);

describe("relevance from anchors", () => {
  it("marks the chunks of the anchor's document that contain it, case- and space-insensitively", () => {
    expect(anchorChunks({ doc: "hr", text: "unused casual leave  cannot be carried forward to the next year" }, index)).toEqual(["hr#1"]);
  });

  it("adds listed ids to the anchor's chunks", () => {
    const q = GoldenQuestion.parse({ id: "q", question: "?", relevant: ["it#0"], anchor: { doc: "hr", text: "twelve days a year" } });
    expect([...relevantSet(q, index)].sort()).toEqual(["hr#0", "it#0"]);
  });

  it("an anchor of white space only marks no chunk (not every chunk of its document)", () => {
    expect(anchorChunks({ doc: "hr", text: " \u00a0\n" }, index)).toEqual([]);
  });

  it("the golden-set schema rejects an anchor of white space only, naming the line and field", () => {
    const { problems } = parseJsonl('{"id":"q","question":"?","anchor":{"doc":"hr","text":"   "}}\n', "g.jsonl", GoldenQuestion);
    expect(problems.map((p) => p.message)).toEqual(["g.jsonl:1: anchor.text: must not be empty or only white space"]);
  });
});

describe("anchor chunks noted by the anchor check", () => {
  const chunks = indexChunks([
    { id: "d#0", doc: "d", text: "alpha beta gamma delta epsilon zeta" },
    { id: "d#1", doc: "d", text: "delta epsilon zeta eta theta iota" },
    { id: "d#2", doc: "d", text: "kappa lambda" },
  ]);

  it("are the ids a scan of the document's chunks finds, so relevant sets are the same either way", () => {
    const anchor = { doc: "d", text: "Delta  Epsilon zeta" };
    const before = anchorChunks(anchor, chunks);
    checkAnchors({ file: "g.jsonl", questions: [GoldenQuestion.parse({ id: "q", question: "?", anchor })], lineOf: new Map() }, [{ chunks, chunksFile: "c.jsonl" }]);
    expect(before).toEqual(["d#0", "d#1"]);
    expect(anchorChunks(anchor, chunks)).toEqual(before);
  });

  it("are taken instead of scanning (a noted answer is what anchorChunks returns) and dropped when passages join the index", () => {
    const index = indexChunks([{ id: "e#0", doc: "e", text: "one two three four five six" }]);
    noteAnchorChunks(index, "e", "one two three", ["noted"]);
    expect(anchorChunks({ doc: "e", text: "one two three" }, index)).toEqual(["noted"]);
    addPassages(index, [{ id: "p", doc: "e", text: "seven eight" }]);
    expect(anchorChunks({ doc: "e", text: "one two three" }, index)).toEqual(["e#0"]);
  });
});

describe("anchor memos keep apart what only a separator would join", () => {
  it("a NUL in a document id and in an anchor gives each anchor its own chunks and findings", () => {
    const words = "one two three four five six";
    const chunks = indexChunks([
      { id: "c1", doc: "d\u0000x", text: `alpha ${words} omega` },
      { id: "c2", doc: "d", text: `beta x\u0000${words} omega` },
    ]);
    const questions = [
      GoldenQuestion.parse({ id: "qa", question: "a?", anchor: { doc: "d\u0000x", text: words } }),
      GoldenQuestion.parse({ id: "qb", question: "b?", anchor: { doc: "d", text: `x\u0000${words}` } }),
    ];
    const check = checkAnchors({ file: "g.jsonl", questions, lineOf: new Map([["qa", 1], ["qb", 2]]) }, [{ chunks, chunksFile: "c.jsonl" }]);
    expect(check.problems).toEqual([]);
    expect(questions.map((q) => [...relevantSet(q, chunks)])).toEqual([["c1"], ["c2"]]);
  });
});

describe("checkAnchors", () => {
  it("gives the same findings when asked again for the same golden set and chunk indexes, and checks afresh for another index", () => {
    const words = "one two three four five six";
    const golden = { file: "g.jsonl", questions: [GoldenQuestion.parse({ id: "q", question: "?", anchor: { doc: "d", text: words } })], lineOf: new Map([["q", 1]]) };
    const good = indexChunks([{ id: "c1", doc: "d", text: `alpha ${words} omega` }]);
    const first = checkAnchors(golden, [{ chunks: good, chunksFile: "c.jsonl" }]);
    expect(first.problems).toEqual([]);
    const again = checkAnchors(golden, [{ chunks: good, chunksFile: "c.jsonl" }]);
    expect(again).toEqual(first);
    again.problems.push({} as (typeof again.problems)[number]); // the caller's arrays are its own
    expect(checkAnchors(golden, [{ chunks: good, chunksFile: "c.jsonl" }]).problems).toEqual([]);
    // the same file name, another index (a copy with passages, or a file read again): checked again
    const other = indexChunks([{ id: "c1", doc: "d", text: "alpha omega" }]);
    expect(checkAnchors(golden, [{ chunks: other, chunksFile: "c.jsonl" }]).problems.map((p) => p.message)).toEqual([expect.stringMatching(/is not in document "d"/)]);
  });
});
