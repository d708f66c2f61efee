/**
 * In-process runs of the CLI for tests. Exit statuses and messages are tested
 * by calling `runCli([...])` (docs/DESIGN.md); this is the one place that
 * captures what such a run prints, so no test file keeps its own spies.
 */
import { vi } from "vitest";
import { runCli } from "../../src/cli/program.js";

/** What one in-process CLI run returned and printed. */
export interface CliRun {
  /** The exit status `runCli` returned. */
  code: number;
  /** Everything written to stdout during the run. */
  out: string;
  /** Everything written to stderr during the run. */
  err: string;
}

/** Environment overrides for one run: a string sets the variable, `undefined` removes it. */
export type EnvOverrides = Record<string, string | undefined>;

/**
 * The overrides that leave no OpenAI key or endpoint in the environment, so a
 * run cannot reach a real service and "no judge configured" paths are taken.
 */
export const NO_KEY: EnvOverrides = { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined };

function applyEnv(env: EnvOverrides): void {
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}

type Write = typeof process.stdout.write;

/** A stand-in for `stream.write` that appends the text to `sink` and still calls a write callback. */
function collector(sink: (s: string) => void): Write {
  return ((chunk: string | Uint8Array, encodingOrCallback?: unknown, callback?: unknown) => {
    sink(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    const cb = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
    if (typeof cb === "function") queueMicrotask(() => (cb as (e?: Error | null) => void)());
    return true;
  }) as Write;
}

/**
 * Runs `ragjudge <args>` in-process with stdout and stderr captured and
 * `env` applied. Afterwards everything is as before: the two spies are
 * restored (other mocks of the test are left alone), each overridden variable
 * gets its old value back (or is removed again), and `process.exitCode`,
 * which a failing command sets, is reset so it cannot leak into the test
 * worker's exit.
 *
 * @example
 * const r = await runCliCaptured(["validate", "--config", cfg]);
 * expect(r.code).toBe(2);
 * expect(r.err).toMatch(/golden\.jsonl:3: id:/);
 * @example
 * const r = await runCliCaptured(["judge", "--config", cfg], NO_KEY);
 */
export async function runCliCaptured(args: string[], env: EnvOverrides = {}): Promise<CliRun> {
  let out = "";
  let err = "";
  const saved: EnvOverrides = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const o = vi.spyOn(process.stdout, "write").mockImplementation(collector((s) => (out += s)));
  const e = vi.spyOn(process.stderr, "write").mockImplementation(collector((s) => (err += s)));
  try {
    applyEnv(env);
    const code = await runCli(args);
    return { code, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
    applyEnv(saved);
    process.exitCode = undefined;
  }
}

/**
 * {@link runCliCaptured} with `cwd` as the working folder (the test pool runs
 * in forks, so chdir is safe), for commands that look for
 * ./ragjudge.config.json or write beside it.
 *
 * @example
 * const r = await runCliIn(tempDir(), ["compare", a, b]);
 */
export async function runCliIn(cwd: string, args: string[], env: EnvOverrides = {}): Promise<CliRun> {
  const before = process.cwd();
  process.chdir(cwd);
  try {
    return await runCliCaptured(args, env);
  } finally {
    process.chdir(before);
  }
}
