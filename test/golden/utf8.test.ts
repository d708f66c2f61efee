import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readText, readTextBlocks, readTextHashed } from "../../src/golden/files.js";
import { firstNonUtf8Line, NOT_UTF8, NOT_UTF8_BUT_UTF16 } from "../../src/golden/utf8.js";
import { EXIT } from "../../src/cli/errors.js";
import { runCliCaptured } from "../helpers/cli.js";
import { inputErrorMessage } from "../helpers/input-errors.js";
import { tempDir } from "../helpers/temp.js";

const dir = tempDir("ragjudge-utf8-");
/** "café" as Windows-1252 writes it: é is the one byte 0xE9, not UTF-8. */
const LATIN1_CAFE = Buffer.from([0x63, 0x61, 0x66, 0xe9]);

/** A file of `lines` lines of UTF-8 JSON, line `bad` (1-based) holding a Windows-1252 é. */
function fileWithBadLine(name: string, lines: number, bad: number): string {
  const parts = Array.from({ length: lines }, (_, i) => {
    const line = Buffer.from(`{"id":"c${i + 1}","doc":"d","text":"caf\u00e9 ${"x".repeat(40)}"}\n`);
    return i + 1 === bad ? Buffer.concat([Buffer.from(`{"id":"c${i + 1}","doc":"d","text":"`), LATIN1_CAFE, Buffer.from(`"}\n`)]) : line;
  });
  const f = join(dir, name);
  writeFileSync(f, Buffer.concat(parts));
  return f;
}

describe("firstNonUtf8Line", () => {
  it("finds the first line that is not UTF-8, and none in UTF-8 text (multi-byte letters, a U+FFFD written on purpose)", () => {
    expect(firstNonUtf8Line(Buffer.from("caf\u00e9\nनीति\n\ufffd\n"))).toBe(-1);
    expect(firstNonUtf8Line(Buffer.concat([Buffer.from("a\nb\n"), LATIN1_CAFE, Buffer.from("\nd")]))).toBe(2);
    expect(firstNonUtf8Line(Buffer.concat([Buffer.from("a\n"), Buffer.from([0xf0, 0x9f, 0x98])]))).toBe(1); // an emoji cut short at the end
    expect(firstNonUtf8Line(LATIN1_CAFE)).toBe(0);
    // lines ended by a lone CR (Excel's "CSV (Macintosh)") and by CRLF count as the readers count them
    expect(firstNonUtf8Line(Buffer.concat([Buffer.from("a\rb\r"), LATIN1_CAFE, Buffer.from("\r")]))).toBe(2);
    expect(firstNonUtf8Line(Buffer.concat([Buffer.from("a\r\nb\r\n"), LATIN1_CAFE]))).toBe(2);
  });

  it("names the line of a CR-ended file in blocks far into it", () => {
    const f = join(dir, "mac.csv");
    const lines = Array.from({ length: 3000 }, (_, i) => Buffer.from(`row ${i + 1},caf\u00e9\r`));
    lines[2499] = Buffer.concat([Buffer.from("row 2500,"), LATIN1_CAFE, Buffer.from("\r")]);
    writeFileSync(f, Buffer.concat(lines));
    expect(inputErrorMessage(() => readTextBlocks(f, () => {}, 4096))).toBe(`${f}:2500: ${NOT_UTF8}`);
    expect(inputErrorMessage(() => readText(f))).toBe(`${f}:2500: ${NOT_UTF8}`);
    // CRLF, with a CR and its LF on either side of a block's end
    const g = join(dir, "crlf.csv");
    const crlf = Array.from({ length: 3000 }, (_, i) => Buffer.from(`row ${i + 1},caf\u00e9\r\n`));
    crlf[2499] = Buffer.concat([Buffer.from("row 2500,"), LATIN1_CAFE, Buffer.from("\r\n")]);
    writeFileSync(g, Buffer.concat(crlf));
    for (const block of [4096, 4097, 1000, 1001]) expect(inputErrorMessage(() => readTextBlocks(g, () => {}, block))).toBe(`${g}:2500: ${NOT_UTF8}`);
  });
});

describe("text files that are not UTF-8 are refused at their line (they were decoded with U+FFFD in place of the bytes)", () => {
  it("says UTF-16 for a file that starts with a UTF-16 byte-order mark (Excel's 'Unicode text'), not Latin-1", () => {
    const f = join(dir, "utf16.csv");
    writeFileSync(f, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("question,answer\r\ncaf\u00e9,x\r\n", "utf16le")]));
    expect(inputErrorMessage(() => readText(f))).toBe(`${f}:1: ${NOT_UTF8_BUT_UTF16}`);
    const be = join(dir, "utf16be.csv");
    writeFileSync(be, Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from("q\n", "utf16le").swap16()]));
    expect(inputErrorMessage(() => readText(be))).toBe(`${be}:1: ${NOT_UTF8_BUT_UTF16}`);
    expect(NOT_UTF8_BUT_UTF16).toMatch(/^UTF-16 text, not UTF-8/);
  });

  it("readText and readTextHashed", () => {
    const f = fileWithBadLine("small.jsonl", 5, 4);
    expect(inputErrorMessage(() => readText(f))).toBe(`${f}:4: ${NOT_UTF8}`);
    expect(inputErrorMessage(() => readTextHashed(f))).toBe(`${f}:4: ${NOT_UTF8}`);
  });

  it("readTextBlocks, in a block far into the file and in a byte range read by a second thread", () => {
    const f = fileWithBadLine("large.jsonl", 5000, 4321);
    expect(inputErrorMessage(() => readTextBlocks(f, () => {}))).toBe(`${f}:4321: ${NOT_UTF8}`);
    // the range starts on a line end well before the bad line; its line number is the file's, not the range's
    const text = readText(fileWithBadLine("clean.jsonl", 5000, 0));
    const from = Buffer.byteLength(text.split("\n").slice(0, 3000).join("\n") + "\n");
    expect(inputErrorMessage(() => readTextBlocks(f, () => {}, 4096, undefined, { from, to: Number.MAX_SAFE_INTEGER }))).toBe(`${f}:4321: ${NOT_UTF8}`);
  });

  it("through the CLI: a golden set saved as Windows-1252 exits 2 naming file and line", async () => {
    const golden = join(dir, "golden.jsonl");
    writeFileSync(golden, Buffer.concat([Buffer.from('{"id":"q1","question":"Where is the '), LATIN1_CAFE, Buffer.from('?","relevantText":["The caf\u00e9 is on floor 2."]}\n')]));
    writeFileSync(join(dir, "out.jsonl"), '{"id":"q1","retrieved":[{"text":"The café is on floor 2."}],"answer":"Floor 2."}\n');
    writeFileSync(join(dir, "ragjudge.config.json"), JSON.stringify({ golden: "golden.jsonl", variants: [{ name: "v", output: "out.jsonl" }] }));
    const r = await runCliCaptured(["validate", "--config", join(dir, "ragjudge.config.json")]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toContain(`golden.jsonl:1: ${NOT_UTF8}\n`);
  });
});
