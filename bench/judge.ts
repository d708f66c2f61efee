/**
 * `npm run bench:judge`: the judge harness against a bare client, in one
 * invocation, on the local OpenAI-compatible test server (its own process,
 * BENCH_LATENCY_MS per request).
 *
 * Each run, interleaved, on the same server and data (BENCH_QUESTIONS x 4
 * rubrics calls at BENCH_CONCURRENCY), every side in its own process
 * (bench/judge-child.mjs) so its CPU time and peak memory are its own:
 *   1. a bare client: plain fetch of the same request bodies (read into memory
 *      first) at the same concurrency: the machine's practical ceiling;
 *   2. `ragjudge judge` (the CLI built into the bench folder as npm run build does, fresh cache):
 *      its rate as a share of the bare client's, its CPU per verdict against
 *      the bare client's CPU per call (the whole command: loading, judging,
 *      writing, summary), and both peak RSS;
 *   3. the cached rerun as a fresh process (must make zero requests).
 * With BENCH_LOAD=1 (the default) one busy-loop process runs through all of
 * it, so the figures hold on a shared machine: the ratios against the bare
 * client in the same invocation are what count. Medians of BENCH_RUNS runs
 * (default 3) are printed; nothing is asserted.
 *
 * The targets (issue 19): rate >= 90% of bare, CPU per verdict <= 1.2x the
 * bare client's per call, flat memory at 80,000 calls (BENCH_QUESTIONS=20000
 * BENCH_CONCURRENCY=128 BENCH_LATENCY_MS=200), a cached rerun of 8,000
 * verdicts under 1 s and of 80,000 under 3 s.
 *
 * Environment: BENCH_RUNS, BENCH_QUESTIONS (default 2000), BENCH_CONCURRENCY
 * (32), BENCH_LATENCY_MS (50), BENCH_LOAD (busy-loop processes, default 1),
 * BENCH_DIR (default a temp folder, removed at the end), BENCH_PROFILE (a
 * folder: the first ragjudge run writes a --cpu-prof profile there),
 * BENCH_OLD (another build's cli/program.js, e.g. main's compiled with
 * `tsc -p tsconfig.build.json --outDir /tmp/old`: run too in every run, fresh
 * and cached, for before/after figures in the same invocation).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { median } from "simple-statistics";
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
const LOAD = Number(process.env.BENCH_LOAD ?? 1);

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
  /** Resets the count, returning it with the arrival times (ms) of the first and last request since the last reset. */
  const span = async () => {
    const p = next();
    child.stdin!.write("reset\n");
    return JSON.parse(await p) as { count: number; first?: number; last?: number };
  };
  return { baseURL, ask, span, stop: () => child.kill("SIGTERM") };
}

interface Measured {
  wall: number;
  cpuMs: number;
  maxRssKiB: number;
  code: number;
}

/** Runs bench/judge-child.mjs with `args` (node flags first), returning its measurement line. */
function child(nodeFlags: string[], args: string[]): Promise<Measured> {
  return new Promise((resolvePromise, reject) => {
    const c = spawn(process.execPath, [...nodeFlags, join(ROOT, "bench/judge-child.mjs"), ...args], { cwd: dir, stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, OPENAI_API_KEY: "x" } });
    let out = "";
    c.stdout.on("data", (d) => (out += String(d)));
    c.on("error", reject);
    c.on("exit", (code) => {
      try {
        const m = JSON.parse(out.trim().split("\n").pop() ?? "") as Measured;
        if (m.code !== 0) reject(new Error(`${args.join(" ")} exited ${m.code}`));
        else resolvePromise(m);
      } catch {
        reject(new Error(`${args.join(" ")} exited ${code} without a measurement: ${out}`));
      }
    });
  });
}

