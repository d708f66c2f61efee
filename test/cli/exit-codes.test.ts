import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli/errors.js";
import { NO_KEY, runCliCaptured, runCliIn } from "../helpers/cli.js";
import { ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";
import { startOpenAIServer, type TestServer } from "../server/openai-server.js";

/**
 * The exit-code table of the README, command by command: 0 ok; 1 a quality
 * gate failed; 2 bad input or usage; 3 internal error; 4 the judge could not
 * finish. Each row below is one documented code of one command.
 */
const EXAMPLE = join(ROOT, "ragjudge.config.json");

/** Runs a command in `cwd`, with no key. */
const inDir = (cwd: string, args: string[]) => runCliIn(cwd, args, NO_KEY);

describe("no config: every command says so in one line, exits 2 and writes nothing", () => {
  const commands: string[][] = [
    ["run"], ["validate"], ["retrieval"], ["judge"], ["sample", "--random", "5", "--annotator", "a"], ["review", "--annotator", "a"],
    ["calibrate"], ["labels", "export", "--out", "x.csv"], ["batch", "status"], ["compare", "--variants", "a,b"],
  ];
  for (const args of commands) {
    it(`ragjudge ${args.join(" ")}`, async () => {
      const cwd = tempDir("ragjudge-noconfig-");
      const r = await inDir(cwd, args);
      expect(r.code).toBe(EXIT.badInput);
      // validate and retrieval also run on files named by flags, and say so
      const files = { validate: "name the files: --golden FILE --output FILE (and --chunks FILE)", retrieval: "name the files: --golden FILE --output FILE (and --chunks FILE), or --qrels FILE --trec-run FILE for a TREC run" }[args[0]!];
      const ways = files ? `add --example to run the shipped example, or ${files}` : "or add --example to run the shipped example";
      expect(r.err).toBe(`ragjudge: error: no ragjudge.config.json in ${cwd} and no --config: run \`ragjudge init\` to start one here, ${ways}\n`);
      expect(r.out).toBe("");
      expect(readdirSync(cwd)).toEqual([]);
    });
  }

  it("--example runs the shipped example from any folder, writing only there", async () => {
    const cwd = tempDir("ragjudge-example-");
    const r = await inDir(cwd, ["run", "--example", "--quiet"]);
    expect(r.code, r.err).toBe(EXIT.ok);
    expect(readdirSync(cwd).sort()).toEqual([".ragjudge", "evaluations"]);
    expect((await inDir(cwd, ["validate", "--example", "--config", EXAMPLE])).code).toBe(EXIT.badInput);
  });
});

describe("exit codes per command", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startOpenAIServer({ script: (q) => (/gym/i.test(q.user) ? { status: 500 } : { verdict: "yes" }) });
  });
  afterAll(async () => server?.close());

  const cases: [string, number, () => string[]][] = [
    ["init: ok", EXIT.ok, () => ["init", tempDir()]],
    ["init: a target that is a file", EXIT.badInput, () => ["init", EXAMPLE]],
    ["import: a file that is not there", EXIT.badInput, () => ["import", "ragas", join(tempDir(), "none.jsonl"), "--out", tempDir()]],
    ["validate: ok", EXIT.ok, () => ["validate", "--config", EXAMPLE]],
    ["retrieval: a floor missed", EXIT.failed, () => ["retrieval", "--config", EXAMPLE, "--fail-under", "R@10=0.99"]],
    ["retrieval: an unknown measure", EXIT.badInput, () => ["retrieval", "--config", EXAMPLE, "-m", "F9"]],
    ["judge: the baseline, ok", EXIT.ok, () => ["judge", "--config", EXAMPLE, "--cache-dir", tempDir(), "--no-progress"]],
    ["judge: error verdicts left", EXIT.judgeUnfinished, () => ["judge", "--config", EXAMPLE, "--judge", "openai", "--model", "m", "--base-url", server.baseURL, "--cache-dir", tempDir(), "--rubrics", "not-found", "--max-retries", "0", "--no-progress"]],
    ["judge: error verdicts left, --allow-errors", EXIT.ok, () => ["judge", "--config", EXAMPLE, "--judge", "openai", "--model", "m", "--base-url", server.baseURL, "--cache-dir", tempDir(), "--rubrics", "not-found", "--max-retries", "0", "--no-progress", "--allow-errors"]],
    ["judge: the endpoint down", EXIT.judgeUnfinished, () => ["judge", "--config", EXAMPLE, "--judge", "openai", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--cache-dir", tempDir(), "--max-retries", "0", "--timeout-ms", "200", "--no-progress"]],
    ["run: ok", EXIT.ok, () => ["run", "--config", EXAMPLE, "--evaluations-dir", tempDir(), "--quiet"]],
    ["run: --require-trusted with untrusted rubrics", EXIT.failed, () => ["run", "--config", EXAMPLE, "--evaluations-dir", tempDir(), "--quiet", "--require-trusted"]],
    ["run: a floor missed", EXIT.failed, () => ["run", "--config", EXAMPLE, "--evaluations-dir", tempDir(), "--quiet", "--fail-under", "R@10=0.99"]],
    ["run: error verdicts left", EXIT.judgeUnfinished, () => ["run", "--config", EXAMPLE, "--evaluations-dir", tempDir(), "--quiet", "--judge", "openai", "--model", "m", "--base-url", server.baseURL, "--cache-dir", tempDir(), "--no-progress"]],
    ["run: error verdicts left, --allow-errors", EXIT.ok, () => ["run", "--config", EXAMPLE, "--evaluations-dir", tempDir(), "--quiet", "--judge", "openai", "--model", "m", "--base-url", server.baseURL, "--cache-dir", tempDir(), "--no-progress", "--allow-errors"]],
    ["run: the endpoint down", EXIT.judgeUnfinished, () => ["run", "--config", EXAMPLE, "--evaluations-dir", tempDir(), "--quiet", "--judge", "openai", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--cache-dir", tempDir(), "--no-progress"]],
    ["sample: no judgments yet", EXIT.badInput, () => ["sample", "--config", EXAMPLE, "--random", "5", "--annotator", "a", "--judgments", join(tempDir(), "none.jsonl")]],
    ["review: no queue", EXIT.badInput, () => ["review", join(tempDir(), "queue.jsonl"), "--annotator", "a", "--config", EXAMPLE]],
    ["calibrate: --require-trusted, untrusted", EXIT.failed, () => ["calibrate", "--config", EXAMPLE, "--judgments", join(ROOT, "test", "fixtures", "calibration", "judgments.jsonl"), "--no-write", "--require-trusted"]],
    ["labels: a CSV that is not there", EXIT.badInput, () => ["labels", "import", join(tempDir(), "none.csv"), "--config", EXAMPLE, "--annotator", "a", "--provenance", "human", "--frame", "random"]],
    ["compare: two variants that are not there", EXIT.badInput, () => ["compare", "--variants", "a,b", "--config", EXAMPLE, "--evaluations-dir", tempDir()]],
  ];
  it("compare: --require-trusted with a judge figure untrusted now: exit 1; without it: exit 0", async () => {
    const evaluations = tempDir();
    expect((await runCliCaptured(["run", "--config", EXAMPLE, "--evaluations-dir", evaluations, "--quiet"], NO_KEY)).code).toBe(EXIT.ok);
    const compare = ["compare", "--variants", "bm25-small,hybrid-rerank", "--config", EXAMPLE, "--evaluations-dir", evaluations, "--reps", "100"];
    expect((await runCliCaptured(compare, NO_KEY)).code).toBe(EXIT.ok);
    const gated = await runCliCaptured([...compare, "--require-trusted"], NO_KEY);
    expect(gated.code).toBe(EXIT.failed);
    expect(gated.err).toMatch(/^ragjudge: untrusted judge figures: hybrid-rerank against bm25-small: /);
  });

  it("batch: the endpoint down: exit 4; a file that is not there: exit 2", async () => {
    const cache = tempDir();
    const file = join(tempDir(), "batch.jsonl");
    const dead = ["--base-url", "http://127.0.0.1:9/v1"];
    const exported = await runCliCaptured(["judge", "--config", EXAMPLE, "--judge", "openai", "--model", "m", ...dead, "--cache-dir", cache, "--rubrics", "not-found", "--batch-export", file], NO_KEY);
    expect(exported.code, exported.err).toBe(EXIT.ok);
    expect((await runCliCaptured(["batch", "submit", file, "--config", EXAMPLE, "--cache-dir", cache, ...dead], NO_KEY)).code).toBe(EXIT.judgeUnfinished);
    expect((await runCliCaptured(["batch", "submit", `${file}.none`, "--config", EXAMPLE, "--cache-dir", cache, ...dead], NO_KEY)).code).toBe(EXIT.badInput);
  });

  it("judge and run: a rerun of items the model refuses (400) is still exit 4, and --allow-errors still passes it", async () => {
    // One answer in three is refused as the model's own (a context too long), the rest judged: the rerun asks only
    // the refused ones, whose failures once read as "the first 10 calls all failed" (a wrong key or model: exit 2).
    const refusing = await startOpenAIServer({ script: (q) => (q.user.length % 3 === 0 ? { status: 400, body: { error: { message: "This model's maximum context length is 8192 tokens" } } } : { verdict: "yes" }) });
    try {
      const cache = tempDir();
      const judge = ["judge", "--config", EXAMPLE, "--judge", "openai", "--model", "m", "--base-url", refusing.baseURL, "--cache-dir", cache, "--no-progress"];
      const first = await runCliCaptured(judge, NO_KEY);
      expect(first.code, first.err).toBe(EXIT.judgeUnfinished);
      const failed = Number(/(\d+) items? ended as error verdicts/.exec(first.err)?.[1]);
      expect(failed).toBeGreaterThanOrEqual(10);
      const again = await runCliCaptured(judge, NO_KEY);
      expect(again.code, again.err).toBe(EXIT.judgeUnfinished);
      expect(again.err).not.toMatch(/calls all failed/);
      expect((await runCliCaptured([...judge, "--allow-errors"], NO_KEY)).code).toBe(EXIT.ok);
      const run = ["run", "--config", EXAMPLE, "--evaluations-dir", tempDir(), "--quiet", "--judge", "openai", "--model", "m", "--base-url", refusing.baseURL, "--cache-dir", cache, "--no-progress"];
      const ran = await runCliCaptured(run, NO_KEY);
      expect(ran.code, ran.err).toBe(EXIT.judgeUnfinished);
      expect((await runCliCaptured([...run, "--allow-errors"], NO_KEY)).code).toBe(EXIT.ok);
    } finally {
      await refusing.close();
    }
  }, 60_000);

  // The rule: a stop is an outage (4) only when the endpoint gave no reply or said it cannot serve now; a reply it
  // gave that is not a verdict is the setup's to change (2), whether prose from the model or no chat completion at all.
  it.each([
    ["prose where the verdict belongs (the model or the response format)", { content: "The answer looks right to me." }, /stopping: check --base-url, --model and the server; if the server lacks structured outputs, pass --response-format text\)/],
    ["a body that is not JSON (a web page: a base URL that is not the API's)", { body: "<html><body>Sign in</body></html>" }, /ragjudge: error: the judge stopped: bad-response: the body is not valid JSON \(.*is the base URL the API's, ending in \/v1\?\)/],
    ["JSON that is no chat completion", { body: { status: "ok" } }, /ragjudge: error: the judge stopped: bad-response: no choices\[0\]\.message in the reply \(.*ending in \/v1\?\)/],
  ] as const)("judge and run: every first reply unreadable, %s: exit 2", async (_why, reply, says) => {
    const unreadable = await startOpenAIServer({ script: () => reply });
    try {
      const flags = ["--config", EXAMPLE, "--judge", "openai", "--model", "m", "--base-url", unreadable.baseURL, "--cache-dir", tempDir(), "--max-retries", "0", "--no-progress"];
      for (const args of [["judge", ...flags], ["run", ...flags, "--evaluations-dir", tempDir(), "--quiet"]]) {
        const r = await runCliCaptured(args, NO_KEY);
        expect(r.code, r.err).toBe(EXIT.badInput);
        expect(r.err).toMatch(says);
      }
    } finally {
      await unreadable.close();
    }
  }, 60_000);

  for (const [name, code, args] of cases) {
    it(`${name}: exit ${code}`, async () => {
      const r = await runCliCaptured(args(), NO_KEY);
      expect(r.code, `${r.err}`).toBe(code);
      expect(r.err).not.toMatch(/\n\s+at /);
    }, 30_000);
  }
});

describe("bad input: one line naming file, line and field, exit 2, nothing written", () => {
  const lines = (...rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
  function project(output: unknown[], where = "sub"): { root: string; config: string; out: string } {
    const root = tempDir("ragjudge-bad-");
    mkdirSync(join(root, where, "data"), { recursive: true });
    writeFileSync(join(root, where, "data", "golden.jsonl"), lines({ id: "q1", question: "?", relevantText: ["A passage."] }));
    writeFileSync(join(root, where, "data", "out.jsonl"), lines(...output));
    const config = join(root, where, "ragjudge.config.json");
    writeFileSync(config, `{\n  "golden": "data/golden.jsonl",\n  "variants": [{"name": "v", "output": "data/out.jsonl"}],\n  "judge": {"kind": "baseline"}\n}\n`);
    return { root, config, out: join(root, where, "data", "out.jsonl") };
  }

  it("a config in another folder whose paths were written relative to the working folder", async () => {
    const p = project([{ id: "q1", retrieved: [{ text: "A passage." }] }]);
    writeFileSync(p.config, `{\n  "golden": "sub/data/golden.jsonl",\n  "variants": [{"name": "v", "output": "data/out.jsonl"}],\n  "judge": {"kind": "baseline"}\n}\n`);
    const r = await inDir(p.root, ["run", "--config", "sub/ragjudge.config.json"]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toBe(`ragjudge: error: sub/ragjudge.config.json:2: golden: "sub/data/golden.jsonl" not found: sub/sub/data/golden.jsonl (paths are relative to the config's folder sub)\n`);
    expect(readdirSync(p.root)).toEqual(["sub"]);
  });

  it("an empty text passage, and two passages with identical text in one list", async () => {
    for (const [retrieved, message] of [
      [[{ text: "A passage." }, { text: "\t " }], "retrieved[1].text: must not be empty or only white space"],
      [[{ text: "A passage." }, { text: "a  PASSAGE." }], "retrieved[1]: passage text identical to retrieved[0] after normalising"],
    ] as [unknown[], string][]) {
      const p = project([{ id: "q1", retrieved }]);
      const r = await inDir(p.root, ["run", "--config", p.config]);
      expect(r.code).toBe(EXIT.badInput);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err).toContain(`ragjudge: error: sub/data/out.jsonl:1: ${message}`);
      expect(readdirSync(join(p.root, "sub")).sort()).toEqual(["data", "ragjudge.config.json"]);
    }
  });

  it("an output line for a question the golden set lacks names the golden set as the user wrote it (validate printed its absolute path)", async () => {
    const p = project([{ id: "zz", retrieved: [{ text: "A passage." }] }]);
    const r = await inDir(p.root, ["validate", "--config", p.config]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toContain('sub/data/out.jsonl:1: id: question "zz" is not in the golden set sub/data/golden.jsonl\n');
    // run and retrieval word it the same, and a near miss gets the id it likely meant
    const typo = project([{ id: "Q-1", retrieved: [{ text: "A passage." }] }]);
    for (const command of ["validate", "retrieval", "run"]) {
      const t = await inDir(typo.root, [command, "--config", typo.config]);
      expect(t.code, command).toBe(EXIT.badInput);
      expect(t.err, command).toContain('sub/data/out.jsonl:1: id: question "Q-1" is not in the golden set sub/data/golden.jsonl (did you mean "q1"?)\n');
    }
  });

  it("a question of white space alone (it passed, and the judge graded answers to nothing)", async () => {
    const p = project([{ id: "q1", retrieved: [{ text: "A passage." }] }]);
    writeFileSync(join(p.root, "sub", "data", "golden.jsonl"), lines({ id: "q1", question: " \t", relevantText: ["A passage."] }));
    const r = await inDir(p.root, ["run", "--config", p.config]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toBe("ragjudge: error: sub/data/golden.jsonl:1: question: must not be empty or only white space\n");
    expect(readdirSync(join(p.root, "sub")).sort()).toEqual(["data", "ragjudge.config.json"]);
  });

  it("a reference answer of white space alone (correctness was skipped for it without a word); an absent one stays allowed", async () => {
    const p = project([{ id: "q1", retrieved: [{ text: "A passage." }] }]);
    writeFileSync(join(p.root, "sub", "data", "golden.jsonl"), lines({ id: "q1", question: "Q?", reference: "  ", relevantText: ["A passage."] }));
    const r = await inDir(p.root, ["validate", "--config", p.config]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toContain("sub/data/golden.jsonl:1: reference: must not be empty or only white space (leave it out when there is no reference answer)\n");
    writeFileSync(join(p.root, "sub", "data", "golden.jsonl"), lines({ id: "q1", question: "Q?", relevantText: ["A passage."] }));
    expect((await inDir(p.root, ["validate", "--config", p.config])).code).toBe(EXIT.ok);
  });
});
