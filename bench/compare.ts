/**
 * `npm run bench:compare`: `ragjudge compare` of the two variants of one
 * evaluation of 10,000 questions (bench:run's data, run-data.ts: the
 * baseline judge, five rubrics, six kinds and four tags), which bootstraps
 * every retrieval metric, the answer outcome and each rubric over all
 * questions and again within each kind and tag (2,000 resamples each).
 * Times this build's `compare --format json` and, with BENCH_OLD (another
 * build's cli/main.js), that build's, interleaved AB BA ..., each in its own
 * process; prints every run, the medians, their ratio and whether the two
 * printed the same bytes. Timings are printed, never asserted.
 *
 * The evaluation is made once with this build's `ragjudge run` and kept in
 * BENCH_DIR (default os.tmpdir()/ragjudge-bench-run, bench:run's folder).
 * Environment: BENCH_RUNS (default 5), BENCH_QUESTIONS (default 10000),
 * BENCH_DIR, BENCH_OLD, BENCH_TIME (as bench:retrieval).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { latestEvaluation } from "../src/report/folder.js";
import { describeMeter, describePaired, firstDifference, median, pairedRatio, pickMeter, ratio, timeRun, type Sample } from "./retrieval-measure.js";
import { prepareRunData } from "./run-data.js";

const ROOT = resolve(fileURLToPath(import.meta.url), "..", "..");
const secs = (x: number) => `${x.toFixed(2)} s`;
const load = () => loadavg().map((x) => x.toFixed(2)).join(" ");

async function main(): Promise<number> {
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  const questions = Number(process.env.BENCH_QUESTIONS ?? 10_000);
  const dir = process.env.BENCH_DIR || join(tmpdir(), "ragjudge-bench-run");
  const cli = join(ROOT, "dist", "cli", "main.js");
  if (!existsSync(cli)) throw new Error("no dist/cli/main.js: npm run build first");
  const config = prepareRunData(dir, questions);
  const evaluations = join(dir, "evaluations");
  let evaluation = latestEvaluation(evaluations);
  if (!evaluation) {
    const r = spawnSync(process.execPath, [cli, "run", "--config", config, "--quiet"], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`ragjudge run failed (exit ${r.status}): ${r.stderr}`);
    evaluation = latestEvaluation(evaluations)!;
  }
  const tools: { name: string; cli: string; samples: Sample[] }[] = [{ name: "ragjudge", cli, samples: [] }];
  if (process.env.BENCH_OLD) tools.push({ name: "old", cli: resolve(process.env.BENCH_OLD), samples: [] });
  const meter = pickMeter(process.env.BENCH_TIME || undefined);
  console.log(`ragjudge compare benchmark: ${questions.toLocaleString("en")} questions x 2 variants of ${evaluation}, ${runs} run(s)${tools[1] ? `, interleaved with ${tools[1].cli}` : ""}`);
  console.log(`machine: ${cpus().length} x ${cpus()[0]?.model.trim() ?? "CPU"}; load average before ${load()}; meter: ${describeMeter(meter)}`);
  const args = ["compare", "--variants", "first,second", evaluation, "--config", config, "--format", "json"];
  for (let round = 1; round <= runs; round++) {
    for (const t of round % 2 === 1 ? tools : [...tools].reverse()) {
      const s = await timeRun(meter, process.execPath, [t.cli, ...args]);
      if (t.samples.length > 0 && s.sha256 === t.samples[0]!.sha256) s.stdout = Buffer.alloc(0);
      t.samples.push(s);
      console.log(`  round ${round} ${t.name.padEnd(8)} ${secs(s.wall)} wall, cpu ${s.user === null ? "n/a" : secs(s.user + s.sys!)}, peak ${s.rssMiB === null ? "n/a" : `${s.rssMiB.toFixed(0)} MiB`}, stdout sha256 ${s.sha256.slice(0, 16)}`);
    }
  }
  const cpuOf = (s: Sample) => (s.user === null || s.sys === null ? null : s.user + s.sys);
  const med = tools.map((t) => ({ t, wall: median(t.samples.map((s) => s.wall))!, cpu: median(t.samples.map(cpuOf)), rss: median(t.samples.map((s) => s.rssMiB)) }));
  for (const m of med) console.log(`${m.t.name} median: ${secs(m.wall)} wall, ${m.cpu === null ? "cpu n/a" : `${secs(m.cpu)} cpu`}, ${m.rss === null ? "n/a" : `${m.rss.toFixed(0)} MiB`} peak`);
  let same = tools.every((t) => t.samples.every((s) => s.sha256 === t.samples[0]!.sha256));
  if (med[1]) {
    const [ours, other] = [med[0]!, med[1]];
    console.log(`ratio ${ours.t.name} / ${other.t.name}: wall ${ratio(ours.wall, other.wall)}, cpu ${ratio(ours.cpu, other.cpu)}, memory ${ratio(ours.rss, other.rss)}`);
    console.log(`paired by round: wall ${describePaired(pairedRatio(ours.t.samples.map((s) => s.wall), other.t.samples.map((s) => s.wall)))}, cpu ${describePaired(pairedRatio(ours.t.samples.map(cpuOf), other.t.samples.map(cpuOf)))}`);
    if (ours.t.samples[0]!.sha256 !== other.t.samples[0]!.sha256) {
      same = false;
      const d = firstDifference(ours.t.samples[0]!.stdout, other.t.samples[0]!.stdout);
      console.log(`!!! OUTPUTS DIFFER${d ? ` at line ${d.line}: ${JSON.stringify(d.a).slice(0, 200)} vs ${JSON.stringify(d.b).slice(0, 200)}` : ""}`);
    }
  }
  console.log(same ? `outputs: IDENTICAL, sha256 ${tools[0]!.samples[0]!.sha256.slice(0, 16)}` : "outputs: DIFFER (see above)");
  console.log(`load average after ${load()}`);
  return same ? 0 : 1;
}

main().then((code) => process.exit(code), (e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(2);
});
