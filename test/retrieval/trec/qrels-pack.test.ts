import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseMeasures } from "../../../src/retrieval/measures/parse.js";
import { evaluateTrec } from "../../../src/retrieval/trec/evaluate.js";
import { readQrels } from "../../../src/retrieval/trec/qrels.js";
import { packQrels, unpackQrels } from "../../../src/retrieval/trec/qrels-pack.js";
import { REFERENCE_MEASURES_FULL } from "../../../src/retrieval/trec/reference.js";
import { readRun } from "../../../src/retrieval/trec/run.js";
import { formatTrecEval } from "../../../src/retrieval/trec/write.js";
import { fixturePath } from "../../helpers/paths.js";

const small = fixturePath("trec", "small");
const measures = parseMeasures(REFERENCE_MEASURES_FULL, []);

describe("packQrels / unpackQrels (the qrels as posted to worker threads)", () => {
  it("gives back the same queries, tables and gains after a structured clone", () => {
    const q = readQrels(join(small, "qrels.txt"));
    const back = unpackQrels(structuredClone(packQrels(q)!));
    const plain = (x: typeof q) => x.queries.map((y) => ({ qid: y.qid, grades: [...y.grades], ideal: [...y.idealGains], docs: { ...y.docs, arena: undefined, starts: [...y.docs.starts], lens: [...y.docs.lens], hashes: [...y.docs.hashes], slots: [...y.docs.slots] } }));
    expect(plain(back)).toEqual(plain(q));
    expect([...back.byQid.keys()]).toEqual([...q.byQid.keys()]);
    expect([back.file, back.lines, back.positiveLines]).toEqual([q.file, q.lines, q.positiveLines]);
    const run = readRun(join(small, "run.txt"), q);
    expect(formatTrecEval(evaluateTrec(back, readRun(join(small, "run.txt"), back), { measures }))).toBe(formatTrecEval(evaluateTrec(q, run, { measures })));
  });
});
