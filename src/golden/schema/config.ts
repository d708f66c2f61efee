import { z } from "zod";
import { BOUNDS } from "../bounds.js";
import { bounded, Id } from "./common.js";
import { checkPanel, PanelJudgeConfig } from "./panel.js";

/**
 * Which named stage list of a pipeline output plays which role. Declared,
 * never inferred from the names (a list called "rerank" might not be one).
 *
 * - `first`: the first-stage lists (for example full-text and vector);
 * - `fused`: the fused pool built from them;
 * - `reranked`: the reranked list (when absent, `retrieved` is final);
 * - `pool`: the list whose recall at `poolDepth` is the ceiling any reranker
 *   can reach; defaults to `fused`, else the only first-stage list.
 */
export const StageRoles = z.strictObject({
  first: z.array(z.string().min(1)).default([]),
  fused: z.string().min(1).optional(),
  reranked: z.string().min(1).optional(),
  pool: z.string().min(1).optional(),
});
export type StageRoles = z.infer<typeof StageRoles>;

/** One variant of the user's RAG system: its pipeline output and chunks. */
export const VariantConfig = z.strictObject({
  name: Id,
  output: z.string().min(1),
  /** The chunks file; optional when the pipeline output gives every passage as text (ids are then derived from it). */
  chunks: z.string().min(1).optional(),
  /** `context` defaults to the top `contextK` of `retrieved` when a line has none. */
  contextK: bounded(BOUNDS.contextK).default(5),
  stages: StageRoles.default({ first: [] }),
});
export type VariantConfig = z.infer<typeof VariantConfig>;

export { BaselineJudgeConfig, JudgeConfig, OpenAIJudgeConfig } from "./judge-config.js";
import { JudgeConfig } from "./judge-config.js";

/**
 * Trust-gate thresholds; settable per rubric. `minCoverage`: the share of a
 * draw's items that must be labelled before its labels count (so skipping
 * cannot choose the sample).
 */
export const TrustThresholds = z.strictObject({
  minLabels: z.number().int().positive().default(50),
  minPerClass: z.number().int().min(0).default(10),
  kappaLower: z.number().min(0, "must be at least 0: a lower bound below 0 trusts a judge no better than chance").max(1).default(0.6),
  minCoverage: z.number().gt(0).max(1).default(0.8),
});
export type TrustThresholds = z.infer<typeof TrustThresholds>;

/**
 * A per-rubric override of the trust thresholds: only the fields given.
 * Deliberately without defaults, so overriding one threshold for a rubric
 * keeps the config's own values (not the built-in ones) for the others.
 */
export const TrustOverride = z.strictObject({
  minLabels: z.number().int().positive().optional(),
  minPerClass: z.number().int().min(0).optional(),
  kappaLower: z.number().min(0, "must be at least 0: a lower bound below 0 trusts a judge no better than chance").max(1).optional(),
  minCoverage: z.number().gt(0).max(1).optional(),
});
export type TrustOverride = z.infer<typeof TrustOverride>;

/** Adds one issue per name that repeats an earlier one, naming where the first one is. */
function repeatedNames(names: readonly string[], ctx: z.RefinementCtx, path: (i: number) => (string | number)[], what: string, where: (i: number) => string): void {
  const first = new Map<string, number>();
  names.forEach((n, i) => {
    const j = first.get(n);
    if (j === undefined) first.set(n, i);
    else ctx.addIssue({ code: "custom", path: path(i), message: `duplicate ${what} name ${JSON.stringify(n)} (also ${where(j)}): names are identities, so their results would merge` });
  });
}

/**
 * `ragjudge.config.json`. Paths are relative to the config file's folder.
 *
 * @example
 * {"name":"example","golden":"golden/questions.jsonl",
 *  "variants":[{"name":"bm25","output":"golden/bm25.output.jsonl","chunks":"golden/bm25.chunks.jsonl"}],
 *  "judge":{"kind":"baseline"}}
 */
export const RagjudgeConfig = z.strictObject({
  $schema: z.string().optional(),
  name: Id.default("evaluation"),
  golden: z.string().min(1),
  variants: z.array(VariantConfig).min(1),
  k: z.array(bounded(BOUNDS.cutoff)).min(1).default([1, 5, 10]),
  poolDepth: bounded(BOUNDS.poolDepth).default(50),
  rubricsDir: z.string().min(1).default("rubrics"),
  /** Rubric names to judge; all files in `rubricsDir` except optional ones when absent. */
  rubrics: z.array(Id).optional(),
  labels: z.string().min(1).default("labels"),
  judge: JudgeConfig.optional(),
  /** A judge panel (schema/panel.ts): several named judges side by side; `judge` (or the first leaf here) gives the run's main verdicts. */
  judges: z.array(PanelJudgeConfig).min(1).optional(),
  requireCitations: z.boolean().default(false),
  /**
   * What faithfulness judges: `answer` (one verdict per answer) or `claim`
   * (one per claim, c1, c2, ...; the answer's verdict is derived from them:
   * see src/judge/items/claims.ts).
   */
  faithfulnessUnit: z.enum(["answer", "claim"]).default("answer"),
  /** Retrieval floors, `{"R@10": 0.7, "RR": 0.5}`: a missed floor fails `run` and `retrieval`. */
  floors: z.record(z.string(), z.number()).default({}),
  /**
   * The trust gate: its thresholds (overridable per rubric), the name of
   * the held-out split whose labels it uses (labels with no split are dev),
   * and whether labels imported with an attestation (`labels import
   * --attest`: drawn at random outside ragjudge, by someone's word) count as
   * random. Off by default: a declaration is not a draw the gate can replay,
   * so counting one is the config owner's decision, made in the config.
   */
  trust: TrustThresholds.extend({
    heldout: z.string().min(1).default("heldout"),
    perRubric: z.record(z.string(), TrustOverride).default({}),
    attested: z.boolean().default(false),
  }).default({ minLabels: 50, minPerClass: 10, kappaLower: 0.6, minCoverage: 0.8, heldout: "heldout", perRubric: {}, attested: false }),
  /** USD per million tokens, by model name, for `--dry-run` and cost lines. */
  prices: z.record(z.string(), z.strictObject({ input: z.number().min(0), output: z.number().min(0) })).default({}),
  cacheDir: z.string().min(1).default(".ragjudge"),
  evaluationsDir: z.string().min(1).default("evaluations"),
}).superRefine((c, ctx) => {
  // Names are identities: judgments, labels and reports join on them, so two variants (or rubrics) of one name would merge silently.
  repeatedNames(c.variants.map((v) => v.name), ctx, (i) => ["variants", i, "name"], "variant", (i) => `variants[${i}]`);
  repeatedNames(c.rubrics ?? [], ctx, (i) => ["rubrics", i], "rubric", (i) => `rubrics[${i}]`);
  if (c.judges) checkPanel(c.judges, ctx, ["judges"]);
});
export type RagjudgeConfig = z.infer<typeof RagjudgeConfig>;
