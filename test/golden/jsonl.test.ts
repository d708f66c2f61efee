import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonLineMessage, loadJson, parseJsonl } from "../../src/golden/jsonl.js";
import { GoldenQuestion } from "../../src/golden/schema/golden.js";
import { tempDir } from "../helpers/temp.js";

const S = z.strictObject({ id: z.string(), n: z.number().optional() });

describe("parseJsonl", () => {
  it("accepts CRLF-free text with blank lines and reports line numbers", () => {
    const { rows, problems } = parseJsonl('{"id":"a"}\n\n{"id":"b","n":2}\n', "f.jsonl", S);
    expect(problems).toEqual([]);
    expect(rows.map((r) => r.line)).toEqual([1, 3]);
  });

  it("names file, line and field for a mistyped field", () => {
    const { problems } = parseJsonl('{"id":"a"}\n{"id":"b","n":"two"}\n', "f.jsonl", S);
    expect(problems.map((p) => p.message)).toEqual(['f.jsonl:2: n: expected number, got string "two"']);
  });

  it("names a missing field as missing", () => {
    const { problems } = parseJsonl('{"n":1}\n', "f.jsonl", S);
    expect(problems[0]!.message).toBe("f.jsonl:1: id: missing (expected string)");
  });

  it("names an unknown field (a typo) instead of ignoring it", () => {
    const { problems } = parseJsonl('{"id":"a","nn":1}\n', "f.jsonl", S);
    expect(problems[0]!.message).toBe('f.jsonl:1: (record): unknown field "nn"');
  });

  it("names the field probably meant for a misspelt one of a golden question", () => {
    const { problems } = parseJsonl('{"id":"a","question":"q?","relevent":["c1"]}\n', "g.jsonl", GoldenQuestion);
    expect(problems.map((p) => p.message)).toEqual([
      'g.jsonl:1: (record): unknown field "relevent" (did you mean "relevant"?)',
      "g.jsonl:1: relevant: an answerable question needs relevant chunk ids, an anchor or relevantText",
    ]);
  });

  it("reports malformed JSON with its line and keeps going", () => {
    const { rows, problems } = parseJsonl('{"id":"a"\n{"id":"b"}\n', "f.jsonl", S);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(/^f\.jsonl:1: not valid JSON/);
    expect(rows).toHaveLength(1);
  });

  it("gives a column, not a character position, in a JSON syntax error", () => {
    const { problems } = parseJsonl('{"id":"a" "question":"q?"}\n', "f.jsonl", S);
    expect(problems.map((p) => p.message)).toEqual(["f.jsonl:1: not valid JSON (Expected ',' or '}' after property value in JSON at column 11)"]);
    expect(jsonLineMessage(new SyntaxError("Unexpected token } in JSON at position 7 (line 1 column 8)"))).toBe("Unexpected token } in JSON at column 8");
    const file = join(tempDir("ragjudge-json-"), "report.json");
    writeFileSync(file, '{\n  "a": 1\n  "b": 2\n}\n');
    expect(() => loadJson(file, z.unknown())).toThrow(`${file}:3: not valid JSON (Expected ',' or '}' after property value in JSON at column 3)`);
  });

  it("reports an empty file", () => {
    expect(parseJsonl("\n \n", "e.jsonl", S).problems[0]!.message).toBe("e.jsonl: file is empty (expected one JSON object per line)");
  });
});

describe("GoldenQuestion", () => {
  it("defaults answerable to true and tags to []", () => {
    const q = GoldenQuestion.parse({ id: "q1", question: "?", relevant: ["c1"] });
    expect(q.answerable).toBe(true);
    expect(q.tags).toEqual([]);
  });
  it("needs relevant ids or an anchor when answerable", () => {
    const { problems } = parseJsonl('{"id":"q1","question":"?"}', "g.jsonl", GoldenQuestion);
    expect(problems[0]!.message).toBe("g.jsonl:1: relevant: an answerable question needs relevant chunk ids, an anchor or relevantText");
  });
  it("refuses relevant chunks and anchors on an unanswerable question", () => {
    const { problems } = parseJsonl('{"id":"q1","question":"?","answerable":false,"relevant":["c"],"anchor":{"doc":"d","text":"t"}}', "g.jsonl", GoldenQuestion);
    expect(problems.map((p) => p.field)).toEqual(["relevant", "anchor"]);
  });
});

describe("rows kept from validation for the next load", () => {
  it("hands validated rows to the next loadJsonl of the unchanged file once, and reads a changed file again", async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { keepForNextLoad, loadJsonl, forgetKeptLoads } = await import("../../src/golden/jsonl.js");
    const dir = mkdtempSync(join(tmpdir(), "ragjudge-kept-"));
    try {
      const f = join(dir, "rows.jsonl");
      writeFileSync(f, '{"id":"a"}\n{"id":"b","n":2}\n');
      const rows = parseJsonl('{"id":"a"}\n{"id":"b","n":2}\n', f, S).rows;
      keepForNextLoad(f, S, rows, 2);
      expect(loadJsonl(f, S)).toBe(rows); // the very rows: no second parse
      expect(loadJsonl(f, S)).toBe(rows);
      const third = loadJsonl(f, S); // both uses taken: read again
      expect(third).not.toBe(rows);
      expect(third).toEqual(rows);
      keepForNextLoad(f, S, rows);
      writeFileSync(f, '{"id":"a"}\n{"id":"b","n":3}\n'); // changed since validation: its own rows, never the kept ones
      expect(loadJsonl(f, S).map((r) => r.value)).toEqual([{ id: "a" }, { id: "b", n: 3 }]);
      keepForNextLoad(f, S, rows);
      forgetKeptLoads();
      expect(loadJsonl(f, S)).not.toBe(rows);
      keepForNextLoad(f, S, rows);
      const other = z.strictObject({ id: z.string(), n: z.number().optional() });
      expect(loadJsonl(f, other)).not.toBe(rows); // another schema never takes them
    } finally {
      forgetKeptLoads();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("loadJsonl, a block of lines at a time", () => {
  it("refuses a line over the per-line limit at its line, counted across blocks, and parses the rest", async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { loadJsonl } = await import("../../src/golden/jsonl.js");
    const { MAX_LINE_CHARS } = await import("../../src/golden/limits.js");
    const dir = mkdtempSync(join(tmpdir(), "ragjudge-blocks-"));
    try {
      const f = join(dir, "rows.jsonl");
      const huge = `{"id":"${"x".repeat(MAX_LINE_CHARS)}"}`; // longer than a 4 MiB block, and than the limit
      writeFileSync(f, `{"id":"a"}\n\n${huge}\n{"id":"b","n":"two"}\n`);
      let message = "";
      try {
        loadJsonl(f, S);
      } catch (e) {
        message = (e as { problems: { message: string }[] }).problems.map((p) => p.message).join("\n");
      }
      expect(message).toBe([
        `${f}:3: line is ${huge.length.toLocaleString("en-US")} characters long, over the limit of 16 MiB (16,777,216 characters) per line`,
        `${f}:4: n: expected number, got string "two"`,
      ].join("\n"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
