import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadGolden, loadVariant } from "../../../src/golden/dataset.js";
import { InputErrors } from "../../../src/golden/errors.js";
import { hashJson } from "../../../src/golden/hash.js";
import { stripMarkers } from "../../../src/golden/citations.js";
import { loadConfig } from "../../../src/golden/config.js";
import { relevantSet } from "../../../src/golden/relevance.js";
import { buildItems, type Item } from "../../../src/judge/items/items.js";
import { loadJudgeInputs } from "../../../src/judge/items/inputs.js";
import { diagnoseVariants } from "../../../src/retrieval/diagnostics/section.js";
import { missK } from "../../../src/retrieval/diagnostics/diagnose.js";
import { missCandidates } from "../../../src/retrieval/diagnostics/misses.js";
import { ROOT } from "../../helpers/paths.js";
import { ALL_RUBRICS, FIXTURE, fixtureInputs, rubric, tempDir } from "../helpers.js";

const ALL = ALL_RUBRICS;

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
    // hybrid has no output line for q6: a retrieval miss for the miss analysis, so anchor ambiguity applies, but q6 has no reference.
    expect(itemSet.skipped.map((s) => `${s.key.variant}/${s.key.question}/${s.key.rubric}`)).toEqual(["bm25/q6/correctness", "hybrid/q6/anchor-ambiguity", "hybrid/q6/correctness"]);
  });

  it("asks anchor ambiguity only for retrieval misses, with the top-k chunks without the anchor as candidates", () => {
    const aa = itemSet.items.filter((i) => i.key.rubric === "anchor-ambiguity");
    expect(aa.map(keyOf)).toEqual(["hybrid/q5/anchor-ambiguity/question"]);
    expect(aa[0]!.evidence.candidates!.map((c) => c.id)).toEqual(["hr-leave#0", "hr-leave#1"]);
  });
});

/** The miss analysis's misses of each variant, as `variant/question`. */
function analysisMisses(inputs: ReturnType<typeof fixtureInputs>, ks: readonly number[]): string[] {
  return diagnoseVariants(inputs.golden, inputs.variants, { ks, poolDepth: 50 }).flatMap((d) => d.misses.map((m) => `${d.variant}/${m.question}`));
}

describe("anchor-ambiguity items are the miss analysis's misses", () => {
  it("on the shipped example: the same questions, read at missK(config.k) over `retrieved`, not the context", () => {
    const resolved = loadConfig(join(ROOT, "ragjudge.config.json"));
    const inputs = loadJudgeInputs(resolved, { rubrics: ["anchor-ambiguity"] });
    const judged = inputs.itemSet.items.map((i) => `${i.key.variant}/${i.key.question}`);
    expect(inputs.itemSet.skipped).toEqual([]);
    expect(judged.length).toBeGreaterThan(0);
    expect(judged).toEqual(analysisMisses(inputs, resolved.config.k));
    // bm25-small fact-06: its relevant chunk is below the 5 context chunks but within the top 10: not a miss.
    expect(judged).not.toContain("bm25-small/fact-06");
    const k = missK(resolved.config.k);
    for (const i of inputs.itemSet.items) {
      const v = inputs.variants.find((x) => x.name === i.key.variant)!;
      const q = inputs.golden.byId.get(i.key.question)!;
      const expected = missCandidates(v.outputs.get(q.id)?.retrieved ?? [], relevantSet(q, v.chunks), k);
      expect(i.evidence.candidates!.map((c) => c.id), keyOf(i)).toEqual(expected);
    }
  });

  it("on the fixture, a question without an output line included (items and skipped together)", () => {
    const inputs = fixtureInputs(["anchor-ambiguity"]);
    const judged = [...inputs.itemSet.items.map((i) => i.key), ...inputs.itemSet.skipped.map((s) => s.key)].map((k) => `${k.variant}/${k.question}`).sort();
    expect(judged).toEqual(analysisMisses(inputs, [1, 5, 10]).sort());
  });

  it("uses the cut-off it is given: a relevant chunk at rank 3 is a miss at k 2, not at k 5", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "out.jsonl"), '{"id":"q5","retrieved":["hr-leave#0","hr-leave#1","hr-leave#2"],"answer":"x"}\n');
    const golden = loadGolden(join(FIXTURE, "golden.jsonl"));
    const v = loadVariant({ name: "v", output: join(dir, "out.jsonl"), chunks: join(FIXTURE, "chunks.jsonl"), contextK: 1, stages: { first: [] } }, golden);
    const aa = (k: number) => buildItems({ golden, variants: [v], rubrics: [rubric("anchor-ambiguity")], requireCitations: false, missK: k }).items.filter((i) => i.key.question === "q5");
    expect(aa(5)).toEqual([]);
    expect(aa(2).map((i) => i.evidence.candidates!.map((c) => c.id))).toEqual([["hr-leave#0", "hr-leave#1"]]);
  });
});

