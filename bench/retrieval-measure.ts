/**
 * Measuring one scorer run for `npm run bench:retrieval`: wall time, user and
 * system CPU time, peak resident memory and the sha256 of its stdout, taken
 * the same way for every tool so the ratios compare like with like.
 *
 * Meters, in order of preference (BENCH_TIME picks one: a GNU time path, or
 * "proc" / "none"):
 *   - GNU time (`/usr/bin/time -f`): CPU and peak RSS (getrusage of the child);
 *   - /proc: CPU from this process's cutime/cstime before and after (the
 *     kernel adds a child's CPU when it is reaped: exact to the clock tick)
 *     and peak RSS from polling the child's VmHWM every 10 ms (a high-water
 *     mark, so only growth in its last 10 ms can be missed);
 *   - none: CPU and memory are "n/a" for every tool.
 * Wall time is always measured here, from spawn to exit.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { median as medianOf } from "simple-statistics";

/** How CPU time and peak memory are read (the same for every tool in a benchmark). */
export type Meter = { kind: "gnu-time"; path: string } | { kind: "proc"; clockTick: number } | { kind: "none" };

/** One timed run. CPU and memory are null when the meter cannot read them. */
export interface Sample {
  wall: number;
  user: number | null;
  sys: number | null;
  rssMiB: number | null;
  sha256: string;
  stdoutBytes: number;
  /** The whole stdout (kept so a disagreement can show its first differing line). */
  stdout: Buffer;
}

const MARK = "RAGJUDGE_BENCH_TIME";

/** True when `path` is GNU time (accepts -f and prints %M); BSD and busybox time do not. */
function isGnuTime(path: string): boolean {
  if (!existsSync(path)) return false;
  const r = spawnSync(path, ["-f", `${MARK} %U %S %M`, "true"], { encoding: "utf8" });
  return r.status === 0 && new RegExp(`${MARK} [\\d.]+ [\\d.]+ \\d+`).test(r.stderr ?? "");
}

/**
 * Picks the meter: BENCH_TIME's choice when set, else /usr/bin/time when it is
 * GNU time, else /proc when readable, else none.
 * @example pickMeter(process.env.BENCH_TIME) // { kind: "gnu-time", path: "/usr/bin/time" }
 */
export function pickMeter(choice: string | undefined): Meter {
  const proc = (): Meter => {
    const tick = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim());
    return { kind: "proc", clockTick: Number.isFinite(tick) && tick > 0 ? tick : 100 };
  };
  if (choice === "none") return { kind: "none" };
  if (choice === "proc") {
    if (!existsSync("/proc/self/stat")) throw new Error("BENCH_TIME=proc but /proc/self/stat is not readable");
    return proc();
  }
  if (choice) {
    if (!isGnuTime(choice)) throw new Error(`BENCH_TIME=${choice} is not a GNU time binary (or use proc / none)`);
    return { kind: "gnu-time", path: choice };
  }
  if (isGnuTime("/usr/bin/time")) return { kind: "gnu-time", path: "/usr/bin/time" };
  if (existsSync("/proc/self/stat")) return proc();
  return { kind: "none" };
}

/** One line saying how the figures are taken. */
export function describeMeter(m: Meter): string {
  if (m.kind === "gnu-time") return `${m.path} (GNU time: user+sys CPU and peak RSS from the child's rusage), wall from spawn to exit; both tools alike`;
  if (m.kind === "proc") return "/proc (CPU from this process's children times, exact to 1/" + m.clockTick + " s; peak RSS by polling VmHWM every 10 ms), wall from spawn to exit; both tools alike";
  return "none (no GNU time, no /proc): CPU and memory n/a for both tools; wall from spawn to exit";
}

/** This process's reaped children's user and system CPU, in clock ticks (fields 16 and 17 of /proc/self/stat). */
function childTicks(): [number, number] {
  const s = readFileSync("/proc/self/stat", "utf8");
  const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
  return [Number(f[13]), Number(f[14])];
}

