/**
 * The sampling designs ragjudge knows, as records: what each is, whether it
 * knows every item's inclusion probability, and which estimators accept it
 * (and why the others refuse it). The gate reads `gate`; the README's table
 * is rendered from these ({@link renderDesignsMarkdown}).
 */

/** The estimators a design may feed. */
export type EstimatorId = "gate" | "kappa" | "kappa-bootstrap" | "tpr-tnr" | "rogan-gladen" | "ppi" | "error-analysis";

/** One design (the `design` of a draw manifest). */
export interface DesignRecord {
  id: "uniform" | "stratified" | "active";
  name: string;
  /** How items are drawn. */
  method: string;
  /** True when every item's inclusion probability is known and recorded. */
  probabilitiesKnown: boolean;
  /** How each accepted estimator is computed under it. */
  accepts: Partial<Record<EstimatorId, string>>;
  /** Why each refused estimator refuses it. */
  refuses: Partial<Record<EstimatorId, string>>;
  source: string;
}

/** The registry. */
export const DESIGNS: readonly DesignRecord[] = [
  {
    id: "uniform",
    name: "simple random sample",
    method: "the first n of the frame's N items in the population's one order, shuffled by the seed its population fixes (ragjudge sample --random): every frame item has probability n/N",
    probabilitiesKnown: true,
    accepts: {
      gate: "yes: equal weights",
      kappa: "Fleiss-Cohen-Everitt asymptotic and Donner-Eliasziw goodness-of-fit intervals",
      "kappa-bootstrap": "percentile bootstrap over the labelled items",
      "tpr-tnr": "plain shares",
      "rogan-gladen": "bootstrap resampling labelled and judged items",
      ppi: "mean rectifier with var(f - y)/n",
      "error-analysis": "yes",
    },
    refuses: {},
    source: "Cochran (1977), Sampling Techniques, ch. 2",
  },
  {
    id: "stratified",
    name: "stratified random sample (Neyman allocation)",
    method: "strata from the judge alone (its verdict, its confidence band from P(yes) when given, the variant); the first n_h of stratum h in the population's one order, n_h ∝ N_h·S_h with at least 2 per stratum (ragjudge plan --budget); probability n_h/N_h; replayable from the seed its population fixes",
    probabilitiesKnown: true,
    accepts: {
      gate: "yes, when every frame item's probability is positive and the manifest replays from its population's seed",
      kappa: "weighted by 1/p, standard error by Taylor linearisation with the stratified variance, interval on the log(1 - kappa) scale; the goodness-of-fit half on the table scaled to Kish's effective n",
      "tpr-tnr": "weighted shares",
      "rogan-gladen": "weighted TPR and TNR, bootstrap resampling within strata",
      ppi: "weighted rectifier, stratified linearised variance",
      "error-analysis": "yes",
    },
    refuses: {
      "kappa-bootstrap": "the bootstrap resamples items as if drawn with equal chance; a stratified draw fixes n_h per stratum, so the linearised interval is used instead",
    },
    source: "Neyman (1934), J R Stat Soc 97:558-625; Cochran (1977) §5.5; Särndal, Swensson & Wretman (1992) §5.7",
  },
  {
    id: "active",
    name: "active (uncertain items first)",
    method: "the items the judge is least sure of, in order: for error analysis (which prompts fail, where)",
    probabilitiesKnown: false,
    accepts: { "error-analysis": "yes: disagreements and their reasons" },
    refuses: {
      gate: "who is drawn depends on the judge's uncertainty, and no item has a known inclusion probability: the labels are not a sample of the population",
      kappa: "selection by uncertainty distorts agreement (uncertain items disagree more) and cannot be weighted back without inclusion probabilities",
      "kappa-bootstrap": "as kappa",
      "tpr-tnr": "as kappa",
      "rogan-gladen": "needs TPR and TNR of the population",
      ppi: "needs a sample with known inclusion probabilities",
    },
    source: "Settles (2009), Active Learning Literature Survey; Horvitz & Thompson (1952), JASA 47:663-685 (why unknown probabilities cannot be weighted)",
  },
];

/** The record of a design. */
export function designOf(id: string): DesignRecord | undefined {
  return DESIGNS.find((d) => d.id === id);
}

/** Whether an estimator accepts a design, with the reason when it refuses. */
export function accepts(design: string, estimator: EstimatorId): { ok: true; how: string } | { ok: false; reason: string } {
  const d = designOf(design);
  if (!d) return { ok: false, reason: `unknown design ${JSON.stringify(design)}` };
  const how = d.accepts[estimator];
  if (how !== undefined) return { ok: true, how };
  return { ok: false, reason: d.refuses[estimator] ?? `${d.name} is not known to ${estimator}` };
}

/**
 * The registry as a Markdown table.
 *
 * @example
 * renderDesignsMarkdown().split("\n")[0] // "| design | how drawn | inclusion probabilities | accepted by | refused by (why) | source |"
 */
export function renderDesignsMarkdown(): string {
  const cell = (s: string) => s.replace(/\|/g, "\\|");
  return [
    "| design | how drawn | inclusion probabilities | accepted by | refused by (why) | source |",
    "|---|---|---|---|---|---|",
    ...DESIGNS.map((d) => `| ${cell(d.name)} (\`${d.id}\`) | ${cell(d.method)} | ${d.probabilitiesKnown ? "known" : "unknown"} | ${cell(Object.entries(d.accepts).map(([k, v]) => `${k}: ${v}`).join("; "))} | ${cell(Object.entries(d.refuses).map(([k, v]) => `${k}: ${v}`).join("; ") || "none")} | ${cell(d.source)} |`),
  ].join("\n");
}
