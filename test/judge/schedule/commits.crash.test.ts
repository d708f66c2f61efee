import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CACHE_FILE } from "../../../src/judge/schedule/cache.js";
import { ROOT } from "../../helpers/paths.js";
import { tempDir } from "../helpers.js";

const WIDTH = 8;

describe("group commit under kill -9", () => {
  it("keeps every verdict whose commit was acknowledged, and loses at most one per slot", async () => {
    for (const target of [300, 1500]) {
      const dir = tempDir("ragjudge-commit-crash-");
      const child = spawn(process.execPath, ["--import", "tsx", "test/judge/schedule/commit-child.ts", dir, String(WIDTH)], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
      const put = new Set<number>();
      const acked = new Set<number>();
      let buffer = "";
      const exited = new Promise<NodeJS.Signals | null>((res) => child.on("close", (_c, signal) => res(signal)));
      child.stdout.on("data", (d) => {
        buffer += String(d);
        const lines = buffer.split("\n");
        buffer = lines.pop()!;
        for (const l of lines) {
          const [what, n] = l.split(" ");
          if (what === "ack") acked.add(Number(n));
        }
        if (acked.size >= target) child.kill("SIGKILL");
      });
      expect(await exited).toBe("SIGKILL");
      for (const l of readFileSync(join(dir, "puts.txt"), "utf8").split("\n")) if (l) put.add(Number(l));
      // The acks that count are those the child wrote synchronously; printed ones can sit in its stdout queue when killed.
      acked.clear();
      for (const l of readFileSync(join(dir, "acks.txt"), "utf8").split("\n")) if (l) acked.add(Number(l));
      const db = new Database(join(dir, CACHE_FILE), { readonly: true });
      const rows = db.prepare("SELECT input_hash, reason FROM verdicts WHERE status = 'done'").all() as { input_hash: string; reason: string }[];
      db.close();
      const stored = new Map(rows.map((r) => [Number.parseInt(r.input_hash, 16), r.reason]));
      // Every acknowledged verdict survived the kill, intact.
      for (const i of acked) expect(stored.get(i), `verdict ${i}`).toBe(`reason ${i}`);
      // Nothing was stored that was never handed over; what was lost is at most one uncommitted verdict per slot.
      for (const i of stored.keys()) expect(put.has(i)).toBe(true);
      const lost = [...put].filter((i) => !stored.has(i));
      expect(lost.length).toBeLessThanOrEqual(WIDTH);
      expect(stored.size - acked.size).toBeLessThanOrEqual(WIDTH);
    }
  }, 60_000);
});
