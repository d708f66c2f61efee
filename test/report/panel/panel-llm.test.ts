import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../../../src/golden/hash.js";
import { parseJsonl } from "../../../src/golden/jsonl.js";
import { Judgment } from "../../../src/golden/schema/items.js";
import { costUsd } from "../../../src/judge/schedule/cost.js";
import { runEvaluation } from "../../../src/report/evaluation.js";
import { runCliCaptured } from "../../helpers/cli.js";
import { labelRandomDraw } from "../../helpers/labelling.js";
import { startOpenAIServer, type RequestInfo, type TestServer } from "../../server/openai-server.js";
import { exampleCopy } from "../helpers.js";

/**
 * A panel of scripted LLM judges through the real openai SDK against the
 * local test server: `good` (whose verdicts the labeller agrees with),
 * `yes` (yes to everything) and `noisy` (good's verdict flipped on about a
 * third of the items). The model name in each request picks the script.
 */
const truth = (r: RequestInfo) => (parseInt(sha256(r.user).slice(0, 4), 16) % 3 === 0 ? "no" : "yes");
const flip = (v: "yes" | "no") => (v === "yes" ? "no" : "yes");

function script(r: RequestInfo) {
  const model = String(r.body.model);
  const t = truth(r);
  if (model === "good") return { verdict: t, reason: "scripted good" } as const;
  if (model === "yes") return { verdict: "yes", reason: "scripted yes" } as const;
  // Sure (P(yes) 0.97) on two thirds of the items, unsure (0.6) on the rest, read from token log-probabilities.
  if (model === "unsure") return { verdict: "yes", reason: "scripted unsure", pYes: parseInt(sha256(r.user).slice(8, 12), 16) % 3 === 0 ? 0.6 : 0.97 } as const;
  if (model === "slow") return { verdict: "yes", reason: "scripted slow", delayMs: 400 } as const;
  if (model === "flaky") return parseInt(sha256(r.user).slice(4, 6), 16) % 4 === 0 ? { status: 500 } : ({ verdict: "yes", reason: "scripted flaky" } as const);
  return { verdict: parseInt(sha256(r.user).slice(4, 8), 16) % 3 === 0 ? flip(t) : t, reason: "scripted noisy" } as const;
}

const PRICES = { good: { input: 5, output: 15 }, yes: { input: 0.1, output: 0.4 }, noisy: { input: 0.5, output: 1.5 } };

function panelCopy(server: TestServer, judges: unknown[]) {
  return exampleCopy((c) => {
    delete c.judge;
    c.rubrics = ["correctness"];
    c.judges = judges;
    c.prices = PRICES;
    c.trust = { minLabels: 20, minPerClass: 4, kappaLower: 0.5 };
    void server;
  });
}

