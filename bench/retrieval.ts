/**
 * `npm run bench:retrieval`: times `ragjudge retrieval --qrels --trec-run
 * --format trec` on seeded runs of 1,000 documents per query at four sizes,
 * 100k, 1M, 10M and 30M lines (100 to 30,000 queries; the 10M run is about
 * 335 MB) and, when TREC_EVAL names a trec_eval binary, trec_eval (-q -c,
 * the same measures) on the same files in the same invocation.
 *
 * Each scorer runs in its own child process, BENCH_RUNS times, interleaved
 * (rounds alternate which goes first: AB BA AB ...) so a change in machine
 * load does not fall on one side. Every run prints wall time, user+sys CPU,
 * peak RSS and the sha256 of its stdout; then the medians, the ratios against
 * trec_eval (wall and memory with their targets, CPU for information) and
 * whether all outputs are identical. Outputs that differ (ragjudge vs
 * trec_eval, or between runs of one tool) are reported loudly with the first
 * differing line and the script exits 1. Timings are printed, never asserted.
 *
 * The data is kept in BENCH_DIR (default os.tmpdir()/ragjudge-bench) and
 * reused when its manifest, sizes and sha256 match; `--clean` (or
 * BENCH_CLEAN=1) deletes it and exits.
 *
 * Targets per size: wall at most 0.25 x trec_eval's, peak memory at most
 * trec_eval's, and 10M lines in under 2.5 s.
 *
 * Environment: TREC_EVAL, BENCH_RUNS (default 3; 5 is steadier), BENCH_DIR,
 * BENCH_CLEAN=1, BENCH_TIME (GNU time path, "proc" or "none"; default
 * /usr/bin/time when it is GNU time, else /proc), BENCH_SIZES (comma list of
 * 100k, 1M, 10M, 30M; default all), BENCH_QUERIES / BENCH_DOCS (one shape of
 * your own instead, for a quick try).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { REFERENCE_MEASURES_FULL } from "../src/retrieval/trec/reference.js";
import { cleanBenchData, DEFAULT_SHAPE, keptBytes, prepareBenchData, type BenchData, type BenchShape } from "./retrieval-data.js";
import { describeMeter, describePaired, firstDifference, median, pairedRatio, pickMeter, ratio, timeRun, type Meter, type Sample } from "./retrieval-measure.js";

const ROOT = resolve(fileURLToPath(import.meta.url), "..", "..");
/** Both tools get the full-precision reference outputs' measures, one `-m` each. */
const MEASURE_ARGS = REFERENCE_MEASURES_FULL.flatMap((m) => ["-m", m]);
const WALL_TARGET = 0.25;
const MEMORY_TARGET = 1.0;
/** The 10M-line run's wall-time target, in seconds. */
const TEN_M_SECONDS = 2.5;
/** The sizes, by run lines (1,000 documents per query). */
const SIZES: Record<string, number> = { "100k": 100, "1M": 1_000, "10M": 10_000, "30M": 30_000 };
const USAGE = "usage: npm run bench:retrieval [-- --clean]   (environment: TREC_EVAL, BENCH_RUNS, BENCH_DIR, BENCH_CLEAN=1, BENCH_TIME, BENCH_SIZES, BENCH_QUERIES, BENCH_DOCS)";

/** A tool under test: the command line and its timed runs. */
interface Tool {
  name: string;
  cmd: string;
  args: string[];
  samples: Sample[];
}

