import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repeatedTopLevelKey } from "../../src/golden/json-keys.js";
import { loadJsonl, parseJsonl } from "../../src/golden/jsonl.js";
import { Chunk, GoldenQuestion } from "../../src/golden/schema/golden.js";
import { fastGoldenQuestion } from "../../src/golden/schema/golden.fast.js";
import { inputErrorMessages } from "../helpers/input-errors.js";
import { tempDir } from "../helpers/temp.js";

const key = (line: string) => repeatedTopLevelKey(line, JSON.parse(line) as object);

describe("repeatedTopLevelKey", () => {
  it("finds a top-level key given twice, and none where keys repeat only inside strings or nested objects", () => {
    expect(key('{"id":"q1","split":"heldout","question":"Q?","split":"dev"}')).toBe("split");
    expect(key('{ "a" : 1 , "b" : {"a": 2, "a": 3}, "c": ["a", {"a": 1}] }')).toBeUndefined();
    expect(key('{"a":"x\\",\\"a\\":\\"y","b":"}{,"}')).toBeUndefined();
    expect(key('{"a":1,"\\u0061":2}')).toBe("a"); // an escaped spelling of the same key
    expect(key('{"a":1}')).toBeUndefined();
    expect(key("[1,2]")).toBeUndefined();
  });
});

describe("golden sets and labels are read with each key once", () => {
  it("refuses a golden line giving a key twice, at its line and field, by the fast path and zod alike", () => {
    const text = '{"id":"q1","question":"Q?","relevantText":["A."],"split":"heldout"}\n{"id":"q2","question":"Q?","relevantText":["A."],"split":"heldout","split":"dev"}\n';
    for (const fast of [fastGoldenQuestion, undefined]) {
      const { rows, problems } = parseJsonl(text, "g.jsonl", GoldenQuestion, fast);
      expect(rows.map((r) => r.value.id)).toEqual(["q1"]);
      expect(problems.map((p) => p.message)).toEqual(["g.jsonl:2: split: given twice in this line: JSON keeps only the last, so the first would be dropped without a word; keep one"]);
    }
    const file = join(tempDir(), "g.jsonl");
    writeFileSync(file, text);
    expect(inputErrorMessages(() => loadJsonl(file, GoldenQuestion, fastGoldenQuestion))).toEqual([`${file}:2: split: given twice in this line: JSON keeps only the last, so the first would be dropped without a word; keep one`]);
  });

  it("names an empty key given twice as \"\"", () => {
    const { problems } = parseJsonl('{"id":"q1","question":"Q?","relevantText":["A."],"":1,"":2}\n', "g.jsonl", GoldenQuestion);
    expect(problems.map((p) => p.message)).toEqual(['g.jsonl:1: "": given twice in this line: JSON keeps only the last, so the first would be dropped without a word; keep one']);
  });

  it("leaves the large machine-written files unscanned (chunks keep JSON's last value)", () => {
    const { rows, problems } = parseJsonl('{"id":"c1","doc":"d","text":"a","text":"b"}\n', "c.jsonl", Chunk);
    expect(problems).toEqual([]);
    expect(rows[0]!.value.text).toBe("b");
  });
});
