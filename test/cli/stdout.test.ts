import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

const dir = tempDir("ragjudge-stdout-");
const LINES = 120_000;
const line = (i: number) => `line ${i} ${"é".repeat(i % 7)}\n`;
const expected = Array.from({ length: LINES }, (_, i) => line(i)).join("");

/** A child that touches process.stdout (as the CLI does: its pipe becomes non-blocking) and writes LINES lines through writeToStdout; with "queued", a megabyte through the stream first. */
const script = join(dir, "child.mts");
writeFileSync(
  script,
  `import { writeToStdout } from ${JSON.stringify(pathToFileURL(join(ROOT, "src/cli/stdout.ts")).href)};
process.stdout.on("error", () => {});
if (process.argv[2] === "queued") process.stdout.write("q".repeat(1 << 20) + "\\n");
const line = ${line.toString()};
writeToStdout((write) => { for (let i = 0; i < ${LINES}; i++) write(line(i)); });
`,
);

/** Runs the child, its stdout read in slow sips (so that the pipe fills and writes must wait), or closed after the first chunk. */
function runChild(mode: "plain" | "queued" | "close"): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, mode], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
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
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out.length).toBe(expected.length);
    expect(r.out === expected).toBe(true);
  });

  it("goes after text the stream still holds, not before it", async () => {
    const r = await runChild("queued");
    expect(r.code).toBe(0);
    expect(r.out === `${"q".repeat(1 << 20)}\n${expected}`).toBe(true);
  });

  it("ends quietly with status 0 when the reader goes away (| head)", async () => {
    const r = await runChild("close");
    expect(r.code).toBe(0);
    expect(r.err).toBe("");
  });
});