class UsageError extends Error {}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name}=${raw}: expected a whole number of at least 1`);
  return n;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;
const secs = (x: number | null) => (x === null ? "n/a" : `${x.toFixed(2)} s`);
const mib = (x: number | null) => (x === null ? "n/a" : `${x.toFixed(0)} MiB`);
const cpuOf = (s: Sample) => (s.user === null || s.sys === null ? null : s.user + s.sys);
const load = () => loadavg().map((x) => x.toFixed(2)).join(" ");
const met = (r: string, target: number) => (r === "n/a" ? "" : Number(r) <= target ? ", met" : ", NOT met");

/** The most recently modified file under `dir` (recursively): its time and path; time 0 when there is none. */
function newest(dir: string): { time: number; path: string } {
  let best = { time: 0, path: dir };
  if (!existsSync(dir)) return best;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const c = e.isDirectory() ? newest(p) : { time: statSync(p).mtimeMs, path: p };
    if (c.time > best.time) best = c;
  }
  return best;
}

/** The ragjudge command: the compiled CLI when built (warning when src/ is newer), else src/ through tsx. */
function ragjudge(qrels: string, run: string): { tool: Tool; label: string } {
  const dist = join(ROOT, "dist", "cli", "main.js");
  const args = ["retrieval", "--qrels", qrels, "--trec-run", run, "--format", "trec", ...MEASURE_ARGS];
  const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
  if (existsSync(dist)) {
    const src = newest(join(ROOT, "src"));
    const stale = src.time > newest(join(ROOT, "dist")).time ? ` (WARNING: ${relative(ROOT, src.path)} is newer than dist/; npm run build to time the current code)` : "";
    const label = `ragjudge ${version}, dist/cli/main.js on Node ${process.version}${stale}`;
    return { tool: { name: "ragjudge", cmd: process.execPath, args: [dist, ...args], samples: [] }, label };
  }
  const label = `ragjudge ${version}, src/cli/main.ts through tsx on Node ${process.version} (npm run build first to time the compiled CLI)`;
  return { tool: { name: "ragjudge", cmd: process.execPath, args: ["--import", "tsx", join(ROOT, "src", "cli", "main.ts"), ...args], samples: [] }, label };
}

/** trec_eval's `-v` line (it prints it on stderr), or a UsageError when the binary cannot be run. */
function peerVersion(peer: string): string {
  const r = spawnSync(peer, ["-v"], { encoding: "utf8" });
  if (r.error) throw new UsageError(`TREC_EVAL=${peer}: cannot run it (${r.error.message})`);
  const line = `${r.stdout ?? ""}\n${r.stderr ?? ""}`.split("\n").map((l) => l.trim()).find((l) => l !== "");
  return line ?? `no version printed by ${peer} -v (exit ${r.status})`;
}

function printRun(round: number, t: Tool, s: Sample): void {
  const cpu = cpuOf(s);
  const cpuText = cpu === null ? "cpu n/a" : `cpu ${secs(cpu)} (user ${s.user!.toFixed(2)} + sys ${s.sys!.toFixed(2)})`;
  console.log(`  round ${round} ${t.name.padEnd(9)} ${secs(s.wall)} wall, ${cpuText}, peak ${mib(s.rssMiB)}, stdout ${(s.stdoutBytes / 1e6).toFixed(1)} MB sha256 ${s.sha256.slice(0, 16)}`);
}

function printMedians(t: Tool): { wall: number; cpu: number | null; rss: number | null } {
  const wall = median(t.samples.map((s) => s.wall))!;
  const cpu = median(t.samples.map(cpuOf));
  const rss = median(t.samples.map((s) => s.rssMiB));
  const share = cpu === null ? "" : ` (${(cpu / wall).toFixed(2)} cores busy on average)`;
  console.log(`${t.name} median: ${secs(wall)} wall, ${secs(cpu)} cpu${share}, ${mib(rss)} peak RSS`);
  return { wall, cpu, rss };
}

/** Compares every run's stdout with the first run of its own tool and ragjudge's with trec_eval's; prints the verdict and returns whether all agree. */
function checkOutputs(tools: Tool[]): boolean {
  const problems: string[] = [];
  const show = (label: string, a: Sample, b: Sample, an: string, bn: string) => {
    const d = firstDifference(a.stdout, b.stdout);
    problems.push(`${label}: sha256 ${a.sha256.slice(0, 16)} vs ${b.sha256.slice(0, 16)}`);
    if (d) problems.push(`  first difference at line ${d.line}:`, `    ${an.padEnd(12)} ${JSON.stringify(d.a)}`, `    ${bn.padEnd(12)} ${JSON.stringify(d.b)}`);
  };
  for (const t of tools) {
    const ref = t.samples[0]!;
    t.samples.forEach((s, i) => {
      if (s.sha256 !== ref.sha256) show(`${t.name} run ${i + 1} differs from its run 1`, s, ref, `run ${i + 1}`, "run 1");
    });
  }
  const [ours, peer] = tools;
  if (peer && ours!.samples[0]!.sha256 !== peer.samples[0]!.sha256) show("ragjudge's output is not trec_eval's", ours!.samples[0]!, peer.samples[0]!, "ragjudge", "trec_eval");
  if (problems.length === 0) {
    const lines = ours!.samples[0]!.stdout.toString("latin1").split("\n").length - 1;
    const who = tools.map((t) => `${t.samples.length} ${t.name}`).join(" and ");
    const n = tools.reduce((sum, t) => sum + t.samples.length, 0);
    console.log(`outputs: IDENTICAL: ${n === 1 ? `the ${who} run` : `all ${who} runs`} printed the same ${lines.toLocaleString("en")} lines (sha256 ${ours!.samples[0]!.sha256})${peer ? "" : "; no peer to compare with"}`);
    return true;
  }
  const bar = "!".repeat(78);
  console.log(bar);
  console.log("!!! OUTPUTS DIFFER: the timings above compare results that are not the same.");
  for (const p of problems) console.log(`!!! ${p}`);
  console.log(bar);
  return false;
}

function printData(data: BenchData): void {
  const how = data.status === "reused" ? `reused (${data.reason}, ${data.seconds.toFixed(1)} s)` : `generated in ${data.seconds.toFixed(1)} s (${data.reason})`;
  console.log(`data: ${data.dir}, ${how}`);
  console.log(`  run   ${data.run.path} (${mb(data.run.bytes)}, ${data.run.lines.toLocaleString("en")} lines)`);
  console.log(`  qrels ${data.qrels.path} (${mb(data.qrels.bytes)}, ${data.qrels.lines.toLocaleString("en")} lines)`);
  console.log(`  kept for the next run (${mb(keptBytes(data.dir))} in ${data.dir}); delete with: npm run bench:retrieval -- --clean`);
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const unknown = argv.filter((a) => a !== "--clean");
  if (unknown.length) throw new UsageError(`unknown argument ${unknown[0]}\n${USAGE}`);
  const dir = process.env.BENCH_DIR || join(tmpdir(), "ragjudge-bench");
  if (argv.includes("--clean") || process.env.BENCH_CLEAN === "1") {
    const { files, bytes } = cleanBenchData(dir);
    console.log(files ? `removed ${files} benchmark file(s), ${mb(bytes)}, from ${dir}` : `no benchmark data in ${dir}`);
    return 0;
  }
  const runs = positiveInt("BENCH_RUNS", 3);
  const custom = process.env.BENCH_QUERIES || process.env.BENCH_DOCS;
  const shapes: { name: string; shape: BenchShape }[] = [];
  if (custom) {
    const shape = { ...DEFAULT_SHAPE, queries: positiveInt("BENCH_QUERIES", DEFAULT_SHAPE.queries), docsPerQuery: positiveInt("BENCH_DOCS", DEFAULT_SHAPE.docsPerQuery) };
    if (shape.docsPerQuery > shape.collection) throw new UsageError(`BENCH_DOCS=${shape.docsPerQuery}: at most the collection size, ${shape.collection}`);
    shapes.push({ name: `${shape.queries}x${shape.docsPerQuery}`, shape });
  } else {
    const wanted = (process.env.BENCH_SIZES ?? Object.keys(SIZES).join(",")).split(",").map((x) => x.trim()).filter(Boolean);
    for (const w of wanted) {
      const key = Object.keys(SIZES).find((k) => k.toLowerCase() === w.toLowerCase());
      if (!key) throw new UsageError(`BENCH_SIZES: unknown size ${JSON.stringify(w)} (have ${Object.keys(SIZES).join(", ")})`);
      shapes.push({ name: key, shape: { ...DEFAULT_SHAPE, queries: SIZES[key]! } });
    }
  }
  const peerPath = process.env.TREC_EVAL || undefined;
  const meter: Meter = (() => {
    try {
      return pickMeter(process.env.BENCH_TIME || undefined);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  })();

  const peerLabel = peerPath ? `${peerPath} (${peerVersion(peerPath)})` : undefined;
  const loadBefore = load();
  console.log(`ragjudge retrieval benchmark: sizes ${shapes.map((x) => x.name).join(", ")} (${DEFAULT_SHAPE.docsPerQuery.toLocaleString("en")} docs per query unless BENCH_DOCS), seed ${DEFAULT_SHAPE.seed}, ${runs} run(s) of each tool per size${peerPath ? ", interleaved (rounds alternate the order: AB BA AB ...)" : ""}`);
  const cpu = cpus();
  console.log(`machine: ${cpu.length} x ${cpu[0]?.model.trim() ?? "unknown CPU"}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM; load average before ${loadBefore} (1/5/15 min)`);
  if (loadavg()[0]! > Math.max(1.5, cpu.length * 0.75)) console.log(`  note: the machine is busy (load ${loadavg()[0]!.toFixed(2)} on ${cpu.length} cores); figures may be noisy`);
  if (process.env.BENCH_KEEP) console.log("  note: BENCH_KEEP is no longer needed: the data is kept by default (--clean deletes it)");
  console.log(`meter: ${describeMeter(meter)}`);
  if (peerLabel) console.log(`trec_eval: ${peerLabel}`);
  else console.log("trec_eval: no peer (set TREC_EVAL=/path/to/trec_eval to time it on the same files)");

  const table: string[] = [];
  let allAgree = true;
  for (const { name, shape } of shapes) {
    console.log(`\n== ${name}: ${shape.queries.toLocaleString("en")} queries x ${shape.docsPerQuery.toLocaleString("en")} docs`);
    const data = prepareBenchData(dir, shape);
    printData(data);
    const { tool: ours, label } = ragjudge(data.qrels.path, data.run.path);
    console.log(`ragjudge: ${label}`);
    const tools: Tool[] = [ours];
    if (peerLabel) tools.push({ name: "trec_eval", cmd: peerPath!, args: ["-c", "-q", ...MEASURE_ARGS, data.qrels.path, data.run.path], samples: [] });

    for (let round = 1; round <= runs; round++) {
      const order = round % 2 === 1 ? tools : [...tools].reverse();
      for (const t of order) {
        const s = await timeRun(meter, t.cmd, t.args);
        if (t.samples.length > 0 && s.sha256 === t.samples[0]!.sha256) s.stdout = Buffer.alloc(0); // keep only what a diff needs
        t.samples.push(s);
        printRun(round, t, s);
      }
    }

    const m = tools.map(printMedians);
    const a = m[0]!;
    let row = `${name.padEnd(5)} ragjudge ${secs(a.wall)}, ${mib(a.rss)}`;
    if (tools.length === 2) {
      const b = m[1]!;
      const wallR = ratio(a.wall, b.wall);
      const memR = ratio(a.rss, b.rss);
      console.log(`ratio ragjudge / trec_eval: wall ${wallR} (target <= ${WALL_TARGET.toFixed(2)}${met(wallR, WALL_TARGET)}), memory ${memR} (target <= ${MEMORY_TARGET.toFixed(2)}${met(memR, MEMORY_TARGET)})`);
      console.log(`cpu ratio ragjudge / trec_eval: ${ratio(a.cpu, b.cpu)} (user+sys; no target, for information: ragjudge may use more than one core)`);
      console.log(`wall ratio paired by round: ${describePaired(pairedRatio(tools[0]!.samples.map((s) => s.wall), tools[1]!.samples.map((s) => s.wall)))}`);
      row += `; trec_eval ${secs(b.wall)}, ${mib(b.rss)}; wall ${wallR}${met(wallR, WALL_TARGET)}, memory ${memR}${met(memR, MEMORY_TARGET)}`;
    }
    if (name === "10M") {
      const verdict = a.wall < TEN_M_SECONDS ? "met" : "NOT met";
      console.log(`10M lines: ${secs(a.wall)} wall (target < ${TEN_M_SECONDS} s, ${verdict}; ${a.cpu === null ? "" : `${(a.cpu / a.wall).toFixed(2)} cores busy`})`);
      row += `; 10M < ${TEN_M_SECONDS} s ${verdict}`;
    }
    const agree = checkOutputs(tools);
    allAgree &&= agree;
    table.push(`${row}; outputs ${agree ? "identical" : "DIFFER"}`);
  }
  console.log(`\nsummary (medians of ${runs}):`);
  for (const r of table) console.log(`  ${r}`);
  console.log(`load average after ${load()} (before ${loadBefore})`);
  return allAgree ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError) {
      console.error(`bench:retrieval: ${e.message}`);
      process.exit(2);
    }
    console.error(`bench:retrieval: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
