/**
 * `npm run bench:golden`: golden-set mode at scale. Times `ragjudge retrieval
 * --golden G --chunks C --output O --format json` (the compiled CLI, dist/)
 * on seeded data (golden-data.ts) in child processes, BENCH_RUNS times each,
 * interleaved with the same command of another build when BENCH_OLD names
 * its cli/main.js (rounds alternate which goes first), and checks that every
 * run printed the same JSON (sha256), across runs and against BENCH_OLD.
 *
 * Cases (500,000 chunks in 50,000 documents unless said):
 *   small   100 questions                       target < 2 s
 *   large   50,000 questions x 100 retrieved    target < 8 s and < 1 GiB peak
 *   mid     10,000 questions                    (slope: cost per question)
 *   chunks  100 questions over 100,000 chunks   (slope: cost per chunk)
 *   two     10,000 questions x 2 variants over 100,000 chunks, from a
 *           config (ragjudge retrieval --config): the second variant's
 *           output loads while the first is worked on
 * The slopes between mid and large and between chunks and small give the
 * cost per question and per chunk; nothing is asserted.
 *
 * Environment: BENCH_RUNS (default 5), BENCH_OLD, BENCH_CASES (comma list,
 * default all), BENCH_DIR (default os.tmpdir()/ragjudge-bench-golden),
 * BENCH_TIME (as bench:retrieval).
 */
import { existsSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { prepareGoldenData, type GoldenShape } from "./golden-data.js";
import { describeMeter, describePaired, firstDifference, median, pairedRatio, pickMeter, ratio, timeRun, type Sample } from "./retrieval-measure.js";

const ROOT = resolve(fileURLToPath(import.meta.url), "..", "..");

interface Case {
  name: string;
  shape: GoldenShape;
  /** Variants scored from one config (default 1: explicit --golden --chunks --output). */
  variants?: number;
  targetSeconds?: number;
  targetMiB?: number;
}

const BASE = { chunksPerDoc: 10, retrieved: 100, seed: 20261201 };
const CASES: Case[] = [
  { name: "small", shape: { ...BASE, docs: 50_000, questions: 100 }, targetSeconds: 2 },
  { name: "large", shape: { ...BASE, docs: 50_000, questions: 50_000 }, targetSeconds: 8, targetMiB: 1024 },
  { name: "mid", shape: { ...BASE, docs: 50_000, questions: 10_000 } },
  { name: "chunks", shape: { ...BASE, docs: 10_000, questions: 100 } },
  { name: "two", shape: { ...BASE, docs: 10_000, questions: 10_000 }, variants: 2 },
];

/** The arguments of one case: explicit files, or a config naming each variant's output over the same golden set and chunks. */
function caseArgs(c: Case, dir: string): { args: string[]; bytes: { golden: number; chunks: number; output: number }; generated: boolean } {
  const files = Array.from({ length: c.variants ?? 1 }, (_, variant) => prepareGoldenData(dir, { ...c.shape, variant }));
  const [first] = files;
  const bytes = { ...first!.bytes, output: files.reduce((n, f) => n + f.bytes.output, 0) };
  const generated = files.some((f) => f.generated);
  if (files.length === 1) return { args: ["retrieval", "--golden", first!.golden, "--chunks", first!.chunks, "--output", first!.output, "--format", "json"], bytes, generated };
  const config = join(dir, `${c.name}.config.json`);
  const variants = files.map((f, i) => ({ name: `v${i}`, output: f.output, chunks: f.chunks }));
  writeFileSync(config, JSON.stringify({ name: `bench-${c.name}`, golden: first!.golden, variants }, null, 2) + "\n");
  return { args: ["retrieval", "--config", config, "--format", "json"], bytes, generated };
}

const secs = (x: number) => `${x.toFixed(2)} s`;
const mib = (x: number | null) => (x === null ? "n/a" : `${x.toFixed(0)} MiB`);
const load = () => loadavg().map((x) => x.toFixed(2)).join(" ");

interface Tool {
  name: string;
  cli: string;
  samples: Sample[];
}

async function runCase(c: Case, dir: string, tools: Tool[], runs: number, meter: ReturnType<typeof pickMeter>): Promise<{ wall: number; cpu: number | null; rss: number | null; agree: boolean }> {
  const t0 = performance.now();
  const { args, bytes, generated } = caseArgs(c, dir);
  const mb = (b: number) => `${(b / 1e6).toFixed(0)} MB`;
  console.log(`\n== ${c.name}: ${c.shape.questions.toLocaleString("en")} questions x ${c.shape.retrieved} retrieved${c.variants ? ` x ${c.variants} variants` : ""}, ${(c.shape.docs * c.shape.chunksPerDoc).toLocaleString("en")} chunks (golden ${mb(bytes.golden)}, chunks ${mb(bytes.chunks)}, output ${mb(bytes.output)}; ${generated ? `generated in ${((performance.now() - t0) / 1000).toFixed(1)} s` : "reused"})`);
  for (const t of tools) t.samples = [];
  for (let round = 1; round <= runs; round++) {
    for (const t of round % 2 === 1 ? tools : [...tools].reverse()) {
      const s = await timeRun(meter, process.execPath, [t.cli, ...args]);
      if (t.samples.length > 0 && s.sha256 === t.samples[0]!.sha256) s.stdout = Buffer.alloc(0);
      t.samples.push(s);
      console.log(`  round ${round} ${t.name.padEnd(8)} ${secs(s.wall)} wall, cpu ${s.user === null ? "n/a" : secs(s.user + s.sys!)}, peak ${mib(s.rssMiB)}, stdout ${(s.stdoutBytes / 1e6).toFixed(1)} MB sha256 ${s.sha256.slice(0, 16)}`);
    }
  }
  let agree = true;
  for (const t of tools) {
    if (t.samples.some((s) => s.sha256 !== t.samples[0]!.sha256)) {
      agree = false;
      console.log(`  !!! ${t.name}: runs printed different output`);
    }
  }
  if (tools.length === 2 && tools[0]!.samples[0]!.sha256 !== tools[1]!.samples[0]!.sha256) {
    agree = false;
    const d = firstDifference(tools[0]!.samples[0]!.stdout, tools[1]!.samples[0]!.stdout);
    console.log(`  !!! OUTPUTS DIFFER from ${tools[1]!.name}${d ? ` at line ${d.line}: ${JSON.stringify(d.a).slice(0, 200)} vs ${JSON.stringify(d.b).slice(0, 200)}` : ""}`);
  }
  const cpuOf = (s: Sample) => (s.user === null || s.sys === null ? null : s.user + s.sys);
  const med = tools.map((t) => ({ t, wall: median(t.samples.map((s) => s.wall))!, cpu: median(t.samples.map(cpuOf)), rss: median(t.samples.map((s) => s.rssMiB)) }));
  for (const m of med) console.log(`  ${m.t.name} median: ${secs(m.wall)} wall, ${m.cpu === null ? "cpu n/a" : `${secs(m.cpu)} cpu`}, ${mib(m.rss)} peak`);
  const ours = med[0]!;
  if (med[1]) {
    const other = med[1];
    console.log(`  ratio ${ours.t.name} / ${other.t.name}: wall ${ratio(ours.wall, other.wall)}, cpu ${ratio(ours.cpu, other.cpu)}, memory ${ratio(ours.rss, other.rss)}`);
    const paired = (f: (s: Sample) => number | null) => describePaired(pairedRatio(ours.t.samples.map(f), other.t.samples.map(f)));
    console.log(`  paired by round: wall ${paired((s) => s.wall)}, cpu ${paired(cpuOf)}`);
  }
  if (c.targetSeconds !== undefined) console.log(`  target: < ${c.targetSeconds} s wall${c.targetMiB ? ` and < ${c.targetMiB} MiB` : ""}: ${ours.wall < c.targetSeconds && (c.targetMiB === undefined || (ours.rss ?? Infinity) < c.targetMiB) ? "met" : "NOT met"}`);
  console.log(agree ? `  outputs: IDENTICAL${tools.length === 2 ? ` (${tools[0]!.name} and ${tools[1]!.name})` : ""}, sha256 ${ours.t.samples[0]!.sha256.slice(0, 16)}` : "  outputs: DIFFER (see above)");
  return { wall: ours.wall, cpu: ours.cpu, rss: ours.rss, agree };
}

async function main(): Promise<number> {
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  const dir = process.env.BENCH_DIR || join(tmpdir(), "ragjudge-bench-golden");
  const wanted = (process.env.BENCH_CASES ?? CASES.map((c) => c.name).join(",")).split(",").map((s) => s.trim());
  const unknown = wanted.filter((w) => !CASES.some((c) => c.name === w));
  if (unknown.length) throw new Error(`BENCH_CASES: unknown case ${unknown.join(", ")} (have ${CASES.map((c) => c.name).join(", ")})`);
  const cli = join(ROOT, "dist", "cli", "main.js");
  if (!existsSync(cli)) throw new Error("no dist/cli/main.js: npm run build first");
  const tools: Tool[] = [{ name: "ragjudge", cli, samples: [] }];
  if (process.env.BENCH_OLD) tools.push({ name: "old", cli: resolve(process.env.BENCH_OLD), samples: [] });
  const meter = pickMeter(process.env.BENCH_TIME || undefined);
  console.log(`ragjudge golden-set benchmark: ${runs} run(s) per tool and case${tools.length > 1 ? `, interleaved with ${tools[1]!.cli}` : ""}`);
  console.log(`machine: ${cpus().length} x ${cpus()[0]?.model.trim() ?? "CPU"}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB; load average before ${load()}`);
  console.log(`meter: ${describeMeter(meter)}`);
  const results = new Map<string, { wall: number; cpu: number | null; rss: number | null; agree: boolean }>();
  for (const c of CASES.filter((x) => wanted.includes(x.name))) {
    // the slope cases have no target: the old build is timed on the target and two-variant cases only (it takes minutes)
    const withOld = c.targetSeconds !== undefined || c.variants ? tools : tools.slice(0, 1);
    results.set(c.name, await runCase(c, dir, withOld, runs, meter));
  }
  const r = (n: string) => results.get(n);
  const slope = (a: string, b: string, n: number, what: string) => {
    const x = r(a)!;
    const y = r(b)!;
    const cpu = x.cpu !== null && y.cpu !== null ? `, ${(((x.cpu - y.cpu) / n) * 1e6).toFixed(1)} us cpu` : "";
    console.log(`cost per ${what} (${a} - ${b}): ${(((x.wall - y.wall) / n) * 1e6).toFixed(1)} us wall${cpu}`);
  };
  if (r("large") && r("mid")) slope("large", "mid", 50_000 - 10_000, "question (100 retrieved each)");
  if (r("small") && r("chunks")) slope("small", "chunks", 500_000 - 100_000, "chunk");
  console.log(`load average after ${load()}`);
  return [...results.values()].every((x) => x.agree) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`bench:golden: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  },
);
