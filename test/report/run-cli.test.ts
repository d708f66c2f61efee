import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runEvaluation } from "../../src/report/evaluation.js";
import { runCliCaptured } from "../helpers/cli.js";
import { labelRandomDraw } from "../helpers/labelling.js";
import { exampleCopy } from "./helpers.js";

describe("ragjudge run: exit codes", () => {
  it("exits 0 on the example, prints the summary and writes the folder", async () => {
    const copy = exampleCopy();
    const { code, out } = await runCliCaptured(["run", "--config", copy.config]);
    expect(code).toBe(0);
    expect(out).toMatch(/^ragjudge run: example/);
    expect(out).toContain("result: PASS");
    expect(readdirSync(copy.evaluations)).toHaveLength(1);
  });

  it("exits 1 naming the measure when a floor is missed (--fail-under), and still writes the evaluation", async () => {
    const copy = exampleCopy();
    const { code, err, out } = await runCliCaptured(["run", "--config", copy.config, "--fail-under", "R@10=0.70", "--quiet"]);
    expect(code).toBe(1);
    expect(err).toContain("ragjudge: floor missed: bm25-small: R@10 = 0.6458, below its floor 0.7");
    expect(err).not.toContain("hybrid-rerank: R@10");
    expect(out.trim()).toMatch(/20\d{6}T\d{6}Z-example$/);
    const folder = readdirSync(copy.evaluations)[0]!;
    const junit = readFileSync(join(copy.evaluations, folder, "junit.xml"), "utf8");
    expect(junit).toContain('<testsuite name="retrieval floors" tests="4" failures="1" skipped="0" errors="0">');
    // report.md (a PR comment) says why the gate failed, not only that it did
    const md = readFileSync(join(copy.evaluations, folder, "report.md"), "utf8");
    expect(md).toContain("Gate: FAIL (floor missed: bm25-small: R@10 = 0.6458, below its floor 0.7).");
  });

  it("exits 1 with --require-trusted when a rubric is untrusted, naming which", async () => {
    const copy = exampleCopy();
    const { code, err } = await runCliCaptured(["run", "--config", copy.config, "--require-trusted", "--quiet"]);
    expect(code).toBe(1);
    expect(err).toContain("ragjudge: untrusted rubrics under --require-trusted: citation-accuracy, correctness, faithfulness, not-found");
  });

  it("exits 2 on bad input and writes nothing", async () => {
    const copy = exampleCopy();
    const out = join(copy.dir, "golden", "variants", "bm25-small", "output.jsonl");
    writeFileSync(out, readFileSync(out, "utf8").replace(/^\{"id": ?"fact-01"/m, '{"id":"no-such-question"'));
    const { code, err } = await runCliCaptured(["run", "--config", copy.config]);
    expect(code).toBe(2);
    expect(err).toMatch(/output\.jsonl:\d+: id: question "no-such-question" is not in the golden set/);
    expect(existsSync(copy.evaluations)).toBe(false);
  });

  it("exits 2 on a bad --fail-under and a judge the config cannot set up", async () => {
    const copy = exampleCopy();
    expect((await runCliCaptured(["run", "--config", copy.config, "--fail-under", "R@10"])).code).toBe(2);
    const empty = await runCliCaptured(["run", "--config", copy.config, "--fail-under", ""]);
    expect(empty.code).toBe(2);
    expect(empty.err).toBe("ragjudge: error: --fail-under: an empty value (an unset variable?): give a value\n");
    expect((await runCliCaptured(["run", "--config", copy.config, "--fail-under", ","])).err).toContain("--fail-under names no floor");
    const r = await runCliCaptured(["run", "--config", copy.config, "--judge", "nonsense"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--judge must be "baseline" or "openai"');
    expect(existsSync(copy.evaluations)).toBe(false);
  });

  it("says what the gate checked in words that read: floors and trust, trust alone, floors alone, neither", async () => {
    const checked = async (floors: boolean, requireTrusted: boolean) => {
      const copy = exampleCopy((c) => {
        if (!floors) delete c.floors;
      });
      const r = await runCliCaptured(["run", "--config", copy.config, "--quiet", ...(requireTrusted ? ["--require-trusted"] : [])]);
      return /checked: ([^\n]*)/.exec(readFileSync(join(copy.evaluations, readdirSync(copy.evaluations)[0]!, "summary.txt"), "utf8"))?.[1] ?? r.err;
    };
    expect(await checked(true, true)).toBe("floors and trust");
    expect(await checked(false, true)).toBe("trust (no floors configured)");
    expect(await checked(true, false)).toBe("floors only; trust not required");
    expect(await checked(false, false)).toBe("no floors configured; trust not required");
  });

  it("passes --timeout-ms and --max-retries to the judge (the baseline, which makes no calls, refuses them)", async () => {
    const copy = exampleCopy();
    const r = await runCliCaptured(["run", "--config", copy.config, "--judge", "baseline", "--timeout-ms", "120000", "--max-retries", "8"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe("ragjudge: error: --judge baseline takes no LLM options (got --timeout-ms, --max-retries)\n");
    expect((await runCliCaptured(["run", "--config", copy.config, "--timeout-ms", "0"])).code).toBe(2);
  });
});

describe("ragjudge run: folders that cannot be folders", () => {
  it("refuses an evaluations folder that is a file before any work (it used to fail with an internal error after the whole run)", async () => {
    const copy = exampleCopy();
    const file = join(copy.dir, "evals-file");
    writeFileSync(file, "");
    const r = await runCliCaptured(["run", "--config", copy.config, "--evaluations-dir", file]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`ragjudge: error: ${file}: is a file, not a folder: the evaluations folder must be a folder\n`);
    expect(r.out).toBe("");
  });

  it("refuses the config's evaluationsDir and a --cache-dir that name a file, before any work", async () => {
    const copy = exampleCopy((c) => (c.evaluationsDir = "ragjudge.config.json"));
    const viaConfig = await runCliCaptured(["run", "--config", copy.config]);
    expect(viaConfig.code).toBe(2);
    expect(viaConfig.err).toBe(`ragjudge: error: ${copy.config}: is a file, not a folder: the evaluations folder must be a folder\n`);
    const other = exampleCopy();
    const r = await runCliCaptured(["run", "--config", other.config, "--cache-dir", other.config]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`ragjudge: error: ${other.config}: is a file, not a folder: the cache folder must be a folder\n`);
    expect(existsSync(other.evaluations)).toBe(false);
  });
});

describe("the trust gate inside run", () => {
  it("refuses a calibration record that does not read (exit 2, naming it, nothing written), as calibrate does, now that run reads the records", async () => {
    const copy = exampleCopy();
    mkdirSync(join(copy.labels, "calibration"), { recursive: true });
    const bad = join(copy.labels, "calibration", "correctness.000000000000.json");
    writeFileSync(bad, "{ not json\n");
    const r = await runCliCaptured(["run", "--config", copy.config]);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toContain("correctness.000000000000.json:1");
    expect(existsSync(copy.evaluations)).toBe(false);
  });


  it("trusts a rubric whose judge agrees with enough random labels, says they are human labels, and fails only the others", async () => {
    const copy = exampleCopy((c) => (c.trust = { minLabels: 20, minPerClass: 3, kappaLower: 0.4 }));
    // First run: its judgments are where sample looks for them.
    const first = await runEvaluation({ config: copy.config, evaluationsDir: join(copy.dir, "first") });
    const judgmentsFile = join(first.folder, "judgments.jsonl");
    // A random held-out draw, labelled through the review session with one deliberate disagreement.
    let flipped = 0;
    const { answered } = await labelRandomDraw({
      config: copy.config, dir: copy.dir, judgments: judgmentsFile, labels: copy.labels, rubrics: "faithfulness", split: "heldout",
      answer: (_e, verdict, i) => (i === 3 ? ((flipped++, verdict === "yes" ? "no" : "yes")) : verdict === "no" ? "no" : "yes"),
    });
    expect(flipped).toBe(1);
    expect(answered).toBeGreaterThanOrEqual(20);

    // The labels pass, but no calibration record exists for this judge: run does not stand in for calibrate.
    const before = await runCliCaptured(["run", "--config", copy.config, "--require-trusted"]);
    expect(before.code).toBe(1);
    expect(before.err).toContain("untrusted rubrics under --require-trusted: citation-accuracy, correctness, faithfulness, not-found");
    expect(before.out).toMatch(/faithfulness \(fingerprint [0-9a-f]{12}\): UNTRUSTED: no calibration record for this judge: run ragjudge calibrate/);
    // the reason is quoted without its own advice: the commands below it say how, once
    expect(before.out).toContain("Next: the labels of faithfulness pass the gate, but no current calibration record measures this judge (faithfulness: no calibration record for this judge). Record the calibration, then gate on it:");
    expect(before.out).not.toMatch(/more labels cannot make faithfulness/);
    const beforeReport = JSON.parse(readFileSync(join(copy.evaluations, readdirSync(copy.evaluations)[0]!, "report.json"), "utf8"));
    expect(beforeReport.rubrics.find((r: { rubric: string }) => r.rubric === "faithfulness").trust).toMatchObject({ trusted: false, reason: "no-calibration", labelsPass: true });
    const calibrated = await runCliCaptured(["calibrate", "--config", copy.config]);
    expect(calibrated.code, calibrated.err).toBe(0);
    rmSync(copy.evaluations, { recursive: true, force: true });

    const { code, err } = await runCliCaptured(["run", "--config", copy.config, "--require-trusted", "--quiet"]);
    expect(code).toBe(1);
    expect(err).toContain("untrusted rubrics under --require-trusted: citation-accuracy, correctness, not-found");
    const folder = join(copy.evaluations, readdirSync(copy.evaluations)[0]!);
    const report = JSON.parse(readFileSync(join(folder, "report.json"), "utf8"));
    const faith = report.rubrics.find((r: { rubric: string }) => r.rubric === "faithfulness");
    expect(faith.trust.trusted).toBe(true);
    expect(faith.trust.message).toMatch(/^trusted: kappa 0\.\d\d, 95% CI \[0\.\d\d, (0\.\d\d|1\.00)\]/);
    expect(faith.trust.basis).toMatch(/^\d+ human labels$/);
    expect(faith.calibration.n).toBe(answered);
    expect(faith.trust.draws).toHaveLength(1);
    expect(faith.trust.draws[0]).toMatchObject({ covers: true, counts: true, coverage: 1 });
    expect(faith.calibration.record).toMatch(/^calibration\/faithfulness\.[0-9a-f]{12}\.json$/);
    expect(existsSync(join(folder, faith.calibration.record))).toBe(true);
    const summary = readFileSync(join(folder, "summary.txt"), "utf8");
    expect(summary).toMatch(/faithfulness \(fingerprint [0-9a-f]{12}\): TRUSTED: kappa/);
    expect(summary).toContain("human labels");
    expect(summary).not.toMatch(/\bauthor labels\b/);
    expect(summary).toMatch(/bm25-small\s+trusted \d+\.\d%/);
    const md = readFileSync(join(folder, "report.md"), "utf8");
    expect(md).toMatch(/Trusted pass rates: faithfulness bm25-small \d+\.\d%/);

    // The record is what was measured: without it, the same labels and verdicts are not trusted again.
    rmSync(join(copy.labels, "calibration"), { recursive: true });
    const removed = await runCliCaptured(["run", "--config", copy.config, "--require-trusted"]);
    expect(removed.code).toBe(1);
    expect(removed.out).toMatch(/faithfulness \(fingerprint [0-9a-f]{12}\): UNTRUSTED: no calibration record for this judge/);
  });
});
