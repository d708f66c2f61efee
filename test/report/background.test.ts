import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { sha256 } from "../../src/golden/hash.js";
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