/** One busy-loop process per BENCH_LOAD: the competing CPU load. */
function startLoad(n: number): ChildProcess[] {
  return Array.from({ length: n }, () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
}

const server = await startServer();
const dir = process.env.BENCH_DIR ?? mkdtempSync(join(tmpdir(), "ragjudge-bench-judge-"));
const config = writeJudgeBenchData(dir, { questions: QUESTIONS, chunksPerQuestion: 3 }, server.baseURL, CONCURRENCY);
const resolved = loadConfig(config);
const inputs = loadJudgeInputs(resolved);
const backend = openAIBackend({ client: new JudgeClient({ baseURL: server.baseURL, apiKey: "x", timeoutMs: 60_000 }), baseURL: server.baseURL, settings: { model: "bench-model", temperature: 0, seed: 0, maxTokens: 512, responseMode: "json_schema" } });
const bodiesFile = join(dir, "bodies.jsonl");
writeFileSync(bodiesFile, inputs.itemSet.items.filter((i) => !i.rule).map((i) => JSON.stringify(backend.request(i.rubric, i.evidence)) + "\n").join(""));
const calls = inputs.itemSet.items.filter((i) => !i.rule).length;
const ceiling = CONCURRENCY / (LATENCY / 1000);

/** Builds the CLI into the bench folder as `npm run build` does, tsc then the bundle (node_modules linked beside it). */
function buildCli(): string {
  const out = join(dir, "build");
  spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(ROOT, "tsconfig.build.json"), "--outDir", out], { cwd: ROOT, stdio: "ignore" });
  // the bundler resolves the packages from the build's folder up: node_modules must be linked first
  if (!existsSync(join(dir, "node_modules"))) symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  const program = join(out, "cli/program.js");
  if (!existsSync(program)) throw new Error("could not compile the CLI (tsc -p tsconfig.build.json)");
  const bundled = spawnSync(process.execPath, [join(ROOT, "scripts/bundle-cli.mjs"), out], { cwd: ROOT, stdio: "inherit" });
  if (bundled.status !== 0) throw new Error("could not bundle the CLI (scripts/bundle-cli.mjs)");
  return program;
}
const program = buildCli();
const judgeArgs = [program, "judge", "--config", config, "--no-progress"];
const old = process.env.BENCH_OLD ? resolve(process.env.BENCH_OLD) : undefined;
const oldArgs = old ? [old, ...judgeArgs.slice(1)] : undefined;
const load = startLoad(LOAD);
console.log(
  `bench:judge: ${QUESTIONS} questions x 4 rubrics = ${calls} calls, concurrency ${CONCURRENCY}, server latency ${LATENCY} ms (limit ${ceiling.toFixed(0)} calls/s), ${RUNS} runs, ${LOAD} busy-loop process${LOAD === 1 ? "" : "es"} competing; ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`,
);

