/**
 * `compare` pairs report.json's verdicts and answer outcomes while the gate
 * re-decides trust from the evaluation's judgments.jsonl: a report edited
 * after the run (verdicts flipped, an entry dropped so the answer outcome
 * rests on nothing, outcomes rewritten) or verdicts relabelled as rule
 * verdicts in both files must never be shown as trusted, nor pass
 * --require-trusted. Each evaluation is a copy of one honest run.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ReportJson } from "../../../src/report/schema.js";
import { entryVerdicts } from "../../../src/report/build/rubrics.js";
import { answerVerdicts } from "../../../src/report/join.js";
import { answerScore, classify } from "../../../src/report/search-or-answer.js";
import { loadGolden } from "../../../src/golden/dataset.js";
import { Judgment } from "../../../src/golden/schema/items.js";
import { runCliCaptured } from "../../helpers/cli.js";
import { calibrate, honest, judged, type Project } from "../../helpers/gate-project.js";
import { tempDir } from "../../helpers/temp.js";

const CORRECTNESS_ONLY = (c: Record<string, unknown>) => (c.rubrics = ["correctness"]);
const trustColumn = (out: string, row: string) => new RegExp(`^${row}\\s+(trusted|untrusted|not re-checked)\\s`, "m").exec(out)?.[1];

async function run(p: Project): Promise<string> {
  const r = await runCliCaptured(["run", "--config", p.config, "--quiet"]);
  expect(r.code, r.err).toBe(0);
  return r.out.trim().startsWith("/") ? r.out.trim() : join(p.dir, r.out.trim());
}

/** A copy of `ev` with report.json (and judgments.jsonl) edited; `keep` first chooses the judgments.jsonl lines kept. */
function edited(ev: string, report: (r: ReportJson) => void, judgments?: (j: Record<string, unknown>) => void, keep?: (all: Judgment[]) => Judgment[]): string {
  const copy = join(tempDir("ragjudge-edited-"), "ev");
  cpSync(ev, copy, { recursive: true });
  if (keep) {
    const file = join(copy, "judgments.jsonl");
    const rows = keep(readFileSync(file, "utf8").trim().split("\n").map((l) => Judgment.parse(JSON.parse(l))));
    writeFileSync(file, rows.map((x) => JSON.stringify(x)).join("\n") + "\n");
  }
  const r = JSON.parse(readFileSync(join(copy, "report.json"), "utf8")) as ReportJson;
  report(r);
  writeFileSync(join(copy, "report.json"), JSON.stringify(r));
  if (judgments) {
    const file = join(copy, "judgments.jsonl");
    const rows = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    rows.forEach(judgments);
    writeFileSync(file, rows.map((x) => JSON.stringify(x)).join("\n") + "\n");
  }
  return copy;
}

const compare = (ev: string, p: Project) => runCliCaptured(["compare", "--variants", "bm25-small,hybrid-rerank", ev, "--config", p.config, "--require-trusted", "--reps", "200"]);

const passAll = (r: ReportJson) => {
  for (const v of r.variants.find((x) => x.name === "hybrid-rerank")!.searchOrAnswer.questions) if (v.outcome === "generation-failure" || v.outcome === "retrieval-failure") v.outcome = "ok";
};

let trusted: Project;
let evaluation: string;
let uncalibrated: Project;
let plain: string;

beforeAll(async () => {
  trusted = await judged({ minLabels: 20, minPerClass: 3 }, CORRECTNESS_ONLY);
  await honest(trusted, "correctness");
  expect((await calibrate(trusted)).code).toBe(0);
  evaluation = await run(trusted);
  uncalibrated = await judged({ minLabels: 20, minPerClass: 3 }, CORRECTNESS_ONLY);
  plain = await run(uncalibrated);
}, 120_000);

