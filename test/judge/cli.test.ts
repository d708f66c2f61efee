import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { JudgeCache } from "../../src/judge/schedule/cache.js";
import { NO_KEY, runCliCaptured, type EnvOverrides } from "../helpers/cli.js";
import { startOpenAIServer, type TestServer } from "../server/openai-server.js";
import { FIXTURE, readJudgments, tempDir } from "./helpers.js";

const CONFIG = join(FIXTURE, "ragjudge.config.json");

/** The fixture's config, its paths made absolute and `edit` applied, written to `file`: a copy a test may change or have replaced. */
function configCopy(file: string, edit: (config: Record<string, unknown>) => void = () => {}): string {
  const base = JSON.parse(readFileSync(CONFIG, "utf8")) as Record<string, unknown>;
  for (const k of ["golden", "rubricsDir", "labels"]) if (typeof base[k] === "string") base[k] = join(dirname(CONFIG), base[k] as string);
  base.variants = (base.variants as Record<string, string>[]).map((v) => ({ ...v, output: join(dirname(CONFIG), v.output!), ...(v.chunks ? { chunks: join(dirname(CONFIG), v.chunks) } : {}) }));
  edit(base);
  writeFileSync(file, JSON.stringify(base, null, 2));
  return file;
}

/** `ragjudge judge` on the judge fixture, without the progress line. */
const cli = (args: string[], env: EnvOverrides = {}) => runCliCaptured(["judge", "--config", CONFIG, "--no-progress", ...args], env);

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("ragjudge judge", () => {
  it("explains how to configure a judge when none is configured (exit 2)", async () => {
    const r = await cli(["--cache-dir", tempDir()], NO_KEY);
    expect(r.code).toBe(2);
    expect(r.err).toContain("no judge configured");
    expect(r.err).toContain("--judge baseline");
    // one choice a line, as written (each line was shown as one, its breaks as \u000a)
    expect(r.err).toMatch(/^ragjudge: error: no judge configured\. Choose one:\n  - an LLM judge: /);
    expect(r.err).not.toContain("\\u000a");
    expect(r.out).toBe("");
  });

  it("runs the offline baseline, labelled as such, and writes valid judgments", async () => {
    const dir = tempDir();
    const r = await cli(["--judge", "baseline", "--cache-dir", dir], NO_KEY);
    expect(r.code).toBe(0);
    expect(r.out).toContain("[baseline judge (offline, no LLM)");
    const js = readJudgments(join(dir, "judgments.jsonl"));
    expect(js.length).toBe(42);
    expect(new Set(js.map((j) => j.judge))).toEqual(new Set(["baseline", "rule"]));
    expect(readdirSync(dir)).toEqual(["judgments.jsonl"]);
  });

  it("judges against an OpenAI-compatible server, then reruns from the cache with zero requests", async () => {
    server = await startOpenAIServer({ script: (q) => ({ verdict: /gym/.test(q.user) ? "no" : "yes" }) });
    const dir = tempDir();
    const out = join(dir, "out", "j.jsonl");
    const args = ["--base-url", server.baseURL, "--model", "judge-model", "--cache-dir", dir, "--out", out, "--concurrency", "3"];
    const first = await cli(args, NO_KEY);
    expect(first.code).toBe(0);
    expect(server.count).toBe(37);
    expect(first.out).toMatch(/not-found\s+\[LLM judge judge-model; served served-judge-model, fingerprint [0-9a-f]{12}\]/);
    expect(first.out).toContain("tokens this run");
    const js = readJudgments(out);
    expect(js).toHaveLength(42);

    server.resetCount();
    const again = await cli(args, NO_KEY);
    expect(again.code).toBe(0);
    expect(server.count).toBe(0);
    expect(again.out).toContain("42 verdicts: 38 from cache, 4 by rule, 0 errors");
    expect(readJudgments(out).map((j) => j.verdict)).toEqual(js.map((j) => j.verdict));
  });

  it("falls back to JSON in text on a server without structured outputs, and remembers it so the rerun makes zero requests", async () => {
    server = await startOpenAIServer({ jsonSchema: false, script: () => ({ verdict: "no" }) });
    const dir = tempDir();
    const args = ["--base-url", server.baseURL, "--model", "judge-model", "--cache-dir", dir, "--concurrency", "3", "--rubrics", "not-found", "--by", "none"];
    const first = await cli(args, NO_KEY);
    expect(first.code).toBe(0);
    expect(first.err).toContain("the server rejects structured outputs");
    const rejected = server.requests.filter((r) => r.info.jsonSchema).length;
    expect(rejected).toBeGreaterThanOrEqual(1);
    expect(rejected).toBeLessThanOrEqual(3);
    expect(server.count - rejected).toBe(11);
    expect(first.out).not.toContain("kind ");
    const js = readJudgments(join(dir, "judgments.jsonl")).filter((j) => j.judge === "llm");
    expect(js.every((j) => j.verdict === "no")).toBe(true);
    server.resetCount();
    const again = await cli(args, NO_KEY);
    expect(again.code).toBe(0);
    expect(server.count).toBe(0);
    expect(again.err).toContain("(JSON in text)");
    expect(readJudgments(join(dir, "judgments.jsonl")).filter((j) => j.judge === "llm").map((j) => j.fingerprint)).toEqual(js.map((j) => j.fingerprint));
  });

  it("sends temperature 0 and seed 0 by default, and omits them with --no-temperature --no-seed (a new fingerprint)", async () => {
    server = await startOpenAIServer();
    const dir = tempDir();
    const base = ["--base-url", server.baseURL, "--model", "m", "--cache-dir", dir, "--rubrics", "correctness", "--variant", "bm25"];
    expect((await cli(base, NO_KEY)).code).toBe(0);
    expect(server.requests[0]!.info.body).toMatchObject({ model: "m", temperature: 0, seed: 0, max_tokens: 512 });
    const fp1 = readJudgments(join(dir, "judgments.jsonl"))[0]!.fingerprint;
    server.resetCount();
    expect((await cli([...base, "--no-temperature", "--no-seed"], NO_KEY)).code).toBe(0);
    expect(server.count).toBe(4);
    const body = server.requests[0]!.info.body;
    expect("temperature" in body || "seed" in body).toBe(false);
    expect(readJudgments(join(dir, "judgments.jsonl"))[0]!.fingerprint).not.toBe(fp1);
  });

  it("--dry-run counts calls, tokens and cost and sends nothing", async () => {
    server = await startOpenAIServer();
    const r = await cli(["--base-url", server.baseURL, "--model", "judge-model", "--cache-dir", tempDir(), "--dry-run", "--rubrics", "faithfulness,not-found"], NO_KEY);
    expect(r.code).toBe(0);
    expect(server.count).toBe(0);
    expect(r.out).toMatch(/faithfulness: 9 verdicts \(0 sharing identical evidence\), 0 cached, 9 calls, ~\d+ prompt/);
    expect(r.out).toMatch(/total: 20 calls/);
    expect(r.out).toMatch(/estimated cost: \$0\.00\d+ \(at most \$0\.\d+\)/);
  });

  it("exits 4 when error verdicts remain (the judge could not finish), 0 with --allow-errors, and writes them as errors", async () => {
    server = await startOpenAIServer({ script: (q) => (/gym/.test(q.user) ? { status: 500 } : { verdict: "yes" }) });
    const dir = tempDir();
    const args = ["--base-url", server.baseURL, "--model", "m", "--cache-dir", dir, "--rubrics", "not-found", "--max-retries", "0"];
    const r = await cli(args, NO_KEY);
    expect(r.code).toBe(4);
    expect(r.err).toContain("2 items ended as error verdicts");
    const errs = readJudgments(join(dir, "judgments.jsonl")).filter((j) => j.verdict === "error");
    expect(errs.map((j) => `${j.variant}/${j.question}`)).toEqual(["bm25/q3", "hybrid/q3"]);
    expect(errs[0]!.error).toMatch(/^http-500/);
    expect((await cli([...args, "--allow-errors"], NO_KEY)).code).toBe(0);
  });

  it("stops with exit 2 on a refused key and never writes the key anywhere", async () => {
    const key = "sk-proj-VERYSECRET-abcdef0123456789";
    server = await startOpenAIServer({ script: (q) => (q.index < 2 ? { verdict: "yes" } : { status: 401, message: `Incorrect API key provided: ${key}. Authorization: Bearer ${key}` }) });
    const dir = tempDir();
    const r = await cli(["--base-url", server.baseURL, "--model", "m", "--cache-dir", dir, "--concurrency", "1"], { OPENAI_API_KEY: key });
    expect(r.code).toBe(2);
    expect(r.err).toContain("the judge stopped: http-401");
    expect(server.requests[0]!.authorization).toBe(`Bearer ${key}`);
    expect(r.err + r.out).not.toContain("VERYSECRET");
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f)).toString("latin1")).not.toContain("VERYSECRET");
  });

  it("a loopback server that wants a key, given none, is told to set one, not that its key was refused (exit 2)", async () => {
    server = await startOpenAIServer({ script: () => ({ status: 401, message: "Invalid API key" }) });
    const r = await cli(["--base-url", server.baseURL, "--model", "m", "--cache-dir", tempDir(), "--concurrency", "1"], NO_KEY);
    expect(r.code).toBe(2);
    expect(r.err).toContain("the judge stopped: http-401: Invalid API key (the endpoint wants an API key and none is set (a loopback server is sent a placeholder): put the key it wants in OPENAI_API_KEY");
    expect(r.err).not.toContain("refused the API key");
    // with a key set, the refusal is about that key
    const keyed = await cli(["--base-url", server.baseURL, "--model", "m", "--cache-dir", tempDir(), "--concurrency", "1"], { OPENAI_API_KEY: "sk-wrong" });
    expect(keyed.code).toBe(2);
    expect(keyed.err).toContain("(the endpoint refused the API key)");
    expect(keyed.err).not.toContain("none is set");
  });

  it("names bad flags and unknown rubrics or variants (exit 2)", async () => {
    const dir = tempDir();
    const unknownRubric = await cli(["--judge", "baseline", "--cache-dir", dir, "--rubrics", "faithfulnes"], NO_KEY);
    expect(unknownRubric.code).toBe(2);
    expect(unknownRubric.err).toMatch(/rubrics: no rubric named "faithfulnes" \(have: anchor-ambiguity, citation-accuracy/);
    const unknownVariant = await cli(["--judge", "baseline", "--cache-dir", dir, "--variant", "bm26"], NO_KEY);
    expect(unknownVariant.code).toBe(2);
    expect(unknownVariant.err).toContain('variants: no variant named "bm26" (have: bm25, hybrid)');
    expect((await cli(["--judge", "baseline", "--concurrency", "0"], NO_KEY)).code).toBe(2);
    const noKey = await cli(["--model", "m", "--base-url", "https://example.invalid/v1", "--cache-dir", dir], NO_KEY);
    expect(noKey.code).toBe(2);
    expect(noKey.err).toContain("no API key: set the environment variable OPENAI_API_KEY");
  });

  it("refuses --by none in a list with groupings, saying none stands alone, as retrieval does", async () => {
    const r = await cli(["--judge", "baseline", "--cache-dir", tempDir(), "--by", "none,kind"], NO_KEY);
    expect(r.code).toBe(2);
    expect(r.err).toBe('ragjudge: error: --by: "none" (overall only) stands alone, not in a list with groupings (got "none,kind"): give --by none, or the groupings without it\n');
  });

  it("refuses numbers past their bounds before sending anything, from a flag or the config alike (exit 2, not an outage or a crash)", async () => {
    server = await startOpenAIServer();
    const dir = tempDir();
    const base = ["--base-url", server.baseURL, "--model", "m", "--cache-dir", dir];
    const cases: [string[], RegExp][] = [
      // a timer past Node's limit fired at once: every attempt timed out, exit 4 with no request sent
      [["--timeout-ms", "2147483648"], /--timeout-ms: expected a whole number from 1 to 2,147,483,647, got "2147483648" \(Node's longest timer/],
      // one worker per unit of width: "Invalid array length" (exit 3), a V8 abort, or a hang
      [["--concurrency", "4294967296"], /--concurrency: expected a whole number from 1 to 1,024, got "4294967296"/],
      [["--repeats", "26", "--dry-run"], /--repeats: expected a whole number from 1 to 25, got "26"/],
      // the config refused a temperature below 0 and above 2; the flag took both
      [["--temperature", "-1", "--dry-run"], /--temperature: expected a number from 0 to 2, got "-1"/],
      [["--temperature", "1e3", "--dry-run"], /--temperature: expected a number from 0 to 2, got "1e3"/],
      [["--temperature", "2.5", "--dry-run"], /--temperature: expected a number from 0 to 2, got "2.5"/],
      // the last one won without a word
      [["--temperature", "1", "--no-temperature", "--dry-run"], /--temperature and --no-temperature contradict each other/],
      [["--no-seed", "--seed", "3", "--dry-run"], /--seed and --no-seed contradict each other/],
      [["--max-tokens", "9", "--no-max-tokens", "--dry-run"], /--max-tokens and --no-max-tokens contradict each other/],
    ];
    for (const [args, message] of cases) {
      const r = await cli([...base, ...args], NO_KEY);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err, args.join(" ")).toMatch(message);
      expect(r.err.trim().split("\n"), args.join(" ")).toHaveLength(1);
    }
    expect(server.count).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses a config judge.timeoutMs past Node's timer limit (every attempt timed out at once: exit 4 with no request sent)", async () => {
    server = await startOpenAIServer();
    const dir = tempDir();
    const config = configCopy(join(dir, "ragjudge.config.json"), (c) => (c.judge = { kind: "openai", model: "m", baseUrl: server!.baseURL, timeoutMs: 99_999_999_999 }));
    const r = await runCliCaptured(["judge", "--config", config, "--no-progress", "--cache-dir", join(dir, "cache")], NO_KEY);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/ragjudge\.config\.json:\d+: judge\.timeoutMs: must be a whole number from 1 to 2,147,483,647: Node's longest timer/);
    expect(server.count).toBe(0);
  });

  it("refuses a list flag that names nothing, keeping the judgments file (--rubrics , judged nothing, exited 0 and emptied it)", async () => {
    const dir = tempDir();
    expect((await cli(["--judge", "baseline", "--cache-dir", dir], NO_KEY)).code).toBe(0);
    const judgments = readFileSync(join(dir, "judgments.jsonl"), "utf8");
    const cases: [string[], string][] = [
      [["--rubrics", ","], '--rubrics "," names no rubric'],
      [["--rubrics", " "], '--rubrics " " names no rubric'],
      // an empty list meant every variant
      [["--variant", ","], '--variant "," names no variant'],
      [["--variant", "bm25", "--variant", " , "], '--variant " , " names no variant'],
      [["--by", ","], '--by "," names no breakdown (kind, tags or none)'],
    ];
    for (const [args, message] of cases) {
      const r = await cli(["--judge", "baseline", "--cache-dir", dir, ...args], NO_KEY);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err, args.join(" ")).toBe(`ragjudge: error: ${message}: give one or more, comma separated, or leave ${args.at(-2)} out for the default\n`);
      expect(r.out).toBe("");
    }
    expect(readFileSync(join(dir, "judgments.jsonl"), "utf8")).toBe(judgments);
    // repeated and comma separated still add up
    const both = await cli(["--judge", "baseline", "--cache-dir", dir, "--variant", "bm25", "--variant", "hybrid,", "--rubrics", "correctness"], NO_KEY);
    expect(both.code, both.err).toBe(0);
    expect(new Set(readJudgments(join(dir, "judgments.jsonl")).map((j) => j.variant))).toEqual(new Set(["bm25", "hybrid"]));
  });

  it("stops with exit 4, not 1 or 2, when the endpoint cannot serve the run (rate limited), keeping what was committed", async () => {
    server = await startOpenAIServer({ script: (q) => (q.index < 3 ? { verdict: "yes" } : { status: 429, headers: { "retry-after": "0" } }) });
    const dir = tempDir();
    const r = await cli(["--base-url", server.baseURL, "--model", "m", "--cache-dir", dir, "--concurrency", "1", "--max-retries", "0"], NO_KEY);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/ragjudge: the judge stopped: rate limited: http-429.*8 calls in a row gave up on the rate limit.*rerun later.*the verdicts already committed stay in .*judge-cache\.sqlite/);
    expect(server.count).toBe(3 + 8);
    expect(readdirSync(dir)).not.toContain("judgments.jsonl");
  });

  it("stops a run against a hung endpoint after a bounded number of timeouts (exit 4)", async () => {
    server = await startOpenAIServer({ script: () => ({ hang: true }) });
    const t0 = Date.now();
    const r = await cli(["--base-url", server.baseURL, "--model", "m", "--cache-dir", tempDir(), "--concurrency", "4", "--timeout-ms", "100", "--max-retries", "10"], NO_KEY);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/the judge stopped: timeout \(16 attempts in a row got a server error or no reply: the endpoint seems down/);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(server.count).toBeLessThanOrEqual(16 + 4);
  });

  it("stops on an endpoint that answers every call with a 500 without saying it gave no reply (exit 4)", async () => {
    server = await startOpenAIServer({ script: () => ({ status: 500, message: "boom" }) });
    const r = await cli(["--base-url", server.baseURL, "--model", "m", "--cache-dir", tempDir(), "--concurrency", "4", "--max-retries", "1"], NO_KEY);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/the judge stopped: http-500: boom \(16 attempts in a row got a server error or no reply: the endpoint seems down/);
    expect(r.err).not.toContain("with no reply");
  });

  it("says to raise --timeout-ms when the first calls all time out without retries, as when many retry", async () => {
    server = await startOpenAIServer({ script: () => ({ hang: true }) });
    const r = await cli(["--base-url", server.baseURL, "--model", "m", "--cache-dir", tempDir(), "--concurrency", "1", "--timeout-ms", "50", "--max-retries", "0"], NO_KEY);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/the judge stopped: timeout \(the first 10 calls all failed; stopping: check --base-url, --model and the server; if it is only slow, raise --timeout-ms \(config: judge\.timeoutMs\)\)/);
  });

  it("shows retries by cause and the running cost in its progress, and prints the cost line as run does", async () => {
    // The first request gets a 429, the second a 500: both retried, then every call answers.
    server = await startOpenAIServer({ script: (q) => (q.index === 0 ? { status: 429, headers: { "retry-after-ms": "10" } } : q.index === 1 ? { status: 500 } : { verdict: "yes" }) });
    const dir = tempDir();
    const config = configCopy(join(tempDir(), "priced.config.json"), (c) => (c.prices = { m: { input: 1, output: 2 } }));
    const r = await runCliCaptured(["judge", "--config", config, "--base-url", server.baseURL, "--model", "m", "--cache-dir", dir, "--concurrency", "1", "--rubrics", "not-found"], NO_KEY);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/\| retries 2: 429 x1 waited 0:\d\d, 5xx x1 \|/);
    expect(r.err).toMatch(/\| \$0\.\d{4}, ~\$0\.\d{4} total \|/);
    expect(r.out).toMatch(/^tokens: \d+ calls, \d+ prompt \+ \d+ completion; cost: \$0\.\d{4} \(at \$1\/M input and \$2\/M output tokens/m);
  });

  it("--dry-run needs no key, even for a remote endpoint, since it sends nothing", async () => {
    const r = await cli(["--base-url", "https://api.example.invalid/v1", "--model", "judge-model", "--cache-dir", tempDir(), "--dry-run", "--rubrics", "not-found"], NO_KEY);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/total: 11 calls, ~\d+ prompt tokens, ~\d+ completion tokens \(at most 5632 completion tokens, if every reply used all of max_tokens\)/);
  });

  it("refuses a base URL with a user name or password, without printing it", async () => {
    const r = await cli(["--base-url", "https://alice:hunter2-secret@llm.example.invalid/v1", "--model", "m", "--cache-dir", tempDir()], { ...NO_KEY, OPENAI_API_KEY: "k" });
    expect(r.code).toBe(2);
    expect(r.err).toContain("the judge base URL must not contain a user name or password");
    expect(r.err + r.out).not.toContain("hunter2");
  });

  it("refuses a second run on a cache folder in use, with one line naming the holder", async () => {
    const dir = tempDir();
    const cache = JudgeCache.open(dir);
    const lease = cache.acquireLease("ragjudge judge");
    try {
      server = await startOpenAIServer();
      const r = await cli(["--base-url", server.baseURL, "--model", "m", "--cache-dir", dir], NO_KEY);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/\nragjudge: error: .*judge-cache\.sqlite: in use by another ragjudge run \(ragjudge judge, pid \d+, since [^)]+\): wait for it to finish, or give this run another --cache-dir; if no ragjudge run is alive, the lease expires by itself at \S+ \(120 s after its last heartbeat\)\n$/);
      expect(r.err.match(/ragjudge: error/g)).toHaveLength(1);
      expect(server.count).toBe(0);
      const exp = await cli(["--base-url", server.baseURL, "--model", "m", "--cache-dir", dir, "--batch-export", join(dir, "b.jsonl")], NO_KEY);
      expect(exp.code).toBe(2);
      expect(exp.err).toContain("in use by another ragjudge run");
    } finally {
      lease.release();
      cache.close();
    }
  });

  it("refuses --out naming a folder and --cache-dir naming a file before judging, leaving no temporary file", async () => {
    const dir = tempDir();
    const before = readdirSync(dir);
    const asFolder = await cli(["--judge", "baseline", "--out", dir], NO_KEY);
    expect(asFolder.code).toBe(2);
    expect(asFolder.err).toBe(`ragjudge: error: ${dir}: is a folder: give a file name to write\n`);
    expect(readdirSync(dir)).toEqual(before);
    expect(readdirSync(dirname(dir)).filter((n) => n.startsWith(`.${basename(dir)}.`))).toEqual([]);
    const file = join(dir, "cache-file");
    writeFileSync(file, "");
    const asFile = await cli(["--judge", "baseline", "--cache-dir", file], NO_KEY);
    expect(asFile.code).toBe(2);
    expect(asFile.err).toBe(`ragjudge: error: ${file}: is a file, not a folder: the cache folder must be a folder\n`);
  });

  it("refuses --out naming the config or a file it names, before judging (the config was replaced by judgments)", async () => {
    const dir = tempDir();
    const golden = join(dir, "golden.jsonl");
    writeFileSync(golden, readFileSync(join(FIXTURE, "golden.jsonl")));
    const config = configCopy(join(dir, "ragjudge.config.json"), (c) => (c.golden = golden));
    const text = readFileSync(config, "utf8");
    const goldenText = readFileSync(golden, "utf8");
    const overConfig = await runCliCaptured(["judge", "--config", config, "--judge", "baseline", "--no-progress", "--cache-dir", join(dir, "cache"), "--out", config], NO_KEY);
    expect(overConfig.code).toBe(2);
    expect(overConfig.err).toBe(`ragjudge: error: ${config}: is the config file, which this command reads: give another file to write\n`);
    expect(readFileSync(config, "utf8")).toBe(text);
    const overGolden = await runCliCaptured(["judge", "--config", config, "--judge", "baseline", "--no-progress", "--cache-dir", join(dir, "cache"), "--out", golden], NO_KEY);
    expect(overGolden.code).toBe(2);
    expect(overGolden.err).toMatch(/golden\.jsonl: is the golden set, which this command reads/);
    expect(readFileSync(golden, "utf8")).toBe(goldenText);
    expect(readdirSync(dir).sort()).toEqual(["golden.jsonl", "ragjudge.config.json"]);
  });

  it("--help names where the key comes from and shows honest defaults", async () => {
    const { out } = await runCliCaptured(["judge", "--help"]);
    expect(out).toContain("OPENAI_API_KEY");
    expect(out).toContain("apiKeyEnv");
    expect(out).not.toContain("(default: [])");
    expect(out).toMatch(/--by <list>[\s\S]*\(default: kind\)/);
    expect(out).toMatch(/Exit status: 0 all judged; 2 bad input or setup[\s\S]*4 the judge could not\s+finish/);
  });

  it("judges only the chosen variant and rubrics", async () => {
    const dir = tempDir();
    const r = await cli(["--judge", "baseline", "--cache-dir", dir, "--variant", "hybrid", "--rubrics", "correctness"], NO_KEY);
    expect(r.code).toBe(0);
    const js = readJudgments(join(dir, "judgments.jsonl"));
    expect(new Set(js.map((j) => `${j.variant}/${j.rubric}`))).toEqual(new Set(["hybrid/correctness"]));
  });
});
