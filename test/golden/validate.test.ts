import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { displayPath } from "../../src/golden/errors.js";
import { indexChunks } from "../../src/golden/relevance.js";
import { documentText, validateInputs } from "../../src/golden/validate.js";
import { runCliCaptured } from "../helpers/cli.js";
import { fixturePath } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

const fx = fixturePath("retrieval");

function bad(): { golden: string; chunks: string; output: string } {
  const dir = tempDir("ragjudge-validate-");
  const w = (name: string, lines: string[]) => {
    writeFileSync(join(dir, name), lines.join("\n") + "\n");
    return join(dir, name);
  };
  return {
    golden: w("g.jsonl", [
      '{"id":"q1","question":"a?","anchor":{"doc":"hr","text":"the rule applies to all staff on site"}}',
      '{"id":"q1","question":"dup","relevant":["c1"]}',
      '{"id":"q3","question":"?","relevant":["nope"]}',
      '{"id":"q4","question":"?"}',
      '{"id":"q5","question":"?","answerable":false,"relevant":["c1"]}',
      '{"id":"q6","question":"?","anchor":{"doc":"hr","text":"the cut falls in the middle of this very sentence"}}',
      '{"id":"q7","question":"?","anchor":{"doc":"ghost","text":"x y z"}}',
      '{"id":"q8","question":"?","anchor":{"doc":"ov","text":"Gamma  delta epsilon zeta ETA theta"}}',
      '{"id":"q9","question":"?","answerable":false,"anchor":{"doc":"ov","text":"alpha"}}',
      '{"id":"q10","question":"?","anchor":{"doc":"it","text":"reset the password in the web portal"}}',
    ]),
    chunks: w("c.jsonl", [
      '{"id":"c1","doc":"hr","text":"The rule applies to all staff on site. The rule applies to all staff on site, again. The cut falls in the middle of"}',
      '{"id":"c2","doc":"hr","text":"this very sentence, right here."}',
      '{"id":"c3","doc":"it","text":"Reset the password in the portal."}',
      '{"id":"c1","doc":"hr","text":"again"}',
      '{"id":"c4","doc":"ov","text":"alpha beta gamma delta epsilon zeta eta theta"}',
      '{"id":"c5","doc":"ov","text":"delta epsilon zeta eta theta iota kappa"}',
    ]),
    output: w("o.jsonl", [
      '{"id":"q1","retrieved":["c1","c9"],"answer":"Yes [2]. Also [c3]."}',
      '{"id":"zz","retrieved":[]}',
      '{"id":"q3","retrieved":["c1","c1"]}',
      '{"id":"q6","retrieved":["c2"],"context":["c2","c7"],"citations":[{"sentence":"x","chunks":["c8","c3"]}]}',
      '{"id":"q8","retrieved":["c4"],"answer":"See [3]."}',
      '{"id":"q8","retrieved":["c5"]}',
    ]),
  };
}

