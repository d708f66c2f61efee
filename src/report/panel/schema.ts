import { z } from "zod";

/**
 * `report.json`'s `panel`: a judge panel's side-by-side calibration, the
 * agreement between its judges and one recommendation line per rubric
 * (src/calibration/panel.ts computes it). Absent without `judges`.
 */
const Num = z.number().finite();
const NumOrNull = Num.nullable();
const Count = z.number().int().min(0);

export const PanelRowJson = z.object({
  judge: z.string(),
  kind: z.string(),
  fingerprint: z.string().nullable(),
  n: Count,
  kappa: NumOrNull,
  ci: z.object({ lo: Num, hi: Num }).nullable(),
  tpr: NumOrNull,
  tnr: NumOrNull,
  trusted: z.boolean(),
  trust: z.string(),
  /** Today's labels pass the gate, but `ragjudge calibrate` has no current record of this judge, so it is not trusted. */
  labelsPass: z.literal(true).optional(),
  verdicts: Count,
  errors: Count,
  errorRate: NumOrNull,
  usdPer1000: NumOrNull,
  medianLatencyMs: NumOrNull,
  escalation: z.object({
    rate: NumOrNull, uncertain: Count, error: Count, sample: Count, total: Count,
    sampled: z.object({ items: Count, disagreeing: Count }).optional(),
  }).optional(),
  stopped: z.string().optional(),
});

export const PanelRubricJson = z.object({
  rubric: z.string(),
  rows: z.array(PanelRowJson),
  pairs: z.array(z.object({ a: z.string(), b: z.string(), n: Count, kappa: NumOrNull, agreement: NumOrNull })),
  alpha: NumOrNull,
  alphaUnits: Count,
  humans: z.object({ alpha: NumOrNull, kappa: NumOrNull, overlap: Count }).nullable(),
  /** Items where the judges split (the `--panel-splits` review frame draws from them). */
  splits: Count,
  recommendation: z.string(),
  recommended: z.string().nullable(),
});

export const PanelJson = z.object({
  judges: z.array(z.object({ name: z.string(), kind: z.string(), label: z.string(), model: z.string().nullable(), members: z.array(z.string()), stopped: z.string().nullable() })),
  rubrics: z.array(PanelRubricJson),
  /** The panel's verdicts, every one with `judgeName` (in the evaluation folder). */
  judgments: z.string(),
});
export type PanelJson = z.infer<typeof PanelJson>;
