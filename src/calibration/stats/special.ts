import { gammaln, probit } from "simple-statistics";

/**
 * Special functions accurate to about 1e-15 (relative), for p-values that
 * tests compare to 1e-12. simple-statistics' `errorFunction` is a 1e-7
 * approximation and its normal table has four decimals, so the tails here are
 * computed from the regularized incomplete gamma function; simple-statistics
 * supplies log-gamma (Lanczos, g = 607/128, accurate to ~1e-15) and the
 * starting point of the normal quantile.
 */

const EPS = 1e-16;
const MAX_ITER = 10_000;
/** Smallest positive normal double, Lentz's guard against a zero denominator. */
const TINY = 1e-300;

/** ln Γ(x) for x > 0 (Lanczos approximation, via simple-statistics). */
export function lnGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`lnGamma needs x > 0, got ${x}`);
  return gammaln(x);
}

/** e^(-x) x^a / Γ(a), computed in logs so large arguments do not overflow. */
function gammaPrefactor(a: number, x: number): number {
  return Math.exp(a * Math.log(x) - x - lnGamma(a));
}

/**
 * P(a, x) by its power series, valid and fast for x < a + 1:
 * P(a, x) = e^(-x) x^a / Γ(a + 1) · Σ_{n≥0} x^n / ((a + 1)(a + 2)…(a + n)).
 * Source: Abramowitz & Stegun 6.5.29.
 */
function gammaPSeries(a: number, x: number): number {
  let term = 1 / a;
  let sum = term;
  for (let n = 1; n < MAX_ITER; n++) {
    term *= x / (a + n);
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * EPS) break;
  }
  return sum * gammaPrefactor(a, x);
}

/**
 * Q(a, x) by Legendre's continued fraction, valid for x ≥ a + 1:
 * Q(a, x) = e^(-x) x^a / Γ(a) · 1/(x + 1 - a - 1(1 - a)/(x + 3 - a - 2(2 - a)/(x + 5 - a - …))),
 * evaluated with the modified Lentz method (Lentz 1976; Thompson & Barnett 1986).
 * Source: Abramowitz & Stegun 6.5.31.
 */
function gammaQFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let f = d;
  for (let i = 1; i < MAX_ITER; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    f *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return f * gammaPrefactor(a, x);
}

/**
 * The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a),
 * the survival function behind chi-square and normal tails.
 *
 * @example
 * regularizedGammaQ(0.5, 2) // erfc(√2) ≈ 0.0455
 */
export function regularizedGammaQ(a: number, x: number): number {
  if (!(a > 0)) throw new RangeError(`regularizedGammaQ needs a > 0, got ${a}`);
  if (Number.isNaN(x)) return Number.NaN;
  if (x <= 0) return 1;
  if (x === Number.POSITIVE_INFINITY) return 0;
  return x < a + 1 ? 1 - gammaPSeries(a, x) : gammaQFraction(a, x);
}

/** The regularized lower incomplete gamma function P(a, x) = 1 - Q(a, x). */
export function regularizedGammaP(a: number, x: number): number {
  if (!(a > 0)) throw new RangeError(`regularizedGammaP needs a > 0, got ${a}`);
  if (Number.isNaN(x)) return Number.NaN;
  if (x <= 0) return 0;
  if (x === Number.POSITIVE_INFINITY) return 1;
  return x < a + 1 ? gammaPSeries(a, x) : 1 - gammaQFraction(a, x);
}

/**
 * The complementary error function to ~1e-15 relative accuracy, including far
 * tails (erfc(10) ≈ 2.09e-45): erfc(x) = Q(1/2, x²) for x ≥ 0, and
 * erfc(-x) = 2 - erfc(x). Source: Abramowitz & Stegun 7.1.2 and 6.5.17.
 *
 * @example
 * erfc(1) // 0.15729920705028513
 */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x < 0) return 2 - erfc(-x);
  if (x === 0) return 1;
  // For tiny x, Q(1/2, x²) = 1 - P and P ≈ 2x/√π; the series handles it.
  return regularizedGammaQ(0.5, x * x);
}

