/**
 * `npm run bench:judge`: judge throughput against the local OpenAI-compatible
 * test server (its own process, 50 ms latency per request).
 *
 * Each run, on the same server and data (2,000 questions x 4 rubrics = 8,000
 * calls at concurrency 32):
 *   1. a bare client (plain fetch, the same request bodies, concurrency 32):
 *      the machine's practical ceiling;
 *   2. `ragjudge judge` in-process (runCli, fresh cache): throughput, its
 *      share of the bare ceiling and of concurrency / latency, and the
 *      harness's CPU time per verdict;
 *   3. the cached rerun in-process (must make zero requests), and as a fresh
 *      process: `node --import tsx src/cli/main.ts judge` (TypeScript compiled
 *      on the fly, as in development) and `node <build>/cli/main.js judge`
 *      (compiled once by `tsc -p tsconfig.build.json` into the bench folder,
 *      as users run the published package).
 * Medians of BENCH_RUNS runs (default 3) are printed; nothing is asserted.
 *
 * Environment: BENCH_RUNS, BENCH_QUESTIONS (default 2000), BENCH_CONCURRENCY
 * (32), BENCH_LATENCY_MS (50), BENCH_DIR (default a temp folder).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";
import { median } from "simple-statistics";
import { runCli } from "../src/cli/program.js";
import { loadConfig } from "../src/golden/config.js";
import { openAIBackend } from "../src/judge/judges/llm.js";
import { JudgeClient } from "../src/judge/transport/client.js";
import { loadJudgeInputs } from "../src/judge/items/inputs.js";
import { writeJudgeBenchData } from "./judge-data.js";

const ROOT = resolve(import.meta.dirname, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const LATENCY = Number(process.env.BENCH_LATENCY_MS ?? 50);

/** The test server in its own process, with a line protocol for its request count. */
async function startServer() {
  const child = spawn(process.execPath, ["--import", "tsx", "test/server/serve.ts", "--latency", String(LATENCY)], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! });
  const queue: ((l: string) => void)[] = [];
  lines.on("line", (l) => queue.shift()?.(l));
  const next = () => new Promise<string>((r) => queue.push(r));
  const { baseURL } = JSON.parse(await next()) as { baseURL: string };
  const ask = async (cmd: "count" | "reset") => {
    const p = next();
    child.stdin!.write(`${cmd}\n`);
    return (JSON.parse(await p) as { count: number }).count;
  };
  return { baseURL, ask, stop: () => child.kill("SIGTERM") };
}

