/**
 * The learned support model of the offline baseline judge (faithfulness and
 * citation accuracy). Written by `npm run attribution:fit`
 * (scripts/attribution/fit.ts): do not edit by hand. `npm run attribution:fit --
 * --check` verifies that the script reproduces this file byte for byte from
 * the data named below; `npm run attribution:baseline` prints its
 * cross-validated agreement with people beside the previous rules.
 *
 * logit = intercept + sum of weight x feature; pYes = 1 / (1 + exp(-logit)).
 * These numbers are part of the baseline's fingerprint.
 */
import type { SupportModel } from "./model.js";

export const SUPPORT_MODEL: SupportModel = {
  name: "ragjudge-support-logistic",
  version: 1,
  data: {
    source: "AttributionBench (OSU-NLP-Group/AttributionBench), dev_all_subset_balanced",
    split: "development split, all rows (599 supported, 599 not); the model is fitted on the 1115 whose numbers and codes all occur in their references (the number rule decides the rest)",
    rows: 1198,
    sha256: "166fc0c5cb8a782a02e725383655d1bb71fd82544bb0704815bccf0b05235ad8",
  },
  fit: {
    method: "L2 logistic regression on standardised features, lambda chosen from 0.1, 1, 10, 100 by 10-fold cross-validated log-loss (folds by question), weights on the raw scale rounded to 6 significant digits",
    lambda: 10,
    folds: 10,
    foldSeed: 20261130,
    iterations: 25,
  },
  features: ["coverage", "passageCoverage", "copiedShare", "bigramShare", "newWordCoverage", "nameGap", "negationMismatch", "claimLength"],
  weights: [
    -0.984108, // coverage: share of the claim's distinct content words found anywhere in the references
    2.27255,   // passageCoverage: share of them found in the best-matching passage (one or two consecutive sentences of one reference)
    1.03721,   // copiedShare: share of the claim's tokens, stop words included, inside a run of three tokens found verbatim in a reference
    0.809784,  // bigramShare: share of the claim's adjacent content-word pairs found adjacent in a reference sentence
    0.522821,  // newWordCoverage: share of the claim's content words that are not in the question found in the references
    -0.565081, // nameGap: share of the claim's names (capitalised words after its first) missing from the references
    -0.28229,  // negationMismatch: 1 when exactly one of the claim and its best-matching passage is negated, else 0
    0.509829,  // claimLength: ln(1 + number of distinct content words of the claim)
  ],
  intercept: -2.4577,
  threshold: 0.5,
};
