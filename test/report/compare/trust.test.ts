/**
 * `ragjudge compare` decides each judge figure's trust again (the gate of
 * src/calibration/trust.ts, as `ragjudge judge` applies it) instead of
 * showing what report.json says: a report edited to say "trusted", or one
 * whose calibration record has gone stale since, is caught and said plainly;
 * where no project config is reachable the stored state is shown as not
 * re-checked, never as trusted. Each project is a copy of the example judged
 * by the offline baseline, on correctness alone, with lowered thresholds.
 */
import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compareSides } from "../../../src/report/compare/compare.js";
import { loadEvaluation } from "../../../src/report/compare/load.js";
import { renderComparisons } from "../../../src/report/compare/render.js";
import { recheckTrust } from "../../../src/report/compare/trust.js";
import { loadConfig } from "../../../src/golden/config.js";
import type { ReportJson } from "../../../src/report/schema.js";
import { runCliCaptured, runCliIn } from "../../helpers/cli.js";
import { calibrate, editRubric, honest, judged, type Project } from "../../helpers/gate-project.js";
import { tempDir } from "../../helpers/temp.js";

const CORRECTNESS_ONLY = (c: Record<string, unknown>) => (c.rubrics = ["correctness"]);
const FAST = ["--reps", "200"];

/** `ragjudge run` on the project, into its own evaluations folder; the evaluation's path. */
async function run(p: Project): Promise<string> {
  const r = await runCliCaptured(["run", "--config", p.config, "--quiet"]);
  expect(r.code, r.err).toBe(0);
  return r.out.trim().startsWith("/") ? r.out.trim() : join(p.dir, r.out.trim());
}

const reportOf = (ev: string) => JSON.parse(readFileSync(join(ev, "report.json"), "utf8")) as ReportJson;
const trustColumn = (out: string, row: string) => new RegExp(`^${row}\\s+(trusted|untrusted|not re-checked)\\s`, "m").exec(out)?.[1];

let trusted: Project;
let evaluation: string;

beforeAll(async () => {
  trusted = await judged({ minLabels: 20, minPerClass: 3 }, CORRECTNESS_ONLY);
  await honest(trusted, "correctness");
  expect((await calibrate(trusted)).code).toBe(0);
  evaluation = await run(trusted);
  expect(reportOf(evaluation).rubrics[0]!.trust.message).toMatch(/^trusted: kappa 1\.00/);
}, 120_000);

