import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appendLineDurable, readBytes, readText, readTextBlocks, writeFileAtomic } from "../../src/golden/files.js";
import { formatSize, MAX_DATA_FILE_BYTES } from "../../src/golden/limits.js";
import { checkFolder } from "../../src/golden/paths.js";
import { streamLines, streamRange } from "../../src/retrieval/trec/bytes.js";
import { inputErrorMessage } from "../helpers/input-errors.js";
import { tempDir } from "../helpers/temp.js";

const unix = process.platform !== "win32";

describe("the limits", () => {
  it("are stated in the units people read", () => {
    expect(formatSize(16 * 2 ** 20)).toBe("16 MiB");
    expect(formatSize(MAX_DATA_FILE_BYTES)).toBe("512 MiB");
    expect(formatSize(1536)).toBe("1.5 KiB");
    expect(formatSize(12)).toBe("12 bytes");
  });

  it("refuse a file over its size limit before reading it, and a TREC line over the line limit with its line number", () => {
    const dir = tempDir("ragjudge-limits-");
    const f = join(dir, "big.jsonl");
    writeFileSync(f, "x".repeat(2000));
    expect(inputErrorMessage(() => readText(f, 1024))).toBe(`${f}: file is 2 KiB (2,000 bytes), over the limit of 1 KiB (1,024 bytes) for this kind of file`);
    expect(readBytes(f, 2000)).toHaveLength(2000);
    const t = join(dir, "run.txt");
    writeFileSync(t, `a b\nc d\n${"x".repeat(300)}\ne f\n`);
    expect(inputErrorMessage(() => streamLines(t, () => {}, 16, 100))).toBe(`${t}:3: line is longer than the limit of 100 bytes (100 bytes) per line`);
    let lines = 0;
    streamLines(t, (buf, s, e) => {
      for (let i = s; i < e; i++) if (buf[i] === 10) lines++;
    }, 16, 400);
    expect(lines).toBe(4);
  });

  it("hold the block reader to readText's file limit (JSONL loaders read a block at a time)", () => {
    const dir = tempDir("ragjudge-limits-");
    const f = join(dir, "big.jsonl");
    writeFileSync(f, "x".repeat(2000));
    expect(inputErrorMessage(() => readTextBlocks(f, () => {}, 64, 1024))).toBe(inputErrorMessage(() => readText(f, 1024)));
    let got = "";
    readTextBlocks(f, (b) => (got += b), 64, 2000);
    expect(got).toBe(readText(f));
  });

  it("number a TREC line over the limit from the start of the file when a thread reads a later range", () => {
    const dir = tempDir("ragjudge-limits-");
    const t = join(dir, "run.txt");
    writeFileSync(t, `a b\nc d\ne f\n${"x".repeat(300)}\ng h\n`);
    expect(inputErrorMessage(() => streamRange(t, 8, Infinity, () => {}, 16, 100))).toBe(`${t}:4: line is longer than the limit of 100 bytes (100 bytes) per line`);
  });
});

describe.runIf(unix)("reading special files", () => {
  it("refuses a FIFO, a device and a folder at once, for whole-file and streaming readers alike", () => {
    const dir = tempDir("ragjudge-special-");
    const fifo = join(dir, "in.fifo");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    expect(inputErrorMessage(() => readText(fifo))).toBe(`${fifo}: is a named pipe (FIFO), not a regular file: give a file`);
    expect(inputErrorMessage(() => streamLines(fifo, () => {}))).toBe(`${fifo}: is a named pipe (FIFO), not a regular file: give a file`);
    expect(inputErrorMessage(() => readText("/dev/zero"))).toBe("/dev/zero: is a device, not a regular file: give a file");
    expect(inputErrorMessage(() => streamLines("/dev/zero", () => {}))).toBe("/dev/zero: is a device, not a regular file: give a file");
    expect(inputErrorMessage(() => readText(dir))).toBe(`${dir}: is a folder, where a file is needed`);
    // the JSONL loaders' block reader and the TREC threads' range reader refuse them alike
    for (const f of [fifo, "/dev/zero", dir]) {
      expect(inputErrorMessage(() => readTextBlocks(f, () => {}))).toBe(inputErrorMessage(() => readText(f)));
      expect(inputErrorMessage(() => streamRange(f, 0, Infinity, () => {}))).toBe(inputErrorMessage(() => readText(f)));
    }
  });
});

