/**
 * The served model is part of what a calibration measured (issue 12), and a
 * field the server echoes like any other: tested through the LLM judge
 * against the local OpenAI-compatible test server on 127.0.0.1.
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../../src/golden/hash.js";
import { runCliCaptured } from "../helpers/cli.js";
import { labelRandomDraw } from "../helpers/labelling.js";
import { exampleCopy } from "../report/helpers.js";
import { startOpenAIServer, type TestServer } from "../server/openai-server.js";

/** A verdict that depends only on what is judged, so re-judging gives the same verdict whoever serves it. */
const verdictOf = (user: string) => (Number.parseInt(sha256(user).slice(0, 8), 16) % 3 === 0 ? "no" : "yes");

/** Every file under a folder, as text (the SQLite cache too: the key must not be in its bytes either). */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => readFileSync(join(e.parentPath, e.name)).toString("latin1")).join("\n");
}

describe("the served model", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startOpenAIServer({ servedModel: "judge-2026-01-15", script: (r) => ({ verdict: verdictOf(r.user), reason: "scripted" }) });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("is part of what was measured: an alias moved to a new snapshot under the same fingerprint is untrusted until recalibrated", async () => {
    const copy = exampleCopy((c) => {
      c.judge = { kind: "openai", model: "judge-alias", baseUrl: server.baseURL, concurrency: 4 };
      c.trust = { minLabels: 20, minPerClass: 3 };
      c.rubrics = ["correctness"];
    });
    const judgments = join(copy.dir, "j.jsonl");
    const judge = (cache: string) => runCliCaptured(["judge", "--config", copy.config, "--out", judgments, "--cache-dir", join(copy.dir, cache), "--no-progress", "--by", "none"]);
    server.setServedModel("judge-2026-01-15");
    expect((await judge("cache-1")).code).toBe(0);
    await labelRandomDraw({ config: copy.config, dir: copy.dir, judgments, labels: copy.labels, rubrics: "correctness", split: "heldout" });
    expect((await runCliCaptured(["calibrate", "--config", copy.config, "--judgments", judgments])).code).toBe(0);
    const trusted = await judge("cache-1");
    expect(trusted.out).toMatch(/correctness  \[LLM judge judge-alias; served judge-2026-01-15, fingerprint [0-9a-f]{12}\]\n  TRUSTED: kappa 1\.00/);

    // The alias moves: the same fingerprint, another snapshot, the same verdicts even.
    server.setServedModel("judge-2026-06-01");
    const moved = await judge("cache-2");
    expect(moved.out).toMatch(/served judge-2026-06-01, fingerprint [0-9a-f]{12}\]\n  UNTRUSTED: served model changed from judge-2026-01-15 to judge-2026-06-01 \(the calibration of [^)]+ measured judge-2026-01-15\): run ragjudge calibrate/);
    expect(moved.out).not.toMatch(/TRUSTED: kappa/);

    // Half the items from each snapshot: two figures, never one pooled pass rate or kappa.
    server.setServedModel("judge-2026-01-15");
    expect((await judge("cache-1")).code).toBe(0);
    const mixed = readFileSync(judgments, "utf8").trim().split("\n").map((l, i) => {
      const j = JSON.parse(l) as { judge: string; servedModel?: string };
      if (j.judge === "llm" && i % 2) j.servedModel = "judge-2026-06-01";
      return JSON.stringify(j);
    });
    const mixedFile = join(copy.dir, "mixed.jsonl");
    writeFileSync(mixedFile, mixed.join("\n") + "\n");
    const cal = await runCliCaptured(["calibrate", "--config", copy.config, "--judgments", mixedFile, "--format", "json", "--no-write"]);
    const groups = (JSON.parse(cal.out) as { rubrics: { group: { servedModel: string; items: number }; gate: { n: number } }[] }).rubrics;
    expect(groups.map((g) => g.group.servedModel).sort()).toEqual(["judge-2026-01-15", "judge-2026-06-01"]);
    expect(groups.reduce((a, g) => a + g.group.items, 0)).toBe(96);

    // An honest user samples that file: the draw frames one served model's items (the latest's), so it counts for that judge.
    const fresh = exampleCopy((c) => {
      c.judge = { kind: "openai", model: "judge-alias", baseUrl: server.baseURL, concurrency: 4 };
      c.trust = { minLabels: 10, minPerClass: 2 };
      c.rubrics = ["correctness"];
    });
    const later = mixed.map((l) => {
      const j = JSON.parse(l) as { servedModel?: string; time: string };
      if (j.servedModel === "judge-2026-06-01") j.time = new Date(Date.parse(j.time) + 60_000).toISOString();
      return JSON.stringify(j);
    });
    const laterFile = join(fresh.dir, "mixed.jsonl");
    writeFileSync(laterFile, later.join("\n") + "\n");
    const drawn = await labelRandomDraw({ config: fresh.config, dir: fresh.dir, judgments: laterFile, labels: fresh.labels, rubrics: "correctness", split: "heldout" });
    expect(drawn.sampleOut).toMatch(/note: the endpoint served correctness's verdicts under 2 model names .*: sampled the \d+ items served by "judge-2026-06-01" \(the latest\); left out \d+ by "judge-2026-01-15"\./);
    const draw = JSON.parse(readFileSync(join(fresh.labels, "draws", readdirSync(join(fresh.labels, "draws"))[0]!), "utf8")) as { servedModels: string[] };
    expect(draw.servedModels).toEqual(["judge-2026-06-01"]);
    const gate = await runCliCaptured(["calibrate", "--config", fresh.config, "--judgments", laterFile, "--format", "json", "--no-write"]);
    const trust = (JSON.parse(gate.out) as { rubrics: { group: { servedModel: string }; trust: { trusted: boolean; reasons?: unknown } }[] }).rubrics;
    const byServed = new Map(trust.map((g) => [g.group.servedModel, g.trust]));
    expect(byServed.get("judge-2026-06-01")?.trusted, JSON.stringify(byServed.get("judge-2026-06-01"))).toBe(true);
    expect(byServed.get("judge-2026-01-15")?.trusted).toBe(false);

    // plan --budget draws for the newest judge too, never one draw per served model of a rubric: that judge's held-out
    // items are all labelled, so nothing is drawn (before, the older snapshot's items were drawn beside it)
    const planned = await runCliCaptured(["plan", "--config", fresh.config, "--judgments", laterFile, "--labels", fresh.labels, "--reps", "0", "--budget", "6", "--annotator", "test-author", "--out", join(fresh.dir, "q-plan.jsonl"), "--format", "json"]);
    expect(planned.code, planned.err).toBe(0);
    expect((JSON.parse(planned.out) as { shares: unknown[] }).shares).toEqual([]);
    expect(readdirSync(join(fresh.labels, "draws"))).toHaveLength(1);

    // The other served model gets a draw of its own on request, and a name the verdicts lack is refused, naming those they have.
    const other = await runCliCaptured(["sample", "--config", fresh.config, "--judgments", laterFile, "--labels", fresh.labels, "--annotator", "test-author", "--random", "5", "--split", "heldout", "--rubrics", "correctness", "--served-model", "judge-2026-01-15", "--out", join(fresh.dir, "q2.jsonl")]);
    expect(other.code, other.err).toBe(0);
    expect(other.out).toMatch(/sampled the \d+ items served by "judge-2026-01-15" \(--served-model\)/);
    const unknown = await runCliCaptured(["sample", "--config", fresh.config, "--judgments", laterFile, "--labels", fresh.labels, "--annotator", "test-author", "--random", "5", "--rubrics", "correctness", "--served-model", "judge-2027", "--out", join(fresh.dir, "q3.jsonl")]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/mixed\.jsonl: servedModel: no verdict of rubric correctness was served by "judge-2027"; its verdicts were served by "judge-2026-01-15", "judge-2026-06-01" \(sample --served-model takes one of those; --rubrics limits the rubrics sampled\)/);
  });

  it("is redacted like every other field the server echoes: a key put into `model` reaches no cache, judgment or record", async () => {
    const KEY = "rj-test-secret-4c1d9e7a2b";
    const copy = exampleCopy((c) => {
      c.judge = { kind: "openai", model: "judge-alias", baseUrl: server.baseURL, apiKeyEnv: "RJ_SERVED_TEST_KEY", concurrency: 4 };
      c.rubrics = ["correctness"];
      c.cacheDir = "cache";
    });
    server.setServedModel(KEY);
    try {
      const judgments = join(copy.dir, "cache", "judgments.jsonl");
      const j = await runCliCaptured(["judge", "--config", copy.config, "--no-progress", "--by", "none"], { RJ_SERVED_TEST_KEY: KEY });
      expect(j.code, j.err).toBe(0);
      expect(server.requests.some((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
      expect(readFileSync(judgments, "utf8")).toContain('"servedModel":"[redacted]"');
      await labelRandomDraw({ config: copy.config, dir: copy.dir, judgments, labels: copy.labels, rubrics: "correctness", split: "heldout", random: 5 });
      expect((await runCliCaptured(["calibrate", "--config", copy.config])).code).toBe(0);
      const run = await runCliCaptured(["run", "--config", copy.config, "--quiet"], { RJ_SERVED_TEST_KEY: KEY });
      expect(run.code, run.err).toBe(0);
      for (const text of [allText(join(copy.dir, "cache")), allText(copy.labels), allText(copy.evaluations), j.out, j.err, run.out, run.err]) expect(text).not.toContain(KEY);
    } finally {
      server.setServedModel("judge-2026-01-15");
    }
  });
});
