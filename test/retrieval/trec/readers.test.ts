import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseMeasures } from "../../../src/retrieval/measures/parse.js";
import { parseDecimal, streamLines } from "../../../src/retrieval/trec/bytes.js";
import { evaluateTrecFiles } from "../../../src/retrieval/trec/evaluate.js";
import { readQrels } from "../../../src/retrieval/trec/qrels.js";
import { docnoOf, readRun, NONPOOL, UNJUDGED } from "../../../src/retrieval/trec/run.js";
import { formatTrecEval } from "../../../src/retrieval/trec/write.js";
import { inputErrorMessages } from "../../helpers/input-errors.js";
import { numberedFiles, tempDir } from "../../helpers/temp.js";

const dir = tempDir("ragjudge-trec-");
const file = numberedFiles(dir, ".txt");

const QRELS = "1 0 A 1\n1 0 B 0\n1 0 C 2\n2 0 A 1\n";
const RUN = "1 Q0 A 1 0.5 r\n1 Q0 B 2 0.9 r\n1 Q0 C 3 0.1 r\n2 Q0 X 1 3 r\n2 Q0 A 2 1 r\n";
const measures = parseMeasures(["RR,P@1,num_ret,num_rel_ret"], []);

describe("TREC run reader", () => {
  it("reads lines into compact arrays with grades looked up in the qrels", () => {
    const q = readQrels(file(QRELS));
    const run = readRun(file(RUN), q);
    expect(run.lines).toBe(5);
    expect(run.qids).toEqual(["1", "2"]);
    expect(Array.from(run.grades)).toEqual([1, 0, 2, NONPOOL, 1]);
    expect(docnoOf(run, 3)).toBe("X");
    expect(run.runTag).toBe("r");
  });

  it("ranks by score descending, then docno descending; the rank column and line order are ignored", () => {
    // all scores tie: trec_eval orders C, B, A (docno descending)
    const q = readQrels(file("1 0 A 1\n"));
    const ev = evaluateTrecFiles(q.file, file("1 Q0 A 1 1.0 r\n1 Q0 C 2 1.0 r\n1 Q0 B 3 1.0 r\n"), { measures: parseMeasures(["RR"], []) });
    expect(ev.queries[0]!.values[0]).toBeCloseTo(1 / 3, 15);
    const ev2 = evaluateTrecFiles(q.file, file("1 Q0 B 9 1.0 r\n1 Q0 A 1 2.0 r\n"), { measures: parseMeasures(["RR"], []) });
    expect(ev2.queries[0]!.values[0]).toBe(1);
  });

  it("accepts CRLF line ends, a byte-order mark, tabs, blank lines and # comments", () => {
    const q = file(QRELS);
    const plain = formatTrecEval(evaluateTrecFiles(q, file(RUN), { measures }));
    const crlf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`# a comment\n\n${RUN.replace(/ /g, "\t").replace(/\n/g, "\r\n")}`)]);
    expect(formatTrecEval(evaluateTrecFiles(q, file(crlf), { measures }))).toBe(plain);
    const qCrlf = file(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(QRELS.replace(/\n/g, "\r\n"))]));
    expect(formatTrecEval(evaluateTrecFiles(qCrlf, file(RUN), { measures }))).toBe(plain);
  });

  it("reads a last line without a newline, and lines split across read chunks", () => {
    const q = readQrels(file(QRELS));
    const whole = readRun(file(RUN), q);
    const tiny = readRun(file(RUN.trimEnd()), q, { chunkSize: 7 });
    expect(Array.from(tiny.scores)).toEqual(Array.from(whole.scores));
    expect(Array.from(tiny.grades)).toEqual(Array.from(whole.grades));
  });

  it("names file, line and field of a malformed line, and reports several at once", () => {
    const f = file("1 Q0 A 1 0.5 r\n1 Q0 B\n1 Q0 C 3 high r\n1 Q0 D 4 0.2\n");
    expect(inputErrorMessages(() => readRun(f))).toEqual([
      `${f}:2: rank: missing (a run line has 6 fields: qid iter docno rank score run; found 3)`,
      `${f}:3: score: expected a number, got "high"`,
      `${f}:4: run: missing (a run line has 6 fields: qid iter docno rank score run; found 5)`,
    ]);
  });

  it("counts lines with extra fields as a warning and ignores the fields, as trec_eval does", () => {
    const run = readRun(file("1 Q0 A 1 0.5 r extra\n1 Q0 B 2 0.4 r\n"));
    expect(run.lines).toBe(2);
    expect(run.extraFieldLines).toBe(1);
  });

  it("refuses an empty file and a missing file with one clear line", () => {
    const empty = file("");
    expect(inputErrorMessages(() => readRun(empty))).toEqual([`${empty}: file is empty (expected run lines: qid iter docno rank score run)`]);
    const blank = file("\n# only a comment\n");
    expect(inputErrorMessages(() => readRun(blank))[0]).toMatch(/file is empty/);
    expect(inputErrorMessages(() => readRun(join(dir, "nope.txt")))[0]).toMatch(/nope\.txt: file not found/);
  });

  it("refuses a docno listed twice for one query, naming both lines", () => {
    const q = file(QRELS);
    const r = file("1 Q0 A 1 0.5 r\n2 Q0 A 1 0.5 r\n1 Q0 B 2 0.4 r\n1 Q0 A 3 0.3 r\n");
    expect(inputErrorMessages(() => evaluateTrecFiles(q, r, { measures }))).toEqual([
      `${r}:4: docno: document "A" appears twice for query "1" (first on line 1); trec_eval refuses duplicate documents too`,
    ]);
  });

  it("stops when no run query is in the qrels, with -c too (trec_eval: the wrong pair of files, not a run scoring 0)", () => {
    const q = file(QRELS);
    const r = file("9 Q0 A 1 0.5 r\n");
    expect(inputErrorMessages(() => evaluateTrecFiles(q, r, { measures, complete: false }))[0]).toMatch(/no query of the run is in the qrels/);
    expect(inputErrorMessages(() => evaluateTrecFiles(q, r, { measures }))[0]).toMatch(/no query of the run is in the qrels/);
  });
});