describe("validateInputs", () => {
  it("does not repeat a golden line's mistake as unknown-question errors in the outputs", () => {
    const dir = tempDir("ragjudge-validate-");
    const lines = readFileSync(join(fx, "golden.jsonl"), "utf8").trim().split("\n");
    const first = JSON.parse(lines[0]!) as { id: string };
    // The id itself is broken: output lines for that question cannot be called unknown.
    writeFileSync(join(dir, "g.jsonl"), [JSON.stringify({ ...first, id: 7 }), ...lines.slice(1)].join("\n") + "\n");
    const broken = validateInputs({ golden: join(dir, "g.jsonl"), variants: [{ name: "bm25", chunks: join(fx, "chunks.jsonl"), output: join(fx, "bm25.output.jsonl"), contextK: 5 }] });
    expect(broken.problems.map((p) => p.message)).toEqual([`${displayPath(join(dir, "g.jsonl"))}:1: id: expected string, got number 7`]);
    // Another field is broken but the id is readable: unknown questions are still found.
    writeFileSync(join(dir, "g2.jsonl"), [JSON.stringify({ ...first, answerable: "yes" }), ...lines.slice(1)].join("\n") + "\n");
    const readable = validateInputs({ golden: join(dir, "g2.jsonl"), variants: [{ name: "bm25", chunks: join(fx, "chunks.jsonl"), output: join(fx, "bm25.output.jsonl"), contextK: 5 }] });
    expect(readable.problems.map((p) => p.field)).toEqual(["answerable"]);
  });

  it("reports every problem at once, by file and line", () => {
    const f = bad();
    const report = validateInputs({ golden: f.golden, variants: [{ name: "v", chunks: f.chunks, output: f.output, contextK: 5 }] });
    expect(report.problems.map((p) => p.message)).toEqual([
      `${f.golden}:1: anchor.text: occurs 2 times in document "hr"; an anchor must occur exactly once, or it marks chunks that do not answer`,
      `${f.golden}:2: id: duplicate question id "q1" (first on line 1)`,
      `${f.golden}:3: relevant[0]: chunk id "nope" is not in the chunks file ${f.chunks}`,
      `${f.golden}:4: relevant: an answerable question needs relevant chunk ids, an anchor or relevantText`,
      `${f.golden}:5: relevant: an unanswerable question (answerable: false) must have no relevant chunks`,
      `${f.golden}:7: anchor.text: has 3 words; an anchor is a verbatim phrase of 6 to 20 words (shorter ones mark chunks that merely mention the words, longer ones rarely survive re-chunking)`,
      `${f.golden}:7: anchor.doc: document "ghost" has no chunk in ${f.chunks}`,
      `${f.golden}:9: anchor: an unanswerable question (answerable: false) must have no anchor`,
      `${f.golden}:10: anchor.text: is not in document "it" as its chunks in ${f.chunks} hold it (not verbatim: compare spelling, punctuation and numbers), so no chunk is relevant`,
      `${f.chunks}:4: id: duplicate chunk id "c1" (first on line 1)`,
      `${f.output}:1: retrieved[1]: unknown chunk id "c9" (not in ${f.chunks})`,
      `${f.output}:1: answer: sentence 2 cites chunk "c3", which is not in the context given to the generator`,
      `${f.output}:2: id: question "zz" is not in the golden set ${f.golden}`,
      `${f.output}:3: retrieved[1]: chunk id "c1" appears twice in the ranked list`,
      `${f.output}:4: context[1]: unknown chunk id "c7" (not in ${f.chunks})`,
      `${f.output}:4: citations: sentence 1 cites "c8", which names no chunk in ${f.chunks}`,
      `${f.output}:4: citations: sentence 1 cites chunk "c3", which is not in the context given to the generator`,
      `${f.output}:5: answer: sentence 1 cites "3", which names no chunk (the context has 1)`,
      `${f.output}:6: id: duplicate output for question "q8" (first on line 5)`,
    ]);
    // An anchor a chunk boundary cuts is what this chunker did, not a golden-set mistake: a warning naming both sides.
    expect(report.warnings.map((p) => p.message)).toEqual([
      `${f.golden}:6: anchor.text: is cut by a chunk boundary in ${f.chunks} (c1 holds "the cut falls in the middle of", c2 holds "this very sentence"): no chunk holds it whole, so this question has no relevant chunk there and the miss analysis calls it chunk-boundary`,
    ]);
  });

  it("reports a ranked list's duplicates, then its unknown ids, in each list's order, across lists and stage lists of one line", () => {
    const dir = tempDir("ragjudge-validate-lists-");
    const golden = join(dir, "g.jsonl");
    const chunks = join(dir, "c.jsonl");
    const output = join(dir, "o.jsonl");
    writeFileSync(golden, '{"id":"q1","question":"?","relevant":["a"]}\n{"id":"q2","question":"?","relevant":["a"]}\n');
    writeFileSync(chunks, ["a", "b", "c"].map((id) => JSON.stringify({ id, doc: "d", text: `text ${id}` })).join("\n") + "\n");
    writeFileSync(output, [
      // an id seen in an earlier list (or line) is no duplicate here; an unknown id twice is one
      '{"id":"q1","retrieved":["a","b","c"],"stages":{"bm25":["c","x","b","x","c"]}}',
      '{"id":"q2","retrieved":["c","b","a","b"],"stages":{"bm25":["a","y"]}}',
    ].join("\n") + "\n");
    const report = validateInputs({ golden, variants: [{ name: "v", chunks, output, contextK: 5, stages: { first: ["bm25"] } }] });
    expect(report.problems.map((p) => p.message)).toEqual([
      `${output}:1: stages.bm25[3]: chunk id "x" appears twice in the ranked list`,
      `${output}:1: stages.bm25[4]: chunk id "c" appears twice in the ranked list`,
      `${output}:1: stages.bm25[1]: unknown chunk id "x" (not in ${chunks})`,
      `${output}:1: stages.bm25[3]: unknown chunk id "x" (not in ${chunks})`,
      `${output}:2: retrieved[3]: chunk id "b" appears twice in the ranked list`,
      `${output}:2: stages.bm25[1]: unknown chunk id "y" (not in ${chunks})`,
    ]);
  });

  it("counts an anchor's words as a person does, 6 to 20", () => {
    const dir = tempDir("ragjudge-words-");
    const golden = join(dir, "g.jsonl");
    const chunks = join(dir, "c.jsonl");
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");
    writeFileSync(chunks, JSON.stringify({ id: "c", doc: "d", text: `${words(25)}.` }) + "\n");
    writeFileSync(golden, [5, 6, 20, 21].map((n) => JSON.stringify({ id: `q${n}`, question: "?", anchor: { doc: "d", text: words(n) } })).join("\n") + "\n");
    writeFileSync(join(dir, "o.jsonl"), JSON.stringify({ id: "q6", retrieved: ["c"] }) + "\n");
    const report = validateInputs({ golden, variants: [{ name: "v", chunks, output: join(dir, "o.jsonl"), contextK: 5 }] });
    expect(report.problems.map((p) => [p.line, p.message.replace(/;.*/, "")])).toEqual([
      [1, `${golden}:1: anchor.text: has 5 words`],
      [4, `${golden}:4: anchor.text: has 21 words`],
    ]);
  });

  it("passes the clean fixture and notes questions without output", () => {
    const report = validateInputs({ golden: join(fx, "golden.jsonl"), variants: [{ name: "bm25", chunks: join(fx, "chunks.jsonl"), output: join(fx, "bm25.output.jsonl"), contextK: 5 }] });
    expect(report.problems).toEqual([]);
    expect(report).toMatchObject({ questions: 5, answerable: 4, unanswerable: 1 });
    expect(report.notes).toEqual([`variant bm25: 1 golden question has no output line in ${join(fx, "bm25.output.jsonl")} (it scores 0): q05`]);
  });

  it("names the questions without an output line: the first five, then how many more", () => {
    const dir = tempDir("ragjudge-missing-");
    writeFileSync(join(dir, "g.jsonl"), Array.from({ length: 9 }, (_, i) => JSON.stringify({ id: `q${i}`, question: "?", answerable: false })).join("\n") + "\n");
    writeFileSync(join(dir, "o.jsonl"), '{"id":"q4","retrieved":[]}\n');
    const report = validateInputs({ golden: join(dir, "g.jsonl"), variants: [{ name: "v", output: join(dir, "o.jsonl"), contextK: 5 }] });
    expect(report.notes).toEqual([`variant v: 8 golden questions have no output line in ${join(dir, "o.jsonl")} (they score 0): q0, q1, q2, q3, q5 and 3 more`]);
  });

  it("rebuilds a document from overlapping chunks, so an anchor in the overlap counts once", () => {
    const index = indexChunks([
      { id: "a", doc: "d", text: "One two three four" },
      { id: "b", doc: "d", text: "three  FOUR five" },
      { id: "c", doc: "d", text: "six" },
    ]);
    expect(documentText(index, "d")).toBe("one two three four five six");
  });

  it("turns a missing file into a problem instead of a crash", () => {
    const report = validateInputs({ golden: join(fx, "nope.jsonl"), variants: [{ name: "v", chunks: join(fx, "chunks.jsonl"), output: join(fx, "bm25.output.jsonl"), contextK: 5 }] });
    expect(report.problems.map((p) => p.message)).toEqual([`${displayPath(join(fx, "nope.jsonl"))}: file not found`]);
  });
});

