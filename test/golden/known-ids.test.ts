/**
 * Unknown chunk ids in golden-set scoring: `ragjudge retrieval` refuses them
 * as `validate` does (a misspelt id or the wrong chunks file would score as
 * a miss and exit 0), on the fast path (the load's distinct ids) and the
 * slow one alike.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { GoldenSet, VariantData } from "../../src/golden/dataset.js";
import { displayPath } from "../../src/golden/errors.js";
import { indexChunks } from "../../src/golden/relevance.js";
import { unknownChunkIds } from "../../src/golden/known-ids.js";
import { passageId } from "../../src/golden/passages.js";
import type { GoldenQuestion } from "../../src/golden/schema/golden.js";
import type { PipelineOutput } from "../../src/golden/schema/pipeline.js";
import { loadGolden, loadVariants } from "../../src/golden/dataset.js";
import { loadVariantsParallel } from "../../src/golden/load-parallel.js";
import { runCliCaptured } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";
import { exampleCopy } from "../report/helpers.js";

function golden(questions: Partial<GoldenQuestion>[]): GoldenSet {
  const qs = questions.map((x, i) => ({ id: `q${i}`, question: "?", answerable: true, kind: "factual", tags: [], ...x }) as GoldenQuestion);
  return { file: "g.jsonl", questions: qs, byId: new Map(qs.map((x) => [x.id, x])), lineOf: new Map(qs.map((x, i) => [x.id, i + 1])) };
}

function variant(outputs: Record<string, Partial<PipelineOutput>>, idsKnown?: true): VariantData {
  const chunks = indexChunks(["a", "b", "c"].map((id) => ({ id, doc: "d", text: id })));
  const entries = Object.entries(outputs);
  return {
    name: "v", outputFile: "o.jsonl", chunksFile: "c.jsonl", chunks, contextK: 5, stages: {} as VariantData["stages"],
    outputs: new Map(entries.map(([id, o]) => [id, { id, retrieved: [], ...o } as PipelineOutput])),
    lineOf: new Map(entries.map(([id], i) => [id, i + 1])),
    ...(idsKnown ? { idsKnown } : {}),
  };
}

type Line = { id: string; retrieved: (string | { text: string; doc: string })[]; context?: string[]; stages?: Record<string, string[]> };
const dir = tempDir("ragjudge-known-ids-");
let files = 0;

/** 2,600 questions with an output line each (three blocks of a worker's lines) over 150 chunks, changed by `corrupt`. */
function writeInputs(corrupt: (lines: Line[]) => void) {
  const name = join(dir, `set${files++}`);
  const chunks = Array.from({ length: 150 }, (_, i) => ({ id: `d${i % 30}#${Math.floor(i / 30)}`, doc: `d${i % 30}`, text: `part ${i}` }));
  const lines: Line[] = Array.from({ length: 2_600 }, (_, i) => ({ id: `q${i}`, retrieved: Array.from({ length: 10 }, (_, k) => chunks[(i + k) % 150]!.id), ...(i % 4 ? {} : { context: [chunks[i % 150]!.id] }) }));
  corrupt(lines);
  const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
  writeFileSync(`${name}.golden.jsonl`, jsonl(lines.map((l, i) => ({ id: l.id, question: "?", relevant: [chunks[i % 150]!.id] }))));
  writeFileSync(`${name}.chunks.jsonl`, jsonl(chunks));
  writeFileSync(`${name}.output.jsonl`, jsonl(lines));
  return { golden: `${name}.golden.jsonl`, chunks: `${name}.chunks.jsonl`, output: `${name}.output.jsonl` };
}

