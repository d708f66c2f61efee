import { describe, expect, it } from "vitest";
import type { GoldenSet } from "../../../src/golden/dataset.js";
import { matchToGolden } from "../../../src/golden/import/match.js";

const golden = (questions: { id: string; question: string }[]): GoldenSet =>
  ({ file: "g.jsonl", questions, byId: new Map(questions.map((q) => [q.id, q])), lineOf: new Map() }) as unknown as GoldenSet;
const rows = (qs: string[], ids?: string[]) => ({
  golden: qs.map((question) => ({ question })),
  outputs: qs.map((_q, i) => ({ id: ids?.[i] ?? `q${i + 1}`, retrieved: [] })),
  lines: qs.map((_q, i) => i + 2),
  mapping: { question: "question", ...(ids ? { id: "qid" } : {}) },
});

describe("matchToGolden", () => {
  const g = golden([{ id: "a", question: "How long?" }, { id: "b", question: "Who pays?" }, { id: "c", question: "Same text" }, { id: "d", question: "same  TEXT" }]);

  it("pairs by the id column when there is one, else by the question's text", () => {
    expect(matchToGolden(rows(["anything", "else"], ["b", "a"]), g, "f").outputs.map((o) => o.id)).toEqual(["b", "a"]);
    expect(matchToGolden(rows(["who pays?", "HOW LONG?"]), g, "f").outputs.map((o) => o.id)).toEqual(["b", "a"]);
  });

  it("names at its line an unknown id, a text two questions share, and a question answered twice", () => {
    const messages = (r: ReturnType<typeof rows>) => matchToGolden(r, g, "f").problems.map((p) => p.message);
    expect(messages(rows(["x"], ["z"]))).toEqual(['f:2: qid: no question "z" in the golden set g.jsonl: a variant answers the project\'s questions']);
    expect(messages(rows(["same text"]))).toEqual(["f:2: question: matches the text of questions c, d of the golden set g.jsonl: name an id column with --id-col to tell them apart"]);
    expect(messages(rows(["How long?", "how long?"]))).toEqual(['f:3: question: answers question "a" again (first on line 2)']);
  });
});