describe("a judge panel of LLM judges on the local test server", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startOpenAIServer({ script, latencyMs: 5 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("calibrates each judge against the same labels, prices it from measured tokens, and recommends the one that agrees", async () => {
    const llm = (name: string) => ({ name, kind: "openai", model: name, baseUrl: server.baseURL, concurrency: 4 });
    const copy = panelCopy(server, [
      llm("good"), llm("yes"), llm("noisy"),
      { name: "cheap-first", kind: "cascade", first: "yes", then: "good", sample: 0.25 },
      { name: "vote", kind: "majority", members: ["good", "yes", "noisy"] },
    ]);
    const cacheDir = join(copy.dir, "cache");
    const first = await runEvaluation({ config: copy.config, cacheDir });
    expect(first.errors).toBe(0);
    // The main judge is the panel's first leaf (good): its verdicts are judgments.jsonl, which the labeller agrees with.
    const judgments = join(cacheDir, "judgments.jsonl");
    const { answered } = await labelRandomDraw({ config: copy.config, dir: copy.dir, judgments, labels: copy.labels, rubrics: "correctness", split: "heldout" });
    expect(answered).toBeGreaterThanOrEqual(20);
    // Trust needs a calibration record of each judge (the gate's first rule): calibrate the panel's verdicts.
    const cal = await runCliCaptured(["calibrate", "--config", copy.config, "--judgments", join(cacheDir, "panel-judgments.jsonl"), "--reps", "200"]);
    expect(cal.code, cal.err).toBe(0);

    const calls = server.count;
    const second = await runEvaluation({ config: copy.config, cacheDir });
    expect(server.count).toBe(calls); // every panel verdict from the cache, combined judges from their members
    const p = second.report.panel!.rubrics.find((x) => x.rubric === "correctness")!;
    const row = (n: string) => p.rows.find((x) => x.judge === n)!;
    expect(row("good")).toMatchObject({ trusted: true, kappa: 1, tpr: 1, tnr: 1 });
    expect(row("yes")).toMatchObject({ trusted: false, tpr: 1, tnr: 0 });
    expect(row("noisy").trusted).toBe(false);
    expect(row("noisy").kappa!).toBeLessThan(0.8);
    expect(p.recommended).toBe("good");
    expect(p.recommendation).toMatch(/^cheapest trusted judge: good \(kappa 1\.00 \[\d\.\d\d, 1\.00\], \$\d+\.\d\d per 1,000\)$/);
    expect(second.summary).toContain(`=> ${p.recommendation}`);

    // Cost per 1,000 verdicts from the tokens the server reported, at each model's price.
    const file = join(second.folder, "panel-judgments.jsonl");
    const rows = parseJsonl(readFileSync(file, "utf8"), file, Judgment).rows.map((r) => r.value).filter((j) => j.judge !== "rule");
    for (const name of ["good", "yes", "noisy"] as const) {
      const mine = rows.filter((j) => j.judgeName === name);
      const usd = mine.reduce((s, j) => s + costUsd(j.usage!.prompt, j.usage!.completion, PRICES[name]), 0);
      expect(row(name).usdPer1000!).toBeCloseTo((usd / mine.length) * 1000, 9);
    }
    // The cascade pays for `yes` everywhere and for `good` on its escalations only (its 25% sample).
    const casc = row("cheap-first");
    expect(casc.escalation!.total).toBe(casc.escalation!.sample);
    expect(casc.escalation!.rate!).toBeGreaterThan(0.1);
    expect(casc.escalation!.rate!).toBeLessThan(0.4);
    expect(casc.usdPer1000!).toBeGreaterThan(row("yes").usdPer1000!);
    expect(casc.usdPer1000!).toBeLessThan(row("good").usdPer1000!);
    expect(casc.escalation!.sampled!.items).toBe(casc.escalation!.sample);
    // Median latency is measured on the calls of the run that made them.
    const firstP = first.report.panel!.rubrics.find((x) => x.rubric === "correctness")!;
    // (good, the main judge, was judged first by the run's main step: the panel found it in the cache)
    expect(firstP.rows.find((x) => x.judge === "noisy")!.medianLatencyMs!).toBeGreaterThanOrEqual(5);
    expect(firstP.rows.find((x) => x.judge === "good")!.medianLatencyMs).toBeNull();
    expect(p.pairs.find((x) => x.a === "good" && x.b === "yes")!.kappa).toBe(0);
    expect(p.splits).toBeGreaterThan(0);
  }, 120_000);

  it("escalates a cascade where its first judge fails, and counts that apart", async () => {
    const copy = panelCopy(server, [
      { name: "good", kind: "openai", model: "good", baseUrl: server.baseURL },
      { name: "flaky", kind: "openai", model: "flaky", baseUrl: server.baseURL, maxRetries: 0, concurrency: 2 },
      { name: "rescue", kind: "cascade", first: "flaky", then: "good" },
    ]);
    const r = await runEvaluation({ config: copy.config, cacheDir: join(copy.dir, "cache") });
    const p = r.report.panel!.rubrics[0]!;
    const flaky = p.rows.find((x) => x.judge === "flaky")!;
    const rescue = p.rows.find((x) => x.judge === "rescue")!;
    expect(flaky.errors).toBeGreaterThan(0);
    expect(rescue.escalation).toMatchObject({ error: flaky.errors, uncertain: 0, sample: 0, total: flaky.errors });
    expect(rescue.errors).toBe(0);
    expect(rescue.escalation!.total).toBeLessThan(rescue.verdicts);
    expect(r.errors).toBe(flaky.errors); // the model judges' errors leave the run unfinished (exit 4 from the CLI)
  }, 120_000);

  it("a member whose endpoint is down ends in error verdicts for that member only, and the run exits 4", async () => {
    const copy = panelCopy(server, [
      { name: "good", kind: "openai", model: "good", baseUrl: server.baseURL },
      { name: "down", kind: "openai", model: "noisy", baseUrl: "http://127.0.0.1:9/v1", maxRetries: 0, timeoutMs: 2000 },
    ]);
    const cacheDir = join(copy.dir, "cache");
    const run = await runCliCaptured(["run", "--config", copy.config, "--cache-dir", cacheDir, "--no-progress"]);
    expect(run.code, run.err).toBe(4);
    expect(run.err).toMatch(/judge panel: down stopped: /);
    expect(run.err).toMatch(/the judge did not finish: \d+ items? ended as error verdicts/);
    const rows = parseJsonl(readFileSync(join(cacheDir, "panel-judgments.jsonl"), "utf8"), "panel", Judgment).rows.map((x) => x.value).filter((j) => j.judge !== "rule");
    const good = rows.filter((j) => j.judgeName === "good");
    const down = rows.filter((j) => j.judgeName === "down");
    expect(good.length).toBeGreaterThan(0);
    expect(good.every((j) => j.verdict !== "error")).toBe(true);
    expect(down.length).toBe(good.length);
    expect(down.every((j) => j.verdict === "error")).toBe(true);
    expect(run.out).toMatch(/down stopped: /);
  }, 120_000);

  // A panel judge takes no flag: --timeout-ms and --base-url change only the main judge, so its hints name its entry.
  it.each([
    { why: "too slow", entry: { name: "slow", kind: "openai", model: "slow", baseUrl: "", maxRetries: 0, timeoutMs: 150 }, hint: /if it is only slow, raise "timeoutMs" in judges\[1\] \("slow"\) of (\S+)\)/, field: "timeoutMs", value: 10_000 },
    { why: "unreachable", entry: { name: "down", kind: "openai", model: "noisy", baseUrl: "http://127.0.0.1:9/v1", maxRetries: 0 }, hint: /check "baseUrl" and "model" in judges\[1\] \("down"\) of (\S+), and the server/, field: "baseUrl", value: "" },
  ])("a panel judge that is $why is told which field of which config entry to change, and changing it as printed lets the run finish", async ({ entry, hint, field, value }) => {
    const here = (v: unknown) => (v === "" ? server.baseURL : v);
    const copy = panelCopy(server, [
      { name: "good", kind: "openai", model: "good", baseUrl: server.baseURL },
      { ...entry, baseUrl: here(entry.baseUrl) },
    ]);
    const args = ["run", "--config", copy.config, "--cache-dir", join(copy.dir, "cache"), "--no-progress"];
    const stopped = await runCliCaptured(args);
    expect(stopped.code, stopped.err).toBe(4);
    const line = stopped.err.split("\n").find((l) => l.startsWith(`judge panel: ${entry.name} stopped: `))!;
    expect(line).toMatch(hint);
    expect(line).not.toMatch(/--timeout-ms|--base-url|judge\.timeoutMs/);
    // The file the hint names is the config, and the entry it names is the judge that stopped: change that field there.
    const file = line.match(hint)![1]!;
    expect(resolve(file)).toBe(copy.config);
    const config = JSON.parse(readFileSync(file, "utf8")) as { judges: Record<string, unknown>[] };
    expect(config.judges[1]!.name).toBe(entry.name);
    config.judges[1]![field] = here(value);
    writeFileSync(file, JSON.stringify(config, null, 2));
    const again = await runCliCaptured(args);
    expect(again.code, again.err).toBe(0);
    expect(again.err).not.toContain("stopped");
  }, 120_000);

  it("a panel judge with no key for its remote endpoint stops run and judge before any call (exit 2, naming the judge)", async () => {
    const copy = panelCopy(server, [
      { name: "good", kind: "openai", model: "good", baseUrl: server.baseURL },
      { name: "remote", kind: "openai", model: "noisy", baseUrl: "https://api.example.invalid/v1", apiKeyEnv: "RAGJUDGE_TEST_UNSET_KEY" },
    ]);
    const before = server.count;
    for (const command of ["run", "judge"]) {
      const r = await runCliCaptured([command, "--config", copy.config, "--cache-dir", join(copy.dir, "cache"), "--no-progress"], { RAGJUDGE_TEST_UNSET_KEY: undefined });
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain("ragjudge: error: judges: remote: no API key: set the environment variable RAGJUDGE_TEST_UNSET_KEY");
      expect(server.count, command).toBe(before);
    }
  }, 60_000);

  it("escalates a cascade where its first judge's log-probabilities say it is unsure, the same on a cached rerun", async () => {
    const copy = panelCopy(server, [
      { name: "good", kind: "openai", model: "good", baseUrl: server.baseURL },
      { name: "unsure", kind: "openai", model: "unsure", baseUrl: server.baseURL, logprobs: true },
      { name: "confident", kind: "cascade", first: "unsure", then: "good", confidence: 0.8 },
    ]);
    const cacheDir = join(copy.dir, "cache");
    const first = await runEvaluation({ config: copy.config, cacheDir });
    const file = join(first.folder, "panel-judgments.jsonl");
    const unsure = parseJsonl(readFileSync(file, "utf8"), file, Judgment).rows.map((r) => r.value).filter((j) => j.judgeName === "unsure" && j.judge !== "rule");
    const low = unsure.filter((j) => j.pYes !== undefined && j.pYes < 0.8).length;
    expect(low).toBeGreaterThan(0);
    expect(unsure.every((j) => j.pYes !== undefined)).toBe(true);
    const esc = (r: typeof first) => r.report.panel!.rubrics[0]!.rows.find((x) => x.judge === "confident")!.escalation!;
    expect(esc(first)).toMatchObject({ uncertain: low, error: 0, sample: 0, total: low });
    const calls = server.count;
    const again = await runEvaluation({ config: copy.config, cacheDir });
    expect(server.count).toBe(calls);
    expect(esc(again)).toEqual(esc(first));
  }, 120_000);
});
