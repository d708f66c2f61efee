/**
 * `npm run bench:startup`: how long `ragjudge` takes to start, against the
 * floor of starting Node itself. Times, in child processes and interleaved
 * (each round runs every command once, in a rotating order, so a change in
 * machine load falls on all of them): `node -e 0`, `ragjudge --version` and
 * `ragjudge retrieval --help` (the compiled CLI, dist/; `npm run build`
 * first). Prints every run, then medians, peak memory and the target
 * (0.2 s wall); nothing is asserted.
 *
 * Environment: BENCH_RUNS (default 15), BENCH_TIME (as bench:retrieval),
 * BENCH_CLI (time another build's cli/main.js instead), BENCH_OLD (another
 * build's cli/main.js timed too, interleaved in the same rounds).
 */
import { existsSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describeMeter, median, pickMeter, timeRun, type Sample } from "./retrieval-measure.js";

const ROOT = resolve(fileURLToPath(import.meta.url), "..", "..");
const TARGET_SECONDS = 0.2;

async function main(): Promise<number> {
  const runs = Number(process.env.BENCH_RUNS ?? 15);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`BENCH_RUNS=${process.env.BENCH_RUNS}: expected a whole number >= 1`);
  const cli = process.env.BENCH_CLI ? resolve(process.env.BENCH_CLI) : join(ROOT, "dist", "cli", "main.js");
  if (!existsSync(cli)) throw new Error(`no ${cli}: npm run build first`);
  const meter = pickMeter(process.env.BENCH_TIME || undefined);
  const cases: { name: string; args: string[]; target: boolean; samples: Sample[] }[] = [
    { name: "node -e 0", args: ["-e", "0"], target: false, samples: [] },
    { name: "ragjudge --version", args: [cli, "--version"], target: true, samples: [] },
    { name: "ragjudge retrieval --help", args: [cli, "retrieval", "--help"], target: true, samples: [] },
  ];
  if (process.env.BENCH_OLD) {
    const old = resolve(process.env.BENCH_OLD);
    cases.push({ name: "old --version", args: [old, "--version"], target: false, samples: [] }, { name: "old retrieval --help", args: [old, "retrieval", "--help"], target: false, samples: [] });
  }
  const load = () => loadavg().map((x) => x.toFixed(2)).join(" ");
  console.log(`ragjudge start-up benchmark: ${runs} interleaved rounds on ${cpus().length} x ${cpus()[0]?.model.trim() ?? "CPU"}, Node ${process.version}; load average before ${load()}`);
  console.log(`meter: ${describeMeter(meter)}`);
  console.log(`ragjudge: ${cli}${process.env.BENCH_OLD ? `; old: ${resolve(process.env.BENCH_OLD)}` : ""}`);
  for (let round = 0; round < runs; round++) {
    for (let k = 0; k < cases.length; k++) {
      const c = cases[(k + round) % cases.length]!;
      c.samples.push(await timeRun(meter, process.execPath, c.args));
    }
  }
  const floor = median(cases[0]!.samples.map((s) => s.wall))!;
  for (const c of cases) {
    const wall = median(c.samples.map((s) => s.wall))!;
    const rss = median(c.samples.map((s) => s.rssMiB));
    const verdict = c.target ? (wall < TARGET_SECONDS ? `, target < ${TARGET_SECONDS} s met` : `, target < ${TARGET_SECONDS} s NOT met`) : "";
    console.log(`${c.name.padEnd(26)} median ${wall.toFixed(3)} s wall (${(wall / floor).toFixed(2)}x node -e 0)${rss === null ? "" : `, ${rss.toFixed(0)} MiB peak`}${verdict}`);
  }
  console.log(`load average after ${load()}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`bench:startup: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  },
);
