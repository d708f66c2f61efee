import { describe, expect, it } from "vitest";
import { duplicatesInList } from "../../src/golden/dataset.js";
import type { InputError } from "../../src/golden/errors.js";

const where = { file: "out.jsonl", line: 7, field: "retrieved" };
const report = (list: string[]) => {
  const problems: InputError[] = [];
  duplicatesInList(list, where, problems);
  return problems.map((p) => p.message);
};

describe("duplicatesInList", () => {
  it("reports nothing for a list without a repeated id", () => {
    expect(report([])).toEqual([]);
    expect(report(["a", "b", "c"])).toEqual([]);
  });

  it("reports every later occurrence at its own index, in list order", () => {
    expect(report(["a", "b", "a", "c", "b", "a"])).toEqual([
      `out.jsonl:7: retrieved[2]: chunk id "a" appears twice in the ranked list`,
      `out.jsonl:7: retrieved[4]: chunk id "b" appears twice in the ranked list`,
      `out.jsonl:7: retrieved[5]: chunk id "a" appears twice in the ranked list`,
    ]);
  });

  it("finds one repeat at the very end of a long list", () => {
    const list = Array.from({ length: 100 }, (_, i) => `c${i}`);
    expect(report([...list, "c0"])).toEqual([`out.jsonl:7: retrieved[100]: chunk id "c0" appears twice in the ranked list`]);
  });
});
