/**
 * One measured side of `npm run bench:judge`, in its own process so each
 * side's CPU time and peak memory are its own (plain JavaScript: neither
 * side pays for a TypeScript loader).
 *
 *   node bench/judge-child.mjs bare <baseURL> <bodies.jsonl> <concurrency>
 *     the bare client: plain fetch of the same request bodies, read from the
 *     file first (as a client holding its work in memory), `concurrency`
 *     workers; parses each reply's verdict JSON.
 *   node bench/judge-child.mjs cli <build>/cli/program.js <args...>
 *     `ragjudge <args>` through the compiled CLI's runCli, stdout and stderr
 *     muted.
 *
 * Prints one JSON line on stdout: { wall (s, of the measured part), cpuMs
 * (user + system of the measured part), maxRssKiB (the process's peak), code }.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [mode, ...rest] = process.argv.slice(2);
const out = process.stdout.write.bind(process.stdout);

async function bare(baseURL, file, concurrency) {
  const bodies = readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      const res = await fetch(`${baseURL}/chat/completions`, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer x" }, body: JSON.stringify(body) });
      const data = await res.json();
      JSON.parse(data.choices[0].message.content);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return 0;
}

async function cli(program, args) {
  const { runCli } = await import(pathToFileURL(program).href);
  if (!process.env.BENCH_VERBOSE) process.stdout.write = () => true;
  if (!process.env.BENCH_VERBOSE) process.stderr.write = () => true;
  return runCli(args);
}

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const code = mode === "bare" ? await bare(rest[0], rest[1], Number(rest[2])) : await cli(rest[0], rest.slice(1));
const wall = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
out(`${JSON.stringify({ wall, cpuMs: (cpu.user + cpu.system) / 1000, maxRssKiB: process.resourceUsage().maxRSS, code })}\n`);
process.exit(0);