/** Upper tail of the standard normal, P(Z > z) = erfc(z / √2) / 2, accurate far into the tail. */
export function normalSf(z: number): number {
  return 0.5 * erfc(z / Math.SQRT2);
}

/** The standard normal distribution function Φ(z). */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}

/** The standard normal density φ(z). */
export function normalPdf(z: number): number {
  return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
}

/**
 * The standard normal quantile Φ⁻¹(p), to ~1e-15: simple-statistics' `probit`
 * (a 1e-3 closed-form approximation) refined by Newton steps on ln Φ(x) = ln p
 * with the accurate Φ above. For p > 1/2 it solves for 1 - p and flips sign.
 *
 * @example
 * normalQuantile(0.975) // 1.959963984540054
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) {
    if (p === 0) return Number.NEGATIVE_INFINITY;
    if (p === 1) return Number.POSITIVE_INFINITY;
    throw new RangeError(`normalQuantile needs 0 <= p <= 1, got ${p}`);
  }
  if (p > 0.5) return -normalQuantile(1 - p);
  let x = probit(p);
  if (!Number.isFinite(x)) x = -Math.sqrt(-2 * Math.log(p));
  // Newton on ln Φ(x) = ln p: quadratic convergence even 30 standard deviations out.
  const target = Math.log(p);
  for (let i = 0; i < 100; i++) {
    const cdf = normalCdf(x);
    const step = ((Math.log(cdf) - target) * cdf) / normalPdf(x);
    x -= step;
    if (Math.abs(step) <= 1e-15 * Math.max(1, Math.abs(x))) break;
  }
  return x;
}

/** The two-sided normal critical value for a confidence level (1.959963984540054 for 0.95). */
export function zCritical(level: number): number {
  if (!(level > 0 && level < 1)) throw new RangeError(`confidence level must be in (0, 1), got ${level}`);
  return normalQuantile(1 - (1 - level) / 2);
}

/**
 * Chi-square survival function P(X > x) for `df` degrees of freedom:
 * Q(df/2, x/2). Source: Abramowitz & Stegun 26.4.2.
 *
 * @example
 * chiSquareSf(3.841458820694124, 1) // 0.05
 */
export function chiSquareSf(x: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`chi-square needs df > 0, got ${df}`);
  if (x <= 0) return 1;
  return regularizedGammaQ(df / 2, x / 2);
}

/** ln C(n, k) through log-gamma. */
export function lnChoose(n: number, k: number): number {
  return lnGamma(n + 1) - lnGamma(k + 1) - lnGamma(n - k + 1);
}

/**
 * P(X ≤ k) for X ~ Binomial(n, 1/2), summed exactly from the largest term
 * down (each term from the next by the ratio j / (n - j + 1)), so the tail
 * keeps full relative precision even when it is 1e-30.
 */
export function binomialHalfCdf(k: number, n: number): number {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(k)) throw new RangeError(`binomialHalfCdf needs integers, got k=${k}, n=${n}`);
  if (k < 0) return 0;
  if (k >= n) return 1;
  // Terms grow with j up to n/2; for k < n/2 start at k and go down.
  const top = Math.min(k, Math.floor(n / 2));
  let term = Math.exp(lnChoose(n, top) - n * Math.LN2);
  let sum = 0;
  // j from top down to 0
  let t = term;
  for (let j = top; j >= 0; j--) {
    sum += t;
    if (t < sum * EPS) break;
    t *= j / (n - j + 1);
  }
  // j from top + 1 up to k (only when k > n/2)
  term = Math.exp(lnChoose(n, top) - n * Math.LN2);
  for (let j = top + 1; j <= k; j++) {
    term *= (n - j + 1) / j;
    sum += term;
  }
  return Math.min(1, sum);
}
