import { describe, expect, it } from "vitest";
import { parse, type ParseError } from "jsonc-parser";
import { describeJsonError, tooDeep } from "../../src/golden/json-syntax.js";

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

describe("describeJsonError", () => {
  const first = (text: string) => {
    const errors: ParseError[] = [];
    parse(text, errors, { allowTrailingComma: true });
    return describeJsonError(text, errors[0]!);
  };

  it("puts a missing comma after the value it follows, where the cursor goes", () => {
    expect(first('{\n "k": [1]\n "judge": {}\n}')).toEqual({ line: 2, message: "a comma is missing after the value that ends at column 9" });
  });

  it("names a closing bracket that closes nothing open, not a missing comma", () => {
    expect(first('{\n "k": [1, 5, 10,]],\n "x": 1\n}')).toEqual({ line: 2, message: 'an unexpected "]" (column 18), which closes nothing open here: a bracket too many, or the wrong kind' });
    expect(first('{\n "k": [1, 2}\n}')).toEqual({ line: 2, message: 'an unexpected "}" (column 12), which closes nothing open here: a bracket too many, or the wrong kind' });
  });
});
