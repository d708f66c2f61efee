/**
 * `npm run bench:panel`: a judge panel of three LLM judges against judging
 * with the same three one after another, on the local OpenAI-compatible test
 * server (its own process), at two server latencies (100 ms and 20 ms).
 *
 * Each judge has its own client and concurrency (BENCH_CONCURRENCY, default
 * 16); the panel runs the three at once (src/judge/schedule/panel.ts), the
 * sequential way runs `runJudge` for each in turn. Every run starts from an
 * empty cache and the two ways are interleaved run by run, so drift in the
 * machine's load hits both alike. Medians of BENCH_RUNS runs (default 3) and
 * their ratio are printed; nothing is asserted.
 *
 * Environment: BENCH_RUNS, BENCH_QUESTIONS (default 100: 400 calls per judge),
 * BENCH_CONCURRENCY (16), BENCH_LATENCIES (default "100,20").
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";
import { median } from "simple-statistics";
import { loadConfig } from "../src/golden/config.js";
import type { PanelJudgeConfig } from "../src/golden/schema/panel.js";
import { loadJudgeInputs } from "../src/judge/items/inputs.js";
import { llmBackend } from "../src/judge/judges/llm.js";
import { panelEntries } from "../src/judge/judges/panel.js";
import type { OpenAISettings } from "../src/judge/judges/settings.js";
import { JudgeCache } from "../src/judge/schedule/cache.js";
import { PanelMemo, runPanel } from "../src/judge/schedule/panel.js";
import { runJudge } from "../src/judge/schedule/run.js";
import { writeJudgeBenchData } from "./judge-data.js";

const ROOT = resolve(import.meta.dirname, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 100);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const LATENCIES = (process.env.BENCH_LATENCIES ?? "100,20").split(",").map(Number);

async function startServer(latency: number) {
  const child = spawn(process.execPath, ["--import", "tsx", "test/server/serve.ts", "--latency", String(latency)], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! });
  const queue: ((l: string) => void)[] = [];
  lines.on("line", (l) => queue.shift()?.(l));
  const first = await new Promise<string>((r) => queue.push(r));
  const { baseURL } = JSON.parse(first) as { baseURL: string };
  return { baseURL, stop: () => child.kill("SIGTERM") };
}

const dir = mkdtempSync(join(tmpdir(), "ragjudge-bench-panel-"));
console.log(`bench:panel: 3 LLM judges x ${QUESTIONS} questions x 4 rubrics, concurrency ${CONCURRENCY} per judge, ${RUNS} interleaved runs per latency`);
for (const latency of LATENCIES) {
  const server = await startServer(latency);
  const config = writeJudgeBenchData(join(dir, `l${latency}`), { questions: QUESTIONS, chunksPerQuestion: 3 }, server.baseURL, CONCURRENCY);
  const resolved = loadConfig(config);
  const { itemSet, rubrics } = loadJudgeInputs(resolved);
  const judges: PanelJudgeConfig[] = ["judge-a", "judge-b", "judge-c"].map((m) => ({ name: m, kind: "openai", model: m, baseUrl: server.baseURL, concurrency: CONCURRENCY, temperature: 0, seed: 0, maxTokens: 512, responseFormat: "json_schema", timeoutMs: 60_000, maxRetries: 2, logprobs: false }));
  const calls = itemSet.items.filter((i) => !i.rule).length * judges.length;
  const fresh = (name: string) => {
    const d = join(dir, `cache-${latency}-${name}`);
    rmSync(d, { recursive: true, force: true });
    return JudgeCache.open(d);
  };
  const panelOnce = async (run: number) => {
    const cache = fresh(`panel-${run}`);
    const memo = new PanelMemo();
    const entries = panelEntries(judges, resolved.config, rubrics, { wrap: memo.wrap, memory: cache });
    const t0 = performance.now();
    await runPanel({ entries, memo, items: itemSet.items, cache, rubrics });
    const s = (performance.now() - t0) / 1000;
    cache.close();
    return s;
  };
  const sequentialOnce = async (run: number) => {
    const cache = fresh(`seq-${run}`);
    const entries = panelEntries(judges, resolved.config, rubrics, { memory: cache });
    const t0 = performance.now();
    for (const e of entries) await runJudge({ items: itemSet.items, backend: llmBackend(e.settings as OpenAISettings, { cache }), cache, repeats: 1, concurrency: CONCURRENCY, lease: false });
    const s = (performance.now() - t0) / 1000;
    cache.close();
    return s;
  };
  const panel: number[] = [];
  const seq: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    // Interleaved, alternating which goes first.
    if (run % 2) {
      panel.push(await panelOnce(run));
      seq.push(await sequentialOnce(run));
    } else {
      seq.push(await sequentialOnce(run));
      panel.push(await panelOnce(run));
    }
    console.log(`  latency ${latency} ms, run ${run}: panel ${panel.at(-1)!.toFixed(2)} s, one after another ${seq.at(-1)!.toFixed(2)} s (${calls} calls each)`);
  }
  server.stop();
  const mp = median(panel);
  const ms = median(seq);
  console.log(`  latency ${latency} ms: medians panel ${mp.toFixed(2)} s (${(calls / mp).toFixed(0)} calls/s), one after another ${ms.toFixed(2)} s (${(calls / ms).toFixed(0)} calls/s); ratio ${(ms / mp).toFixed(2)}x (ideal 3x: the judges' endpoints overlap)`);
}
rmSync(dir, { recursive: true, force: true });
