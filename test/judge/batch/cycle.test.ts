import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { NO_KEY, runCliCaptured } from "../../helpers/cli.js";
import { ROOT } from "../../helpers/paths.js";
import { startOpenAIServer, type TestServer } from "../../server/openai-server.js";
import { readJudgments, tempDir } from "../helpers.js";
import { CONFIG, truth } from "./helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** `ragjudge run` with the cache in `base` finds every verdict there: it makes no call and every LLM verdict is marked cached. */
async function expectRunFromCacheOnly(base: string[], server: TestServer): Promise<void> {
  const evaluations = tempDir("ragjudge-cycle-evals-");
  const run = await runCliCaptured(["run", ...base, "--judge", "openai", "--base-url", server.baseURL, "--model", "judge-model", "--no-progress", "--evaluations-dir", evaluations, "--quiet"], NO_KEY);
  expect(run.code, run.err).toBe(0);
  expect(server.count).toBe(0);
  const folder = readdirSync(evaluations);
  expect(folder).toHaveLength(1);
  const runVerdicts = readJudgments(join(evaluations, folder[0]!, "judgments.jsonl"));
  expect(runVerdicts.filter((j) => j.judge === "llm").every((j) => j.cached)).toBe(true);
}

/** Every file under a folder, recursively. */
function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? allFiles(join(dir, f)) : [join(dir, f)]));
}

function spawnCli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], { cwd: ROOT, env: { ...process.env, OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += String(d)));
  child.stderr.on("data", (d) => (stderr += String(d)));
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((res) => child.on("exit", (code, signal) => res({ code, signal, stdout, stderr })));
}

/** The fixture project in a folder of its own (its inputs named by absolute path), with `fields` set in its config. */
function fixtureProject(fields: Record<string, unknown>): { dir: string; config: string } {
  const dir = tempDir("ragjudge-project-");
  const config = join(dir, "ragjudge.config.json");
  const fixture = JSON.parse(readFileSync(CONFIG, "utf8")) as Record<string, unknown> & { variants: { output: string; chunks: string }[] };
  const at = (f: string) => join(CONFIG, "..", f);
  writeFileSync(config, JSON.stringify({
    ...fixture, golden: at("golden.jsonl"), rubricsDir: at("../../../rubrics"),
    variants: fixture.variants.map((v) => ({ ...v, output: at(v.output), chunks: at(v.chunks) })),
    ...fields,
  }));
  return { dir, config };
}

