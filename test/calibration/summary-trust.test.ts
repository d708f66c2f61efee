import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Judgment } from "../../src/golden/schema/items.js";
import { summaryTrust } from "../../src/calibration/summary-trust.js";
import { runCliCaptured } from "../helpers/cli.js";
import { exampleCopy } from "../report/helpers.js";
import { labelRandomDraw } from "../helpers/labelling.js";

/** The trust state in the summary `ragjudge judge` prints (issue 5: every output showing a pass rate shows it). */
describe("ragjudge judge shows each rubric's trust state", () => {
  it("marks every judged rubric untrusted when no calibration exists, on its heading and its pass-rate row", async () => {
    const copy = exampleCopy();
    const file = join(copy.dir, "j.jsonl");
    const { code, out } = await runCliCaptured(["judge", "--config", copy.config, "--out", file, "--no-progress", "--by", "none"]);
    expect(code).toBe(0);
    for (const rubric of ["citation-accuracy", "correctness", "faithfulness", "not-found"]) {
      expect(out).toMatch(new RegExp(`${rubric}  \\[baseline judge[^\\n]*\\n  UNTRUSTED: no calibration record for this judge`));
    }
    expect(out).toMatch(/pass rate \(untrusted\)\s+\d+\.\d% \d+\/\d+/);
    expect(out).toMatch(/answers, all citations supported \(untrusted\)/);
    const json = await runCliCaptured(["judge", "--config", copy.config, "--out", file, "--no-progress", "--json"]);
    const parsed = JSON.parse(json.out) as { trust: { rubric: string; trusted: boolean; reason: string }[] };
    expect(parsed.trust.map((t) => [t.rubric, t.trusted, t.reason])).toEqual([
      ["citation-accuracy", false, "no-calibration"], ["correctness", false, "no-calibration"], ["faithfulness", false, "no-calibration"], ["not-found", false, "no-calibration"],
    ]);
  });

  it("shows TRUSTED with kappa once calibrate has written a passing record for the exact fingerprint, from labels of a recorded draw", async () => {
    const copy = exampleCopy((c) => (c.trust = { minLabels: 20, minPerClass: 5 }));
    const file = join(copy.dir, "j.jsonl");
    await runCliCaptured(["judge", "--config", copy.config, "--out", file, "--no-progress"]);
    await labelRandomDraw({ config: copy.config, dir: copy.dir, judgments: file, labels: copy.labels, rubrics: "correctness", split: "heldout" });
    expect((await runCliCaptured(["calibrate", "--config", copy.config, "--judgments", file])).code).toBe(0);
    const { out } = await runCliCaptured(["judge", "--config", copy.config, "--out", file, "--no-progress", "--by", "none"]);
    expect(out).toMatch(/correctness  \[baseline judge[^\n]*\n  TRUSTED: kappa 1\.00, 95% CI \[0\.\d\d, 1\.00\]/);
    expect(out).not.toMatch(/\[1\.00, 1\.00\]/);
    expect(out).toMatch(/correctness[\s\S]*pass rate \(trusted\)/);
    expect(out).toMatch(/faithfulness  \[baseline judge[^\n]*\n  UNTRUSTED/);
  });

  it("does not stop the summary on a bad labels file: every rubric shows as untrusted with the problem", () => {
    const copy = exampleCopy();
    writeFileSync(join(copy.labels, "broken.jsonl"), "{not json}\n");
    const j = Judgment.parse({ variant: "v", question: "q", rubric: "faithfulness", unit: "answer", inputHash: "0".repeat(64), fingerprint: "fp", judge: "baseline", verdict: "yes", reason: "", time: "2026-11-30T10:00:00Z" });
    const t = summaryTrust([j], copy.labels, undefined);
    expect(t.problem).toMatch(/^trust state unknown: .*broken\.jsonl:1: not valid JSON/);
    expect([...t.lines.values()]).toEqual([{ trusted: false, message: expect.stringMatching(/^untrusted: trust state unknown/) }]);
  });
});
