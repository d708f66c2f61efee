import { BOUNDS, describeBounds, readWhole, withinBounds } from "../../golden/bounds.js";
import { MEASURES, MEASURE_BY_FAMILY } from "./registry.js";
import type { Measure, MeasureDef } from "./types.js";

/** A measure name or cutoff list that names no registered measure. */
export class MeasureSpecError extends Error {
  override name = "MeasureSpecError";
}

/**
 * A name that is no measure at all (not a bad cutoff of a known one), so a
 * command that reads one measure name can word its own "unknown" message.
 */
export class UnknownMeasureError extends MeasureSpecError {
  override name = "UnknownMeasureError";
  constructor(readonly word: string) {
    super(`unknown measure "${word}" (known: ${KNOWN()})`);
  }
}

/** Lower-case aliases (IR spellings and trec_eval names) to family keys. */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ["p", "P"], ["precision", "P"],
  ["r", "R"], ["recall", "R"],
  ["ndcg", "nDCG"], ["ndcg_cut", "nDCG"],
  ["hit", "Hit"], ["success", "Hit"], ["hits", "Hit"],
  ["rr", "RR"], ["mrr", "RR"], ["recip_rank", "RR"],
  ["ap", "AP"], ["map", "AP"],
  ["r-prec", "R-Prec"], ["rprec", "R-Prec"], ["r-precision", "R-Prec"],
  ["num_q", "num_q"], ["num_ret", "num_ret"], ["num_rel", "num_rel"], ["num_rel_ret", "num_rel_ret"],
]);

/** Builds one measure instance, "P@k" with k = 5 -> P@5 / P_5. */
export function instantiate(def: MeasureDef, k = 0): Measure {
  if (def.cutoff && !(Number.isInteger(k) && k > 0)) throw new MeasureSpecError(`${def.name} needs a positive whole cutoff, got ${k}`);
  const label = def.cutoff ? def.name.replace("@k", `@${k}`) : def.name;
  const trecLabel = def.trecName === undefined ? undefined : def.cutoff ? `${def.trecName}_${k}` : def.trecName;
  return { def, k: def.cutoff ? k : 0, label, trecLabel };
}

function familyOf(word: string, withCutoff: boolean): MeasureDef | undefined {
  const key = word.toLowerCase();
  // "RR@10" is its own family (the cut variant); plain "RR" is the whole list.
  if (withCutoff && (key === "rr" || key === "mrr")) return MEASURE_BY_FAMILY.get("RR@");
  const fam = ALIASES.get(key);
  return fam === undefined ? undefined : MEASURE_BY_FAMILY.get(fam);
}

/**
 * A cutoff, read as every whole-number flag is (golden/bounds.ts: digits
 * only, within the bounds of the config's `k`); `where` names what held it
 * in the message.
 */
function parseCutoff(text: string, where: string): number {
  const k = readWhole(text);
  if (k === undefined || !withinBounds(k, BOUNDS.cutoff)) throw new MeasureSpecError(`bad cutoff ${JSON.stringify(text)} in ${where}: expected ${describeBounds(BOUNDS.cutoff)}`);
  return k;
}

const KNOWN = () => MEASURES.map((m) => m.name).join(", ");

/**
 * Parses one measure name as a user may write it: IR style (`P@5`, `R@10`,
 * `nDCG@10`, `Hit@1`, `RR`, `RR@10`, `AP`, `MAP`, `MRR`, `R-Prec`), trec_eval
 * style (`P_5`, `recall_10`, `ndcg_cut_10`, `success_1`, `recip_rank`, `map`,
 * `Rprec`, `num_rel`), a cutoff family without its cutoff (`P`, `nDCG`),
 * which expands to every k in `ks`, or `all` ({@link allMeasures}).
 * Case-insensitive.
 *
 * @example
 * parseMeasure("ndcg_cut_10", [5]) // [nDCG@10]
 * parseMeasure("R", [1, 5])        // [R@1, R@5]
 */
export function parseMeasure(word: string, ks: readonly number[]): Measure[] {
  const w = word.trim();
  if (w.toLowerCase() === "all") return allMeasures(ks);
  let m = /^(.+?)@(.*)$/.exec(w);
  if (m) {
    const def = familyOf(m[1]!, true);
    if (!def || !def.cutoff) throw new UnknownMeasureError(w);
    return [instantiate(def, parseCutoff(m[2]!, `measure "${w}"`))];
  }
  m = /^(P|recall|ndcg_cut|success)_(\d+)$/i.exec(w);
  if (m) return [instantiate(familyOf(m[1]!, false)!, parseCutoff(m[2]!, `measure "${w}"`))];
  const def = familyOf(w, false);
  if (!def) throw new UnknownMeasureError(w);
  if (!def.cutoff) return [instantiate(def)];
  return ks.map((k) => instantiate(def, k));
}

/**
 * The label of the one measure a name stands for, read as {@link parseMeasure}
 * reads it, so every place that takes a measure by name (`--metric`,
 * `overallValue`) accepts the spellings `-m` does. A family without its
 * cutoff (`R`) or `all` names several: a MeasureSpecError that calls it a
 * `what`; a name that is no measure throws {@link UnknownMeasureError}.
 *
 * @example
 * measureLabel("MRR")         // "RR"
 * measureLabel("ndcg_cut_10") // "nDCG@10"
 */
