import type { TrustSettings } from "./gate.js";
import type { Judgment } from "../golden/schema/items.js";
import { correctedPassRates, type PassRates } from "./corrected.js";
import { loadDraws } from "./draws.js";
import { loadLabels } from "./labels.js";
import { pairGroup } from "./pairing.js";
import { loadRecords } from "./record.js";
import type { BootstrapOptions } from "./stats/index.js";
import { decideTrust, gateContext, splitsOf, type TrustInputs, type TrustState } from "./trust.js";
import { groupJudgments } from "./verdicts.js";
import type { Wordings } from "./wording.js";

/** Trust state and pass rates of one rubric under one judge (fingerprint and served model). */
export interface RubricAssessment {
  rubric: string;
  fingerprint: string;
  servedModel: string | null;
  judge: "llm" | "baseline";
  trust: TrustState;
  passRates: PassRates;
}

/**
 * What every output showing a rubric's pass rate needs, in one call: for
 * each (rubric, fingerprint, served model) among the judgments (rule
 * verdicts left out), its trust state decided now by the one gate
 * (`decideTrust`: a record for the exact judge, current against today's
 * verdicts, labels and draws, then the gate's rule on recomputed figures),
 * and the raw pass rate beside its Rogan-Gladen and prediction-powered
 * corrections from the labels that count. Pass the golden set's questions
 * so splits come from the data. Throws InputErrors for bad label files,
 * draws or records (exit 2 in the CLI).
 *
 * @example
 * const { rubrics } = assessJudgments({ judgments, labelsDir: resolved.path(config.labels), trust: config.trust, questions: golden.questions });
 * for (const r of rubrics) console.log(r.rubric, r.passRates.raw.value, r.trust.message);
 */
export function assessJudgments(input: {
  judgments: readonly Judgment[];
  labelsDir: string;
  trust?: TrustSettings;
  questions?: Iterable<{ id: string; split?: string }>;
  /** Today's wording hash of each rubric (context.ts `wordingsOf`): labels of an earlier wording of its question do not count. */
  wordings?: Wordings;
  bootstrap?: BootstrapOptions;
}): { rubrics: RubricAssessment[]; ruleVerdicts: number } {
  const inputs: TrustInputs = {
    book: loadLabels(input.labelsDir),
    draws: loadDraws(input.labelsDir),
    records: loadRecords(input.labelsDir),
    ...(input.trust ? { trust: input.trust } : {}),
    ...(input.questions ? { splits: splitsOf(input.questions) } : {}),
    ...(input.wordings ? { wordings: input.wordings } : {}),
  };
  const { groups, counts } = groupJudgments(input.judgments);
  const rubrics = groups.map((g) => {
    const pairing = pairGroup(g, inputs.book, gateContext(inputs, g.rubric));
    return { rubric: g.rubric, fingerprint: g.fingerprint, servedModel: g.servedModel, judge: g.judge, trust: decideTrust(pairing, inputs), passRates: correctedPassRates(pairing, input.bootstrap) };
  });
  return { rubrics, ruleVerdicts: counts.ruleVerdicts };
}
