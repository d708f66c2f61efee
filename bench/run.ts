/**
 * `npm run bench:run`: `ragjudge run` on a 10,000-question, two-variant
 * evaluation with the offline baseline judge (data: golden-data.ts, 100,000
 * chunks, 100 retrieved per question), stage by stage. Each run is a fresh
 * child process calling runEvaluation (the library behind `ragjudge run`)
 * with its onStage hook; per stage it reports the wall time, the CPU time
 * (user + system, every thread of the process: on a machine shared with other
 * jobs, a steadier figure than the wall time), the process's peak RSS so far
 * and the heap in use when the stage ends. Medians of
 * BENCH_RUNS runs (default 3); nothing is asserted.
 *
 * With BENCH_OLD (another build's cli/main.js) each run also runs that
 * build's runEvaluation (its report/evaluation.js) in the same way,
 * interleaved with this one (then this build's compiled dist/, so both sides
 * are compiled code: run `npm run build` first), and the stage medians of
 * both and their ratios are printed; then the whole `ragjudge run` command of both builds is timed,
 * interleaved, as a check on the sum.
 *
 * Environment: BENCH_RUNS, BENCH_QUESTIONS (default 10000), BENCH_DIR
 * (default os.tmpdir()/ragjudge-bench-run), BENCH_OLD.
 */
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { prepareRunData as prepare } from "./run-data.js";
import { describePaired, median, pairedRatio } from "./retrieval-measure.js";

const ROOT = resolve(fileURLToPath(import.meta.url), "..", "..");
const STAGES = ["validate", "load", "judge", "score", "diagnose", "calibrate", "join", "write"] as const;

interface StageFigure {
  stage: string;
  ms: number;
  /** User + system CPU of the whole process (all threads) during the stage. */
  cpuMs: number;
  peakMiB: number;
  heapMiB: number;
}

