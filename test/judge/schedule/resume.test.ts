import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CACHE_FILE } from "../../../src/judge/schedule/cache.js";
import { startOpenAIServer, type TestServer } from "../../server/openai-server.js";
import { ROOT } from "../../helpers/paths.js";
import { RUBRICS_DIR, tempDir } from "../helpers.js";

const N = 60;
const CONCURRENCY = 4;
const RUBRICS = 4; // citation-accuracy, correctness, faithfulness, not-found: one item each per question

/** A dataset of N answerable questions; every third answer states a BADFACT the scripted judge rejects. */
function writeDataset(dir: string, baseURL: string): string {
  const chunks: string[] = [];
  const golden: string[] = [];
  const out: string[] = [];
  for (let i = 0; i < N; i++) {
    chunks.push(JSON.stringify({ id: `d${i}#0`, doc: `d${i}`, text: `Policy ${i}: the limit for item ${i} is ${i * 10} units.` }));
    golden.push(JSON.stringify({ id: `q${i}`, question: `What is the limit for item ${i}?`, relevant: [`d${i}#0`], reference: `${i * 10} units.` }));
    const claim = i % 3 === 0 ? `BADFACT the limit is ${i * 10 + 7} units` : `The limit for item ${i} is ${i * 10} units`;
    out.push(JSON.stringify({ id: `q${i}`, retrieved: [`d${i}#0`], answer: `${claim} [1].` }));
  }
  writeFileSync(join(dir, "chunks.jsonl"), chunks.join("\n") + "\n");
  writeFileSync(join(dir, "golden.jsonl"), golden.join("\n") + "\n");
  writeFileSync(join(dir, "out.jsonl"), out.join("\n") + "\n");
  const config = {
    golden: "golden.jsonl",
    variants: [{ name: "v", output: "out.jsonl", chunks: "chunks.jsonl" }],
    rubricsDir: RUBRICS_DIR,
    cacheDir: "cache",
    judge: { kind: "openai", model: "judge-model", baseUrl: baseURL, concurrency: CONCURRENCY, maxRetries: 0 },
  };
  writeFileSync(join(dir, "ragjudge.config.json"), JSON.stringify(config));
  return join(dir, "ragjudge.config.json");
}

function spawnJudge(config: string) {
  const env = { ...process.env, OPENAI_API_KEY: "", OPENAI_BASE_URL: "" };
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "judge", "--config", config], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += String(d)));
  child.stdout.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.on("exit", (code, signal) => res({ code, signal })));
  return { child, exited, stderr: () => stderr };
}

function committed(dir: string): number {
  const db = new Database(join(dir, "cache", CACHE_FILE), { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM verdicts WHERE status = 'done'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("kill -9 and resume", () => {
  it("repeats no committed call, re-sends at most --concurrency, and loses no verdict", async () => {
    server = await startOpenAIServer({ latencyMs: 25, script: (r) => ({ verdict: r.user.includes("BADFACT") ? "no" : "yes" }) });
    const dir = tempDir("ragjudge-resume-");
    const config = writeDataset(dir, server.baseURL);
    const total = N * RUBRICS;

    const run1 = spawnJudge(config);
    const deadline = Date.now() + 60_000;
    while (server.count < total / 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    run1.child.kill("SIGKILL");
    const end1 = await run1.exited;
    expect(end1.signal).toBe("SIGKILL");
    const sent1 = server.count;
    const done1 = committed(dir);
    expect(done1).toBeGreaterThan(0);
    expect(done1).toBeLessThan(total);
    // Only calls in flight at the kill were lost.
    expect(sent1 - done1).toBeGreaterThanOrEqual(0);
    expect(sent1 - done1).toBeLessThanOrEqual(CONCURRENCY);

    server.resetCount();
    const run2 = spawnJudge(config);
    const end2 = await run2.exited;
    expect(end2.code, run2.stderr()).toBe(0);
    expect(server.count).toBe(total - done1);
    expect(sent1 + server.count).toBeLessThanOrEqual(total + CONCURRENCY);
    expect(committed(dir)).toBe(total);

    const judgments = readFileSync(join(dir, "cache", "judgments.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { question: string; rubric: string; verdict: string; cached: boolean });
    expect(judgments).toHaveLength(total);
    for (const j of judgments) {
      const i = Number(j.question.slice(1));
      expect(j.verdict, `${j.question} ${j.rubric}`).toBe(i % 3 === 0 ? "no" : "yes");
    }
    expect(judgments.filter((j) => j.cached)).toHaveLength(done1);
  }, 120_000);
});