export function measureLabel(name: string, what = "measure"): string {
  const measures = parseMeasure(name, []);
  if (measures.length !== 1) throw new MeasureSpecError(`"${name.trim()}" names no single ${what}: give one with its cutoff, such as R@10 or nDCG@10`);
  return measures[0]!.label;
}

/**
 * Parses the values of `-m` options. Each value is either trec_eval's form
 * `family.c1,c2` (`P.1,5,10`, `ndcg_cut.5,10`) or a comma list of names
 * accepted by {@link parseMeasure}. The result is deduplicated and sorted in
 * trec_eval's output order, whatever order the user wrote.
 *
 * @example
 * parseMeasures(["map", "P.1,5", "nDCG@10,RR"], [10]).map((m) => m.label) // ["AP", "RR", "P@1", "P@5", "nDCG@10"]
 */
export function parseMeasures(specs: readonly string[], ks: readonly number[]): Measure[] {
  const out: Measure[] = [];
  for (const spec of specs) {
    const dotted = /^([A-Za-z_@-]+)\.(.+)$/.exec(spec.trim());
    if (dotted) {
      const def = familyOf(dotted[1]!, true);
      if (!def || !def.cutoff) throw new MeasureSpecError(`unknown measure "${spec}": the NAME.CUTOFFS form needs a measure with a cutoff (P, recall, ndcg_cut, success, RR)`);
      for (const c of dotted[2]!.split(",")) out.push(instantiate(def, parseCutoff(c.trim(), `measure "${spec}"`)));
      continue;
    }
    const words = spec.split(",").filter((w) => w.trim() !== "");
    // `-m "$MEASURES"` with the variable unset would print a table of no measures and pass.
    if (words.length === 0) throw new MeasureSpecError(`-m "${spec}" names no measure: give one or more, such as -m R@10,nDCG@10, or leave -m out for the default set`);
    for (const word of words) out.push(...parseMeasure(word, ks));
  }
  return sortMeasures(out);
}

/** Deduplicates and sorts measures in trec_eval's table order, cutoffs ascending. */
export function sortMeasures(list: readonly Measure[]): Measure[] {
  const seen = new Map<string, Measure>();
  for (const m of list) seen.set(m.label, m);
  return [...seen.values()].sort((a, b) => a.def.order - b.def.order || a.k - b.k);
}

/**
 * The default measure set: every measure with a trec_eval name at every k
 * (AP, R-Prec, RR, P@k, R@k, nDCG@k, Hit@k), plus the counts when `counts`.
 */
export function defaultMeasures(ks: readonly number[], counts: boolean): Measure[] {
  const out: Measure[] = [];
  for (const def of MEASURES) {
    if (def.trecName === undefined) continue;
    if (def.aggregation !== "mean" && !counts) continue;
    if (def.cutoff) for (const k of ks) out.push(instantiate(def, k));
    else out.push(instantiate(def));
  }
  return sortMeasures(out);
}

/** Every registered measure, cutoff families at every k in `ks` (what `-m all` asks for). */
export function allMeasures(ks: readonly number[]): Measure[] {
  return sortMeasures(MEASURES.flatMap((def) => (def.cutoff ? ks.map((k) => instantiate(def, k)) : [instantiate(def)])));
}

/**
 * The measures a person reads first (the terminal and Markdown tables'
 * default): RR, R@k at every k, and nDCG and Hit at the largest k. Seed 000
 * reads recall@k, MRR and nDCG@k; seed 002 adds hit@k. AP, R-Prec and P@k are
 * left to `-m all`: with one or two relevant chunks per question AP repeats
 * RR, R-Prec repeats P@1, and P@k is capped (the precision note says so).
 *
 * @example
 * headlineMeasures([1, 5, 10]).map((m) => m.label) // ["RR", "R@1", "R@5", "R@10", "nDCG@10", "Hit@10"]
 */
export function headlineMeasures(ks: readonly number[]): Measure[] {
  const top = ks.length ? Math.max(...ks) : 10;
  const fam = (f: string) => MEASURE_BY_FAMILY.get(f)!;
  return sortMeasures([instantiate(fam("RR")), ...ks.map((k) => instantiate(fam("R"), k)), instantiate(fam("nDCG"), top), instantiate(fam("Hit"), top)]);
}

/** The count measures trec_eval prints (num_q, num_ret, num_rel, num_rel_ret). */
export function countMeasures(): Measure[] {
  return MEASURES.filter((d) => d.aggregation !== "mean").map((d) => instantiate(d));
}

/**
 * Parses a cutoff list such as `1,5,10` (the `-k` option): positive whole
 * numbers, deduplicated and sorted.
 */
export function parseCutoffs(text: string): number[] {
  const ks = text.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (ks.length === 0) throw new MeasureSpecError(`-k needs at least one cutoff, such as 1,5,10`);
  return [...new Set(ks.map((s) => parseCutoff(s, `-k "${text}"`)))].sort((a, b) => a - b);
}
