import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChunkReadingBack } from "../../src/golden/chunk-text.js";
import { checkAnchors } from "../../src/golden/anchors.js";
import { loadChunks, loadGolden, loadPipelineOutput, loadVariants, textsWanted } from "../../src/golden/dataset.js";
import { InputError } from "../../src/golden/errors.js";
import { readTextBlocks } from "../../src/golden/files.js";
import type { Chunk } from "../../src/golden/schema/golden.js";
import { diagnoseVariant } from "../../src/retrieval/diagnostics/diagnose.js";
import { scoreRetrieval } from "../../src/retrieval/score.js";
import { inputErrorMessage, inputErrorMessages } from "../helpers/input-errors.js";
import { ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

const dir = tempDir("ragjudge-chunk-text-");

/** Seeded chunk lines: escapes, non-ASCII, headings, meta, blank lines, CRLF in places. */
function chunkLines(n: number, seed: number): string[] {
  let s = seed >>> 0;
  const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const pieces = ["leave", "lapses", "\"quoted\"", "back\\slash", "tab\there", "नीति", "é", "line\nbreak", "😀", "plain words"];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const words = Array.from({ length: 1 + Math.floor(rnd() * 40) }, () => pieces[Math.floor(rnd() * (rnd() < 0.9 ? 2 : pieces.length))]!);
    const c: Record<string, unknown> = { id: `d${Math.floor(i / 7)}#${i % 7}`, doc: `d${Math.floor(i / 7)}` };
    if (rnd() < 0.3) c.heading = `Section ${i}`;
    c.text = words.join(" ");
    if (rnd() < 0.05) c.meta = { n: i };
    // a key order other than the schema's now and then
    out.push(rnd() < 0.1 ? JSON.stringify({ text: c.text, ...c }) : JSON.stringify(c));
    if (rnd() < 0.02) out.push("");
  }
  return out;
}

const plain = (c: Chunk) => JSON.parse(JSON.stringify(c)) as Chunk;

