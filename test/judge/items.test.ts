import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadGolden, loadVariant } from "../../src/golden/dataset.js";
import { InputErrors } from "../../src/golden/errors.js";
import { hashJson } from "../../src/golden/hash.js";
import { buildItems, type Item } from "../../src/judge/items.js";
import { FIXTURE, fixtureInputs, rubric, tempDir } from "./helpers.js";

const ALL = ["anchor-ambiguity", "citation-accuracy", "correctness", "faithfulness", "not-found"];

function keyOf(i: Item): string {
  return `${i.key.variant}/${i.key.question}/${i.key.rubric}/${i.key.unit}`;
}

describe("buildItems on the fixture", () => {
  const { itemSet } = fixtureInputs(ALL);
  const by = new Map(itemSet.items.map((i) => [keyOf(i), i]));

  it("hashes exactly the evidence of each item", () => {
    for (const i of itemSet.items) expect(i.inputHash).toBe(hashJson(i.evidence));
    expect(new Set(itemSet.items.map(keyOf)).size).toBe(itemSet.items.length);
  });

  it("gives each rubric only the evidence it declares", () => {
    const f = by.get("bm25/q1/faithfulness/answer")!;
    expect(Object.keys(f.evidence).sort()).toEqual(["answer", "context", "question"]);
    expect(f.evidence.context!.map((c) => c.id)).toEqual(["hr-leave#1", "hr-leave#0", "travel#1"]);
    expect(Object.keys(by.get("bm25/q1/correctness/answer")!.evidence).sort()).toEqual(["answer", "question", "reference"]);
    expect(by.get("bm25/q3/not-found/answer")!.evidence).toEqual({ question: "Is there an on-site gym?", answer: "Yes, the office has an on-site gym open from 6 am [1].", answerable: false });
  });

  it("applies rubrics as declared: faithfulness to answered answerable items, not-found to all", () => {
    expect(by.has("bm25/q3/faithfulness/answer")).toBe(false);
    expect(by.has("bm25/q3/correctness/answer")).toBe(false);
    expect(by.has("bm25/q3/not-found/answer")).toBe(true);
    expect(itemSet.items.filter((i) => i.key.rubric === "not-found").length).toBe(12);
  });

  it("makes one citation item per (sentence, cited chunk) pair", () => {
    const units = itemSet.items.filter((i) => i.key.variant === "bm25" && i.key.question === "q1" && i.key.rubric === "citation-accuracy").map((i) => i.key.unit);
    // "No." is sentence 1 and cites nothing.
    expect(units).toEqual(["s2:hr-leave#1", "s3:hr-leave#0"]);
    expect(by.get("bm25/q1/citation-accuracy/s2:hr-leave#1")!.evidence).toMatchObject({ sentence: "Unused casual leave lapses on 31 December.", cited: { id: "hr-leave#1" } });
    const pair = by.get("bm25/q1/citation-accuracy/s3:hr-leave#0")!;
    expect(pair.evidence).toEqual({
      question: "Can I carry forward unused casual leave?",
      sentence: "You get 12 days of casual leave per year.",
      cited: { id: "hr-leave#0", heading: "Casual leave", text: "Employees get 12 days of casual leave per calendar year." },
    });
    expect(pair.rule).toBeUndefined();
    expect(by.get("hybrid/q1/citation-accuracy/s1:hr-leave#1")!.evidence.sentence).toBe("No, unused casual leave lapses on 31 December.");
  });

  it("flags a citation outside the context and an unknown one by rule, without a call", () => {
    expect(by.get("bm25/q4/citation-accuracy/s1:it#0")!.rule).toBeUndefined();
    expect(by.get("bm25/q4/citation-accuracy/s2:it#1")!.rule).toMatchObject({ verdict: "no", rule: "outside-context" });
    expect(by.get("bm25/q6/citation-accuracy/s2:7")!.rule).toMatchObject({ verdict: "no", rule: "unknown-chunk", reason: "cites [7], but the context has 2 chunks" });
  });

  it("counts an answer without citations as uncited (passing unless citations are required)", () => {
    expect(by.get("bm25/q5/citation-accuracy/answer")!.rule).toMatchObject({ verdict: "yes", rule: "uncited" });
    const { items } = fixtureInputs(["citation-accuracy"]).itemSet;
    expect(items.length).toBeGreaterThan(0);
  });

  it("decides a missing answer by rule and skips items lacking a reference", () => {
    expect(by.get("hybrid/q6/not-found/answer")!.rule).toMatchObject({ verdict: "no", rule: "no-answer" });
    expect(by.has("hybrid/q6/correctness/answer")).toBe(false);
    expect(itemSet.skipped.map((s) => `${s.key.variant}/${s.key.question}/${s.key.rubric}`)).toEqual(["bm25/q6/correctness", "hybrid/q6/correctness"]);
  });

  it("asks anchor ambiguity only for retrieval misses, with the context as candidates", () => {
    const aa = itemSet.items.filter((i) => i.key.rubric === "anchor-ambiguity");
    expect(aa.map(keyOf)).toEqual(["hybrid/q5/anchor-ambiguity/question"]);
    expect(aa[0]!.evidence.candidates!.map((c) => c.id)).toEqual(["hr-leave#0", "hr-leave#1"]);
  });
});

describe("buildItems options and errors", () => {
  it("fails uncited answers when the config requires citations", () => {
    const golden = loadGolden(join(FIXTURE, "golden.jsonl"));
    const v = loadVariant({ name: "bm25", output: "bm25.output.jsonl", chunks: "chunks.jsonl", contextK: 5, stages: { first: [] } }, golden, (p) => join(FIXTURE, p));
    const { items } = buildItems({ golden, variants: [v], rubrics: [rubric("citation-accuracy")], requireCitations: true });
    expect(items.find((i) => i.key.question === "q5")!.rule).toMatchObject({ verdict: "no", rule: "uncited" });
  });

  it("names file, line and field for a context chunk the chunks file lacks", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "out.jsonl"), '{"id":"q1","retrieved":["hr-leave#1"]}\n{"id":"q2","retrieved":["travel#0"],"context":["nope#1"],"answer":"x"}\n');
    const golden = loadGolden(join(FIXTURE, "golden.jsonl"));
    const v = loadVariant({ name: "v", output: join(dir, "out.jsonl"), chunks: join(FIXTURE, "chunks.jsonl"), contextK: 5, stages: { first: [] } }, golden);
    try {
      buildItems({ golden, variants: [v], rubrics: [rubric("faithfulness")], requireCitations: false });
      expect.unreachable();
    } catch (e) {
      expect((e as InputErrors).problems.map((p) => p.message)).toEqual([`${join(dir, "out.jsonl")}:2: context: chunk "nope#1" given to the generator is not in ${join(FIXTURE, "chunks.jsonl")}`]);
    }
  });
});