/** VmHWM of a live process in KiB, or null once it has gone. */
function peakKiB(pid: number): number | null {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Runs `cmd args` once under the meter, stdout hashed (and kept), stderr kept
 * for the error message. Rejects when the command cannot start or exits
 * non-zero.
 * @example const s = await timeRun(meter, "/tmp/trec_eval/trec_eval", ["-q", qrels, run]); s.sha256
 */
export function timeRun(meter: Meter, cmd: string, args: string[]): Promise<Sample> {
  const [file, argv] = meter.kind === "gnu-time" ? [meter.path, ["-f", `${MARK} %U %S %M`, cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    const ticks0 = meter.kind === "proc" ? childTicks() : [0, 0];
    const t0 = performance.now();
    const child = spawn(file, argv, { stdio: ["ignore", "pipe", "pipe"] });
    const hash = createHash("sha256");
    const out: Buffer[] = [];
    let errText = "";
    let peak: number | null = null;
    const poll =
      meter.kind === "proc"
        ? setInterval(() => {
            const k = child.pid === undefined ? null : peakKiB(child.pid);
            if (k !== null) peak = Math.max(peak ?? 0, k);
          }, 10)
        : undefined;
    child.stdout.on("data", (b: Buffer) => {
      hash.update(b);
      out.push(b);
    });
    child.stderr.on("data", (b: Buffer) => {
      errText = (errText + b.toString()).slice(-16_000);
    });
    child.on("error", (e) => {
      clearInterval(poll);
      reject(new Error(`${cmd}: cannot run (${e.message})`));
    });
    child.on("close", (code, signal) => {
      const wall = (performance.now() - t0) / 1000;
      clearInterval(poll);
      const stderr = errText.split("\n").filter((l) => !l.startsWith(MARK) && !l.startsWith("Command exited with non-zero status")).join("\n").trim();
      if (code !== 0) return reject(new Error(`${cmd} ${args.join(" ")} exited ${signal ?? code}${stderr ? `:\n${stderr}` : ""}`));
      const stdout = Buffer.concat(out);
      const base = { wall, sha256: hash.digest("hex"), stdoutBytes: stdout.length, stdout };
      if (meter.kind === "gnu-time") {
        const m = new RegExp(`^${MARK} ([\\d.]+) ([\\d.]+) (\\d+)$`, "m").exec(errText);
        if (!m) return reject(new Error(`${meter.path} printed no figures for ${cmd}`));
        return resolve({ ...base, user: Number(m[1]), sys: Number(m[2]), rssMiB: Number(m[3]) / 1024 });
      }
      if (meter.kind === "proc") {
        const [u, s] = childTicks();
        return resolve({ ...base, user: (u - ticks0[0]!) / meter.clockTick, sys: (s - ticks0[1]!) / meter.clockTick, rssMiB: peak === null ? null : peak / 1024 });
      }
      resolve({ ...base, user: null, sys: null, rssMiB: null });
    });
  });
}

/** Median of the numbers, or null when any is null (a meter that could not read it) or there are none. */
export function median(xs: (number | null)[]): number | null {
  if (xs.length === 0 || xs.some((x) => x === null)) return null;
  return medianOf(xs as number[]);
}

/**
 * Round by round, `a[i] / b[i]` of two tools' figures taken back to back
 * (interleaved rounds): their median, and in how many rounds `a` was the
 * lower. A drift of the machine's speed that both sides of a round share
 * cancels in each ratio; the count says how one-sided the rounds were. On
 * this shared machine neither removes the noise: 9 rounds of one build
 * against itself gave 1.03 by the ratio of medians and by this, lower in 3
 * of 9 rounds. Null when a figure is missing or there are no rounds.
 *
 * @example
 * pairedRatio([8, 9, 10], [10, 9, 12]) // { median: 0.833..., lower: 2, rounds: 3 }
 */
export function pairedRatio(a: readonly (number | null)[], b: readonly (number | null)[]): { median: number; lower: number; rounds: number } | null {
  const n = Math.min(a.length, b.length);
  if (n === 0) return null;
  const ratios: number[] = [];
  let lower = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === null || y === null || y === 0) return null;
    ratios.push(x / y);
    if (x < y) lower++;
  }
  return { median: medianOf(ratios), lower, rounds: n };
}

/** {@link pairedRatio} in words: "0.97 (lower in 7 of 9 rounds)", or "n/a". */
export function describePaired(p: ReturnType<typeof pairedRatio>): string {
  return p === null ? "n/a" : `${p.median.toFixed(2)} (lower in ${p.lower} of ${p.rounds} rounds)`;
}

/** `a / b` to 2 decimals, or "n/a" when either is missing or b is 0 (never NaN). */
export function ratio(a: number | null, b: number | null): string {
  return a === null || b === null || b === 0 ? "n/a" : (a / b).toFixed(2);
}

/** The 1-based number and text of the first line where two outputs differ ("<end of output>" past the last line), or null when they are equal. */
export function firstDifference(a: Buffer, b: Buffer): { line: number; a: string; b: string } | null {
  if (a.equals(b)) return null;
  const lines = (x: Buffer) => {
    const l = x.toString("utf8").split("\n");
    if (l.at(-1) === "") l.pop();
    return l;
  };
  const la = lines(a);
  const lb = lines(b);
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return { line: i + 1, a: la[i] ?? "<end of output>", b: lb[i] ?? "<end of output>" };
  }
  const nl = (x: Buffer) => (x.at(-1) === 0x0a ? "ends with a newline" : "no final newline");
  return { line: la.length, a: nl(a), b: nl(b) };
}
