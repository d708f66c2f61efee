import type { Evaluation } from "../evaluate.js";
import type { Measure } from "../measures/types.js";
import { formatFixed4, formatG17 } from "./numbers.js";

/** A measure that trec_eval has no name for cannot appear in its output format. */
export class NoTrecNameError extends Error {
  constructor(readonly labels: string[]) {
    super(`${labels.join(", ")} ${labels.length > 1 ? "have" : "has"} no trec_eval measure; leave ${labels.length > 1 ? "them" : "it"} out or use --format table, md or json`);
    this.name = "NoTrecNameError";
  }
}

function value(m: Measure, v: number, full: boolean): string {
  if (m.def.aggregation !== "mean") return String(Math.trunc(v));
  if (full) return formatG17(v);
  // about half of all values are 0 or 1 (P@k, success@k, RR of a miss): no number formatting for them
  return v === 0 ? "0.0000" : v === 1 ? "1.0000" : formatFixed4(v);
}

/**
 * Writes an evaluation as `trec_eval -q` prints it: per query (in the
 * evaluation's order) one line per measure in trec_eval's table order
 * (`num_q` only in the summary), then the `all` summary lines, each as
 * printf("%-22s\t%s\t%6.4f\n") with counts as integers. With `fullPrecision`
 * values are printed as "%.17g" (round-trip exact) instead.
 *
 * @example
 * formatTrecEval(ev) // "P_5                   \t1\t0.2000\n..."
 */
export function formatTrecEval(ev: Evaluation, options: { fullPrecision?: boolean; perQuery?: boolean } = {}): string {
  const full = options.fullPrecision ?? false;
  const untranslatable = ev.measures.filter((m) => m.trecLabel === undefined).map((m) => m.label);
  if (untranslatable.length) throw new NoTrecNameError(untranslatable);
  const names = ev.measures.map((m) => m.trecLabel!.padEnd(22));
  const perQuery = ev.measures.flatMap((m, i) => (m.def.aggregation === "count" ? [] : [i]));
  const parts: string[] = [];
  if (options.perQuery ?? true) {
    for (const q of ev.queries) {
      const mid = `\t${q.id}\t`;
      let block = "";
      for (let k = 0; k < perQuery.length; k++) {
        const m = perQuery[k]!;
        block += names[m] + mid + value(ev.measures[m]!, q.values[m]!, full) + "\n";
      }
      parts.push(block);
    }
  }
  let all = "";
  for (let m = 0; m < ev.measures.length; m++) all += `${names[m]}\tall\t${value(ev.measures[m]!, ev.summary[m]!, full)}\n`;
  parts.push(all);
  return parts.join("");
}