describe.runIf(unix)("whole-file writes", () => {
  it("refuse a folder, a FIFO and a link out of its folder before writing, and leave no temporary file", () => {
    const dir = tempDir("ragjudge-write-");
    const outside = join(tempDir("ragjudge-outside-"), "victim.txt");
    writeFileSync(outside, "precious");
    symlinkSync(outside, join(dir, "out.jsonl"));
    expect(inputErrorMessage(() => writeFileAtomic(join(dir, "out.jsonl"), "x"))).toBe(`${join(dir, "out.jsonl")}: is a symbolic link to ${outside}, outside its folder: refusing to write through it`);
    expect(readFileSync(outside, "utf8")).toBe("precious");
    expect(inputErrorMessage(() => writeFileAtomic(dir, "x"))).toBe(`${dir}: is a folder: give a file name to write`);
    const fifo = join(dir, "p.fifo");
    spawnSync("mkfifo", [fifo]);
    expect(inputErrorMessage(() => writeFileAtomic(fifo, "x"))).toBe(`${fifo}: is not a regular file (a named pipe, device or socket): refusing to write to it`);
    writeFileSync(join(dir, "file"), "");
    expect(inputErrorMessage(() => writeFileAtomic(join(dir, "file", "x.json"), "x"))).toBe(`${join(dir, "file", "x.json")}: is a file, or inside one, where a folder is needed`);
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("follow a link to a file beside it, writing that file atomically and keeping the link", () => {
    const dir = tempDir("ragjudge-write-");
    writeFileSync(join(dir, "v2.jsonl"), "old\n");
    symlinkSync("v2.jsonl", join(dir, "latest.jsonl"));
    writeFileAtomic(join(dir, "latest.jsonl"), "new\n");
    expect(readFileSync(join(dir, "v2.jsonl"), "utf8")).toBe("new\n");
    expect(readdirSync(dir).sort()).toEqual(["latest.jsonl", "v2.jsonl"]);
  });

  it("with `within`, refuse a sub-folder that links out of the folder", () => {
    const dir = tempDir("ragjudge-write-");
    const outside = tempDir("ragjudge-outside-");
    mkdirSync(join(dir, "labels"));
    symlinkSync(outside, join(dir, "labels", "calibration"));
    expect(inputErrorMessage(() => writeFileAtomic(join(dir, "labels", "calibration", "r.json"), "{}", { within: join(dir, "labels") }))).toBe(`${join(dir, "labels")}: refusing to write "calibration/r.json": its folder links outside the labels folder`);
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe.runIf(unix)("appending to a log", () => {
  it("refuses a symbolic link and a FIFO at the log's place, writing nothing through them", () => {
    const dir = tempDir("ragjudge-append-");
    const outside = join(tempDir("ragjudge-outside-"), "victim.txt");
    writeFileSync(outside, "");
    symlinkSync(outside, join(dir, "a.jsonl"));
    expect(inputErrorMessage(() => appendLineDurable(join(dir, "a.jsonl"), "{}"))).toBe(`${join(dir, "a.jsonl")}: refusing to write through a symbolic link`);
    expect(readFileSync(outside, "utf8")).toBe("");
    const fifo = join(dir, "b.jsonl");
    spawnSync("mkfifo", [fifo]);
    expect(inputErrorMessage(() => appendLineDurable(fifo, "{}"))).toMatch(/b\.jsonl: (is not a regular file|cannot write \(ENXIO\))/);
    appendLineDurable(join(dir, "new", "c.jsonl"), "{}");
    expect(readFileSync(join(dir, "new", "c.jsonl"), "utf8")).toBe("{}\n");
  });
});

describe("folders", () => {
  it("checkFolder names a file given as a folder, and one on the way, creating nothing", () => {
    const dir = tempDir("ragjudge-folder-");
    writeFileSync(join(dir, "f"), "");
    expect(inputErrorMessage(() => checkFolder(join(dir, "f"), "the cache folder"))).toBe(`${join(dir, "f")}: is a file, not a folder: the cache folder must be a folder`);
    expect(inputErrorMessage(() => checkFolder(join(dir, "f", "sub"), "the cache folder"))).toBe(`${join(dir, "f", "sub")}: is a file, or inside one, where a folder is needed`);
    expect(checkFolder(join(dir, "new", "deeper"), "the cache folder")).toBe(join(dir, "new", "deeper"));
    expect(existsSync(join(dir, "new"))).toBe(false);
  });
});
