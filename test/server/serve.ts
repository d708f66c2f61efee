/**
 * Runs the scriptable OpenAI-compatible test server as its own process (for
 * benchmarks, so the server does not share the measured process's event loop).
 *
 *   node --import tsx test/server/serve.ts [--latency MS] [--port N] [--no-json-schema]
 *
 * Prints one JSON line `{"baseURL": "...", "pid": N}` on stdout when listening;
 * answers every request with a verdict (yes unless the user message has an odd
 * length, so both verdicts occur); stops on SIGTERM, SIGINT or when stdin closes.
 * Send the line `count` on stdin to get `{"count": N}` back, `reset` to get
 * it and start counting from zero; both also give `first` and `last`, the
 * times (ms since the epoch) the first and the last request since the last
 * reset arrived, so a benchmark can time the calls phase of a run alone.
 */
import { createInterface } from "node:readline";
import { startOpenAIServer } from "./openai-server.js";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

let first: number | undefined;
let last: number | undefined;
const server = await startOpenAIServer({
  latencyMs: Number(arg("--latency") ?? 0),
  port: Number(arg("--port") ?? 0),
  jsonSchema: !process.argv.includes("--no-json-schema"),
  keepBodies: false,
  script: (r) => {
    last = Date.now();
    first ??= last;
    return { verdict: r.user.length % 2 === 0 ? "yes" : "no", reason: "Scripted by the benchmark server." };
  },
});
process.stdout.write(`${JSON.stringify({ baseURL: server.baseURL, pid: process.pid })}\n`);

const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (line.trim() === "count") process.stdout.write(`${JSON.stringify({ count: server.count, first, last })}\n`);
  if (line.trim() === "reset") {
    const count = server.count;
    server.resetCount();
    process.stdout.write(`${JSON.stringify({ count, first, last })}\n`);
    first = last = undefined;
  }
});
rl.on("close", stop);
