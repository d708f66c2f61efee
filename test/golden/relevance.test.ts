import { describe, expect, it } from "vitest";
import { parseJsonl } from "../../src/golden/jsonl.js";
import { anchorChunks, indexChunks, relevantSet } from "../../src/golden/relevance.js";
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
