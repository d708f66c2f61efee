import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { copyFileAtomic, readText, unreadable, writeFileAtomic } from "../../src/golden/files.js";
import { streamLines } from "../../src/retrieval/trec/bytes.js";
import { inputErrorMessage } from "../helpers/input-errors.js";
import { tempDir } from "../helpers/temp.js";

const dir = tempDir("ragjudge-files-");

describe("reading user files", () => {
  it("drops a byte-order mark and turns CRLF into LF", () => {
    const f = join(dir, "bom.jsonl");
    writeFileSync(f, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("a\r\nb\r\n")]));
    expect(readText(f)).toBe("a\nb\n");
  });

  it("names a missing file, a directory and a permission problem in words, for JSONL and TREC readers alike", () => {
    const missing = join(dir, "nope.txt");
    expect(inputErrorMessage(() => readText(missing))).toBe(`${missing}: file not found`);
    expect(inputErrorMessage(() => streamLines(missing, () => {}))).toBe(`${missing}: file not found`);
    expect(inputErrorMessage(() => readText(dir))).toBe(`${dir}: is a folder, where a file is needed`);
    expect(inputErrorMessage(() => streamLines(dir, () => {}))).toBe(`${dir}: is a folder, where a file is needed`);
    expect(unreadable("f.txt", Object.assign(new Error("x"), { code: "EACCES" })).message).toBe("f.txt: permission denied");
    expect(unreadable("f.txt", Object.assign(new Error("x"), { code: "EIO" })).message).toBe("f.txt: cannot read (EIO)");
  });

  it("writes whole files atomically, creating the folder", () => {
    const f = join(dir, "sub", "out.txt");
    writeFileAtomic(f, "one\n");
    writeFileAtomic(f, "two\n");
    expect(readFileSync(f, "utf8")).toBe("two\n");
  });

  it("writes a list of parts in order, bytes or not, and an empty list as an empty file", () => {
    const f = join(dir, "parts.txt");
    writeFileAtomic(f, [Buffer.from("one\n"), new Uint8Array(0), new TextEncoder().encode("twö\n")]);
    expect(readFileSync(f, "utf8")).toBe("one\ntwö\n");
    writeFileAtomic(f, []);
    expect(readFileSync(f, "utf8")).toBe("");
  });

  it("copies a file's bytes atomically over an older copy, leaving no temporary file; a missing source is one line naming it", () => {
    const from = join(dir, "judgments.jsonl");
    writeFileSync(from, "{\"a\":\"नीति\"}\n");
    const to = join(dir, "cache", "judgments.jsonl");
    writeFileAtomic(to, "old\n");
    copyFileAtomic(from, to);
    expect(readFileSync(to, "utf8")).toBe("{\"a\":\"नीति\"}\n");
    expect(inputErrorMessage(() => copyFileAtomic(join(dir, "gone.jsonl"), to))).toBe(`${join(dir, "gone.jsonl")}: file not found`);
    expect(readFileSync(to, "utf8")).toBe("{\"a\":\"नीति\"}\n");
    expect(readdirSync(join(dir, "cache"))).toEqual(["judgments.jsonl"]);
  });
});

describe("reading a file a block of lines at a time", () => {
  it("gives the text readText gives, whatever the block size (BOM, CRLF, lone CR, multi-byte characters, no final newline)", async () => {
    const { readTextBlocks } = await import("../../src/golden/files.js");
    const text = "\ufeff{\"a\":1}\r\n\r\nnīti नीति\rlast\r\nline without end é";
    const f = join(dir, "blocks.jsonl");
    writeFileSync(f, text);
    for (const size of [1, 2, 3, 5, 8, 64, 4 << 20]) {
      let got = "";
      const ends: string[] = [];
      readTextBlocks(f, (b) => {
        got += b;
        ends.push(b.slice(-1));
      }, size);
      expect(got, `block size ${size}`).toBe(readText(f));
      expect(ends.slice(0, -1).every((e) => e === "\n")).toBe(true); // every block but the last ends a line
    }
  });
});
