import { createScanner, printParseErrorCode, type ParseError } from "jsonc-parser";

/**
 * JSON syntax errors worded for the person who has to fix the file: the
 * parsers' own codes ("CommaExpected") and offsets ("at position 193") say
 * what went wrong to a program, not where to put the cursor.
 */

/** jsonc-parser's error codes (by name: the enum is `const`) in words. */
const WORDS: Readonly<Record<string, string>> = {
  InvalidSymbol: "an unexpected character, which starts no JSON value",
  InvalidNumberFormat: "a malformed number",
  PropertyNameExpected: 'a property name in double quotes is expected (a trailing comma before "}" is fine; a bare word is not)',
  ValueExpected: "a value is expected",
  ColonExpected: "a colon is missing between a property name and its value",
  CommaExpected: "a comma is missing",
  CloseBraceExpected: 'a closing "}" is missing',
  CloseBracketExpected: 'a closing "]" is missing',
  EndOfFileExpected: "text after the end of the document (one JSON object per file)",
  InvalidCommentToken: "a malformed comment",
  UnexpectedEndOfComment: 'a "/*" comment is never closed',
  UnexpectedEndOfString: "a string is never closed (a missing double quote)",
  UnexpectedEndOfNumber: "a number ends too early",
  InvalidUnicode: 'a bad "\\u" escape in a string',
  InvalidEscapeCharacter: 'a bad escape ("\\") in a string',
  InvalidCharacter: "a control character (a tab or line break) inside a string",
};

/** 1-based line and column of a character offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** Offset just past the last token (not whitespace or a comment) that starts before `offset`. */
function endOfTokenBefore(text: string, offset: number): number | undefined {
  const scanner = createScanner(text, true);
  let end: number | undefined;
  // 17 is SyntaxKind.EOF (a `const` enum, so not importable as a value).
  for (let kind = scanner.scan(); kind !== 17 && scanner.getTokenOffset() < offset; kind = scanner.scan()) {
    end = scanner.getTokenOffset() + scanner.getTokenLength();
  }
  return end;
}

/**
 * Where a jsonc-parser error is and what it says, in words. A missing comma
 * is reported where it belongs, after the previous value (the parser notices
 * it only at the next property, often lines and comments further down).
 *
 * @example
 * describeJsonError('{\n "k": [1]\n "judge": {}\n}', { error: 6, offset: 13, length: 7 })
 * // { line: 2, message: "a comma is missing after the value that ends at column 9" }
 */
export function describeJsonError(text: string, e: ParseError): { line: number; message: string } {
  const name = printParseErrorCode(e.error);
  const words = WORDS[name] ?? name;
  if (name === "CommaExpected") {
    // A closing bracket where a comma or the list's own end belongs closes what is not open (`[1, 2]]`, `[1, 2}`):
    // the bracket is the mistake, not a missing comma.
    const found = text[e.offset];
    if (found === "]" || found === "}") {
      const { line, column } = lineColumnAt(text, e.offset);
      return { line, message: `an unexpected "${found}" (column ${column}), which closes nothing open here: a bracket too many, or the wrong kind` };
    }
    const end = endOfTokenBefore(text, e.offset);
    if (end !== undefined) {
      const { line, column } = lineColumnAt(text, end - 1);
      return { line, message: `${words} after the value that ends at column ${column}` };
    }
  }
  const { line, column } = lineColumnAt(text, e.offset);
  return { line, message: `${words} (column ${column})` };
}

/**
 * The first place where `text` nests objects and arrays deeper than
 * `limit`, or undefined: found by the scanner, which reads token by token
 * without recursing, so it can run before a parser that recurses once per
 * level (jsonc-parser's) is given a document deep enough to exhaust the
 * stack. Brackets inside strings and comments are not counted.
 *
 * @example
 * tooDeep('{"a": [[[1]]]}', 2) // { line: 1 }
 */
export function tooDeep(text: string, limit: number): { line: number } | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  // SyntaxKind (a `const` enum): 1 "{", 2 "}", 3 "[", 4 "]", 17 EOF.
  for (let kind = scanner.scan(); kind !== 17; kind = scanner.scan()) {
    if (kind === 1 || kind === 3) {
      if (++depth > limit) return { line: lineColumnAt(text, scanner.getTokenOffset()).line };
    } else if ((kind === 2 || kind === 4) && depth > 0) depth--;
  }
  return undefined;
}
