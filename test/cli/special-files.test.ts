/**
 * Inputs that are not regular files, or are far too large, refused at once
 * with exit 2 and one line naming the file (issue: hardening). Each case runs
 * the real CLI in a child process with a deadline, so a reader that would
 * hang on a FIFO or read /dev/zero for ever fails the test instead of
 * hanging the suite.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../helpers/cli.js";
import { ROOT } from "../helpers/paths.js";
import { copyFixture } from "../helpers/temp.js";

const unix = process.platform !== "win32";

/** A copy of the retrieval fixture whose config names `golden` as the golden set. */
function projectWithGolden(golden: (dir: string) => string): { dir: string; config: string; golden: string } {
  const dir = copyFixture("retrieval", "ragjudge-special-");
  const file = golden(dir);
  const config = join(dir, "ragjudge.config.json");
  writeFileSync(config, JSON.stringify({ name: "x", golden: file, variants: [{ name: "bm25", output: "bm25.output.jsonl", chunks: "chunks.jsonl" }] }));
  return { dir, config, golden: file };
}

/** `ragjudge validate` in a child process, killed after `ms`. */
function validateInChild(config: string, ms = 20_000) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "validate", "--config", config], { cwd: ROOT, timeout: ms, encoding: "utf8" });
  return { status: r.status, signal: r.signal, stderr: r.stderr ?? "" };
}

describe.runIf(unix)("special files as input", () => {
  it("refuses a FIFO as the golden set at once (it used to wait for a writer for ever)", () => {
    const p = projectWithGolden((dir) => {
      const f = join(dir, "golden.fifo");
      expect(spawnSync("mkfifo", [f]).status).toBe(0);
      return f;
    });
    const r = validateInChild(p.config);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual([`${p.golden}: is a named pipe (FIFO), not a regular file: give a file`, "ragjudge: validate: 1 problem found"]);
  });

  it("refuses /dev/zero as the golden set at once (it used to read until memory ran out)", () => {
    const p = projectWithGolden(() => "/dev/zero");
    const r = validateInChild(p.config);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual(["/dev/zero: is a device, not a regular file: give a file", "ragjudge: validate: 1 problem found"]);
  });
});

const HUGE = `{"id":"q-huge","question":"${"x".repeat(50_000_000)}"}`;

describe("a golden line over the per-line limit", () => {
  it("is refused naming file, line and limit (a 50 MB line used to be accepted)", async () => {
    let hugeLine = 0;
    const p = projectWithGolden((dir) => {
      const f = join(dir, "huge.jsonl");
      const lines = readFileSync(join(dir, "golden.jsonl"), "utf8").trimEnd().split("\n");
      writeFileSync(f, [...lines, HUGE].join("\n") + "\n");
      hugeLine = lines.length + 1;
      return f;
    });
    const r = await runCliCaptured(["validate", "--config", p.config]);
    expect(r.code).toBe(2);
    expect(r.err.split("\n")).toEqual([`${p.golden}:${hugeLine}: line is ${HUGE.length.toLocaleString("en-US")} characters long, over the limit of 16 MiB (16,777,216 characters) per line`, "ragjudge: validate: 1 problem found", ""]);
    expect(existsSync(join(p.dir, "evaluations"))).toBe(false);
  });
});
