import { z } from "zod";

/**
 * One unsupported claim of claim-level faithfulness (config
 * `faithfulnessUnit: "claim"`) in report.json: the claim, the judge's reason,
 * and the context it was checked against, so a reader sees which sentence
 * the sources did not support and what the sources said.
 */
export const UnsupportedClaimJson = z.strictObject({
  variant: z.string(),
  question: z.string(),
  /** `c<n>`. */
  unit: z.string(),
  claim: z.string(),
  /** `no`: not supported; `error`: could not be judged (never counted as a verdict). */
  verdict: z.enum(["no", "error"]),
  reason: z.string(),
  judge: z.enum(["llm", "baseline"]),
  inputHash: z.string(),
  /** The chunks given to the generator, in context order: what the claim was checked against. */
  context: z.array(z.strictObject({ position: z.number().int().min(1), id: z.string(), heading: z.string().nullable(), text: z.string().nullable() })),
});
export type UnsupportedClaimJson = z.infer<typeof UnsupportedClaimJson>;