describe("unknownChunkIds", () => {
  it("names file, line and field of each unknown id in relevant, retrieved, stages and context", () => {
    const g = golden([{ relevant: ["a", "zz"] }, { answerable: false }]);
    const v = variant({ q0: { retrieved: ["a", "x"], stages: { first: ["b", "y"] }, context: ["w"] }, q1: { retrieved: ["c"] } });
    expect(unknownChunkIds(g, v).map((e) => e.message)).toEqual([
      'g.jsonl:1: relevant[1]: chunk id "zz" is not in the chunks file c.jsonl',
      'o.jsonl:1: retrieved[1]: unknown chunk id "x" (not in c.jsonl)',
      'o.jsonl:1: stages.first[1]: unknown chunk id "y" (not in c.jsonl)',
      'o.jsonl:1: context[0]: unknown chunk id "w" (not in c.jsonl)',
    ]);
  });

  it("with no chunks file, says so once per file in the words of the mode the user is in, not once per id", () => {
    const g = golden([{ relevant: ["a", "b"] }, { relevant: ["b", "c"] }, { answerable: false }]);
    const v = { ...variant({ q0: { retrieved: ["x", "y"], context: ["x"] }, q1: { retrieved: ["z"] } }), chunksFile: undefined, chunks: indexChunks([]) };
    // golden relevant ids that no passage given as text can have: one problem for the golden set
    expect(unknownChunkIds(g, v, "flag").map((e) => e.message)).toEqual([
      'g.jsonl:1: 3 relevant chunk ids (the first: "a") and no chunks file to look them up in: pass --chunks FILE (or name one in the config), or mark the relevant passages with an anchor or relevantText',
      'o.jsonl:1: 3 chunk ids (the first: "x") and no chunks file to look them up in: pass --chunks FILE (or name one in the config), or give each passage as {"text": ...}',
    ]);
    expect(unknownChunkIds(golden([{}]), { ...v, outputs: new Map([["q0", { id: "q0", retrieved: ["x"] }]]) }, "config").map((e) => e.message)).toEqual([
      'o.jsonl:1: chunk id "x" and no chunks file to look it up in: name one in the config (the variant\'s "chunks"), or give each passage as {"text": ...}',
    ]);
  });

  it("with no chunks file, takes a derived passage id no answer retrieved as a miss, any other relevant id as a missing chunks file", () => {
    const derived = passageId("Unused leave lapses.");
    const v = { ...variant({ q0: { retrieved: [] } }), chunksFile: undefined, chunks: indexChunks([]) };
    expect(unknownChunkIds(golden([{ relevant: [derived] }]), v, "config")).toEqual([]);
    expect(unknownChunkIds(golden([{ relevant: [derived.toUpperCase()] }, { relevant: [`${derived}0`] }]), v, "config").map((e) => e.message)).toEqual([
      `g.jsonl:1: 2 relevant chunk ids (the first: "${derived.toUpperCase()}") and variant v has no chunks file to look them up in: name one in the config (the variant's "chunks"), or mark the relevant passages with an anchor or relevantText`,
    ]);
    // an unanswerable question's ids are the schema's problem, not this one's
    expect(unknownChunkIds(golden([{ relevant: ["fares#1"], answerable: false }]), v, "config")).toEqual([]);
  });

  it("ragjudge retrieval and validate with --golden and --output but no --chunks name --chunks, once per file", async () => {
    const f = writeInputs(() => {});
    for (const command of ["retrieval", "validate"]) {
      const r = await runCliCaptured([command, "--golden", f.golden, "--output", f.output]);
      expect(r.code).toBe(2);
      const lines = r.err.trimEnd().split("\n").filter((l) => !l.startsWith("ragjudge: validate:")).map((l) => l.replace(/^ragjudge: error: /, ""));
      expect(lines).toEqual([
        `${displayPath(f.golden)}:1: 150 relevant chunk ids (the first: "d0#0") and no chunks file to look them up in: pass --chunks FILE (or name one in the config), or mark the relevant passages with an anchor or relevantText`,
        `${displayPath(f.output)}:1: 150 chunk ids (the first: "d0#0") and no chunks file to look them up in: pass --chunks FILE (or name one in the config), or give each passage as {"text": ...}`,
      ]);
    }
  });

  it("does not walk the lines of a load that found every id as it came in, but still checks the golden set", () => {
    const outputs = { q1: { retrieved: ["c", "nope"] } };
    expect(unknownChunkIds(golden([{}]), variant(outputs, true))).toEqual([]);
    expect(unknownChunkIds(golden([{ relevant: ["zz"] }]), variant(outputs, true)).map((e) => e.message)).toEqual(['g.jsonl:1: relevant[0]: chunk id "zz" is not in the chunks file c.jsonl']);
    expect(unknownChunkIds(golden([{}]), variant(outputs)).map((e) => e.message)).toEqual(['o.jsonl:1: retrieved[1]: unknown chunk id "nope" (not in c.jsonl)']);
  });

  it.each([
    ["no unknown id", () => {}],
    ["an unknown id in retrieved, in the last block of lines", (o: Line[]) => (o[2_500]!.retrieved[7] = "nope#1")],
    ["an unknown id in context", (o: Line[]) => (o[40]!.context = ["d1#1", "nope#2"])],
    ["an unknown id in a stage list", (o: Line[]) => (o[1_200]!.stages = { first: ["nope#3"] })],
    ["a passage given as text", (o: Line[]) => (o[3]!.retrieved[0] = { text: "as text", doc: "d1" })],
  ])("gives the same problems for a load on a worker thread as for one here: %s", async (_name, corrupt) => {
    const f = writeInputs(corrupt);
    const g = loadGolden(f.golden);
    const vs = [{ name: "v", output: f.output, chunks: f.chunks, contextK: 5, stages: { first: [] } }];
    const [threaded] = await loadVariantsParallel(vs, g, undefined, undefined, 0);
    const [here] = loadVariants(vs, g);
    expect(threaded!.idsKnown).toBe(_name === "no unknown id" ? true : undefined);
    expect(here!.idsKnown).toBeUndefined();
    const messages = (v: VariantData) => unknownChunkIds(g, v).map((e) => e.message);
    expect(messages(threaded!)).toEqual(messages(here!));
    expect(messages(here!)).toHaveLength(_name.startsWith("an unknown") ? 1 : 0);
  });

  it("lists 50 and counts the rest (the wrong chunks file makes every id unknown)", () => {
    const v = variant({ q0: { retrieved: Array.from({ length: 80 }, (_, i) => `n${i}`) } });
    const found = unknownChunkIds(golden([{}]), v);
    expect(found).toHaveLength(51);
    expect(found.at(-1)!.message).toBe("o.jsonl: 30 more unknown chunk ids (ragjudge validate lists every one)");
  });
});

describe("ragjudge retrieval refuses unknown chunk ids (exit 2), as validate does", () => {
  it("in the output and in the golden set, on the config's variants", async () => {
    const copy = exampleCopy();
    const config = JSON.parse(readFileSync(copy.config, "utf8")) as { variants: { name: string; output: string }[] };
    const output = join(copy.dir, config.variants[0]!.output);
    const lines = readFileSync(output, "utf8").split("\n");
    const first = JSON.parse(lines[0]!) as { retrieved: ({ id: string } | string)[] };
    const id = typeof first.retrieved[0] === "string" ? first.retrieved[0] : first.retrieved[0]!.id;
    lines[0] = lines[0]!.replace(JSON.stringify(id), JSON.stringify("nosuch#9"));
    writeFileSync(output, lines.join("\n"));
    const r = await runCliCaptured(["retrieval", "--config", copy.config, "--variant", config.variants[0]!.name]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`:1: retrieved[0]: unknown chunk id "nosuch#9" (not in `);
    expect(r.out).toBe("");
    const validate = await runCliCaptured(["validate", "--config", copy.config]);
    expect(validate.err).toContain(`:1: retrieved[0]: unknown chunk id "nosuch#9" (not in `);
  });
});
