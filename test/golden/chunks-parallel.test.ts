import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChunkReadingBack } from "../../src/golden/chunk-text.js";
import { loadChunksOnTwoThreads } from "../../src/golden/chunks-parallel.js";
import { loadChunks } from "../../src/golden/dataset.js";
import { inputErrorMessages } from "../helpers/input-errors.js";
import { tempDir } from "../helpers/temp.js";

const dir = tempDir("ragjudge-chunks-parallel-");

/** Chunk lines of 20 documents x 200 chunks: headings on some, meta on a few, non-ASCII and CRLF here and there, blank lines. */
function lines(): string[] {
  const out: string[] = [];
  for (let i = 0; i < 4000; i++) {
    const c: Record<string, unknown> = { id: `d${i % 20 === 7 ? "x" : ""}${Math.floor(i / 200)}#${i}`, doc: `d${Math.floor(i / 200)}` };
    if (i % 3 === 0) c.heading = `Section ${i}`;
    c.text = `words of chunk ${i} ${i % 11 === 0 ? "नीति é" : "plain"} ${"filler ".repeat(i % 13)}`;
    if (i % 97 === 0) c.meta = { i };
    out.push(JSON.stringify(c));
    if (i % 501 === 0) out.push("");
  }
  return out;
}

const write = (name: string, ls: string[], crlf = false) => {
  const f = join(dir, name);
  writeFileSync(f, ls.map((l, i) => `${l}${crlf && i % 5 === 0 ? "\r\n" : "\n"}`).join(""));
  return f;
};

const asJson = (index: { byId: Map<string, unknown>; byDoc: Map<string, { chunk: unknown }[]> }) =>
  JSON.stringify({ ids: [...index.byId.values()], docs: [...index.byDoc].map(([d, l]) => [d, l.map((e) => (e.chunk as { id: string }).id)]) });

describe("a chunks file read on two threads", () => {
  it("gives the index one thread gives: the same chunks, texts, headings and order, kept texts kept", async () => {
    for (const crlf of [false, true]) {
      const f = write(`good-${crlf}.jsonl`, lines(), crlf);
      const wanted = { all: false as const, docs: ["d3"], ids: ["d12#2401"] };
      const one = loadChunks(f, { readBackFrom: Infinity });
      const two = await loadChunksOnTwoThreads(f, wanted, 0);
      expect(asJson(two)).toBe(asJson(one));
      // kept: the named document and chunk; every other chunk without meta reads back, on either side of the split
      expect(two.byId.get("d3#600")).not.toBeInstanceOf(ChunkReadingBack);
      expect(two.byId.get("d12#2401")).not.toBeInstanceOf(ChunkReadingBack);
      expect(two.byId.get("d1#201")).toBeInstanceOf(ChunkReadingBack);
      expect(two.byId.get("d19#3999")).toBeInstanceOf(ChunkReadingBack);
    }
  });

  it("numbers the second part's lines on from the first's (a read back names the right line)", async () => {
    const ls = lines();
    const f = write("lines.jsonl", ls);
    const two = await loadChunksOnTwoThreads(f, { all: false, docs: [], ids: [] }, 0);
    const last = two.byId.get("d19#3999")!;
    appendFileSync(f, "\n");
    expect(inputErrorMessages(() => last.text)).toEqual([`${f}:${ls.length}: text: the chunks file changed after it was loaded (chunk "d19#3999"); run again`]);
  });

  it("words a problem in either part, and a duplicate across the parts, as one thread does", async () => {
    const base = lines();
    const cases: [string, string[]][] = [
      ["bad JSON late", base.map((l, i) => (i === 3500 ? "{not json" : l))],
      ["bad field early", base.map((l, i) => (i === 10 ? JSON.stringify({ id: "a", doc: 3, text: "t" }) : l))],
      ["duplicate across", [...base.slice(0, 3900), JSON.stringify({ id: "d0#0", doc: "d19", text: "again" }), ...base.slice(3900)]],
    ];
    for (const [name, ls] of cases) {
      const f = write(`${name.replace(/ /g, "-")}.jsonl`, ls);
      const expected = inputErrorMessages(() => loadChunks(f));
      expect(expected.length).toBeGreaterThan(0);
      let got: string[] = [];
      try {
        await loadChunksOnTwoThreads(f, { all: false, docs: [], ids: [] }, 0);
      } catch (e) {
        got = inputErrorMessages(() => {
          throw e;
        });
      }
      expect(got).toEqual(expected);
    }
  });
});
