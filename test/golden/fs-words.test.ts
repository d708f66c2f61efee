import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reportError } from "../../src/cli/errors.js";
import { readText, unreadable } from "../../src/golden/files.js";
import { fsWords } from "../../src/golden/fs-words.js";
import { checkFolder, writeProblem } from "../../src/golden/paths.js";
import { inputErrorMessage } from "../helpers/input-errors.js";
import { tempDir } from "../helpers/temp.js";

/** The error Node's fs throws for `path` with `code`. */
function fsError(code: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: x, open '${path}'`), { code, path, syscall: "open" });
}

/** What the CLI's last-resort handler prints for `e`, without its prefix. */
function reported(e: unknown): string {
  let text = "";
  reportError(e, (s) => (text += s));
  return text.replace(/^ragjudge: error: /, "").trimEnd();
}

describe("fsWords", () => {
  it("says what its examples say", () => {
    expect(fsWords("EISDIR", "write")).toBe("is a folder: give a file name to write");
    expect(fsWords("EISDIR", "read")).toBe("is a folder, where a file is needed");
    expect(fsWords("EIO", "use")).toBeUndefined();
  });

  it("gives one problem the same words in a reader, a writer and the CLI's handler", () => {
    for (const code of ["ENOTDIR", "EACCES", "ENOSPC", "EROFS", "ENAMETOOLONG"]) {
      const words = fsWords(code, "use")!;
      expect(unreadable("f", fsError(code, "f")).message, code).toBe(`f: ${words}`);
      expect((writeProblem("f", fsError(code, "f")) as Error).message, code).toBe(`f: ${words}`);
      expect(reported(fsError(code, "f")), code).toBe(`f: ${words} (${code})`);
    }
    // EPERM is a permission problem to a user, whichever call met it
    expect(fsWords("EPERM", "use")).toBe(fsWords("EACCES", "use"));
  });

  it("reads a real file in the way the same as a real folder in the way, from each side", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f"), "x");
    mkdirSync(join(dir, "d"));
    expect(inputErrorMessage(() => readText(join(dir, "f", "x.jsonl")))).toBe(`${join(dir, "f", "x.jsonl")}: ${fsWords("ENOTDIR", "read")}`);
    expect(inputErrorMessage(() => checkFolder(join(dir, "f", "sub"), "the cache folder"))).toBe(`${join(dir, "f", "sub")}: ${fsWords("ENOTDIR", "write")}`);
    expect(inputErrorMessage(() => readText(join(dir, "d")))).toBe(`${join(dir, "d")}: is a folder, where a file is needed`);
    expect(inputErrorMessage(() => readText(join(dir, "none.jsonl")))).toBe(`${join(dir, "none.jsonl")}: file not found`);
  });

  it("keeps an unknown code's name for readers and writers, and leaves it to the CLI as a bug", () => {
    expect(unreadable("f", fsError("EIO", "f")).message).toBe("f: cannot read (EIO)");
    expect((writeProblem("f", fsError("EIO", "f")) as Error).message).toBe("f: cannot write (EIO)");
    expect(reported(fsError("EIO", "f"))).toMatch(/internal error/);
  });
});
