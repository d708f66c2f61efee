import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError, InputErrors } from "../../../src/golden/errors.js";
import { parseMeasures } from "../../../src/retrieval/measures/parse.js";
import { evaluateTrec, evaluateTrecFiles, scoreTrecFiles } from "../../../src/retrieval/trec/evaluate.js";
import { readQrels } from "../../../src/retrieval/trec/qrels.js";
import { REFERENCE_MEASURES, REFERENCE_MEASURES_FULL } from "../../../src/retrieval/trec/reference.js";
import { readRun } from "../../../src/retrieval/trec/run.js";
import { lineRanges } from "../../../src/retrieval/trec/threads.js";
import { formatTrecEval } from "../../../src/retrieval/trec/write.js";
import { fixturePath } from "../../helpers/paths.js";
import { numberedFiles, tempDir } from "../../helpers/temp.js";

const small = fixturePath("trec", "small");
const file = numberedFiles(tempDir("ragjudge-stream-"), ".txt");
const measures = parseMeasures(REFERENCE_MEASURES_FULL, []);

/** The output of scoring the whole run in memory (readRun + evaluateTrec): the reference every other path must match. */
function whole(qrels: string, run: string, opts: { level?: number; complete?: boolean } = {}): string {
  const q = readQrels(qrels);
  return formatTrecEval(evaluateTrec(q, readRun(run, q), { measures, ...opts }), { fullPrecision: true });
}

/** The messages of the input error a promise rejects with. */
async function rejection(p: Promise<unknown>): Promise<string[]> {
  try {
    await p;
  } catch (e) {
    if (e instanceof InputErrors) return e.problems.map((x) => x.message);
    if (e instanceof InputError) return [e.message];
    throw e;
  }
  throw new Error("expected an input error");
}

