import { describe, expect, it } from "vitest";
import { appendVariant } from "../../src/golden/config-edit.js";
import { parseConfigText } from "../../src/golden/config.js";
import { starterConfig } from "../../src/golden/starter.js";

describe("appendVariant", () => {
  const v = { name: "b", output: "outputs/b.output.jsonl" };

  it("adds the entry on a line of its own after the starter's, every other byte as it was", () => {
    const text = starterConfig();
    const edited = appendVariant(text, v);
    expect(edited).toBe(text.replace('"contextK": 5 }\n', '"contextK": 5 },\n    { "name": "b", "output": "outputs/b.output.jsonl" }\n'));
    expect(parseConfigText(edited, "c.json").config.variants.map((x) => x.name)).toEqual(["my-rag", "b"]);
  });

  it("follows a list written on one line, and keeps a trailing comma", () => {
    expect(appendVariant('{"variants": [{"name": "a", "output": "a.jsonl"}], "golden": "g"}', v)).toBe('{"variants": [{"name": "a", "output": "a.jsonl"}, { "name": "b", "output": "outputs/b.output.jsonl" }], "golden": "g"}');
    expect(appendVariant('{"variants": [\n  {"name": "a", "output": "a.jsonl"},\n]}', v)).toBe('{"variants": [\n  {"name": "a", "output": "a.jsonl"},\n  { "name": "b", "output": "outputs/b.output.jsonl" }\n]}');
  });
});
