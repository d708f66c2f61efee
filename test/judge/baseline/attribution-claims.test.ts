/**
 * `npm run attribution:claims` on invented rows (the real data is
 * third-party and never enters the repository or its tests): the claim path
 * of faithfulness reproduces the answer path's verdicts and kappa.
 */
import { describe, expect, it } from "vitest";
import { convert, writeConversion } from "../../../scripts/attribution/convert.js";
import type { AttributionRow } from "../../../scripts/attribution/data.js";
import { measureClaims } from "../../../scripts/attribution/claims-measure.js";
import { tempDir } from "../../helpers/temp.js";

/** Invented single-claim rows; some read as two sentences to the splitter (initials, a question and its answer). */
function rows(n: number): AttributionRow[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `Invented_${i}`,
    question: `How many days of leave does plan ${i} give?`,
    claim: i % 5 === 0
      ? `Does plan ${i} give leave? Plan ${i} gives ${i % 2 ? 40 : 12} days of paid leave [1].`
      : i % 7 === 0 ? `J.K. Rao says plan ${i} gives ${i % 2 ? 40 : 12} days of paid leave [1].` : `Plan ${i} gives ${i % 3 === 0 ? 40 : 12} days of paid leave [1].`,
    references: [`Plan ${i} gives 12 days of paid leave every year. J.K. Rao wrote the plan.`],
    attribution_label: i % 4 === 0 ? "not attributable" : "attributable",
    src_dataset: "Invented",
  }));
}

describe("attribution:claims", () => {
  it("gives the same verdicts and the same kappa on the claim path as on the answer path", async () => {
    const dir = tempDir("ragjudge-attr-claims-");
    writeConversion(dir, convert(rows(60), "2026-01-01T00:00:00.000Z"));
    const m = await measureClaims(dir);
    expect(m.answerPath.answer.n).toBe(60);
    expect(m.claimPath.claims!.n).toBe(60);
    expect(m.differing).toBe(0);
    expect(m.claimPath.multiClaim).toBe(0);
    expect(m.claimPath.claims!.kappa).toEqual(m.answerPath.answer.kappa);
    expect(m.claimPath.answer.kappa).toEqual(m.answerPath.answer.kappa);
    expect(m.claimPath.claims!.matrix).toEqual(m.answerPath.answer.matrix);
    // Forcing the splitter cuts the question-and-answer rows (not the initials): those have no claim label.
    expect(m.splitterPath.multiClaim).toBe(12);
    expect(m.splitterPath.claims!.n).toBe(48);
  });
});
