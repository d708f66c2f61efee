import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { startGzipWorker } from "../../src/report/html/gzip-worker.js";
import { gzipBase64 } from "../../src/report/html/sections/explorer.js";

describe("the explorer's gzip worker", () => {
  it("gives the bytes of gzipBase64 on this thread, for every block, whatever order they finish in", async () => {
    const texts = [
      "",
      JSON.stringify({ a: "नीति café 😀", n: [1, 2, 3] }),
      JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ id: `q${i}`, reason: `reason ${i % 97} é`, x: i * 7 }))),
      "[]",
    ];
    const gzip = startGzipWorker();
    try {
      const out = await Promise.all(texts.map((t) => gzip.compress(t)));
      expect(out).toEqual(texts.map(gzipBase64));
      expect(gunzipSync(Buffer.from(out[1]!, "base64")).toString("utf8")).toBe(texts[1]);
    } finally {
      await gzip.close();
    }
  });

  it("rejects what is pending when it is closed early, and never keeps the process alive when idle", async () => {
    const gzip = startGzipWorker();
    const pending = gzip.compress("x".repeat(50_000_000));
    await gzip.close();
    await expect(Promise.race([pending, new Promise((r) => setTimeout(() => r("late"), 10_000))])).rejects.toThrow(/exited/);
  });
});
