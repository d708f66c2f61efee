import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

const dir = tempDir("ragjudge-stdout-");
const LINES = 120_000;
const line = (i: number) => `line ${i} ${"é".repeat(i % 7)}\n`;
const expected = Array.from({ length: LINES }, (_, i) => line(i)).join("");

/**
 * A child that touches process.stdout (as the CLI does: its pipe becomes
 * non-blocking) and writes LINES lines through writeToStdout; with "queued",
 * a megabyte through the stream first. Then, as a command does after its
 * output, it writes "after" to stderr and, with "fail", sets exit status 1.
 */
const script = join(dir, "child.mts");
writeFileSync(
  script,
  `import { writeToStdout } from ${JSON.stringify(pathToFileURL(join(ROOT, "src/cli/stdout.ts")).href)};
process.stdout.on("error", () => {});
if (process.argv[2] === "queued") process.stdout.write("q".repeat(1 << 20) + "\\n");
const line = ${line.toString()};
if (process.argv[2] === "throws") writeToStdout((write) => { write("x\\n"); throw Object.assign(new Error("boom from the output's own code"), { code: "ENOENT" }); });
writeToStdout((write) => { for (let i = 0; i < ${LINES}; i++) write(line(i)); });
process.stderr.write("after\\n");
if (process.argv[3] === "fail") process.exitCode = 1;
`,
);

/** Runs the child, its stdout read in slow sips (so that the pipe fills and writes must wait), or closed after the first chunk. */
function runChild(mode: "plain" | "queued" | "close" | "throws", fail = false): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, mode, fail ? "fail" : "ok"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      if (mode === "close") {
        child.stdout.destroy();
        return;
      }
      out.push(d);
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), out.length % 20 === 0 ? 5 : 0);
    });
    child.on("close", (code) => resolve({ code, out: Buffer.concat(out).toString("utf8"), err }));
  });
}

describe("writeToStdout", () => {
  it("writes every byte, in order, through a pipe its reader drains slowly", async () => {
    const r = await runChild("plain");
    expect(r.err).toBe("after\n");
    expect(r.code).toBe(0);
    expect(r.out.length).toBe(expected.length);
    expect(r.out === expected).toBe(true);
  });

  it("goes after text the stream still holds, not before it", async () => {
    const r = await runChild("queued");
    expect(r.code).toBe(0);
    expect(r.out === `${"q".repeat(1 << 20)}\n${expected}`).toBe(true);
  });

  it("stops quietly when the reader goes away (| head), and the command goes on to its messages and exit status", async () => {
    const r = await runChild("close");
    expect(r.code).toBe(0);
    expect(r.err).toBe("after\n");
    // a CI step `ragjudge retrieval --fail-under ... | head` must still fail on a missed floor
    const failed = await runChild("close", true);
    expect(failed.code).toBe(1);
    expect(failed.err).toBe("after\n");
  });

  it("lets an error of the code producing the output through as it is, not as a failed write", async () => {
    const r = await runChild("throws");
    expect(r.code).not.toBe(0);
    expect(r.err).toContain("boom from the output's own code");
    expect(r.err).not.toContain("standard output");
  });
});

/** A TREC qrels and run whose scores (`-q`, one block per query) are megabytes: more than a pipe holds. P@5 is 0.2 everywhere. */
function largeTrec(): { qrels: string; run: string } {
  const qrels = join(dir, "big.qrels");
  const run = join(dir, "big.run");
  let q = "";
  let r = "";
  for (let i = 0; i < 3000; i++) {
    q += `q${i} 0 d0 1\nq${i} 0 d1 1\n`;
    for (let k = 0; k < 20; k++) r += `q${i} Q0 d${k + 1} ${k + 1} ${100 - k} run\n`;
  }
  writeFileSync(qrels, q);
  writeFileSync(run, r);
  return { qrels, run };
}

/** `ragjudge retrieval` from the sources, its stdout given as `stdout` ("pipe": closed by this reader after the first chunk). */
function runRetrieval(args: string[], stdout: "pipe" | number): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "src/cli/main.ts"), "retrieval", ...args], { cwd: ROOT, stdio: ["ignore", stdout, "pipe"] });
    let err = "";
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout?.once("data", () => child.stdout!.destroy());
    child.on("close", (code) => resolve({ code, err }));
  });
}

describe("ragjudge retrieval's output to a reader that goes away or a full disk", () => {
  const { qrels, run } = largeTrec();
  const args = ["--qrels", qrels, "--trec-run", run, "--format", "trec"];

  it("still exits 1 and names the missed floor when the reader closes early (| head)", async () => {
    const r = await runRetrieval([...args, "--fail-under", "P@5=0.9"], "pipe");
    expect(r.err).toContain("ragjudge: floor missed: big.run: P@5 = 0.2000, below its floor 0.9");
    expect(r.code).toBe(1);
    const ok = await runRetrieval(args, "pipe");
    expect([ok.code, ok.err]).toEqual([0, ""]);
  });

  it.skipIf(!existsSync("/dev/full"))("says in one line that standard output has no space left, exit 2", async () => {
    const fd = openSync("/dev/full", "w");
    try {
      const r = await runRetrieval(args, fd);
      expect(r.err).toBe("ragjudge: error: standard output: no space left on the device\n");
      expect(r.code).toBe(2);
    } finally {
      closeSync(fd);
    }
  });
});
