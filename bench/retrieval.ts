/**
 * `npm run bench:retrieval`: times `ragjudge retrieval --qrels --trec-run`
 * on a seeded 10,000-query x 1,000-document run (10M lines, about 335 MB)
 * and, when TREC_EVAL names a trec_eval binary, trec_eval on the same files
 * in the same run. Each scorer runs in its own child process (so its peak
 * memory is its own) several times; the medians are printed.
 *
 * Environment: BENCH_RUNS (default 3), BENCH_DIR (default the OS temp
 * folder), BENCH_KEEP=1 keeps the generated files for the next run,
 * BENCH_QUERIES / BENCH_DOCS shrink the data for a quick try.
 */
import { spawnSync } from "node:child_process";
import { existsSync, openSync, closeSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_SHAPE, generateBenchData } from "./retrieval-data.js";

const root = resolve(fileURLToPath(import.meta.url), "..", "..");
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const dir = process.env.BENCH_DIR ?? join(tmpdir(), "ragjudge-bench");
const shape = {
  ...DEFAULT_SHAPE,
  queries: Number(process.env.BENCH_QUERIES ?? DEFAULT_SHAPE.queries),
  docsPerQuery: Number(process.env.BENCH_DOCS ?? DEFAULT_SHAPE.docsPerQuery),
};
const MEASURES = ["map", "Rprec", "recip_rank", "P.1,5,10", "recall.5,10,100", "ndcg_cut.5,10,100", "success.1,5,10"];
const TIME = "/usr/bin/time";

interface Sample {
  wall: number;
  maxRssMiB: number;
}

/** Runs a command with stdout to /dev/null; wall time from here, peak RSS from /usr/bin/time or the child's own report. */
function measure(cmd: string, args: string[], nodeChild: boolean): Sample {
  const devnull = openSync("/dev/null", "w");
  const useTime = existsSync(TIME);
  const fullArgs = useTime ? ["-f", "RAGJUDGE_BENCH_MAXRSS_KB=%M", cmd, ...args] : args;
  const env = { ...process.env };
  if (!useTime && nodeChild) env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ""} --import=data:text/javascript,process.on("exit",()=>process.stderr.write("RAGJUDGE_BENCH_MAXRSS_KB="+process.resourceUsage().maxRSS+"\\n"))`;
  const t0 = performance.now();
  const r = spawnSync(useTime ? TIME : cmd, fullArgs, { stdio: ["ignore", devnull, "pipe"], env, maxBuffer: 1 << 26 });
  const wall = (performance.now() - t0) / 1000;
  closeSync(devnull);
  const err = r.stderr?.toString() ?? "";
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}:\n${err}`);
  const m = /RAGJUDGE_BENCH_MAXRSS_KB=(\d+)/.exec(err);
  return { wall, maxRssMiB: m ? Number(m[1]) / 1024 : NaN };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function ours(qrels: string, run: string): [string, string[]] {
  const dist = join(root, "dist", "cli", "main.js");
  const args = ["retrieval", "--qrels", qrels, "--trec-run", run, "--format", "trec", ...MEASURES.flatMap((m) => ["-m", m]), "-m", "num_q,num_ret,num_rel,num_rel_ret"];
  if (existsSync(dist)) return [process.execPath, [dist, ...args]];
  return [process.execPath, ["--import", "tsx", join(root, "src", "cli", "main.ts"), ...args]];
}

function main(): void {
  console.log(`ragjudge retrieval benchmark: ${shape.queries} queries x ${shape.docsPerQuery} docs, seed ${shape.seed}, ${runs} run(s) each`);
  const t0 = performance.now();
  const data = generateBenchData(dir, shape);
  console.log(`data: ${data.run} (${(data.runBytes / 1e6).toFixed(0)} MB, ${data.runLines.toLocaleString("en")} lines), prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const [cmd, args] = ours(data.qrels, data.run);
  console.log(`ragjudge: ${args[0]!.endsWith(".ts") || args[0] === "--import" ? "tsx src/cli/main.ts (run npm run build first to time the compiled CLI)" : "dist/cli/main.js"}`);
  const mine: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    const s = measure(cmd, args, true);
    mine.push(s);
    console.log(`  ragjudge run ${i + 1}: ${s.wall.toFixed(2)} s, peak ${s.maxRssMiB.toFixed(0)} MiB`);
  }
  const ourWall = median(mine.map((s) => s.wall));
  const ourRss = median(mine.map((s) => s.maxRssMiB));
  console.log(`ragjudge median: ${ourWall.toFixed(2)} s wall, ${ourRss.toFixed(0)} MiB peak RSS`);

  const peer = process.env.TREC_EVAL;
  if (!peer) console.log("trec_eval: no peer (set TREC_EVAL=/path/to/trec_eval to time it on the same files)");
  else {
    const teArgs = ["-c", "-q", ...MEASURES.flatMap((m) => ["-m", m]), "-m", "num_q", "-m", "num_ret", "-m", "num_rel", "-m", "num_rel_ret", data.qrels, data.run];
    const theirs: Sample[] = [];
    for (let i = 0; i < runs; i++) {
      const s = measure(peer, teArgs, false);
      theirs.push(s);
      console.log(`  trec_eval run ${i + 1}: ${s.wall.toFixed(2)} s, peak ${s.maxRssMiB.toFixed(0)} MiB`);
    }
    const tw = median(theirs.map((s) => s.wall));
    const tr = median(theirs.map((s) => s.maxRssMiB));
    console.log(`trec_eval median: ${tw.toFixed(2)} s wall, ${tr.toFixed(0)} MiB peak RSS`);
    console.log(`ratio ragjudge / trec_eval: wall ${(ourWall / tw).toFixed(2)} (target <= 0.50), memory ${(ourRss / tr).toFixed(2)} (target <= 2.00)`);
  }
  if (process.env.BENCH_KEEP !== "1") {
    rmSync(data.run, { force: true });
    rmSync(data.qrels, { force: true });
  }
}

main();
