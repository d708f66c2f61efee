import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { displayPath } from "../../../src/golden/errors.js";
import { parseJsonl } from "../../../src/golden/jsonl.js";
import { configArgsFor } from "../../../src/report/panel/render.js";
import { Judgment } from "../../../src/golden/schema/items.js";
import { runEvaluation, type EvaluationResult } from "../../../src/report/evaluation.js";
import { ReportJson } from "../../../src/report/schema.js";
import { runCliCaptured } from "../../helpers/cli.js";
import { ROOT } from "../../helpers/paths.js";
import { tempDir } from "../../helpers/temp.js";

/** The shipped example panel (ragjudge.panel.config.json): three offline judges, no network. */
describe("the example judge panel", () => {
  let r: EvaluationResult;
  beforeAll(async () => {
    const dir = tempDir();
    r = await runEvaluation({ config: join(ROOT, "ragjudge.panel.config.json"), evaluationsDir: join(dir, "evals"), cacheDir: join(dir, "cache") });
  }, 120_000);

  it("prints the side-by-side calibration, the agreement and the recommendation in the terminal and every report", () => {
    expect(r.summary).toMatch(/Judge panel: 3 judges: lexical \(baseline\), always-yes \(constant\), lexical-cascade \(cascade of lexical, always-yes\)/);
    expect(r.summary).toMatch(/agreement between judges: Krippendorff's alpha -?\d\.\d\d over \d+ items/);
    expect(r.summary).toMatch(/pairwise Cohen's kappa: lexical~always-yes/);
    expect(r.summary).toMatch(/=> no judge is trusted; closest: lexical \(kappa/);
    expect(r.summary).toMatch(/cascade lexical-cascade: escalated \d+ of \d+/);
    // The split items' command names the panel's config (the default config has no panel), as typed from where it ran.
    expect(r.summary).toContain(`(review them: ragjudge sample --panel-splits --annotator NAME --config ${displayPath(join(ROOT, "ragjudge.panel.config.json"))}; never counted by the trust gate)`);
    expect(configArgsFor("ragjudge.config.json")).toBe("");
    expect(configArgsFor("my configs/panel.json")).toBe(" --config 'my configs/panel.json'");
    const md = readFileSync(join(r.folder, "report.md"), "utf8");
    expect(md).toMatch(/## Judge panel/);
    expect(md).toMatch(/^\*\*no judge is trusted; closest: lexical \(kappa/m);
    expect(md).not.toContain("=&gt;");
    const html = readFileSync(join(r.folder, "report.html"), "utf8");
    expect(html).toMatch(/<section id="panel"><h2>Judge panel<\/h2>/);
    const report = ReportJson.parse(JSON.parse(readFileSync(join(r.folder, "report.json"), "utf8")));
    expect(report.panel!.judges.map((j) => j.name)).toEqual(["lexical", "always-yes", "lexical-cascade"]);
    expect(report.panel!.rubrics.map((p) => p.rubric).sort()).toEqual(["citation-accuracy", "correctness", "faithfulness", "not-found"]);
    const faith = report.panel!.rubrics.find((p) => p.rubric === "faithfulness")!;
    // A judge saying yes to everything: TPR 1, TNR 0, kappa 0.
    expect(faith.rows.find((x) => x.judge === "always-yes")).toMatchObject({ tpr: 1, tnr: 0, kappa: 0, trusted: false });
    expect(report.files).toContain("panel-judgments.jsonl");
    const junit = readFileSync(join(r.folder, "junit.xml"), "utf8");
    expect(junit).toMatch(/<testsuite name="judge panel" tests="4"/);
    expect(junit).toMatch(/classname="ragjudge\.panel\.faithfulness"/);
    expect(r.errors).toBe(0);
  });

  it("writes every panel verdict with its judge's name", () => {
    const file = join(r.folder, "panel-judgments.jsonl");
    const { rows, problems } = parseJsonl(readFileSync(file, "utf8"), file, Judgment);
    expect(problems).toEqual([]);
    const names = new Set(rows.map((x) => x.value.judgeName));
    expect([...names].sort()).toEqual(["always-yes", "lexical", "lexical-cascade"]);
    // Each judge keeps its own fingerprint per rubric.
    const fps = new Set(rows.filter((x) => x.value.rubric === "faithfulness" && x.value.judge !== "rule").map((x) => `${x.value.judgeName}:${x.value.fingerprint}`));
    expect(fps.size).toBe(3);
  });

  it("is the shipped example: run's next step is ragjudge init, never labelling into the project's own labels", async () => {
    const dir = tempDir();
    const run = await runCliCaptured(["run", "--config", join(ROOT, "ragjudge.panel.config.json"), "--evaluations-dir", join(dir, "evals"), "--cache-dir", join(dir, "cache"), "--no-progress"]);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/Next: this was the shipped example\. To evaluate your own data, start a project in a folder of its own:\n {2}ragjudge init my-eval\n$/);
    expect(run.out).not.toMatch(/ragjudge sample --random/);
  });

  it("ragjudge judge judges with the panel too and prints the same section", async () => {
    const cache = join(tempDir(), "cache");
    const j = await runCliCaptured(["judge", "--config", join(ROOT, "ragjudge.panel.config.json"), "--cache-dir", cache, "--no-progress"]);
    expect(j.code, j.err).toBe(0);
    expect(j.out).toMatch(/Judge panel: 3 judges/);
    expect(j.out).toMatch(/=> no judge is trusted; closest: lexical/);
    const file = join(cache, "panel-judgments.jsonl");
    expect(parseJsonl(readFileSync(file, "utf8"), file, Judgment).rows.length).toBeGreaterThan(0);
  });
});
