import { loadGolden, loadVariants, type GoldenSet, type VariantData } from "../../golden/dataset.js";
import { InputError, InputErrors } from "../../golden/errors.js";
import { missingInputs, resolveRubrics, type ResolvedConfig, type RubricsSource } from "../../golden/config.js";
import { missK } from "../../retrieval/diagnostics/diagnose.js";
import { buildItems, type Item, type ItemSet } from "./items.js";
import { citedClaims, EXTRACT_RUBRIC, expandClaims } from "./claims.js";
import { validateRubricTemplates } from "../rubric/prompt.js";
import { loadRubrics, type Rubric } from "../rubric/rubric.js";

/** Everything a judge run reads: golden set, variants, rubrics, and the items built from them. */
export interface JudgeInputs {
  golden: GoldenSet;
  variants: VariantData[];
  rubrics: Rubric[];
  /** Where the rubrics were read: the team's folder or the packaged defaults. */
  rubricsSource: RubricsSource;
  itemSet: ItemSet;
  /** The items before claim-level faithfulness made claims of them (the same as `itemSet` at unit answer). */
  answerItemSet: ItemSet;
  /** The `claims` extraction rubric, when the config names it (never judged itself: it makes the claims). */
  claimsRubric?: Rubric;
}

/** Options of {@link loadJudgeInputs}. */
export interface JudgeInputOptions {
  rubrics?: string[];
  variants?: string[];
  /** The claims of an answer under claim-level faithfulness, when they come from elsewhere (default: explicit citations, else the splitter). */
  claimsOf?: (answerItem: Item) => readonly string[] | undefined;
  /**
   * With the `claims` rubric named: the claims a judge extracted
   * (judge/claims/prepare.ts `cachedClaimsFrom`), so `sample` and `review`
   * rebuild the claim items the run judged.
   */
  claimsFrom?: (claimsRubric: Rubric) => (answerItem: Item) => readonly string[] | undefined;
}

/**
 * Loads a judge run's inputs from a resolved config: the golden set, the
 * chosen variants (`variants`, default all), the chosen rubrics (`rubrics`,
 * else the config's list, else every non-optional rubric in `rubricsDir`),
 * with their templates checked, then builds every item (anchor-ambiguity
 * items at the miss analysis's cut-off, `missK(config.k)`).
 *
 * @example
 * const { itemSet, rubrics } = loadJudgeInputs(loadConfig(), { rubrics: ["faithfulness"] });
 */
export function loadJudgeInputs(resolved: ResolvedConfig, opts: JudgeInputOptions = {}): JudgeInputs {
  const { config } = resolved;
  const missing = missingInputs(resolved);
  if (missing.length) throw new InputErrors(missing);
  const rubricsSource = resolveRubrics(resolved);
  const loaded = loadRubrics(rubricsSource.dir, opts.rubrics ?? config.rubrics);
  for (const r of loaded) validateRubricTemplates(r);
  // The claims rubric extracts claims (claims/extract.ts); it is no yes/no rubric to judge.
  // Named in the config, it makes the claims even when a command judges or samples only some rubrics.
  const claimsRubric = loaded.find((r) => r.name === EXTRACT_RUBRIC) ?? (config.rubrics?.includes(EXTRACT_RUBRIC) ? loadRubrics(rubricsSource.dir, [EXTRACT_RUBRIC])[0] : undefined);
  const rubrics = loaded.filter((r) => r.name !== EXTRACT_RUBRIC);
  const known = config.variants.map((v) => v.name);
  for (const name of opts.variants ?? []) {
    if (!known.includes(name)) throw new InputError(resolved.file, undefined, "variants", `no variant named ${JSON.stringify(name)} (have: ${known.join(", ")})`);
  }
  const chosen = opts.variants?.length ? config.variants.filter((v) => opts.variants!.includes(v.name)) : config.variants;
  const golden = loadGolden(resolved.path(config.golden));
  const variants = loadVariants(chosen, golden, resolved.path);
  const built = buildItems({ golden, variants, rubrics, requireCitations: config.requireCitations, missK: missK(config.k) });
  // faithfulnessUnit "claim": faithfulness answers become claim items (claims.ts).
  const cited = citedClaims(variants);
  // With the claims rubric, the claims a judge extracted (the cache's latest), so sample and review rebuild the judged items.
  const extracted = claimsRubric && config.faithfulnessUnit === "claim" ? opts.claimsFrom?.(claimsRubric) : undefined;
  const claimsOf = (it: Item) => opts.claimsOf?.(it) ?? extracted?.(it) ?? cited(it);
  const itemSet = expandClaims(built, { unit: config.faithfulnessUnit, claimsOf });
  return { golden, variants, rubrics, rubricsSource, itemSet, answerItemSet: built, ...(claimsRubric ? { claimsRubric } : {}) };
}

