import type { CohenKappa, Pair } from "../stats/index.js";
import { accepts } from "./designs.js";
import { designKappa } from "./kappa-linear.js";

/**
 * Kappa's figures under the gate's design: when the gate's items come from a
 * stratified draw (weights differ and items carry strata), its standard
 * error and interval are the design-based ones of Taylor linearisation
 * (kappa-linear.ts) instead of the simple-random-sampling formula at Kish's
 * effective n, and the i.i.d. bootstrap is refused with the registry's
 * reason. Any other set of items is left as it is.
 */
export function withDesignSe(
  kappa: CohenKappa,
  pairs: readonly Pair[],
  items: readonly { stratum?: string }[],
  level: number,
): { kappa: CohenKappa; refuseBootstrap?: { ci: null; reason: string; undefinedReps: number } } {
  const strata = items.map((p) => p.stratum);
  const weights = pairs.map((p) => p.weight ?? 1);
  const stratified = strata.some((s) => s !== undefined) && new Set(weights).size > 1;
  if (!stratified || kappa.kappa === null || kappa.se === null || kappa.se === 0) return { kappa };
  const d = designKappa(pairs.map((p, i) => ({ judge: p.judge === "yes" ? 1 : 0, label: p.label === "yes" ? 1 : 0, weight: weights[i]!, ...(strata[i] !== undefined ? { stratum: strata[i] } : {}) })), level);
  const refused = accepts("stratified", "kappa-bootstrap");
  const refuseBootstrap = refused.ok ? undefined : { ci: null, reason: refused.reason, undefinedReps: 0 };
  if (d.se === null || d.ci === null) return { kappa, ...(refuseBootstrap ? { refuseBootstrap } : {}) };
  return { kappa: { ...kappa, se: d.se, ci: d.ci }, ...(refuseBootstrap ? { refuseBootstrap } : {}) };
}
