import { lnChoose } from "./special.js";

/**
 * Fisher's exact test on a 2x2 table of counts, two-sided (Fisher RA.
 * Statistical Methods for Research Workers, 1925 §21.02; Agresti A.
 * Categorical Data Analysis, 3rd ed. 2013, §3.5): with the margins fixed,
 * the top-left cell is hypergeometric, and the p-value sums the
 * probabilities of every table at most as probable as the observed one
 * (R's `fisher.test`, with its relative tolerance 1e-7 for ties). ragjudge
 * uses it to ask whether the drawn items people left unlabelled differ from
 * the labelled ones in the judge's verdict, which would mean the skips were
 * not at random.
 *
 * @example
 * fisherExact([[3, 1], [1, 3]]) // 0.4857… (34/70: Fisher's tea-tasting table)
 */
export function fisherExact(table: readonly [readonly [number, number], readonly [number, number]]): number {
  const [[a, b], [c, d]] = table;
  const row1 = a + b;
  const col1 = a + c;
  const n = a + b + c + d;
  if (n === 0) return 1;
  const lo = Math.max(0, row1 + col1 - n);
  const hi = Math.min(row1, col1);
  const lnP = (x: number) => lnChoose(col1, x) + lnChoose(n - col1, row1 - x) - lnChoose(n, row1);
  const observed = lnP(a);
  let p = 0;
  for (let x = lo; x <= hi; x++) {
    const l = lnP(x);
    if (l <= observed + 1e-7) p += Math.exp(l);
  }
  return Math.min(1, p);
}
