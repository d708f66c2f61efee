import { bootstrapInterval, type BootstrapInterval, type BootstrapOptions } from "./bootstrap.js";
import { confusion, confusionTable, type Pair } from "./confusion.js";
import { cohenKappa } from "./kappa.js";

/**
 * Seeded percentile bootstrap interval of Cohen's kappa between a judge and
 * labels: each replicate resamples the labelled items (with their weights)
 * and recomputes kappa; replicates where kappa is undefined (every resampled
 * item got the same label from both) are dropped and counted. It needs no
 * normal approximation, so it is shown beside the asymptotic interval, which
 * is poor for small n or kappa near 1.
 *
 * @example
 * cohenKappaBootstrap(pairs, { seed: 42, reps: 2000 }).ci // { lo: 0.52, hi: 0.81 }
 */
export function cohenKappaBootstrap(pairs: readonly Pair[], options: BootstrapOptions = {}): BootstrapInterval {
  return bootstrapInterval(pairs.length, (idx) => {
    const sample: Pair[] = new Array(idx.length);
    for (let i = 0; i < idx.length; i++) sample[i] = pairs[idx[i]!]!;
    return cohenKappa(confusionTable(confusion(sample))).kappa;
  }, options);
}