/** Runs `f`, muting stdout and stderr. */
async function quiet<T>(f: () => Promise<T>): Promise<T> {
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  process.stdout.write = (() => true) as typeof process.stdout.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    return await f();
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

/** The bare ceiling: plain fetch of the same bodies, `CONCURRENCY` workers. */
async function bareClient(url: string, bodies: unknown[]) {
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      const res = await fetch(`${url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer x" }, body: JSON.stringify(body) });
      const data = (await res.json()) as { choices: { message: { content: string } }[] };
      JSON.parse(data.choices[0]!.message.content);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { wall, rps: bodies.length / wall, cpuMsPerCall: (cpu.user + cpu.system) / 1000 / bodies.length };
}

async function ragjudge(config: string) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const code = await quiet(() => runCli(["judge", "--config", config, "--no-progress"]));
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (code !== 0) throw new Error(`ragjudge judge exited ${code}`);
  return { wall, cpuMs: (cpu.user + cpu.system) / 1000 };
}

const server = await startServer();
const dir = process.env.BENCH_DIR ?? mkdtempSync(join(tmpdir(), "ragjudge-bench-judge-"));
const config = writeJudgeBenchData(dir, { questions: QUESTIONS, chunksPerQuestion: 3 }, server.baseURL, CONCURRENCY);
const resolved = loadConfig(config);
const inputs = loadJudgeInputs(resolved);
const backend = openAIBackend({ client: new JudgeClient({ baseURL: server.baseURL, apiKey: "x", timeoutMs: 60_000 }), baseURL: server.baseURL, settings: { model: "bench-model", temperature: 0, seed: 0, maxTokens: 512, responseMode: "json_schema" } });
const bodies = inputs.itemSet.items.filter((i) => !i.rule).map((i) => backend.request(i.rubric, i.evidence));
const calls = bodies.length;
const ceiling = CONCURRENCY / (LATENCY / 1000);
console.log(`bench:judge: ${QUESTIONS} questions x 4 rubrics = ${calls} calls, concurrency ${CONCURRENCY}, server latency ${LATENCY} ms (limit ${ceiling.toFixed(0)} calls/s), ${RUNS} runs`);

/** Compiles the CLI into the bench folder (node_modules linked beside it); undefined when that fails. */
function buildCli(): string | undefined {
  const out = join(dir, "build");
  spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(ROOT, "tsconfig.build.json"), "--outDir", out], { cwd: ROOT, stdio: "ignore" });
  if (!existsSync(join(dir, "node_modules"))) symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  const main = join(out, "cli/main.js");
  return existsSync(main) ? main : undefined;
}
const builtCli = buildCli();
if (!builtCli) console.log("  (could not compile the CLI: the compiled cached rerun is skipped)");

function timeProcess(args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: "ignore" });
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}`);
  return (performance.now() - t0) / 1000;
}

const rows: { bare: number; bareCpu: number; rj: number; share: number; cpuPerVerdict: number; cachedWall: number; cachedCalls: number; cliCachedWall: number; builtCachedWall: number }[] = [];
for (let run = 1; run <= RUNS; run++) {
  await server.ask("reset");
  const bare = await bareClient(server.baseURL, bodies);
  rmSync(join(dir, "cache"), { recursive: true, force: true });
  await server.ask("reset");
  const fresh = await ragjudge(config);
  const sent = await server.ask("reset");
  if (sent !== calls) throw new Error(`expected ${calls} requests, the server got ${sent}`);
  const cached = await ragjudge(config);
  const cachedCalls = await server.ask("count");
  const cliCachedWall = timeProcess(["--import", "tsx", "src/cli/main.ts", "judge", "--config", config, "--no-progress"]);
  const builtCachedWall = builtCli ? timeProcess([builtCli, "judge", "--config", config, "--no-progress"]) : Number.NaN;
  const rj = calls / fresh.wall;
  const row = { bare: bare.rps, bareCpu: bare.cpuMsPerCall, rj, share: rj / bare.rps, cpuPerVerdict: fresh.cpuMs / calls, cachedWall: cached.wall, cachedCalls, cliCachedWall, builtCachedWall };
  rows.push(row);
  console.log(
    `  run ${run}: bare ${row.bare.toFixed(0)} calls/s | ragjudge ${row.rj.toFixed(0)} calls/s (${((100 * row.rj) / row.bare).toFixed(1)}% of bare) | ` +
      `CPU ${row.cpuPerVerdict.toFixed(3)} ms/verdict (bare ${row.bareCpu.toFixed(3)} ms/call) | cached rerun ${row.cachedWall.toFixed(2)} s in-process, ${row.builtCachedWall.toFixed(2)} s compiled CLI, ${row.cliCachedWall.toFixed(2)} s tsx CLI, ${row.cachedCalls} requests`,
  );
}
server.stop();
const m = (k: keyof (typeof rows)[number]) => median(rows.map((r) => r[k]));
console.log(`medians of ${RUNS} runs:`);
console.log(`  bare fetch client (ceiling):   ${m("bare").toFixed(0)} calls/s (${((100 * m("bare")) / ceiling).toFixed(1)}% of concurrency/latency = ${ceiling.toFixed(0)})`);
console.log(`  ragjudge judge:                ${m("rj").toFixed(0)} calls/s = ${(100 * m("share")).toFixed(1)}% of the bare ceiling (median of per-run shares; target >= 90%), ${((100 * m("rj")) / ceiling).toFixed(1)}% of concurrency/latency`);
console.log(`  harness CPU per verdict:       ${m("cpuPerVerdict").toFixed(3)} ms (bare client ${m("bareCpu").toFixed(3)} ms per call)`);
console.log(`  cached rerun wall time:        ${m("cachedWall").toFixed(2)} s in-process; as a fresh process ${m("builtCachedWall").toFixed(2)} s compiled, ${m("cliCachedWall").toFixed(2)} s through tsx (target < 2 s); ${Math.max(...rows.map((r) => r.cachedCalls))} requests`);
if (!process.env.BENCH_DIR) rmSync(dir, { recursive: true, force: true });