describe("compare decides trust again", () => {
  it("shows a judge trusted when its calibration record still holds, and --require-trusted passes", async () => {
    const r = await runCliCaptured(["compare", "--variants", "bm25-small,hybrid-rerank", evaluation, "--config", trusted.config, "--require-trusted", ...FAST]);
    expect(r.code, r.err).toBe(0);
    expect(trustColumn(r.out, "correctness")).toBe("trusted");
    expect(r.out).not.toMatch(/warning:/);
  });

  it("says when report.json was edited to say trusted: the records say not, and why", async () => {
    const p = await judged({ minLabels: 20, minPerClass: 3 }, CORRECTNESS_ONLY);
    const ev = await run(p);
    const report = reportOf(ev);
    const entry = report.rubrics.find((r) => r.rubric === "correctness")!;
    expect(entry.trust.trusted).toBe(false);
    entry.trust = { ...entry.trust, trusted: true, reason: null, message: "trusted: kappa 0.95, 95% CI [0.90, 1.00], n = 80 human labels" };
    writeFileSync(join(ev, "report.json"), JSON.stringify(report));

    const args = ["compare", "--variants", "bm25-small,hybrid-rerank", ev, "--config", p.config, ...FAST];
    const r = await runCliCaptured(args);
    expect(r.code, r.err).toBe(0);
    expect(trustColumn(r.out, "correctness")).toBe("untrusted");
    expect(r.out).toContain("warning: A and B: correctness: report.json says trusted; the calibration records (");
    expect(r.out).toMatch(/report\.json says trusted; the calibration records \([^)]*labels\/calibration\) say not: no calibration record for this judge/);
    const gated = await runCliCaptured([...args, "--require-trusted"]);
    expect(gated.code).toBe(1);
    expect(gated.err).toMatch(/^ragjudge: untrusted judge figures: hybrid-rerank against bm25-small: answer right, correctness \(A and B: correctness: no calibration record for this judge/);
    expect(gated.err.trim().split("\n")).toHaveLength(1);
  }, 60_000);

  it("says when the record has gone stale since the run (a label added), and --require-trusted fails", async () => {
    const p = await judged({ minLabels: 20, minPerClass: 3 }, CORRECTNESS_ONLY);
    await honest(p, "correctness");
    expect((await calibrate(p)).code).toBe(0);
    const ev = await run(p);
    const args = ["compare", "--variants", "bm25-small,hybrid-rerank", ev, "--config", p.config, "--require-trusted", ...FAST];
    expect((await runCliCaptured(args)).code).toBe(0);
    // One more label of correctness: the record no longer describes the labels, so it no longer trusts the judge.
    const labels = readFileSync(join(p.labels, readdirSync(p.labels).find((f) => f.endsWith(".jsonl"))!), "utf8").trim().split("\n");
    appendFileSync(join(p.labels, "second.jsonl"), JSON.stringify({ ...JSON.parse(labels[0]!), annotator: "second" }) + "\n");
    const r = await runCliCaptured(args);
    expect(r.code).toBe(1);
    expect(trustColumn(r.out, "correctness")).toBe("untrusted");
    expect(r.out).toMatch(/warning: A and B: correctness: report\.json says trusted; the calibration records \([^)]*\) say not: stale: run ragjudge calibrate --config (\S+) --judgments (\S+) \(the labels of this rubric changed since the calibration of /);
    // the advice names the project and the evaluation's own verdicts, the ones re-checked
    const [, config, judgments] = /run ragjudge calibrate --config (\S+) --judgments (\S+)/.exec(r.out)!;
    expect([config, judgments]).toEqual([p.config, join(ev, "judgments.jsonl")]);
    expect(r.err).toMatch(/^ragjudge: untrusted judge figures: hybrid-rerank against bm25-small: answer right, correctness \(A and B: correctness: stale/);
  }, 60_000);

  it("a record made under an earlier wording of the question is stale for compare and run: --require-trusted fails (labels that record no wording)", async () => {
    const p = await judged({ minLabels: 20, minPerClass: 3 }, CORRECTNESS_ONLY);
    await honest(p, "correctness");
    // labels made by an older ragjudge: no wording recorded, so they count for whatever the question asks
    const file = join(p.labels, readdirSync(p.labels).find((f) => f.endsWith(".jsonl"))!);
    writeFileSync(file, readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.stringify({ ...JSON.parse(l), wordingHash: undefined })).join("\n") + "\n");
    expect((await calibrate(p)).code).toBe(0);
    const ev = await run(p);
    const args = ["compare", "--variants", "bm25-small,hybrid-rerank", ev, "--config", p.config, "--require-trusted", ...FAST];
    expect((await runCliCaptured(args)).code).toBe(0);
    editRubric(p, "correctness", (t) => t.replace("without contradicting it?", "even if it contradicts it?"));
    const r = await runCliCaptured(args);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/say not: stale: run ragjudge calibrate [^\n]*\(the wording of the rubric's question changed since the calibration of /);
    const gated = await runCliCaptured(["run", "--config", p.config, "--quiet", "--require-trusted"]);
    expect(gated.code).toBe(1);
    expect(gated.err).toBe("ragjudge: untrusted rubric under --require-trusted: correctness\n");
  }, 90_000);

  it("says when the records now trust what report.json did not (calibrated after the run)", async () => {
    const p = await judged({ minLabels: 20, minPerClass: 3 }, CORRECTNESS_ONLY);
    const before = await run(p);
    await honest(p, "correctness");
    expect((await calibrate(p)).code).toBe(0);
    const after = await run(p);
    const r = await runCliCaptured(["compare", `${before}#hybrid-rerank`, `${after}#hybrid-rerank`, "--config", p.config, "--require-trusted", ...FAST]);
    expect(r.code, r.err).toBe(0);
    expect(trustColumn(r.out, "correctness")).toBe("trusted");
    expect(r.out).toMatch(/warning: A: correctness: report\.json says untrusted; the calibration records \([^)]*\) now say trusted: kappa 1\.00/);
    expect(r.out).not.toMatch(/warning: B:/);
  }, 90_000);
});