describe("TREC qrels reader", () => {
  it("groups judgements by query in byte order and keeps negative grades as unjudged", () => {
    const q = readQrels(file("10 0 A 1\n9 0 B -1\n10 0 C 2\n"));
    expect(q.queries.map((x) => x.qid)).toEqual(["10", "9"]);
    expect(Array.from(q.byQid.get("10")!.idealGains)).toEqual([2, 1]);
    expect(q.positiveLines).toBe(2);
    const run = readRun(file("9 Q0 B 1 1 r\n"), q);
    expect(run.grades[0]).toBe(UNJUDGED);
  });

  it("gives each query's positive grades in descending order, for a few grades and for many", () => {
    // seeded grades: 1 to 40 positive ones per query (insertion below 33, a sort above), zeros and unjudged mixed in
    let seed = 7;
    const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    const want = new Map<string, number[]>();
    const lines: string[] = [];
    for (let qn = 0; qn < 40; qn++) {
      const grades = Array.from({ length: 2 * qn + 1 + rand(8) }, () => rand(7) - 2);
      grades.forEach((g, d) => lines.push(`q${qn} 0 d${d} ${g}`));
      want.set(`q${qn}`, grades.filter((g) => g > 0).sort((a, b) => b - a));
    }
    const q = readQrels(file(`${lines.join("\n")}\n`));
    for (const [qid, gains] of want) expect(Array.from(q.byQid.get(qid)!.idealGains)).toEqual(gains);
    expect([...want.values()].some((g) => g.length > 32)).toBe(true);
  });

  it("names file, line and field for a bad grade, a missing field, an extra field and a duplicate", () => {
    const f = file("1 0 A 1\n1 0 B x\n1 0 C\n1 0 D 1 extra\n1 0 A 0\n");
    expect(inputErrorMessages(() => readQrels(f))).toEqual([
      `${f}:2: relevance: expected a whole number, got "x"`,
      `${f}:3: relevance: missing (a qrels line has 4 fields: qid iter docno relevance; found 3)`,
      `${f}:4: 5 fields, expected 4 (qid iter docno relevance)`,
      `${f}:5: docno: document "A" is judged twice for query "1" (first on line 1); trec_eval refuses this too`,
    ]);
  });

  it("refuses an empty qrels file", () => {
    const f = file("");
    expect(inputErrorMessages(() => readQrels(f))).toEqual([`${f}: file is empty (expected qrels lines: qid iter docno relevance)`]);
  });
});

describe("parseDecimal", () => {
  const parse = (s: string) => parseDecimal(Buffer.from(s), 0, Buffer.byteLength(s));

  it("parses like strtod (correctly rounded), including the slow path", () => {
    const cases = ["0", "-0.332131", "2.628724", "1e5", "-1.5E-3", ".5", "5.", "+3", "123456789012345678901234", "0.1000000000000000055511151231257827", "1e-30", "4.9e-324"];
    for (const c of cases) expect(parse(c), c).toBe(Number(c));
    expect(Object.is(parse("-0.0"), 0)).toBe(true);
  });

  it("agrees with Number() on many random decimals", () => {
    let x = 7;
    for (let i = 0; i < 20000; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      const digits = String(x).padStart(10, "0");
      const point = x % 11;
      const s = `${x % 3 === 0 ? "-" : ""}${digits.slice(0, point)}.${digits.slice(point)}${x % 7 === 0 ? "e-" + (x % 30) : ""}`;
      expect(parse(s), s).toBe(Number(s) + 0);
    }
  });

  it("rejects what is not a number", () => {
    for (const c of ["", "-", "abc", "1.2.3", "0x10", "1e", "nan", "inf", "1,5"]) expect(parse(c), c).toBeNaN();
  });
});

describe("streamLines", () => {
  it("hands over whole lines whatever the chunk size", () => {
    const f = file("a b\nccc\n\ndddd");
    const got: string[] = [];
    streamLines(f, (buf, s, e) => got.push(Buffer.from(buf.subarray(s, e)).toString()), 2);
    expect(got.join("")).toBe("a b\nccc\n\ndddd\n");
    for (const part of got) expect(part.endsWith("\n")).toBe(true);
  });
});
