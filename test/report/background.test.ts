import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { buildSync } from "esbuild";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { sha256 } from "../../src/golden/hash.js";
import { ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";
import { describe, expect, it } from "vitest";
import { startBackground } from "../../src/report/background.js";
import { gzipBase64 } from "../../src/report/html/sections/explorer.js";

describe("the background worker", () => {
  it("gives the bytes of gzipBase64 on this thread, for every block, whatever order they finish in", async () => {
    const texts = [
      "",
      JSON.stringify({ a: "नीति café 😀", n: [1, 2, 3] }),
      JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ id: `q${i}`, reason: `reason ${i % 97} é`, x: i * 7 }))),
      "[]",
      // a lone surrogate (not valid UTF-16) is written as U+FFFD here as there
      "ab\ud800 x \udc00z…",
      // past the size from which a block is measured before it is encoded
      `${"…".repeat(17_000_000)}[]`,
    ];
    const gzip = startBackground();
    try {
      const out = await Promise.all(texts.map((t) => gzip.compress(t)));
      expect(out).toEqual(texts.map(gzipBase64));
      expect(gunzipSync(Buffer.from(out[1]!, "base64")).toString("utf8")).toBe(texts[1]);
    } finally {
      await gzip.close();
    }
  });

  it("rejects what is pending when it is closed early, compresses here from then on, and never keeps the process alive when idle", async () => {
    const bg = startBackground();
    const pending = bg.compress("x".repeat(50_000_000));
    await bg.close();
    await expect(pending).rejects.toThrow(/exited/);
    expect(bg.hasRoom()).toBe(false);
    expect(bg.compress("[1]")).toBe(gzipBase64("[1]"));
  });

  it("close() keeps the process alive until the thread has exited, even when replies arrive during it (a run used to exit 13, silently)", () => {
    // Replies queued while this thread was busy arrive after close() began; each used to unreference the
    // thread, so the event loop ran dry before the exit event and Node ended the awaiting program with code 13.
    // Plain node on a bundle of the module: under tsx, its loader's own thread kept the loop alive and hid this.
    const dir = tempDir("background-close");
    const bundle = join(dir, "background.mjs");
    buildSync({ entryPoints: [join(ROOT, "src", "report", "background.ts")], bundle: true, platform: "node", format: "esm", outfile: bundle, logLevel: "silent" });
    const script = join(dir, "close.mjs");
    writeFileSync(script, [
      `const { startBackground } = await import(${JSON.stringify(pathToFileURL(bundle).href)});`,
      "const bg = startBackground();",
      `const hashes = Array.from({ length: 9 }, () => bg.hashFile(${JSON.stringify(join(ROOT, "package.json"))}));`,
      "const until = Date.now() + 300; while (Date.now() < until);",
      "await bg.close();",
      "console.log('closed', (await Promise.all(hashes)).filter((h) => h !== undefined).length);",
    ].join("\n"));
    for (let i = 0; i < 3; i++) {
      const r = spawnSync(process.execPath, [script], { encoding: "utf8" });
      expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" });
      expect(r.stdout).toMatch(/^closed \d\n$/); // hashes still queued at the exit are left to the caller (undefined)
    }
  });

  it("hashes a regular file as sha256 of its bytes does; leaves anything else to the caller", async () => {
    const dir = tempDir("ragjudge-background-");
    const file = join(dir, "a.jsonl");
    const text = "नीति\n".repeat(400_000);
    writeFileSync(file, text);
    symlinkSync(file, join(dir, "link"));
    mkdirSync(join(dir, "sub"));
    const bg = startBackground();
    try {
      expect(await bg.hashFile(file)).toBe(sha256(Buffer.from(text, "utf8")));
      expect(await bg.hashFile(join(dir, "missing"))).toBeUndefined();
      expect(await bg.hashFile(join(dir, "link"))).toBeUndefined();
      expect(await bg.hashFile(join(dir, "sub"))).toBeUndefined();
    } finally {
      await bg.close();
    }
  });
});