describe("citation pairs of a sentence citing several sources", () => {
  const golden = loadGolden(join(FIXTURE, "golden.jsonl"));
  function pairs(line: string) {
    const dir = tempDir();
    writeFileSync(join(dir, "out.jsonl"), line + "\n");
    const v = loadVariant({ name: "v", output: join(dir, "out.jsonl"), chunks: join(FIXTURE, "chunks.jsonl"), contextK: 5, stages: { first: [] } }, golden);
    return buildItems({ golden, variants: [v], rubrics: [rubric("citation-accuracy")], requireCitations: false }).items;
  }

  it("shows the judge where the sentence cites this source and where another", () => {
    const items = pairs('{"id":"q1","retrieved":["hr-leave#1","hr-leave#0"],"answer":"Casual leave lapses on 31 December [1], and you get 12 days a year [2]. It cannot be carried over [1]."}');
    const by = new Map(items.map((i) => [i.key.unit, i.evidence.sentence]));
    expect(by.get("s1:hr-leave#1")).toBe("Casual leave lapses on 31 December [this-source], and you get 12 days a year [other-source].");
    expect(by.get("s1:hr-leave#0")).toBe("Casual leave lapses on 31 December [other-source], and you get 12 days a year [this-source].");
    // A sentence citing one source keeps the plain sentence: its evidence (and labels on it) do not change.
    expect(by.get("s2:hr-leave#1")).toBe("It cannot be carried over.");
    // Stripping the markers gives back the plain sentence, so the lexical baseline reads the same text as before.
    expect(stripMarkers(by.get("s1:hr-leave#0")!)).toBe("Casual leave lapses on 31 December, and you get 12 days a year.");
  });

  it("marks a joint marker and an unknown reference, and a sentence given with explicit citations at its end", () => {
    const joint = pairs('{"id":"q1","retrieved":["hr-leave#1","hr-leave#0"],"answer":"Leave lapses and you get 12 days [1, 2]. Ask HR [1; 9]."}');
    expect(joint.find((i) => i.key.unit === "s1:hr-leave#0")!.evidence.sentence).toBe("Leave lapses and you get 12 days [other-source, this-source].");
    expect(joint.find((i) => i.key.unit === "s2:hr-leave#1")!.evidence.sentence).toBe("Ask HR [this-source, other-source].");
    const explicit = pairs('{"id":"q1","retrieved":["hr-leave#1","hr-leave#0"],"answer":"x","citations":[{"sentence":"Leave lapses and you get 12 days.","chunks":["hr-leave#1","hr-leave#0"]},{"sentence":"Ask HR.","chunks":["hr-leave#1"]}]}');
    expect(explicit.find((i) => i.key.unit === "s1:hr-leave#1")!.evidence.sentence).toBe("Leave lapses and you get 12 days. [this-source, other-source]");
    expect(explicit.find((i) => i.key.unit === "s2:hr-leave#1")!.evidence.sentence).toBe("Ask HR.");
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