const mib = (kib: number) => kib / 1024;
const oldRows: { rate: number; share: number; cpuPerVerdict: number; rss: number; cachedWall: number; cachedCpu: number }[] = [];
const rows: { bare: number; bareCpu: number; bareRss: number; rj: number; share: number; callsShare: number; cpuPerVerdict: number; cpuRatio: number; rjRss: number; cachedWall: number; cachedCpu: number; cachedRss: number; cachedCalls: number }[] = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    // Alternate which side goes first, so a change in machine load falls on both.
    const sides = run % 2 === 1 ? (["bare", "ragjudge"] as const) : (["ragjudge", "bare"] as const);
    let bare: Measured | undefined;
    let fresh: Measured | undefined;
    /** Calls per second of each side's calls phase alone: first request to last reply, as the server saw them. */
    const phase: Record<string, number> = {};
    for (const side of sides) {
      await server.ask("reset");
      if (side === "bare") bare = await child([], ["bare", server.baseURL, bodiesFile, String(CONCURRENCY)]);
      else {
        rmSync(join(dir, "cache"), { recursive: true, force: true });
        const prof = run === 1 && process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${resolve(process.env.BENCH_PROFILE)}`] : [];
        fresh = await child(prof, ["cli", ...judgeArgs]);
      }
      const { count: sent, first, last } = await server.span();
      if (sent !== calls) throw new Error(`${side}: expected ${calls} requests, the server got ${sent}`);
      phase[side] = calls / ((last! - first! + LATENCY) / 1000);
    }
    const cached = await child([], ["cli", ...judgeArgs]);
    const cachedCalls = await server.ask("reset");
    if (oldArgs) {
      rmSync(join(dir, "cache"), { recursive: true, force: true });
      const o = await child([], ["cli", ...oldArgs]);
      const sent = await server.ask("reset");
      if (sent !== calls) throw new Error(`old: expected ${calls} requests, the server got ${sent}`);
      const oc = await child([], ["cli", ...oldArgs]);
      oldRows.push({ rate: calls / o.wall, share: bare!.wall / o.wall, cpuPerVerdict: o.cpuMs / calls, rss: mib(o.maxRssKiB), cachedWall: oc.wall, cachedCpu: oc.cpuMs / 1000 });
      const r = oldRows.at(-1)!;
      console.log(`         old build: ${r.rate.toFixed(0)} calls/s (${(100 * r.share).toFixed(1)}% of bare), ${r.cpuPerVerdict.toFixed(3)} ms CPU/verdict, ${r.rss.toFixed(0)} MiB | cached rerun ${r.cachedWall.toFixed(2)} s (${r.cachedCpu.toFixed(2)} s CPU)`);
    }
    const b = bare!;
    const f = fresh!;
    const row = {
      bare: calls / b.wall,
      bareCpu: b.cpuMs / calls,
      bareRss: mib(b.maxRssKiB),
      rj: calls / f.wall,
      share: b.wall / f.wall,
      callsShare: phase.ragjudge! / phase.bare!,
      cpuPerVerdict: f.cpuMs / calls,
      cpuRatio: f.cpuMs / b.cpuMs,
      rjRss: mib(f.maxRssKiB),
      cachedWall: cached.wall,
      cachedCpu: cached.cpuMs / 1000,
      cachedRss: mib(cached.maxRssKiB),
      cachedCalls,
    };
    rows.push(row);
    console.log(
      `  run ${run}: bare ${row.bare.toFixed(0)} calls/s, ${row.bareCpu.toFixed(3)} ms CPU/call, ${row.bareRss.toFixed(0)} MiB | ragjudge ${row.rj.toFixed(0)} calls/s (${(100 * row.share).toFixed(1)}% of bare; calls phase ${(100 * row.callsShare).toFixed(1)}%), ` +
        `${row.cpuPerVerdict.toFixed(3)} ms CPU/verdict (${row.cpuRatio.toFixed(2)}x bare), ${row.rjRss.toFixed(0)} MiB | cached rerun ${row.cachedWall.toFixed(2)} s (${row.cachedCpu.toFixed(2)} s CPU), ${row.cachedRss.toFixed(0)} MiB, ${row.cachedCalls} requests`,
    );
  }
} finally {
  for (const l of load) l.kill("SIGKILL");
  server.stop();
}
const m = (k: keyof (typeof rows)[number]) => median(rows.map((r) => r[k]));
console.log(`medians of ${RUNS} runs (${LOAD} busy-loop process${LOAD === 1 ? "" : "es"} competing):`);
console.log(`  bare fetch client (ceiling):   ${m("bare").toFixed(0)} calls/s (${((100 * m("bare")) / ceiling).toFixed(1)}% of concurrency/latency = ${ceiling.toFixed(0)}), ${m("bareCpu").toFixed(3)} ms CPU per call, peak RSS ${m("bareRss").toFixed(0)} MiB`);
console.log(`  ragjudge judge:                ${m("rj").toFixed(0)} calls/s = ${(100 * m("share")).toFixed(1)}% of the bare client (median of per-run shares; target >= 90%); the calls phase alone (first request to last reply, as the server saw them): ${(100 * m("callsShare")).toFixed(1)}% of the bare client's`);
console.log(`  CPU per verdict:               ${m("cpuPerVerdict").toFixed(3)} ms = ${m("cpuRatio").toFixed(2)}x the bare client's per call (median of per-run ratios; target <= 1.2x; the whole command: loading, judging, writing, summary)`);
console.log(`  peak RSS:                      ragjudge ${m("rjRss").toFixed(0)} MiB, bare ${m("bareRss").toFixed(0)} MiB (${(m("rjRss") / m("bareRss")).toFixed(2)}x)`);
console.log(`  cached rerun (fresh process):  ${m("cachedWall").toFixed(2)} s wall, ${m("cachedCpu").toFixed(2)} s CPU, ${m("cachedRss").toFixed(0)} MiB, ${Math.max(...rows.map((r) => r.cachedCalls))} requests (target: 8,000 verdicts < 1 s, 80,000 < 3 s)`);
if (oldRows.length) {
  const o = (k: keyof (typeof oldRows)[number]) => median(oldRows.map((r) => r[k]));
  console.log(`  old build (BENCH_OLD):         ${o("rate").toFixed(0)} calls/s = ${(100 * o("share")).toFixed(1)}% of bare, ${o("cpuPerVerdict").toFixed(3)} ms CPU per verdict (${(o("cpuPerVerdict") / m("bareCpu")).toFixed(2)}x bare), ${o("rss").toFixed(0)} MiB, cached rerun ${o("cachedWall").toFixed(2)} s wall, ${o("cachedCpu").toFixed(2)} s CPU`);
}
if (!process.env.BENCH_DIR) rmSync(dir, { recursive: true, force: true });