describe("compare --require-trusted on files that cannot be read", () => {
  it("refuses them as bad input (exit 2, naming file and line), never as an untrusted judge (exit 1), as run does", async () => {
    // A merge left a conflict marker in a labels file: bad input, which CI must tell from a judge that lost its trust.
    const labels = join(tempDir(), "labels");
    cpSync(trusted.labels, labels, { recursive: true });
    const file = readdirSync(labels).find((f) => f.endsWith(".jsonl"))!;
    appendFileSync(join(labels, file), "<<<<<<< HEAD\n");
    const args = ["compare", "--variants", "bm25-small,hybrid-rerank", evaluation, "--config", trusted.config, "--labels", labels, ...FAST];
    const gated = await runCliCaptured([...args, "--require-trusted"]);
    expect(gated.code).toBe(2);
    expect(gated.err).toMatch(new RegExp(`${file.replace(".", "\\.")}:\\d+: not valid JSON`));
    expect(gated.out).toBe("");
    const run = await runCliCaptured(["run", "--config", trusted.config, "--labels", labels, "--require-trusted", "--quiet"]);
    expect(run.code).toBe(2);
    // Without --require-trusted trust is information: the comparison is shown, the judge untrusted and why.
    const info = await runCliCaptured(args);
    expect(info.code, info.err).toBe(0);
    expect(trustColumn(info.out, "correctness")).toBe("untrusted");
    expect(info.out).toMatch(/trust state unknown: .*not valid JSON/);
    // The evaluation's own verdicts file, cut off mid-line: bad input too.
    const ev = join(tempDir(), "ev");
    cpSync(evaluation, ev, { recursive: true });
    appendFileSync(join(ev, "judgments.jsonl"), '{"variant":"bm25-small",');
    const cut = await runCliCaptured(["compare", "--variants", "bm25-small,hybrid-rerank", ev, "--config", trusted.config, "--require-trusted", ...FAST]);
    expect(cut.code).toBe(2);
    expect(cut.err).toMatch(/judgments\.jsonl:\d+: /);
  }, 60_000);
});