describe("scoring a TREC run as it streams, on one thread or several", () => {
  const qrels = join(small, "qrels.txt");
  const run = join(small, "run.txt");

  it("prints trec_eval's output on one thread and on 2 and 3 worker threads", async () => {
    const oracle = readFileSync(join(small, "trec_eval.c.txt"), "utf8");
    const stock = parseMeasures(REFERENCE_MEASURES, []);
    expect(formatTrecEval(evaluateTrecFiles(qrels, run, { measures: stock }))).toBe(oracle);
    for (const threads of [2, 3]) expect(formatTrecEval(await scoreTrecFiles(qrels, run, { measures: stock, threads })), `${threads} threads`).toBe(oracle);
  });

  it("agrees with the in-memory path at full precision, with -l 2 and without -c", async () => {
    for (const opts of [{}, { level: 2 }, { complete: false }]) {
      const expected = whole(qrels, run, opts);
      expect(formatTrecEval(evaluateTrecFiles(qrels, run, { measures, ...opts }), { fullPrecision: true })).toBe(expected);
      expect(formatTrecEval(await scoreTrecFiles(qrels, run, { measures, threads: 2, ...opts }), { fullPrecision: true })).toBe(expected);
    }
  });

  it("joins a query cut by a range boundary, and one that spans several ranges", async () => {
    // query 1 has 400 lines: with 4 ranges, every cut falls inside it
    const lines = [...Array.from({ length: 400 }, (_, i) => `1 Q0 D${i} ${i + 1} ${(1000 - i) / 7} r`), "2 Q0 D1 1 3 r", "2 Q0 D2 2 2 r"];
    const q = file("1 0 D5 1\n1 0 D399 2\n1 0 D77 0\n2 0 D2 1\n3 0 D1 1\n");
    const r = file(lines.join("\n") + "\n");
    expect(lineRanges(r, Buffer.byteLength(lines.join("\n") + "\n"), 4).length).toBe(4);
    const expected = whole(q, r);
    for (const threads of [1, 2, 4]) expect(formatTrecEval(await scoreTrecFiles(q, r, { measures, threads }), { fullPrecision: true }), `${threads} threads`).toBe(expected);
  });

  it("reads a run whose queries are not grouped whole, with the same result", async () => {
    const q = file("1 0 A 1\n2 0 B 1\n");
    const r = file("1 Q0 A 1 1 r\n2 Q0 B 1 2 r\n1 Q0 C 2 3 r\n2 Q0 A 2 1 r\n");
    const expected = whole(q, r);
    expect(formatTrecEval(evaluateTrecFiles(q, r, { measures }), { fullPrecision: true })).toBe(expected);
    expect(formatTrecEval(await scoreTrecFiles(q, r, { measures, threads: 2 }), { fullPrecision: true })).toBe(expected);
  });

  it("numbers malformed lines in the whole file, whichever thread read them", async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `${1 + (i >> 4)} Q0 D${i} ${i} ${i} r`);
    lines[3] = "1 Q0 D3";
    lines[180] = "12 Q0 D180 1 high r";
    const q = file("1 0 D1 1\n12 0 D2 1\n");
    const r = file(lines.join("\n") + "\n");
    const expected = [
      `${r}:4: rank: missing (a run line has 6 fields: qid iter docno rank score run; found 3)`,
      `${r}:181: score: expected a number, got "high"`,
    ];
    expect(await rejection(scoreTrecFiles(q, r, { measures, threads: 1 }))).toEqual(expected);
    expect(await rejection(scoreTrecFiles(q, r, { measures, threads: 3 }))).toEqual(expected);
  });

  it("refuses a document listed twice for a query, naming both lines, on any thread", async () => {
    const lines = Array.from({ length: 120 }, (_, i) => `${1 + (i >> 3)} Q0 D${i} ${i} ${i} r`);
    lines[101] = "13 Q0 D96 1 1 r"; // D96 is line 97 of query 13
    const q = file("1 0 D1 1\n13 0 D96 1\n");
    const r = file(lines.join("\n") + "\n");
    const expected = [`${r}:102: docno: document "D96" appears twice for query "13" (first on line 97); trec_eval refuses duplicate documents too`];
    for (const threads of [1, 2]) expect(await rejection(scoreTrecFiles(q, r, { measures, threads }))).toEqual(expected);
  });

  it("reads the qrels once for every thread: a bad qrels line is one error, whatever the threads", async () => {
    const q = file("1 0 D1 1\n2 0 D2 high\n");
    const r = file(Array.from({ length: 200 }, (_, i) => `${1 + (i >> 4)} Q0 D${i} ${i} ${i} r`).join("\n") + "\n");
    const expected = [`${q}:2: relevance: expected a whole number, got "high"`];
    for (const threads of [1, 2, 3]) expect(await rejection(scoreTrecFiles(q, r, { measures, threads })), `${threads} threads`).toEqual(expected);
  });

  it("reports a missing run file and an empty one as one line each", async () => {
    const q = file("1 0 A 1\n");
    const missing = join(tempDir("ragjudge-stream-missing-"), "nope.txt");
    expect((await rejection(scoreTrecFiles(q, missing, { measures, threads: 2 })))[0]).toMatch(/nope\.txt: file not found/);
    const empty = file("\n# only a comment\n");
    expect((await rejection(scoreTrecFiles(q, empty, { measures, threads: 2 })))[0]).toMatch(/file is empty/);
  });
});

describe("lineRanges", () => {
  it("cuts a file just after newlines into ranges that cover it", () => {
    const text = "a b\n" + "ccccccccccccccccccccccccccccc\n".repeat(10) + "last";
    const f = file(text);
    const ranges = lineRanges(f, Buffer.byteLength(text), 3);
    expect(ranges[0]![0]).toBe(0);
    expect(ranges.at(-1)![1]).toBe(Infinity);
    for (let i = 1; i < ranges.length; i++) {
      expect(ranges[i]![0]).toBe(ranges[i - 1]![1]);
      expect(text[ranges[i]![0] - 1]).toBe("\n");
    }
    // a file of one long line cannot be cut
    const one = file("x".repeat(1000));
    expect(lineRanges(one, 1000, 4)).toEqual([[0, Infinity]]);
  });
});
