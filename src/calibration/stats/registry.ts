/**
 * The statistics the trust gate and the corrected pass rates rest on, as
 * records that carry their own definition, the rule that decides when their
 * interval says something, and their published source. The README's
 * statistics table is rendered from these ({@link renderStatisticsMarkdown})
 * and a test keeps the two equal.
 */

/** One statistic as people read it. */
export interface StatisticRecord {
  id: string;
  name: string;
  /** What it is used for in ragjudge. */
  use: string;
  /** The formula or method, in one sentence. */
  method: string;
  /** When its interval is flagged "not informative" (or null when it never is). */
  informative: string | null;
  source: string;
}

/** Below this many labelled items PPI's interval is flagged not informative (its normal approximation rests on the rectifier's sample). */
export const PPI_MIN_LABELS = 30;

/** Below this many labels of either class Rogan-Gladen's interval is flagged not informative (TPR and TNR each rest on one class). */
export const ROGAN_GLADEN_MIN_PER_CLASS = 10;

/** The significance level of the skip test (a draw's unlabelled items against its labelled ones). */
export const SKIP_TEST_ALPHA = 0.05;

/** The registry (order: as the README lists them). */
export const STATISTICS: readonly StatisticRecord[] = [
  {
    id: "kappa-asymptotic",
    name: "Cohen's kappa, asymptotic interval",
    use: "agreement of judge and labels; one half of the gate's interval",
    method: "kappa = (p_o - p_e)/(1 - p_e); 95% interval kappa ± 1.96·se with the non-null large-sample standard error, clipped to [-1, 1]",
    informative: "not informative when the labels or the verdicts are all one answer (kappa 0 by convention, zero width by formula); it has zero width when no item disagrees, so the gate never reads it alone",
    source: "Cohen (1960), Educ Psychol Meas 20:37-46; Fleiss, Cohen & Everitt (1969), Psychol Bull 72:323-327",
  },
  {
    id: "kappa-gof",
    name: "Kappa, goodness-of-fit (score-type) interval",
    use: "the other half of the gate's interval: the gate checks the lower bound of the union of the two intervals",
    method: "every kappa0 whose chi-square goodness-of-fit statistic on (both yes, one yes, both no) under the common-correlation model stays within chi-square(1, 95%), found by bisection",
    informative: "never collapses at perfect agreement (46 of 46 agreeing: lower bound 0.83, not 1)",
    source: "Donner & Eliasziw (1992), Stat Med 11:1511-1519",
  },
  {
    id: "kappa-bootstrap",
    name: "Kappa, bootstrap interval",
    use: "shown beside the asymptotic interval",
    method: "seeded percentile bootstrap over the labelled items (2000 resamples by default); resamples with kappa undefined are dropped and counted",
    informative: "no interval when more than half the resamples are undefined; it cannot widen a table with no disagreement either",
    source: "Efron & Tibshirani (1993), An Introduction to the Bootstrap, ch. 13",
  },
  {
    id: "wilson",
    name: "Wilson score interval",
    use: "every raw pass rate",
    method: "(p + z²/2n ± z·sqrt(p(1 - p)/n + z²/4n²)) / (1 + z²/n)",
    informative: null,
    source: "Wilson (1927), JASA 22:209-212; Brown, Cai & DasGupta (2001), Stat Sci 16:101-133",
  },
  {
    id: "rogan-gladen",
    name: "Rogan-Gladen corrected pass rate",
    use: "the pass rate corrected for the judge's TPR and TNR against the gate labels",
    method: "(p + TNR - 1)/(TPR + TNR - 1), clipped to [0, 1], undefined when TPR + TNR <= 1; bootstrap interval resampling labelled and judged items",
    informative: `not informative below ${ROGAN_GLADEN_MIN_PER_CLASS} labels of either class (TPR and TNR each rest on one class), or when the interval has zero width`,
    source: "Rogan & Gladen (1978), Am J Epidemiol 107:71-76",
  },
  {
    id: "ppi",
    name: "Prediction-powered pass rate (PPI)",
    use: "the pass rate corrected by the labelled items of the same variant",
    method: "mean verdict on all judged items minus the mean judge-minus-label difference on the labelled ones, with its normal interval, clipped to [0, 1]",
    informative: `not informative below ${PPI_MIN_LABELS} labelled items, or when the interval has zero width (every verdict and every difference the same)`,
    source: "Angelopoulos, Bates, Fannjiang, Jordan & Zrnic (2023), Science 382:669-674",
  },
  {
    id: "fisher-exact",
    name: "Fisher's exact test (skips)",
    use: "whether a draw's unlabelled items differ from its labelled ones in the judge's verdict (skips not at random)",
    method: `two-sided exact test on (labelled, unlabelled) x (judge yes, judge no); a warning below p = ${SKIP_TEST_ALPHA}`,
    informative: null,
    source: "Fisher (1925), Statistical Methods for Research Workers §21.02; Agresti (2013), Categorical Data Analysis §3.5",
  },
  {
    id: "roc-auc",
    name: "ROC AUC of P(yes)",
    use: "how well the judge's confidence (P(yes) of each verdict) ranks the gate's labels, beside kappa",
    method: "the probability that an item labelled yes has a higher P(yes) than one labelled no, ties half (Mann-Whitney; weighted pairs when the gate is weighted); 95% interval AUC ± 1.96·SE with Hanley & McNeil's SE, clipped to [0, 1]; n of each class shown",
    informative: "no AUC when the labels are all one answer; the interval is rough below a few dozen labels of each class",
    source: "Hanley & McNeil (1982), Radiology 143:29-36; Bamber (1975), J Math Psychol 12:387-415",
  },
  {
    id: "reliability-ece",
    name: "Reliability diagram and expected calibration error",
    use: "whether a P(yes) of 0.8 means 80% of such items are labelled yes",
    method: "ten equal-width P(yes) bins; per bin the mean P(yes) and the share labelled yes; ECE = Σ (bin weight / total) · |share yes - mean P(yes)|; Brier score beside it",
    informative: "no interval; ECE is biased upwards and its bins are noisy at small n, so n is shown per bin",
    source: "DeGroot & Fienberg (1983), The Statistician 32:12-22; Naeini, Cooper & Hauskrecht (2015), AAAI 29:2901-2907; Brier (1950), Mon Weather Rev 78:1-3",
  },
  {
    id: "kappa-dev-threshold",
    name: "Kappa at the P(yes) threshold chosen on dev",
    use: "what a better cut of P(yes) than the judge's own verdict would give, measured honestly",
    method: "the threshold maximising kappa on the dev split's labels (0.5 and the midpoints between their P(yes) values; ties nearest 0.5), applied to the gate's held-out labels: kappa with its asymptotic interval there; never chosen on held-out labels",
    informative: "no threshold when the dev labels are all one answer or have no P(yes); the gate still reads the judge's own verdicts",
    source: "Cohen (1960), Educ Psychol Meas 20:37-46; Hastie, Tibshirani & Friedman (2009), The Elements of Statistical Learning §7.2 (choosing on one split, measuring on another)",
  },
];

/**
 * The registry as a Markdown table (the README's statistics table).
 *
 * @example
 * renderStatisticsMarkdown().split("\n")[0] // "| statistic | used for | method | when its interval says nothing | source |"
 */
export function renderStatisticsMarkdown(): string {
  const cell = (s: string) => s.replace(/\|/g, "\\|");
  return [
    "| statistic | used for | method | when its interval says nothing | source |",
    "|---|---|---|---|---|",
    ...STATISTICS.map((s) => `| ${cell(s.name)} | ${cell(s.use)} | ${cell(s.method)} | ${cell(s.informative ?? "always shown")} | ${cell(s.source)} |`),
  ].join("\n");
}