describe("compare without a project config", () => {
  it("shows the trust as not re-checked, names the config that re-checks it, and that command works as printed", async () => {
    const cwd = tempDir("ragjudge-compare-noconfig-");
    const args = ["compare", "--variants", "bm25-small,hybrid-rerank", evaluation, ...FAST];
    const r = await runCliIn(cwd, args);
    expect(r.code, r.err).toBe(0);
    expect(trustColumn(r.out, "correctness")).toBe("not re-checked");
    const line = r.out.split("\n").find((l) => l.startsWith("warning: A and B: trust not re-checked"))!;
    expect(line).toBe(`warning: A and B: trust not re-checked (no ragjudge.config.json in ${cwd} and no --config, so no calibration records to read: add --config ${trusted.config} to re-check it): report.json says answer right, correctness are trusted, which the trust column does not take on its word`);
    const gated = await runCliIn(cwd, [...args, "--require-trusted"]);
    expect(gated.code).toBe(1);
    expect(gated.err).toContain("ragjudge: untrusted judge figures: hybrid-rerank against bm25-small: answer right, correctness (A and B: trust not re-checked (no ragjudge.config.json in ");

    const hint = /: add (--config \S+) to re-check it/.exec(line)![1]!.split(" ");
    const fixed = await runCliIn(cwd, [...args, ...hint, "--require-trusted"]);
    expect(fixed.code, fixed.err).toBe(0);
    expect(trustColumn(fixed.out, "correctness")).toBe("trusted");
    expect(fixed.out).not.toMatch(/warning:/);
  });

  it("points at --example for the shipped example's evaluations, which works as printed", async () => {
    const cwd = tempDir("ragjudge-compare-example-");
    expect((await runCliIn(cwd, ["run", "--example", "--quiet"])).code).toBe(0);
    const ev = join(cwd, "evaluations", readdirSync(join(cwd, "evaluations"))[0]!);
    const args = ["compare", "--variants", "bm25-small,hybrid-rerank", ev, ...FAST];
    const r = await runCliIn(cwd, args);
    expect(r.out).toContain(`trust not re-checked (no ragjudge.config.json in ${cwd} and no --config, so no calibration records to read: add --example to re-check it against the shipped example's)`);
    const fixed = await runCliIn(cwd, [...args, "--example"]);
    expect(fixed.code, fixed.err).toBe(0);
    expect(fixed.out).not.toContain("trust not re-checked");
    // the example's rubrics rest on author labels: untrusted, as its report says, so nothing disagrees
    expect(trustColumn(fixed.out, "faithfulness")).toBe("untrusted");
    expect(fixed.out).not.toMatch(/warning:/);
  }, 60_000);
});

describe("the library", () => {
  it("never reports a side trusted that was not re-checked, and says why in the JSON", () => {
    const ev = loadEvaluation(evaluation);
    const pick = (name: string) => ({ evaluation: ev, variant: ev.report.variants.find((v) => v.name === name)! });
    const plain = compareSides(pick("bm25-small"), pick("hybrid-rerank"), { reps: 200 });
    const corr = plain.rubrics.find((v) => v.measure === "correctness")!;
    expect(corr.trustA).toMatchObject({ recorded: true, now: null });
    expect(corr.trustedA).toBe(false);
    expect(plain.a.trust).toEqual({ rechecked: false, why: "no project was given to re-check it against (recheckTrust)" });

    ev.trust = recheckTrust(ev, loadConfig(trusted.config));
    const checked = compareSides(pick("bm25-small"), pick("hybrid-rerank"), { reps: 200 });
    expect(checked.rubrics.find((v) => v.measure === "correctness")).toMatchObject({ trustedA: true, trustedB: true, trustA: { recorded: true, now: true, disagreements: [] } });
    const json = JSON.parse(renderComparisons([checked], "json")) as { comparisons: { a: { trust: { rechecked: boolean; records: string } } }[] };
    expect(json.comparisons[0]!.a.trust.rechecked).toBe(true);
    expect(json.comparisons[0]!.a.trust.records).toMatch(/labels\/calibration$/);
  });

  it("does not re-check an evaluation whose judgments.jsonl is gone, and says so", () => {
    const copy = join(tempDir(), "copy");
    cpSync(evaluation, copy, { recursive: true });
    rmSync(join(copy, "judgments.jsonl"));
    const ev = loadEvaluation(copy);
    ev.trust = recheckTrust(ev, loadConfig(trusted.config));
    const side = { evaluation: ev, variant: ev.report.variants[0]! };
    const c = compareSides(side, side, { reps: 200 });
    expect(c.a.trust).toEqual({ rechecked: false, why: `${join(copy, "judgments.jsonl")} is missing, so there are no verdicts to re-check` });
    const text = renderComparisons([c], "table");
    expect(trustColumn(text, "correctness")).toBe("not re-checked");
    expect(text).toContain("judgments.jsonl is missing, so there are no verdicts to re-check): report.json says answer right, correctness are trusted, which the trust column does not take on its word");
  });
});
