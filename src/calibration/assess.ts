import type { RagjudgeConfig } from "../golden/schema/config.js";
import type { Judgment } from "../golden/schema/items.js";
import { correctedPassRates, type PassRates } from "./corrected.js";
import { trustState, type TrustState } from "./gate.js";
import { loadLabels } from "./labels.js";
import { pairGroup } from "./pairing.js";
import { loadRecords } from "./record.js";
import type { BootstrapOptions } from "./stats/index.js";
import { groupJudgments } from "./verdicts.js";

/** Trust state and pass rates of one rubric under one judge. */
export interface RubricAssessment {
  rubric: string;
  fingerprint: string;
  judge: "llm" | "baseline";
  trust: TrustState;
  passRates: PassRates;
}

/**
 * What every output showing a rubric's pass rate needs, in one call: for
 * each (rubric, fingerprint) among the judgments (rule verdicts left out),
 * its trust state from the calibration records in `<labelsDir>/calibration/`
 * (only a record for the exact fingerprint counts; others are listed), and
 * the raw pass rate beside its Rogan-Gladen and prediction-powered
 * corrections from the labels that count. Throws InputErrors for bad label
 * files or records (exit 2 in the CLI).
 *
 * @example
 * const { rubrics } = assessJudgments({ judgments, labelsDir: resolved.path(config.labels), trust: config.trust });
 * for (const r of rubrics) console.log(r.rubric, r.passRates.raw.value, r.trust.message);
 */
export function assessJudgments(input: {
  judgments: readonly Judgment[];
  labelsDir: string;
  trust?: RagjudgeConfig["trust"];
  bootstrap?: BootstrapOptions;
}): { rubrics: RubricAssessment[]; ruleVerdicts: number } {
  const book = loadLabels(input.labelsDir);
  const records = loadRecords(input.labelsDir);
  const { groups, counts } = groupJudgments(input.judgments);
  const rubrics = groups.map((g) => ({
    rubric: g.rubric,
    fingerprint: g.fingerprint,
    judge: g.judge,
    trust: trustState(g.rubric, g.fingerprint, records, input.trust, { labelsHash: book.hash }),
    passRates: correctedPassRates(pairGroup(g, book), input.bootstrap),
  }));
  return { rubrics, ruleVerdicts: counts.ruleVerdicts };
}