describe("compare takes report.json's figures only as judgments.jsonl gives them", () => {
  it("the honest run is trusted", async () => {
    const r = await compare(evaluation, trusted);
    expect(r.code, r.err).toBe(0);
    expect(trustColumn(r.out, "correctness")).toBe("trusted");
  });

  it("refuses a report whose verdicts were flipped after the run", async () => {
    const ev = edited(evaluation, (r) => {
      for (const v of r.rubrics[0]!.verdicts) if (v.variant === "hybrid-rerank" && v.verdict === "no") v.verdict = "yes";
      passAll(r);
    });
    const r = await compare(ev, trusted);
    expect(r.code).toBe(1);
    expect(trustColumn(r.out, "correctness")).toBe("not re-checked");
    expect(r.out).toMatch(/trust not re-checked \(report\.json's verdicts of correctness \(fingerprint [0-9a-f]{12}\) are not those of judgments\.jsonl/);
  });

  it("refuses a report whose answer outcomes were rewritten", async () => {
    const r = await compare(edited(evaluation, passAll), trusted);
    expect(r.code).toBe(1);
    expect(trustColumn(r.out, "answer right \\(search or answering\\)")).toBe("not re-checked");
    expect(r.out).toContain("report.json's answer outcome of hybrid-rerank on ");
  });

  it("refuses a report whose rubric entries were dropped, so the answer outcome rests on none", async () => {
    const ev = edited(plain, (r) => {
      r.rubrics = [];
      for (const v of r.variants) v.searchOrAnswer.answerRubrics = [];
    });
    const r = await compare(ev, uncalibrated);
    expect(r.code).toBe(1);
    expect(trustColumn(r.out, "answer right \\(search or answering\\)")).toBe("not re-checked");
    expect(r.out).toMatch(/judgments\.jsonl holds verdicts of correctness \(fingerprint [0-9a-f]{12}\) that report\.json has no entry for/);
  });

  it("refuses judge verdicts relabelled as rule verdicts in both files", async () => {
    const ev = edited(plain, (r) => {
      for (const e of r.rubrics) Object.assign(e, { judge: "rule", fingerprint: "rule:1", servedModel: null });
    }, (j) => Object.assign(j, { judge: "rule", fingerprint: "rule:1", rule: "no-answer" }));
    const r = await compare(ev, uncalibrated);
    expect(r.code).toBe(1);
    expect(trustColumn(r.out, "correctness")).toBe("not re-checked");
    expect(r.out).toMatch(/judgments\.jsonl says a rule decided correctness of bm25-small on \S+ \(unit answer: (yes|no)\), which no rule gives on the project's data/);
  });

  it("says the pipeline output changed since the run, not that the files were forged, when a rule's item changed", async () => {
    const p = await judged({ minLabels: 20, minPerClass: 3 }, CORRECTNESS_ONLY);
    const output = join(p.dir, "golden", "variants", "bm25-small", "output.jsonl");
    const honestOutput = readFileSync(output, "utf8");
    // an answer left empty: correctness is decided by the no-answer rule in this run
    const rows = honestOutput.trim().split("\n").map((l) => JSON.parse(l) as { id: string; answer?: string });
    const emptied = rows.find((r) => typeof r.answer === "string" && r.answer.length > 0)!;
    writeFileSync(output, rows.map((r) => JSON.stringify(r.id === emptied.id ? { ...r, answer: "" } : r)).join("\n") + "\n");
    const ev = await run(p);
    expect(readFileSync(join(ev, "judgments.jsonl"), "utf8")).toContain('"rule":"no-answer"');
    // the pipeline answers again: the next run's data, the evaluation's rule no longer given by a rule today
    writeFileSync(output, honestOutput);
    const r = await compare(ev, p);
    expect(r.code).toBe(1);
    expect(trustColumn(r.out, "correctness")).toBe("not re-checked");
    expect(r.out).toContain(`judgments.jsonl says a rule decided correctness of bm25-small on ${emptied.id} (unit answer: no), which cannot be checked: ${output} changed since this evaluation was run`);
    expect(r.out).not.toContain("not one run's");
  }, 60_000);

  it("refuses a rubric shown as decided by rule alone when the judge verdicts the project's data needs were left out of both files", async () => {
    const p = await judged({ minLabels: 20, minPerClass: 3 }, CORRECTNESS_ONLY);
    // one empty answer: correctness of that question is decided by the no-answer rule, every other one by the judge
    const output = join(p.dir, "golden", "variants", "bm25-small", "output.jsonl");
    const rows = readFileSync(output, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; answer?: string });
    const emptied = rows.find((r) => typeof r.answer === "string" && r.answer.length > 0)!;
    writeFileSync(output, rows.map((r) => JSON.stringify(r.id === emptied.id ? { ...r, answer: "" } : r)).join("\n") + "\n");
    const ev = await run(p);
    const questions = loadGolden(join(p.dir, "golden", "questions.jsonl")).questions;
    let kept: Judgment[] = [];
    const forged = edited(ev, (r) => {
      // report.json made to agree: correctness by rule alone, its verdicts and the answer outcomes those left give
      const entry = r.rubrics.find((e) => e.rubric === "correctness")!;
      const built = entryVerdicts(kept, { name: "correctness", unit: "answer" }, r.variants.map((v) => v.name), r.config.requireCitations)[0]!;
      Object.assign(entry, { judge: "rule", fingerprint: built.fingerprint, servedModel: null, verdicts: built.verdicts, trust: { ...entry.trust, trusted: true, reason: null, message: "trusted: decided by rule" } });
      const verdicts = answerVerdicts(kept);
      for (const v of r.variants) {
        for (const q of v.searchOrAnswer.questions) {
          const o = classify({ question: questions.find((x) => x.id === q.id)!, relevantInContext: false, verdicts: verdicts.get(`${v.name}\u0000${q.id}`) ?? new Map() }, v.searchOrAnswer.answerRubrics);
          if (answerScore(o.outcome) !== answerScore(q.outcome)) q.outcome = o.outcome;
        }
      }
    }, undefined, (all) => (kept = all.filter((j) => j.rubric !== "correctness" || j.judge === "rule")));
    expect(kept.filter((j) => j.rubric === "correctness").map((j) => j.rule)).toEqual(["no-answer"]);
    const r = await compare(forged, p);
    expect(r.code).toBe(1);
    expect(trustColumn(r.out, "correctness")).toBe("untrusted");
    expect(r.out).toMatch(/say not: report\.json says correctness was decided by rule only, but the project's data gives \d+ item\(s\) of it to a judge, whose verdicts judgments\.jsonl lacks/);
  }, 60_000);

  it("re-checks the shipped example's own rule verdicts (no answer, uncited, outside the context) as rules", async () => {
    const cwd = tempDir("ragjudge-rules-");
    const { runCliIn } = await import("../../helpers/cli.js");
    expect((await runCliIn(cwd, ["run", "--example", "--quiet"])).code).toBe(0);
    const ev = join(cwd, "evaluations", (await import("node:fs")).readdirSync(join(cwd, "evaluations"))[0]!);
    expect(readFileSync(join(ev, "judgments.jsonl"), "utf8")).toContain('"judge":"rule"');
    const r = await runCliIn(cwd, ["compare", "--variants", "bm25-small,hybrid-rerank", ev, "--example", "--reps", "200"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toContain("not re-checked");
  }, 60_000);
});