/** One run in this process (the child's side): prints the stage figures as JSON. */
async function child(config: string, evaluations: string, build?: string): Promise<void> {
  const { runEvaluation } = (build ? await import(pathToFileURL(build).href) : await import("../src/report/evaluation.js")) as typeof import("../src/report/evaluation.js");
  const figures: StageFigure[] = [];
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let cpu = cpu0;
  const cpuMs = (from: NodeJS.CpuUsage) => {
    const d = process.cpuUsage(from);
    return (d.user + d.system) / 1000;
  };
  const r = await runEvaluation({
    config,
    evaluationsDir: evaluations,
    onStage: (stage, ms) => {
      figures.push({ stage, ms, cpuMs: cpuMs(cpu), peakMiB: process.resourceUsage().maxRSS / 1024, heapMiB: process.memoryUsage().heapUsed / 2 ** 20 });
      cpu = process.cpuUsage();
    },
  });
  const totalCpuMs = cpuMs(cpu0);
  rmSync(r.folder, { recursive: true, force: true });
  process.stdout.write(JSON.stringify({ figures, totalMs: performance.now() - t0, totalCpuMs, peakMiB: process.resourceUsage().maxRSS / 1024 }) + "\n");
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv[0] === "--child") {
    await child(argv[1]!, argv[2]!, argv[3]);
    return 0;
  }
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const questions = Number(process.env.BENCH_QUESTIONS ?? 10_000);
  const dir = process.env.BENCH_DIR || join(tmpdir(), "ragjudge-bench-run");
  const load = () => loadavg().map((x) => x.toFixed(2)).join(" ");
  console.log(`ragjudge run benchmark: ${questions.toLocaleString("en")} questions x 2 variants, baseline judge, ${runs} run(s); ${cpus().length} x ${cpus()[0]?.model.trim() ?? "CPU"}, load average before ${load()}`);
  const config = prepare(dir, questions);
  const evaluations = join(dir, "evaluations");
  type Result = { figures: StageFigure[]; totalMs: number; totalCpuMs: number; peakMiB: number };
  const oldEvaluation = process.env.BENCH_OLD ? resolve(process.env.BENCH_OLD, "..", "..", "report", "evaluation.js") : undefined;
  if (oldEvaluation && !existsSync(oldEvaluation)) throw new Error(`BENCH_OLD: no ${oldEvaluation} beside that build's cli/main.js`);
  // Alone, tsx runs the TypeScript sources, as bench:judge does in-process. Beside another build, this build's
  // compiled dist/ runs instead (npm run build first): compiled against compiled, or this build's stages would
  // carry tsx's compiling of every module its stages import lazily (a second in validate) and its worker threads'.
  const ownEvaluation = join(ROOT, "dist", "report", "evaluation.js");
  if (oldEvaluation && !existsSync(ownEvaluation)) throw new Error("BENCH_OLD compares compiled builds: no dist/report/evaluation.js here (npm run build first)");
  const builds: { name: string; args: string[]; results: Result[] }[] = [
    { name: "this build", args: oldEvaluation ? [ownEvaluation] : [], results: [] },
    ...(oldEvaluation ? [{ name: "BENCH_OLD", args: [oldEvaluation], results: [] }] : []),
  ];
  for (let i = 0; i < runs; i++) {
    for (const b of i % 2 ? [...builds].reverse() : builds) {
      const r = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--child", config, evaluations, ...b.args], { encoding: "utf8", maxBuffer: 1 << 26, cwd: ROOT });
      if (r.status !== 0) throw new Error(`${b.name}, run ${i + 1} failed (exit ${r.status}):\n${r.stderr}`);
      const res = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as Result;
      b.results.push(res);
      console.log(`  ${b.name}, run ${i + 1}: ${(res.totalMs / 1000).toFixed(2)} s (${(res.totalCpuMs / 1000).toFixed(2)} s CPU), peak ${res.peakMiB.toFixed(0)} MiB; wall/CPU ${res.figures.map((f) => `${f.stage} ${(f.ms / 1000).toFixed(2)}/${(f.cpuMs / 1000).toFixed(2)}`).join(", ")}`);
    }
  }
  const stageMs = (results: Result[], s: string, cpu = false) => median(results.map((r) => { const f = r.figures.find((x) => x.stage === s)!; return cpu ? f.cpuMs : f.ms; }))!;
  for (const b of builds) {
    console.log(`\n${b.name}: stage       median wall   share   median CPU   peak RSS so far   heap after`);
    const total = median(b.results.map((r) => r.totalMs))!;
    for (const s of STAGES) {
      const of = b.results.map((r) => r.figures.find((f) => f.stage === s)!);
      const ms = stageMs(b.results, s);
      console.log(`${s.padEnd(11)} ${(ms / 1000).toFixed(2).padStart(8)} s   ${((100 * ms) / total).toFixed(0).padStart(4)}%   ${(stageMs(b.results, s, true) / 1000).toFixed(2).padStart(8)} s   ${median(of.map((f) => f.peakMiB))!.toFixed(0).padStart(9)} MiB   ${median(of.map((f) => f.heapMiB))!.toFixed(0).padStart(7)} MiB`);
    }
    console.log(`${"total".padEnd(11)} ${(total / 1000).toFixed(2).padStart(8)} s          ${(median(b.results.map((r) => r.totalCpuMs))! / 1000).toFixed(2).padStart(8)} s   ${median(b.results.map((r) => r.peakMiB))!.toFixed(0).padStart(9)} MiB peak`);
  }
  if (builds.length === 2) {
    const [ours, old] = builds as [(typeof builds)[number], (typeof builds)[number]];
    const ratios = (cpu: boolean) => STAGES.map((s) => `${s} ${(stageMs(ours.results, s, cpu) / stageMs(old.results, s, cpu)).toFixed(2)}`).join(", ");
    console.log(`\nthis build / BENCH_OLD, stage medians, wall: ${ratios(false)}`);
    console.log(`this build / BENCH_OLD, stage medians, CPU:  ${ratios(true)}`);
  }
  if (process.env.BENCH_OLD) {
    const cli = (path: string) => ({ path, walls: [] as number[] });
    const tools = [cli(join(ROOT, "dist", "cli", "main.js")), cli(resolve(process.env.BENCH_OLD))];
    if (!existsSync(tools[0]!.path)) throw new Error("no dist/cli/main.js: npm run build first");
    for (let i = 0; i < runs; i++) {
      for (const t of i % 2 ? [...tools].reverse() : tools) {
        const t0 = performance.now();
        const r = spawnSync(process.execPath, [t.path, "run", "--config", config, "--quiet"], { encoding: "utf8" });
        if (r.status !== 0 && r.status !== 1) throw new Error(`${t.path} run exited ${r.status}:\n${r.stderr}`);
        t.walls.push((performance.now() - t0) / 1000);
        rmSync(r.stdout.trim(), { recursive: true, force: true });
      }
    }
    const [ours, old] = tools.map((t) => median(t.walls)!);
    console.log(`\nragjudge run, whole command (median of ${runs}, interleaved): this build ${ours!.toFixed(2)} s, ${process.env.BENCH_OLD} ${old!.toFixed(2)} s, ratio ${(ours! / old!).toFixed(2)}; paired by round ${describePaired(pairedRatio(tools[0]!.walls, tools[1]!.walls))}`);
  }
  console.log(`load average after ${load()}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`bench:run: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  },
);
