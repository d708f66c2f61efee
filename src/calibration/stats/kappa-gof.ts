import { zCritical } from "./special.js";
import type { Interval } from "./types.js";

/** The goodness-of-fit interval for kappa on a 2x2 table. */
export interface KappaGofInterval {
  /** The intraclass kappa the model estimates: 1 - discordant / (2 n π (1 - π)). Equals Cohen's kappa when the two raters' margins agree. */
  kappa: number | null;
  /** Pooled prevalence of "yes" over both raters. */
  prevalence: number | null;
  ci: Interval | null;
  level: number;
  reason?: string;
}

/**
 * Donner & Eliasziw's goodness-of-fit confidence interval for kappa with two
 * raters and a yes/no rating (Donner A, Eliasziw M. A goodness-of-fit
 * approach to inference procedures for the kappa statistic: confidence
 * interval construction, significance-testing and sample size estimation.
 * Statistics in Medicine 1992; 11:1511-1519).
 *
 * Under the common-correlation model with prevalence π and kappa κ the three
 * distinguishable outcomes have probabilities
 *
 *   both yes  π² + π(1 - π)κ,   one yes  2π(1 - π)(1 - κ),   both no  (1 - π)² + π(1 - π)κ,
 *
 * and with π estimated from both raters, π̂ = (2·n_yy + n_yn + n_ny) / 2n, the
 * interval is every κ0 whose chi-square goodness-of-fit statistic on those
 * three cells stays at or below χ²(1, level). It is a test-inversion
 * (score-type) interval: unlike the large-sample interval of Fleiss, Cohen &
 * Everitt (1969), whose standard error is 0 when no item disagrees, it does
 * not collapse to a point at perfect agreement (46 agreements of 46 give a
 * lower bound near 0.83, not 1). The bounds are found by bisection to 1e-12.
 *
 * Null when the table is empty, or when π̂ is 0 or 1 (both raters gave one and
 * the same label to every item: kappa is undefined).
 *
 * @example
 * kappaGofInterval([[30, 0], [0, 16]]).ci // { lo: 0.83…, hi: 1 }
 */
export function kappaGofInterval(table: readonly (readonly number[])[], level = 0.95): KappaGofInterval {
  const [[a, b], [c, d]] = [table[0] ?? [0, 0], table[1] ?? [0, 0]] as [readonly number[], readonly number[]];
  const yy = a ?? 0, yn = b ?? 0, ny = c ?? 0, nn = d ?? 0;
  const n = yy + yn + ny + nn;
  const out: KappaGofInterval = { kappa: null, prevalence: null, ci: null, level };
  if (!(n > 0)) return { ...out, reason: "no items" };
  const pi = (2 * yy + yn + ny) / (2 * n);
  out.prevalence = pi;
  const pq = pi * (1 - pi);
  if (!(pq > 0)) return { ...out, reason: "both raters gave the same single label to every item: kappa is undefined" };
  const discordant = yn + ny;
  const kappa = 1 - discordant / (2 * n * pq);
  out.kappa = kappa;
  const crit = zCritical(level) ** 2;
  const cell = (o: number, e: number) => (e > 0 ? ((o - e) ** 2) / e : o > 0 ? Infinity : 0);
  const x2 = (k: number) =>
    cell(yy, n * (pi * pi + pq * k)) + cell(discordant, 2 * n * pq * (1 - k)) + cell(nn, n * ((1 - pi) ** 2 + pq * k));
  const kMin = -Math.min(pi / (1 - pi), (1 - pi) / pi);
  // X² is 0 at the estimate and grows towards each end of the feasible range.
  const bound = (inside: number, outside: number): number => {
    if (x2(outside) <= crit) return outside;
    let lo = inside;
    let hi = outside;
    for (let i = 0; i < 200 && Math.abs(hi - lo) > 1e-12; i++) {
      const mid = (lo + hi) / 2;
      if (x2(mid) <= crit) lo = mid;
      else hi = mid;
    }
    return lo;
  };
  out.ci = { lo: Math.max(-1, bound(kappa, kMin)), hi: Math.min(1, bound(kappa, 1)) };
  return out;
}
