import { describe, expect, it } from "vitest";
import { tooDeep } from "../../src/golden/json-syntax.js";

describe("tooDeep", () => {
  it("finds the first bracket past the limit, on its line, without recursing however deep the text", () => {
    expect(tooDeep('{"a": [[1]]}', 3)).toBeUndefined();
    expect(tooDeep('{"a": [[1]]}', 2)).toEqual({ line: 1 });
    expect(tooDeep('{\n"a":\n[[1]]}', 2)).toEqual({ line: 3 });
    const n = 1_000_000;
    expect(tooDeep("[".repeat(n) + "]".repeat(n), 64)).toEqual({ line: 1 });
  });

  it("counts no bracket inside a string or a comment, and depth falls back after a closing one", () => {
    expect(tooDeep('{"a": "[[[[[[", /* {{{{{{ */ "b": 1} // [[[[[', 1)).toBeUndefined();
    expect(tooDeep("[[1], [2], [3]]", 2)).toBeUndefined();
  });
});
