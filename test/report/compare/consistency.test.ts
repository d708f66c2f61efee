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

/** A copy of `ev` with report.json (and judgments.jsonl) edited. */
function edited(ev: string, report: (r: ReportJson) => void, judgments?: (j: Record<string, unknown>) => void): string {
  const copy = join(tempDir("ragjudge-edited-"), "ev");
  cpSync(ev, copy, { recursive: true });
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