describe("chunks that read their text back from the file", () => {
  it("give every chunk the text, heading and meta an ordinary load gives, in any order of reading", () => {
    for (const [name, bom, crlfEvery] of [["plain", false, 0], ["bom", true, 0], ["crlf", false, 37], ["windows", true, 1]] as const) {
      const lines = chunkLines(3000, name.length);
      const f = join(dir, `${name}.jsonl`);
      const body = lines.map((l, i) => (crlfEvery && i % crlfEvery === 0 ? `${l}\r\n` : `${l}\n`)).join("");
      writeFileSync(f, (bom ? "\ufeff" : "") + body);
      const eager = loadChunks(f, { readBackFrom: Infinity });
      const lazy = loadChunks(f, { readBackFrom: 0 });
      expect([...lazy.byId.keys()]).toEqual([...eager.byId.keys()]);
      expect([...lazy.byDoc.keys()]).toEqual([...eager.byDoc.keys()]);
      const ids = [...eager.byId.keys()];
      // read backwards first (every read misses the window), then forwards
      for (const id of [...ids].reverse().slice(0, 500)) expect(lazy.byId.get(id)!.text).toBe(eager.byId.get(id)!.text);
      for (const id of ids) expect(plain(lazy.byId.get(id)!)).toEqual(plain(eager.byId.get(id)!));
      const readingBack = ids.filter((id) => lazy.byId.get(id) instanceof ChunkReadingBack).length;
      // every chunk read from a block of whole lines reads its text back (multi-byte characters and CRLF included)
      expect(readingBack).toBe(ids.length);
      expect(JSON.stringify([...lazy.byId.values()])).toBe(JSON.stringify([...eager.byId.values()]));
    }
  });

  it("refuses a text from a chunks file changed after the load, naming the file, line and field", () => {
    const f = join(dir, "changed.jsonl");
    const line = (i: number, text: string) => JSON.stringify({ id: `c${i}`, doc: "d", text });
    writeFileSync(f, [line(0, "first text"), line(1, "second text"), ""].join("\n"));
    const index = loadChunks(f, { readBackFrom: 0 });
    const c1 = index.byId.get("c1")!;
    expect(c1).toBeInstanceOf(ChunkReadingBack);
    appendFileSync(f, `${line(2, "third")}\n`);
    expect(() => c1.text).toThrow(InputError);
    expect(inputErrorMessage(() => c1.text)).toBe(`${f}:2: text: the chunks file changed after it was loaded (chunk "c1"); run again`);
    // rewritten to the same size: the stamp (modification time) or the line's own id tells
    const again = join(dir, "swapped.jsonl");
    writeFileSync(again, [line(0, "aaaa"), line(1, "bbbb"), ""].join("\n"));
    const i2 = loadChunks(again, { readBackFrom: 0 });
    writeFileSync(again, [line(1, "bbbb"), line(0, "aaaa"), ""].join("\n"));
    expect(() => i2.byId.get("c0")!.text).toThrow(/changed after it was loaded/);
  });

  it("keep a text once read: reading it again does not touch the file", () => {
    const f = join(dir, "kept.jsonl");
    writeFileSync(f, `${JSON.stringify({ id: "a", doc: "d", text: "kept text" })}\n`);
    const index = loadChunks(f, { readBackFrom: 0 });
    expect(index.byId.get("a")!.text).toBe("kept text");
    writeFileSync(f, "changed\n");
    expect(index.byId.get("a")!.text).toBe("kept text");
  });

  it("hold at most 16 chunks files open at once, a file closed for another reading on when asked again", () => {
    const files = Array.from({ length: 40 }, (_, i) => {
      const f = join(dir, `many-${i}.jsonl`);
      writeFileSync(f, `${chunkLines(30, 100 + i).join("\n")}\n`);
      return f;
    });
    const indexes = files.map((f) => loadChunks(f, { readBackFrom: 0 }));
    const fds = () => readdirSync("/proc/self/fd").length;
    const before = fds();
    // two rounds over all 40: the second reopens the files the first closed, and reads the same texts
    for (let round = 0; round < 2; round++) {
      indexes.forEach((index, i) => {
        const eager = loadChunks(files[i]!, { readBackFrom: Infinity });
        const id = [...index.byId.keys()][round * 7]!;
        expect(index.byId.get(id)!.text).toBe(eager.byId.get(id)!.text);
      });
      expect(fds() - before).toBeLessThanOrEqual(16);
    }
  });

  it("keep, for a judge (loadVariants), the texts of the chunks each output line gives its generator or cites; the first error stays a variant's chunks file's, then its output's", () => {
    const chunks = join(dir, "judged.chunks.jsonl");
    const filler = "x".repeat(900);
    writeFileSync(chunks, Array.from({ length: 10_000 }, (_, i) => JSON.stringify({ id: `c${i}`, doc: `d${i >> 3}`, text: `chunk ${i} ${filler}` })).join("\n") + "\n"); // over 8 MiB: read back
    const golden = join(dir, "judged.golden.jsonl");
    writeFileSync(golden, [JSON.stringify({ id: "q1", question: "one?", relevant: ["c5"] }), JSON.stringify({ id: "q2", question: "two?", relevant: ["c6"] })].join("\n") + "\n");
    const output = join(dir, "judged.output.jsonl");
    writeFileSync(output, [JSON.stringify({ id: "q1", retrieved: ["c100", "c200", "c300"], answer: "a [1]", citations: [{ sentence: "a", chunks: ["c9000"] }] }), JSON.stringify({ id: "q2", retrieved: ["c400"], context: ["c500"], answer: "b" })].join("\n") + "\n");
    const g = loadGolden(golden);
    const variant = (output: string, chunks: string) => ({ name: "v", output, chunks, contextK: 2, stages: { first: [] } });
    const [v] = loadVariants([variant(output, chunks)], g);
    const kept = (id: string) => !(v!.chunks.byId.get(id) instanceof ChunkReadingBack);
    expect(["c100", "c200", "c500", "c9000", "c5", "c6"].filter(kept)).toEqual(["c100", "c200", "c500", "c9000", "c5", "c6"]);
    expect(["c300", "c400", "c7000"].filter(kept)).toEqual([]);
    expect(v!.chunks.byId.get("c300")!.text).toBe(`chunk 300 ${filler}`);
    const badOutput = join(dir, "judged-bad.output.jsonl");
    writeFileSync(badOutput, "{\n");
    const badChunks = join(dir, "judged-bad.chunks.jsonl");
    writeFileSync(badChunks, "{\n");
    // one variant: its chunks file's problem first; two: the first variant's output before the second's chunks file
    expect(inputErrorMessages(() => loadVariants([variant(badOutput, badChunks)], g))[0]).toContain("judged-bad.chunks.jsonl:1");
    expect(inputErrorMessages(() => loadVariants([variant(badOutput, chunks), variant(output, badChunks)], g))[0]).toContain("judged-bad.output.jsonl:1");
  });

  it("load small files as before: their texts are kept", () => {
    const f = join(dir, "small.jsonl");
    writeFileSync(f, `${JSON.stringify({ id: "a", doc: "d", text: "t" })}\n`);
    expect(loadChunks(f).byId.get("a")).toEqual({ id: "a", doc: "d", text: "t" });
  });
});