/** The command a line of `out` prints after `prefix`, as its arguments (the paths here need no quoting). */
function printed(out: string, prefix: RegExp): string[] {
  const m = new RegExp(`^${prefix.source}(ragjudge [^\n]*?)(?: \\(|, then |$)`, "m").exec(out);
  expect(m, out).not.toBeNull();
  expect(m![1]).not.toMatch(/['"\\]/);
  return m![1]!.split(" ").slice(1);
}

describe("export -> submit -> status -> collect -> judge, through the CLI and the real SDK", () => {
  it("judges everything by batch; afterwards the judge makes zero online calls and gives the online verdicts", async () => {
    server = await startOpenAIServer({ script: (r) => ({ verdict: truth(r) }) });
    const dir = tempDir("ragjudge-cycle-");
    const base = ["--config", CONFIG, "--cache-dir", dir];
    const judge = ["judge", ...base, "--base-url", server.baseURL, "--model", "judge-model", "--no-progress"];
    const file = join(dir, "batch", "judge.jsonl");

    const exp = await runCliCaptured([...judge, "--batch-export", file, "--batch-max-requests", "20"], NO_KEY);
    expect(exp.code, exp.err).toBe(0);
    expect(exp.out).toMatch(/batch export: 37 requests in 2 files:\n {2}.*judge\.jsonl {2}20 requests, [\d.]+ kB\n {2}.*judge\.2\.jsonl {2}17 requests/);
    expect(exp.out).toContain("left out: 4 decided by rule");
    expect(exp.out).toContain("python -m vllm.entrypoints.openai.run_batch -i");
    expect(server.count).toBe(0);

    const sub = await runCliCaptured(["batch", "submit", file, join(dir, "batch", "judge.2.jsonl"), ...base, "--base-url", server.baseURL], NO_KEY);
    expect(sub.code, sub.err).toBe(0);
    expect(sub.out).toMatch(/judge\.jsonl: submitted as batch_\d+ \(20 requests, validating\)\n.*judge\.2\.jsonl: submitted as batch_\d+ \(17 requests, validating\)/);
    expect(server.batch.batches).toHaveLength(2);

    const status = await runCliCaptured(["batch", "status", ...base, "--base-url", server.baseURL], NO_KEY);
    expect(status.code, status.err).toBe(0);
    expect(status.out).toMatch(/batch_\d+ {2}in_progress {2}10\/20 done, 0 failed {2}judge\.jsonl \(20 requests, sha256 [0-9a-f]{12}\)/);
    expect(status.out).toContain("requests: 0 judged, 37 in batches, 0 exported not submitted, 0 error verdicts, 0 returned to pending");

    // Online judging now would judge them twice; export knows they are in flight.
    const twice = await runCliCaptured([...judge, "--batch-export", join(dir, "again.jsonl")], NO_KEY);
    expect(twice.out).toContain("37 in submitted batches not collected yet");

    const col = await runCliCaptured(["batch", "collect", ...base, "--base-url", server.baseURL], NO_KEY);
    expect(col.code, col.err).toBe(0);
    expect(col.out).toMatch(/batch_\d+ completed: 20 verdicts stored, 0 error verdicts, 0 returned to pending\nbatch_\d+ completed: 17 verdicts stored/);
    expect(col.out).toContain("requests: 37 judged, 0 in batches");

    const after = await runCliCaptured([...judge, "--out", join(dir, "j.jsonl")], NO_KEY);
    expect(after.code, after.err).toBe(0);
    expect(server.count).toBe(0);
    expect(after.out).toContain("42 verdicts: 38 from cache, 4 by rule, 0 errors");

    // The whole evaluation too: `ragjudge run` finds every verdict in the cache and makes no call.
    await expectRunFromCacheOnly(base, server);

    // The same run online, in a fresh cache, gives the same verdicts under the same fingerprints.
    const onlineDir = tempDir("ragjudge-online-");
    const online = await runCliCaptured(["judge", "--config", CONFIG, "--cache-dir", onlineDir, "--base-url", server.baseURL, "--model", "judge-model", "--no-progress", "--out", join(onlineDir, "j.jsonl")], NO_KEY);
    expect(online.code).toBe(0);
    expect(server.count).toBe(37);
    const strip = (js: ReturnType<typeof readJudgments>) => js.map((j) => [j.variant, j.question, j.rubric, j.unit, j.fingerprint, j.inputHash, j.verdict, j.reason]);
    expect(strip(readJudgments(join(dir, "j.jsonl")))).toEqual(strip(readJudgments(join(onlineDir, "j.jsonl"))));

    // Collecting again is a no-op.
    const again = await runCliCaptured(["batch", "collect", ...base, "--base-url", server.baseURL], NO_KEY);
    expect(again.out).toContain("no batches waiting to be collected");
    const all = await runCliCaptured(["batch", "status", "--all", ...base, "--base-url", server.baseURL], NO_KEY);
    expect(all.out.match(/completed, collected/g)).toHaveLength(2);
  });

  it("prints next commands that carry the export's --base-url and cache, each working as printed", async () => {
    server = await startOpenAIServer({ script: (r) => ({ verdict: truth(r) }) });
    const dir = tempDir("ragjudge-printed-");
    const file = join(dir, "judge.jsonl");
    const exp = await runCliCaptured(["judge", "--config", CONFIG, "--cache-dir", dir, "--base-url", server.baseURL, "--model", "judge-model", "--batch-export", file], NO_KEY);
    expect(exp.code, exp.err).toBe(0);
    const submit = printed(exp.out, /next: /);
    expect(submit.join(" ")).toMatch(new RegExp(`^batch submit ${file} --config \\S+ --cache-dir ${dir} --base-url ${server.baseURL}$`));
    const sub = await runCliCaptured(submit, NO_KEY);
    expect(sub.code, sub.err).toBe(0);
    expect(server.batch.batches).toHaveLength(1);
    // submit's own next commands find the same batches: status polls them, collect stores their verdicts
    const status = await runCliCaptured(printed(sub.out, /next: /), NO_KEY);
    expect(status.code, status.err).toBe(0);
    expect(status.out).toMatch(/batch_\d+ {2}in_progress/);
    const col = await runCliCaptured(printed(sub.out, /next: ragjudge batch status[^\n]*, then /), NO_KEY);
    expect(col.code, col.err).toBe(0);
    expect(col.out).toContain("requests: 37 judged, 0 in batches");
  });

  it("submits, as printed, to the endpoint of the panel's first model judge that the export took when the config has no judge", async () => {
    server = await startOpenAIServer({ script: (r) => ({ verdict: truth(r) }) });
    const { dir, config } = fixtureProject({ judges: [{ name: "local", kind: "openai", model: "judge-model", baseUrl: server.baseURL }, { name: "lexical", kind: "baseline" }] });
    const exp = await runCliCaptured(["judge", "--config", config, "--batch-export", join(dir, "judge.jsonl")], NO_KEY);
    expect(exp.code, exp.err).toBe(0);
    const submit = printed(exp.out, /next: /);
    expect(submit).not.toContain("--base-url");
    // before, submit read only `judge` and sent the batch to OpenAI's endpoint (exit 2: no API key)
    const sub = await runCliCaptured(submit, NO_KEY);
    expect(sub.code, sub.err).toBe(0);
    expect(server.batch.batches).toHaveLength(1);
  });

  it("after a process killed between creating the batch and recording its id, a second submit finds the batch", async () => {
    server = await startOpenAIServer({ script: (r) => ({ verdict: truth(r) }) });
    const dir = tempDir("ragjudge-crash-");
    const base = ["--config", CONFIG, "--cache-dir", dir];
    const file = join(dir, "judge.jsonl");
    expect((await runCliCaptured(["judge", ...base, "--base-url", server.baseURL, "--model", "judge-model", "--batch-export", file], NO_KEY)).code).toBe(0);

    const crashed = await spawnCli(["batch", "submit", file, ...base, "--base-url", server.baseURL], { RAGJUDGE_TEST_CRASH_AT: "created" });
    expect(crashed.signal, crashed.stderr).toBe("SIGKILL");
    expect(crashed.stdout).toBe("");
    expect(server.batch.batches).toHaveLength(1);
    expect(server.batch.uploads).toBe(1);

    const status = await runCliCaptured(["batch", "status", ...base, "--base-url", server.baseURL], NO_KEY);
    expect(status.out).toMatch(/\(no batch\) {2}interrupted before the batch was recorded {2}judge\.jsonl .*run {2}ragjudge batch submit .*judge\.jsonl {2}again/);

    const again = await runCliCaptured(["batch", "submit", file, ...base, "--base-url", server.baseURL], NO_KEY);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/an interrupted submit had created batch_\d+; found it through the batch list and recorded it \(no second batch\)/);
    expect(server.batch.batches).toHaveLength(1);
    expect(server.batch.uploads).toBe(1);

    expect((await runCliCaptured(["batch", "collect", ...base, "--base-url", server.baseURL, "--wait", "--poll-interval", "0.01"], NO_KEY)).code).toBe(0);
    const judged = await runCliCaptured(["judge", ...base, "--base-url", server.baseURL, "--model", "judge-model", "--no-progress"], NO_KEY);
    expect(judged.code).toBe(0);
    expect(server.count).toBe(0);
  }, 60_000);

  it("sends the expired requests back to pending: the next export holds exactly them, and nothing is lost", async () => {
    let expire = true;
    server = await startOpenAIServer({ script: (r) => ({ verdict: truth(r) }), batchPlan: () => (expire ? { outcome: "expired", polls: 0, processed: 15 } : { polls: 0 }) });
    const dir = tempDir("ragjudge-expired-");
    const base = ["--config", CONFIG, "--cache-dir", dir];
    const judge = ["judge", ...base, "--base-url", server.baseURL, "--model", "judge-model", "--no-progress"];
    expect((await runCliCaptured([...judge, "--batch-export", join(dir, "a.jsonl")], NO_KEY)).code).toBe(0);
    expect((await runCliCaptured(["batch", "submit", join(dir, "a.jsonl"), ...base, "--base-url", server.baseURL], NO_KEY)).code).toBe(0);
    const col = await runCliCaptured(["batch", "collect", ...base, "--base-url", server.baseURL], NO_KEY);
    expect(col.out).toMatch(/batch_\d+ expired: 15 verdicts stored, 0 error verdicts, 22 returned to pending/);
    expect(col.out).toContain("22 requests need another go");

    const exp = await runCliCaptured([...judge, "--batch-export", join(dir, "b.jsonl")], NO_KEY);
    expect(exp.out).toMatch(/batch export: 22 requests in 1 file:/);
    expect(exp.out).toContain("15 already in the cache");
    expire = false;
    expect((await runCliCaptured(["batch", "submit", join(dir, "b.jsonl"), ...base, "--base-url", server.baseURL], NO_KEY)).code).toBe(0);
    expect((await runCliCaptured(["batch", "collect", ...base, "--base-url", server.baseURL], NO_KEY)).out).toContain("requests: 37 judged");
    const after = await runCliCaptured(judge, NO_KEY);
    expect(after.code).toBe(0);
    expect(server.count).toBe(0);
    expect(after.out).toContain("42 verdicts: 38 from cache, 4 by rule, 0 errors");

    // The whole evaluation too: `ragjudge run` finds every verdict in the cache and makes no call.
    await expectRunFromCacheOnly(base, server);
  });

  it("forgets a batch that will never be collected: its requests return to pending and the next export holds them", async () => {
    server = await startOpenAIServer();
    const dir = tempDir("ragjudge-forget-");
    const base = ["--config", CONFIG, "--cache-dir", dir];
    const judge = ["judge", ...base, "--base-url", server.baseURL, "--model", "judge-model", "--no-progress"];
    expect((await runCliCaptured([...judge, "--batch-export", join(dir, "a.jsonl")], NO_KEY)).code).toBe(0);
    const sub = await runCliCaptured(["batch", "submit", join(dir, "a.jsonl"), ...base, "--base-url", server.baseURL], NO_KEY);
    const id = /submitted as (batch_\d+)/.exec(sub.out)![1]!;
    expect((await runCliCaptured([...judge, "--batch-export", join(dir, "b.jsonl")], NO_KEY)).out).toContain("batch export: nothing pending");
    const unknown = await runCliCaptured(["batch", "forget", "batch_nope", ...base], NO_KEY);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain(`no batch "batch_nope" in `);
    expect(unknown.err).toContain(`(have: ${id})`);
    const f = await runCliCaptured(["batch", "forget", id, ...base], NO_KEY);
    expect(f.code, f.err).toBe(0);
    expect(f.out).toContain(`${id}: forgotten; 37 requests back to pending`);
    expect((await runCliCaptured([...judge, "--batch-export", join(dir, "b.jsonl")], NO_KEY)).out).toContain("batch export: 37 requests in 1 file");
    expect((await runCliCaptured(["batch", "collect", ...base, "--base-url", server.baseURL], NO_KEY)).out).toContain("no batches waiting to be collected");
    expect((await runCliCaptured(["batch", "forget", id, ...base], NO_KEY)).out).toContain(`${id}: already collected; nothing to forget`);
  });

  it("takes the key from the environment only and writes it nowhere", async () => {
    const key = "sk-proj-BATCHSECRET-0123456789abcdef";
    server = await startOpenAIServer();
    const dir = tempDir("ragjudge-key-");
    const base = ["--config", CONFIG, "--cache-dir", dir];
    const env = { OPENAI_API_KEY: key, OPENAI_BASE_URL: undefined };
    expect((await runCliCaptured(["judge", ...base, "--base-url", server.baseURL, "--model", "m", "--batch-export", join(dir, "x.jsonl")], env)).code).toBe(0);
    const outputs = [await runCliCaptured(["batch", "submit", join(dir, "x.jsonl"), ...base, "--base-url", server.baseURL], env), await runCliCaptured(["batch", "collect", ...base, "--base-url", server.baseURL], env), await runCliCaptured(["batch", "collect", ...base, "--base-url", server.baseURL], env)];
    expect(server.batch.authorizations.length).toBeGreaterThan(3);
    expect(server.batch.authorizations.every((a) => a === `Bearer ${key}`)).toBe(true);
    for (const o of outputs) expect(o.out + o.err).not.toContain("BATCHSECRET");
    for (const f of allFiles(dir)) expect(readFileSync(f).toString("latin1"), f).not.toContain("BATCHSECRET");

    // Submitting needs the key; a status with nothing to poll there does not.
    const noKey = await runCliCaptured(["batch", "submit", join(dir, "x.jsonl"), ...base, "--base-url", "https://batch.example.invalid/v1"], NO_KEY);
    expect(noKey.code).toBe(2);
    expect(noKey.err).toContain("no API key: set the environment variable OPENAI_API_KEY");
    const idle = await runCliCaptured(["batch", "status", ...base, "--base-url", "https://batch.example.invalid/v1"], NO_KEY);
    expect(idle.code, idle.err).toBe(0);
    expect(idle.out).toContain("no batches waiting to be collected at https://batch.example.invalid/v1");
  });

  it("names usage mistakes in one line (exit 2), and an unreachable endpoint (exit 4)", async () => {
    const dir = tempDir("ragjudge-usage-");
    const base = ["--config", CONFIG, "--cache-dir", dir];
    const baseline = await runCliCaptured(["judge", ...base, "--judge", "baseline", "--batch-export", join(dir, "x.jsonl")], NO_KEY);
    expect(baseline.code).toBe(2);
    expect(baseline.err).toContain("--batch-export needs the LLM judge");
    const stray = await runCliCaptured(["judge", ...base, "--judge", "baseline", "--batch-max-requests", "5"], NO_KEY);
    expect(stray.code).toBe(2);
    expect(stray.err).toContain("--batch-max-requests and --batch-max-bytes go with --batch-export");
    const dry = await runCliCaptured(["judge", ...base, "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--dry-run", "--batch-export", join(dir, "x.jsonl")], NO_KEY);
    expect(dry.code).toBe(2);
    expect(await runCliCaptured(["judge", ...base, "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--batch-export", join(dir, "x.jsonl")], NO_KEY)).toMatchObject({ code: 0 });
    const closed = await startOpenAIServer();
    await closed.close();
    const down = await runCliCaptured(["batch", "submit", join(dir, "x.jsonl"), ...base, "--base-url", closed.baseURL], NO_KEY);
    // An endpoint that cannot be reached is not bad input: the judge could not finish (exit 4), rerun later.
    expect(down.code).toBe(4);
    expect(down.err).toBe(`ragjudge: error: upload: cannot reach ${closed.baseURL} (ECONNREFUSED) (the endpoint cannot serve this now; rerun later: every step resumes where it stopped)\n`);
    const missing = await runCliCaptured(["batch", "submit", join(dir, "nope.jsonl"), ...base, "--base-url", "http://127.0.0.1:9/v1"], NO_KEY);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/nope\.jsonl: file not found/);
  });

  /** A project whose judge has `judge`'s deadlines, its requests exported to a batch file; the arguments for batch commands. */
  async function exported(judge: Record<string, unknown>): Promise<{ base: string[]; file: string }> {
    const { dir, config } = fixtureProject({ judge: { kind: "openai", model: "m", ...judge } });
    const base = ["--config", config, "--cache-dir", dir];
    const file = join(dir, "x.jsonl");
    expect(await runCliCaptured(["judge", ...base, "--base-url", "http://127.0.0.1:9/v1", "--batch-export", file], NO_KEY)).toMatchObject({ code: 0 });
    return { base, file };
  }

  /** A loopback server answering by `handle`; its URL, and a close that ends the replies it held. */
  async function scripted(handle: (req: { method: string; url: string }, res: ServerResponse) => void): Promise<{ url: string; close: () => Promise<void> }> {
    const held: ServerResponse[] = [];
    const srv = createServer((req, res) => {
      req.resume();
      held.push(res);
      req.on("end", () => handle({ method: req.method ?? "", url: req.url ?? "" }, res));
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    return {
      url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`,
      close: async () => {
        for (const res of held) res.destroy();
        await new Promise<void>((r) => srv.close(() => r()));
      },
    };
  }

  const fileObject = JSON.stringify({ id: "file-1", object: "file", bytes: 10, created_at: 1733000000, filename: "x.jsonl", purpose: "batch", status: "processed" });

  it("stops a reply whose body stalls after its headers (the SDK's timeout covers the headers alone), exit 4", async () => {
    const { base, file } = await exported({ timeoutMs: 400, maxRetries: 0 });
    const srv = await scripted((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(fileObject.slice(0, 20)); // and no more
    });
    try {
      const t0 = performance.now();
      const r = await runCliCaptured(["batch", "submit", file, ...base, "--base-url", srv.url], NO_KEY);
      expect(r.code, r.err).toBe(4);
      expect(r.err).toMatch(/^ragjudge: error: upload: timed out: .* did not complete the reply within the call.s deadline/);
      expect(performance.now() - t0).toBeLessThan(15_000);
    } finally {
      await srv.close();
    }
  });

  it("never retries creating a batch (a retry after a timeout made a second, billed batch), exit 4", async () => {
    const { base, file } = await exported({ timeoutMs: 400, maxRetries: 3 });
    let creates = 0;
    const srv = await scripted((req, res) => {
      if (req.method === "POST" && req.url.startsWith("/v1/files")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(fileObject);
      } else if (req.method === "POST" && req.url.startsWith("/v1/batches")) creates++; // made, never answered
      else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data: [], has_more: false }));
      }
    });
    try {
      const r = await runCliCaptured(["batch", "submit", file, ...base, "--base-url", srv.url], NO_KEY);
      expect(r.code, r.err).toBe(4);
      expect(r.err).toMatch(/^ragjudge: error: create batch: /);
      expect(creates).toBe(1);
    } finally {
      await srv.close();
    }
  });

  it("gives up on an endpoint that accepts a call and never answers after the config's judge.timeoutMs and maxRetries (exit 4), instead of hanging", async () => {
    const { base, file } = await exported({ timeoutMs: 400, maxRetries: 1 });
    const silent = await scripted(() => {}); // takes the upload, never answers
    try {
      const t0 = performance.now();
      const hung = await runCliCaptured(["batch", "submit", file, ...base, "--base-url", silent.url], NO_KEY);
      expect(hung.code, hung.err).toBe(4);
      expect(hung.err).toMatch(/^ragjudge: error: upload: .*tim(ed )?out/i);
      // two tries of 0.4 s plus a second for the small upload each, and the SDK's backoff: seconds, not the 10 minutes of before
      expect(performance.now() - t0).toBeLessThan(15_000);
    } finally {
      await silent.close();
    }
  });
});
