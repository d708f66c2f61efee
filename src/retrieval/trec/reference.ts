/**
 * Checking ragjudge against trec_eval's own output: the measures the
 * reference outputs were made with (test/fixtures/trec/small and
 * ../shared/reference/trec/medium, used by the parity tests,
 * `npm run check:trec-medium` and `npm run bench:retrieval`) and a reader of
 * trec_eval output text, for comparisons within a tolerance where bytes may
 * differ.
 */

/** The `-m` flags of the stock reference outputs (`trec_eval -q -c` with 4 decimals). */
export const REFERENCE_MEASURES: readonly string[] = ["map", "recip_rank", "P.1,5,10", "recall.5,10,100", "ndcg_cut.5,10,100", "success.1,5,10"];

/** The `-m` flags of the full-precision reference outputs: the stock measures, Rprec and the counts. */
export const REFERENCE_MEASURES_FULL: readonly string[] = [...REFERENCE_MEASURES, "Rprec", "num_q", "num_ret", "num_rel", "num_rel_ret"];

/**
 * Reads `trec_eval -q` output text (one `measure \t query \t value` line
 * each, as `formatTrecEval` in write.ts writes it too) into values keyed by
 * `"<measure>\t<query>"`, the measure name without its padding. Throws a
 * RangeError naming the line when a line lacks one of the three fields.
 *
 * @example
 * parseTrecEvalOutput("P_5                   \tall\t0.2000\n").get("P_5\tall") // 0.2
 */
export function parseTrecEvalOutput(text: string): Map<string, number> {
  const out = new Map<string, number>();
  text.split("\n").forEach((line, i) => {
    if (!line) return;
    const [measure, query, value] = line.split("\t");
    if (value === undefined) throw new RangeError(`trec_eval output line ${i + 1}: expected "measure<TAB>query<TAB>value", got ${JSON.stringify(line)}`);
    out.set(`${measure!.trim()}\t${query}`, Number(value));
  });
  return out;
}