describe("golden-set scoring over chunks that read their texts back", () => {
  it("gives the shipped example's anchor findings, scores and miss analysis exactly, reading every text back", () => {
    const golden = loadGolden(join(ROOT, "golden/questions.jsonl"));
    const stagesOf = { "bm25-small": { first: ["bm25"], pool: "bm25" }, "hybrid-rerank": { first: ["bm25", "vector"], fused: "fused", reranked: "reranked", pool: "fused" } };
    for (const [name, stages] of Object.entries(stagesOf)) {
      const chunksFile = join(ROOT, `golden/variants/${name}/chunks.jsonl`);
      const outputFile = join(ROOT, `golden/variants/${name}/output.jsonl`);
      const run = (readBackFrom: number) => {
        const chunks = loadChunks(chunksFile, { readBackFrom, keepText: () => false });
        const { outputs, lineOf } = loadPipelineOutput(outputFile, golden);
        const variant = { name, outputFile, chunksFile, chunks, outputs, lineOf, stages };
        const anchors = checkAnchors(golden, [variant]);
        const score = scoreRetrieval(golden, variant, { k: [1, 5, 10] });
        const diagnosis = diagnoseVariant(golden.questions, variant, { k: 10, poolDepth: 50, precisionKs: [1, 5, 10] });
        return { chunks, json: JSON.stringify({ anchors, score, diagnosis }) };
      };
      const eager = run(Infinity);
      const back = run(0);
      expect([...back.chunks.byId.values()].every((c) => c instanceof ChunkReadingBack)).toBe(true);
      expect(back.json).toBe(eager.json);
    }
  });

  it("keeps from the load the texts of anchor documents and listed relevant chunks, and every text for relevantText", () => {
    const keep = textsWanted({ questions: [
      { id: "a", question: "?", answerable: true, anchor: { doc: "hr", text: "casual leave" }, tags: [] },
      { id: "b", question: "?", answerable: true, relevant: ["it#2"], tags: [] },
    ] });
    const chunk = (id: string, doc: string): Chunk => ({ id, doc, text: "" });
    expect([keep(chunk("hr#0", "hr")), keep(chunk("it#2", "it")), keep(chunk("it#1", "it"))]).toEqual([true, true, false]);
    const all = textsWanted({ questions: [{ id: "c", question: "?", answerable: true, relevantText: ["some words"], tags: [] }] });
    expect(all(chunk("x#0", "x"))).toBe(true);
  });

  it("reports a duplicate chunk id at both lines, as an ordinary load does", () => {
    const f = join(dir, "dup.jsonl");
    writeFileSync(f, ["a", "b", "a"].map((id) => JSON.stringify({ id, doc: "d", text: `text of ${id}` })).join("\n") + "\n");
    const eager = inputErrorMessages(() => loadChunks(f, { readBackFrom: Infinity }));
    expect(eager).toEqual([`${f}:3: id: duplicate chunk id "a" (first on line 1)`]);
    expect(inputErrorMessages(() => loadChunks(f, { readBackFrom: 0 }))).toEqual(eager);
  });
});

describe("block offsets of readTextBlocks", () => {
  it("give each block's first byte, and its bytes when its characters are not one byte each", () => {
    const f = join(dir, "offsets.txt");
    const text = "\ufeffabc\ndef\nnīti\nghi\r\njkl\nmno\n";
    writeFileSync(f, text);
    const file = readFileSync(f);
    const seen: ({ offset: number; multiByte: boolean } | undefined)[] = [];
    readTextBlocks(f, (t, at) => {
      seen.push(at && { offset: at.offset, multiByte: at.bytes !== undefined });
      if (at?.bytes) expect(at.bytes.toString("utf8").replace(/\r\n?/g, "\n")).toBe(t);
      else if (at) expect(file.subarray(at.offset, at.offset + t.length).toString("latin1")).toBe(t);
    }, 4);
    // after the BOM; the blocks of "nīti" and of the CRLF with their bytes; blocks of the usual size again after a long line
    expect(seen).toEqual([{ offset: 3, multiByte: false }, { offset: 7, multiByte: false }, { offset: 11, multiByte: true }, { offset: 17, multiByte: true }, { offset: 22, multiByte: false }, { offset: 26, multiByte: false }]);
  });
});