describe("ragjudge validate", () => {
  it("exits 2 with one file:line: field: message line per problem", async () => {
    const f = bad();
    const r = await runCliCaptured(["validate", "--golden", f.golden, "--chunks", f.chunks, "--output", f.output, "--citations", "error"]);
    expect(r.code).toBe(2);
    const lines = r.err.trimEnd().split("\n");
    expect(lines).toHaveLength(21);
    expect(lines[0]).toMatch(/^warning: .*g\.jsonl:6: anchor\.text: is cut by a chunk boundary/);
    expect(lines[1]).toBe(`${displayPath(f.golden)}:1: anchor.text: occurs 2 times in document "hr"; an anchor must occur exactly once, or it marks chunks that do not answer`);
    expect(lines.at(-1)).toBe("ragjudge: validate: 19 problems found");
    expect(r.out).toBe("");
  });

  it("exits 0 with a short summary on good inputs (config or explicit)", async () => {
    const r = await runCliCaptured(["validate", "--config", join(fx, "ragjudge.config.json")]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("ok: ");
    expect(r.out).toContain("5 questions (4 answerable, 1 unanswerable)");
    expect(r.out).toContain("ok: variant bm25: 7 chunks, 4 output lines");
    expect(r.out).toContain("ok: variant dense: 7 chunks, 4 output lines");
    const e = await runCliCaptured(["validate", "--golden", join(fx, "golden.jsonl"), "--chunks", join(fx, "chunks.jsonl"), "--output", join(fx, "dense.output.jsonl")]);
    expect(e.code).toBe(0);
    expect(e.out).toContain("ok: variant dense:");
  });

  it("citation problems are warnings by default and errors with --citations error", async () => {
    const dir = tempDir("ragjudge-cite-");
    const out = join(dir, "o.jsonl");
    writeFileSync(out, '{"id":"q01","retrieved":["hr-leave#1"],"context":["hr-leave#1"],"answer":"No [2]. See [travel#0]."}\n');
    const args = ["validate", "--golden", join(fx, "golden.jsonl"), "--chunks", join(fx, "chunks.jsonl"), "--output", out];
    const strict = await runCliCaptured([...args, "--citations", "error"]);
    expect(strict.code).toBe(2);
    const lenient = await runCliCaptured(args);
    expect(lenient.code).toBe(0);
    expect(lenient.err.trimEnd().split("\n")).toEqual([
      `warning: ${displayPath(out)}:1: answer: sentence 1 cites "2", which names no chunk (the context has 1)`,
      `warning: ${displayPath(out)}:1: answer: sentence 2 cites chunk "travel#0", which is not in the context given to the generator`,
    ]);
    expect(lenient.out).toContain("note: 2 warnings (on stderr)");
  });

  it("reports output lines that lack a stage list the config declares (as retrieval would, later)", async () => {
    const dir = tempDir("ragjudge-stages-");
    writeFileSync(join(dir, "o.jsonl"), '{"id":"q01","retrieved":["hr-leave#1"],"stages":{"bm25":["hr-leave#1"]}}\n{"id":"q02","retrieved":["travel#0"]}\n');
    const config = join(dir, "ragjudge.config.json");
    writeFileSync(config, JSON.stringify({ golden: join(fx, "golden.jsonl"), variants: [{ name: "v", output: "o.jsonl", chunks: join(fx, "chunks.jsonl"), stages: { first: ["bm25"], fused: "fused" } }] }));
    const r = await runCliCaptured(["validate", "--config", config]);
    expect(r.code).toBe(2);
    const o = displayPath(join(dir, "o.jsonl"));
    expect(r.err.trimEnd().split("\n")).toEqual([
      `${o}:1: stages.fused: missing: variant "v" declares "fused" as its fused list (the config's stages) (the same on 1 more line: 2)`,
      `${o}:2: stages.bm25: missing: variant "v" declares "bm25" as its first-stage list (the config's stages)`,
      "ragjudge: validate: 3 problems found",
    ]);
  });

  it("warns once per split name that is nearly the held-out split, since those questions would not count toward trust", async () => {
    const dir = tempDir("ragjudge-split-");
    const g = (id: string, split: string) => JSON.stringify({ id, question: `${id}?`, answerable: false, split });
    writeFileSync(join(dir, "g.jsonl"), [g("a", "held-out"), g("b", "heldout"), g("c", "held-out"), g("d", "HeldOut"), g("e", "dev"), g("f", "train")].join("\n") + "\n");
    writeFileSync(join(dir, "o.jsonl"), '{"id":"a","retrieved":[]}\n');
    const report = validateInputs({ golden: join(dir, "g.jsonl"), variants: [{ name: "v", output: join(dir, "o.jsonl"), contextK: 5 }], heldout: "heldout" });
    expect(report.problems).toEqual([]);
    expect(report.warnings.map((w) => w.message)).toEqual([
      `${displayPath(join(dir, "g.jsonl"))}:1: split: "held-out" is not the held-out split "heldout" that the trust gate counts, so its 2 questions (the first is here) will not count toward trust; write "heldout", or set trust.heldout to "held-out" in the config if that is the name you mean`,
      `${displayPath(join(dir, "g.jsonl"))}:4: split: "HeldOut" is not the held-out split "heldout" that the trust gate counts, so this question will not count toward trust; write "heldout", or set trust.heldout to "HeldOut" in the config if that is the name you mean`,
    ]);
    // a config that names the split otherwise: no warning for its own name
    expect(validateInputs({ golden: join(dir, "g.jsonl"), variants: [{ name: "v", output: join(dir, "o.jsonl"), contextK: 5 }], heldout: "held-out" }).warnings.map((w) => w.line)).toEqual([2, 4]);
    const config = join(dir, "ragjudge.config.json");
    writeFileSync(config, JSON.stringify({ golden: "g.jsonl", variants: [{ name: "v", output: "o.jsonl" }] }));
    const r = await runCliCaptured(["validate", "--config", config]);
    expect(r.code).toBe(0);
    expect(r.err).toContain('warning: ' + displayPath(join(dir, "g.jsonl")) + ':1: split: "held-out" is not the held-out split');
  });

  it("checks the config's floors as run does, naming the line of a bad one", async () => {
    const dir = tempDir("ragjudge-floors-");
    const config = join(dir, "ragjudge.config.json");
    const chunks = JSON.stringify(join(fx, "chunks.jsonl"));
    writeFileSync(config, `{\n  "golden": ${JSON.stringify(join(fx, "golden.jsonl"))},\n  "variants": [{"name": "bm25", "output": ${JSON.stringify(join(fx, "bm25.output.jsonl"))}, "chunks": ${chunks}}],\n  "judge": {"kind": "baseline"},\n  "floors": {\n    "R@11": 0.9,\n    "recall": 2\n  }\n}\n`);
    const r = await runCliCaptured(["validate", "--config", config]);
    expect(r.code).toBe(2);
    expect(r.err.trimEnd().split("\n")).toEqual([
      `${displayPath(config)}:7: floors.recall: bad floor "recall=2": name one measure with its cutoff, such as R@10`,
      "ragjudge: validate: 1 problem found",
    ]);
    // run refuses it the same way, at the same line
    const run = await runCliCaptured(["run", "--config", config, "--quiet"]);
    expect(run.code).toBe(2);
    expect(run.err).toBe(`ragjudge: error: ${displayPath(config)}:7: floors.recall: bad floor "recall=2": name one measure with its cutoff, such as R@10\n`);
  });

  it("refuses half-given explicit inputs", async () => {
    const r = await runCliCaptured(["validate", "--golden", join(fx, "golden.jsonl")]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("explicit inputs need --golden and --output");
  });
});
