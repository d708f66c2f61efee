/**
 * A judge panel under claim-level faithfulness (offline judges): every judge
 * judges the same claim items, each gets its own derived answer verdicts
 * (never mixing judges), and the side-by-side calibration stays at claim level.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseJsonl } from "../../../src/golden/jsonl.js";
import { Judgment } from "../../../src/golden/schema/items.js";
import { runEvaluation } from "../../../src/report/evaluation.js";
import { ROOT } from "../../helpers/paths.js";
import { exampleCopy } from "../helpers.js";

describe("a judge panel with faithfulness by claim", () => {
  it("derives each judge's answer verdicts from its own claim verdicts", async () => {
    const panel = JSON.parse(readFileSync(join(ROOT, "ragjudge.panel.config.json"), "utf8")) as { judges: unknown };
    const copy = exampleCopy((c) => {
      c.faithfulnessUnit = "claim";
      c.judges = panel.judges;
    });
    const r = await runEvaluation({ config: copy.config, evaluationsDir: copy.evaluations, cacheDir: join(copy.dir, "cache") });
    const file = join(r.folder, "panel-judgments.jsonl");
    const { rows, problems } = parseJsonl(readFileSync(file, "utf8"), file, Judgment);
    expect(problems).toEqual([]);
    const faith = rows.map((x) => x.value).filter((j) => j.rubric === "faithfulness");
    const claims = faith.filter((j) => /^c\d+$/.test(j.unit));
    const derived = faith.filter((j) => j.derived === "claims");
    expect(new Set(claims.map((j) => j.judgeName))).toEqual(new Set(["lexical", "always-yes", "lexical-cascade"]));
    for (const name of ["lexical", "always-yes"]) {
      const mine = derived.filter((j) => j.judgeName === name);
      expect(mine.length).toBeGreaterThan(0);
      for (const d of mine) {
        const own = claims.filter((c) => c.judgeName === name && c.variant === d.variant && c.question === d.question && c.repeat === d.repeat);
        expect(d.verdict).toBe(own.some((c) => c.verdict === "no") ? "no" : own.some((c) => c.verdict === "error") ? "error" : "yes");
      }
    }
    expect(derived.filter((j) => j.judgeName === "always-yes").every((j) => j.verdict === "yes")).toBe(true);
    expect(derived.filter((j) => j.judgeName === "lexical").some((j) => j.verdict === "no")).toBe(true);
    expect(r.report.panel!.rubrics.map((p) => p.rubric)).toContain("faithfulness");
    expect(r.errors).toBe(0);
  }, 120_000);
});
