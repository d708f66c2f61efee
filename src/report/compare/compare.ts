import { join } from "node:path";
import { DEFAULT_REPS, DEFAULT_SEED, mcnemarCounts, MCNEMAR_EXACT_BELOW, pairedBootstrapMeanDifference, ResampleCache, type Interval } from "../../calibration/stats/index.js";
import { InputError } from "../../golden/errors.js";
import { BOUNDS, requireWithin } from "../../golden/bounds.js";
import { meanOf } from "../../retrieval/diagnostics/kinds.js";
import { MeasureSpecError, measureLabel, UnknownMeasureError } from "../../retrieval/measures/parse.js";
import { MEASURES } from "../../retrieval/measures/registry.js";
import { REPORT_FILE } from "../folder.js";
import { num } from "../format.js";
import { answerScore, NOT_FOUND_RUBRIC, type Outcome } from "../search-or-answer.js";
import type { ReportJson, RubricJson } from "../schema.js";
import type { CompareSide } from "./load.js";
import { sideTrust, type SideTrust, type TrustSource } from "./trust.js";

/** Options of {@link compareSides}. */
export interface CompareOptions {
  /** The headline retrieval metric (default "RR"). */
  metric?: string;
  /** Bootstrap seed and replicates (defaults: calibration's). */
  seed?: number;
  reps?: number;
  /** Groups with fewer paired questions get no interval and are never flagged (default 5). */
  minGroup?: number;
}

/** The paired difference B - A of one measure over the questions both sides scored. */
export interface PairedDelta {
  n: number;
  meanA: number | null;
  meanB: number | null;
  /** mean(B - A); null with no pair. */
  difference: number | null;
  /** Seeded percentile bootstrap interval of the mean difference (95%), resampling questions. */
  ci: Interval | null;
  ciReason: string | null;
  /** Where the interval lies: above zero (B better), below zero (B worse), or across it. */
  direction: "better" | "worse" | "unclear";
}

/** McNemar's test on yes/no outcomes: b = yes in A and no in B, c = no in A and yes in B. */
export interface McNemarResult {
  b: number;
  c: number;
  test: "exact" | "chi-square (Edwards)";
  p: number;
}

/** One retrieval metric compared question by question. */
export interface MetricComparison extends PairedDelta {
  metric: string;
  /** Hit@k is yes/no per question, so McNemar's test applies. */
  mcnemar: McNemarResult | null;
}

/** One rubric (or the answer outcome) compared question by question, or refused. */
export interface VerdictComparison {
  /** Rubric name, or "answer" for the search-or-answering outcome (answer ok or not). */
  measure: string;
  fingerprintA: string | null;
  fingerprintB: string | null;
  /** Why the comparison is refused (different judges, missing rubric); null when compared. */
  refused: string | null;
  /**
   * Trusted now, as the gate decides it again (`trustA`): false when not
   * trusted now or when it could not be re-checked (report.json's word alone
   * is never taken); null when no rubric was found to compare.
   */
  trustedA: boolean | null;
  trustedB: boolean | null;
  /** Each side's trust: report.json's word, the gate's now, and where they differ. */
  trustA: SideTrust | null;
  trustB: SideTrust | null;
  paired: PairedDelta | null;
  mcnemar: McNemarResult | null;
}

/** The paired difference of one measure within one kind or tag. */
export interface GroupComparison {
  measure: string;
  by: "kind" | "tag";
  group: string;
  paired: PairedDelta;
  /** Only when the interval lies wholly below zero. */
  regressed: boolean;
}

/** A question whose outcome or headline metric changed. */
export interface ChangedQuestion {
  id: string;
  kind: string;
  outcomeA: Outcome | null;
  outcomeB: Outcome | null;
  /** -1 the answer went from right to wrong, +1 the reverse, 0 otherwise. */
  answerChange: -1 | 0 | 1;
  metricA: number | null;
  metricB: number | null;
  metricDelta: number | null;
}

/** One side of a comparison: its evaluation, variant, and where its trust was re-checked (or why not). */
export interface ComparedSide {
  folder: string;
  evaluation: string;
  variant: string;
  time: string;
  trust: TrustSource;
}

/** Said of a side whose evaluation was loaded without a recheck ({@link recheckTrust}). */
const NOT_RECHECKED: TrustSource = { rechecked: false, why: "no project was given to re-check it against (recheckTrust)" };

/** Everything `ragjudge compare` reports for one pair of variants. */
export interface Comparison {
  a: ComparedSide;
  b: ComparedSide;
  golden: string;
  metric: string;
  seed: number;
  reps: number;
  minGroup: number;
  headline: MetricComparison;
  metrics: MetricComparison[];
  answers: VerdictComparison;
  rubrics: VerdictComparison[];
  groups: GroupComparison[];
  /** Worst first. */
  changed: ChangedQuestion[];
  /** What regressed (overall measures and groups whose interval lies below zero), one line each. */
  regressions: string[];
  /** The one-line verdict. */
  verdict: string;
}

export { answerScore };

/** The bootstrap settings of one comparison; its figures over the same questions share their resamples. */
interface Boot {
  seed: number;
  reps: number;
  resamples: ResampleCache;
}

function paired(a: readonly number[], b: readonly number[], boot: Boot, minN: number): PairedDelta {
  const n = a.length;
  if (n === 0) return { n, meanA: null, meanB: null, difference: null, ci: null, ciReason: "no question scored on both sides", direction: "unclear" };
  const d = pairedBootstrapMeanDifference(b, a, boot);
  let ci = d.bootstrap.ci;
  let ciReason = ci ? null : d.bootstrap.reason ?? "undefined";
  if (n < minN) {
    ci = null;
    ciReason = `${n} question${n === 1 ? "" : "s"}: too few for an interval (fewer than ${minN})`;
  }
  const direction = ci && ci.lo > 0 ? "better" : ci && ci.hi < 0 ? "worse" : "unclear";
  return { n, meanA: meanOf(a), meanB: meanOf(b), difference: d.meanDifference, ci, ciReason, direction };
}

function mcnemarOf(a: readonly number[], b: readonly number[]): McNemarResult {
  let bc = 0;
  let cb = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === 1 && b[i] === 0) bc++;
    else if (a[i] === 0 && b[i] === 1) cb++;
  }
  const m = mcnemarCounts(bc, cb);
  return { b: bc, c: cb, test: bc + cb < MCNEMAR_EXACT_BELOW ? "exact" : "chi-square (Edwards)", p: m.pRecommended };
}

const perQuery = (side: CompareSide, metric: string) => new Map(side.variant.retrieval.perQuery.map((q) => [q.id, q.values[metric]]));

/** Per-question values of one measure on both sides. */
interface SideValues {
  a: ReadonlyMap<string, number | undefined>;
  b: ReadonlyMap<string, number | undefined>;
}

/** The values of the questions `ids` that both sides scored, in `ids` order: the pairs every paired figure is computed on. */
function pairsOf(values: SideValues, ids: Iterable<string>): [number[], number[]] {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const id of ids) {
    const x = values.a.get(id);
    const y = values.b.get(id);
    if (x === undefined || y === undefined) continue;
    xs.push(x);
    ys.push(y);
  }
  return [xs, ys];
}

function metricComparison(a: CompareSide, b: CompareSide, metric: string, ids: readonly string[], boot: Boot, minN: number): MetricComparison {
  const [xs, ys] = pairsOf({ a: perQuery(a, metric), b: perQuery(b, metric) }, ids);
  const binary = metric.startsWith("Hit@");
  return { metric, ...paired(xs, ys, boot, minN), mcnemar: binary ? mcnemarOf(xs, ys) : null };
}

/** Per question yes/no (1/0) of a rubric for one variant; null entries are not scored. */
function rubricValues(r: RubricJson, variant: string): Map<string, 0 | 1> {
  const out = new Map<string, 0 | 1>();
  for (const v of r.verdicts) if (v.variant === variant && (v.verdict === "yes" || v.verdict === "no")) out.set(v.question, v.verdict === "yes" ? 1 : 0);
  return out;
}

function answerValues(side: CompareSide): Map<string, 0 | 1> {
  const out = new Map<string, 0 | 1>();
  for (const q of side.variant.searchOrAnswer.questions) {
    const s = answerScore(q.outcome);
    if (s !== null) out.set(q.id, s);
  }
  return out;
}

function rubricOf(report: ReportJson, rubric: string, variant: string): RubricJson[] {
  return report.rubrics.filter((r) => r.rubric === rubric && r.variants.some((v) => v.variant === variant));
}

interface VerdictSource {
  comparison: VerdictComparison;
  a: Map<string, 0 | 1>;
  b: Map<string, 0 | 1>;
}

/** The trust fields of a comparison from the report entries each side's measure rests on. */
function trustFields(a: CompareSide, b: CompareSide, ea: readonly RubricJson[], eb: readonly RubricJson[]): Pick<VerdictComparison, "trustedA" | "trustedB" | "trustA" | "trustB"> {
  const trustA = sideTrust(a.evaluation, ea);
  const trustB = sideTrust(b.evaluation, eb);
  return { trustA, trustB, trustedA: trustA.now === true, trustedB: trustB.now === true };
}

function verdictComparison(measure: string, a: CompareSide, b: CompareSide, ids: readonly string[], boot: Boot, minN: number): VerdictSource {
  const empty = new Map<string, 0 | 1>();
  const base = { measure, fingerprintA: null, fingerprintB: null, trustedA: null, trustedB: null, trustA: null, trustB: null, paired: null, mcnemar: null };
  const names = measure === "answer" ? [...new Set([...a.variant.searchOrAnswer.answerRubrics, ...b.variant.searchOrAnswer.answerRubrics, NOT_FOUND_RUBRIC])] : [measure];
  const ea: RubricJson[] = [];
  const eb: RubricJson[] = [];
  for (const name of names) {
    const ra = rubricOf(a.evaluation.report, name, a.variant.name);
    const rb = rubricOf(b.evaluation.report, name, b.variant.name);
    if (ra.length === 0 || rb.length === 0) {
      if (measure === "answer" && ra.length === 0 && rb.length === 0) continue;
      return { comparison: { ...base, refused: `${name} was judged in ${ra.length ? "A only" : rb.length ? "B only" : "neither evaluation"}` }, a: empty, b: empty };
    }
    if (ra.length > 1 || rb.length > 1) return { comparison: { ...base, refused: `${name} has verdicts of several judge fingerprints in one evaluation; they never mix` }, a: empty, b: empty };
    ea.push(ra[0]!);
    eb.push(rb[0]!);
    if (ra[0]!.fingerprint !== rb[0]!.fingerprint) {
      return {
        comparison: {
          ...base, fingerprintA: ra[0]!.fingerprint, fingerprintB: rb[0]!.fingerprint, ...trustFields(a, b, ea, eb),
          refused: `${name} was judged by different judges (fingerprint ${ra[0]!.fingerprint.slice(0, 12)} in A, ${rb[0]!.fingerprint.slice(0, 12)} in B: another prompt, model or setting); verdicts of different judges are never compared`,
        },
        a: empty, b: empty,
      };
    }
  }
  // A single rubric (not "answer") went through the loop once, which kept its two entries.
  const va = measure === "answer" ? answerValues(a) : rubricValues(ea[0]!, a.variant.name);
  const vb = measure === "answer" ? answerValues(b) : rubricValues(eb[0]!, b.variant.name);
  const [xs, ys] = pairsOf({ a: va, b: vb }, ids);
  const fingerprints = (es: readonly RubricJson[]) => es.map((e) => e.fingerprint).join("+");
  return {
    comparison: { ...base, fingerprintA: fingerprints(ea), fingerprintB: fingerprints(eb), ...trustFields(a, b, ea, eb), refused: null, paired: paired(xs, ys, boot, minN), mcnemar: mcnemarOf(xs, ys) },
    a: va,
    b: vb,
  };
}

function groupsOf(report: ReportJson): { by: "kind" | "tag"; group: string; ids: Set<string> }[] {
  const kinds = new Map<string, Set<string>>();
  const tags = new Map<string, Set<string>>();
  for (const q of report.questions) {
    (kinds.get(q.kind) ?? kinds.set(q.kind, new Set()).get(q.kind)!).add(q.id);
    for (const t of q.tags) (tags.get(t) ?? tags.set(t, new Set()).get(t)!).add(q.id);
  }
  const sorted = <T>(m: Map<string, T>) => [...m].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return [...sorted(kinds).map(([group, ids]) => ({ by: "kind" as const, group, ids })), ...sorted(tags).map(([group, ids]) => ({ by: "tag" as const, group, ids }))];
}

/**
 * The report's label of a metric as a user writes it, read by the measure
 * parser `--fail-under` uses, so the same names work in both: `MRR` and
 * `recip_rank` are RR, `ndcg_cut_10` is nDCG@10. A name that is no measure
 * is refused as such, listing the per-question measures; a family without its
 * cutoff (`R`) asks for one.
 *
 * @example
 * metricLabel("MRR") // "RR"
 */
export function metricLabel(name: string): string {
  try {
    return measureLabel(name, "per-question metric");
  } catch (e) {
    // a bad cutoff (R@x) or a family without one (R) is the parser's message, named for the flag it came from
    if (e instanceof MeasureSpecError && !(e instanceof UnknownMeasureError)) throw new MeasureSpecError(`--metric: ${e.message}`);
    if (!(e instanceof UnknownMeasureError)) throw e;
    const known = MEASURES.filter((m) => m.aggregation === "mean").map((m) => m.name).join(", ");
    throw new MeasureSpecError(`--metric: unknown metric "${name.trim()}"; known: ${known} (MRR, MAP and trec_eval names such as recip_rank or ndcg_cut_10 work too)`);
  }
}

const f3 = (x: number | null) => (x === null ? "n/a" : (x >= 0 ? "+" : "") + x.toFixed(3));
const ciText = (ci: Interval | null) => (ci ? `[${f3(ci.lo)}, ${f3(ci.hi)}]` : "no interval");

/**
 * Compares two variants on the same golden set, question by question (seed
 * 002, question 2: is a reranker that moved MRR from 0.61 to 0.64 on 40
 * questions worth shipping?):
 *
 * - every retrieval metric (RR, and Hit/R/nDCG at each configured k): the
 *   mean paired difference B - A with a seeded bootstrap interval that
 *   resamples questions; McNemar's test for Hit@k (yes/no);
 * - every rubric and the answer outcome (right or wrong): the same, with
 *   McNemar's test (exact below 25 discordant pairs); verdicts of different
 *   judge fingerprints are refused, never compared; each side's trust is
 *   the gate's now when its evaluation was re-checked (`recheckTrust`,
 *   trust.ts), report.json's word beside it, and never "trusted" otherwise;
 * - per kind and tag, the same differences with n shown; a group is
 *   flagged regressed only when its interval lies wholly below zero, and a
 *   group under `minGroup` questions gets no interval at all;
 * - the questions whose outcome or headline metric changed, worst first;
 * - one verdict line.
 *
 * Different golden sets are refused (compared by SHA-256), and a `seed`,
 * `reps` or `minGroup` outside the bounds of `compare`'s flags with a
 * RangeError (golden/bounds.ts).
 *
 * @example
 * const c = compareSides(sideA, sideB, { metric: "RR", seed: 1 });
 * console.log(c.verdict);
 */
export function compareSides(a: CompareSide, b: CompareSide, options: CompareOptions = {}): Comparison {
  requireWithin("seed", options.seed, BOUNDS.randomSeed);
  requireWithin("reps", options.reps, BOUNDS.bootstrapReps);
  requireWithin("minGroup", options.minGroup, BOUNDS.minGroup);
  const ra = a.evaluation.report;
  const rb = b.evaluation.report;
  if (ra.inputs.golden.sha256 !== rb.inputs.golden.sha256) {
    throw new InputError(join(b.evaluation.folder, REPORT_FILE), undefined, "inputs.golden.sha256", `A and B were evaluated on different golden sets (${ra.inputs.golden.path} ${ra.inputs.golden.sha256.slice(0, 12)} vs ${rb.inputs.golden.path} ${rb.inputs.golden.sha256.slice(0, 12)}): a paired comparison needs the same questions`);
  }
  const seed = options.seed ?? DEFAULT_SEED;
  const reps = options.reps ?? DEFAULT_REPS;
  const minGroup = options.minGroup ?? 5;
  const asked = options.metric ?? "RR";
  const metric = metricLabel(asked);
  const available = a.variant.retrieval.measures.filter((m) => b.variant.retrieval.measures.includes(m));
  if (!available.includes(metric)) {
    const named = metric === asked.trim() ? metric : `${asked.trim()} (read as ${metric})`;
    throw new InputError(join(a.evaluation.folder, REPORT_FILE), undefined, "retrieval.measures", `no per-question ${named} in both evaluations (available: ${available.join(", ")})`);
  }
  const answerable = ra.questions.filter((q) => q.answerable).map((q) => q.id);
  const all = ra.questions.map((q) => q.id);
  const main = [...new Set(["RR", ...ra.config.k.flatMap((k) => [`Hit@${k}`, `R@${k}`, `nDCG@${k}`])])].filter((m) => available.includes(m));
  // one draw of the resamples for each number of paired questions, however many figures are bootstrapped over them
  const boot: Boot = { seed, reps, resamples: new ResampleCache() };
  const metrics = [...new Set([metric, ...main])].map((m) => metricComparison(a, b, m, answerable, boot, minGroup));
  const headline = metrics[0]!;
  const answers = verdictComparison("answer", a, b, all, boot, minGroup);
  const rubricNames = [...new Set([...ra.rubrics, ...rb.rubrics].map((r) => r.rubric))].sort();
  const rubrics = rubricNames.map((n) => verdictComparison(n, a, b, all, boot, minGroup));

  const mA = perQuery(a, metric);
  const mB = perQuery(b, metric);
  const measures: (SideValues & { name: string })[] = [{ name: metric, a: mA, b: mB }];
  if (answers.comparison.refused === null) measures.push({ name: "answer", a: answers.a, b: answers.b });
  for (const r of rubrics) if (r.comparison.refused === null) measures.push({ name: r.comparison.measure, a: r.a, b: r.b });
  const groups: GroupComparison[] = [];
  for (const g of groupsOf(ra)) {
    for (const m of measures) {
      const [xs, ys] = pairsOf(m, g.ids);
      if (xs.length === 0) continue;
      const p = paired(xs, ys, boot, minGroup);
      groups.push({ measure: m.name, by: g.by, group: g.group, paired: p, regressed: p.direction === "worse" });
    }
  }

  const regressions: string[] = [];
  const overall: [string, PairedDelta | null][] = [
    ...metrics.map((m) => [m.metric, m] as [string, PairedDelta]),
    ["answer", answers.comparison.paired],
    ...rubrics.map((r) => [r.comparison.measure, r.comparison.paired] as [string, PairedDelta | null]),
  ];
  for (const [name, p] of overall) if (p?.direction === "worse") regressions.push(`overall ${name} ${f3(p.difference)} ${ciText(p.ci)} (n = ${p.n})`);
  for (const g of groups) if (g.regressed) regressions.push(`${g.by} ${g.group}: ${g.measure} ${f3(g.paired.difference)} ${ciText(g.paired.ci)} (n = ${g.paired.n})`);

  const outA = new Map(a.variant.searchOrAnswer.questions.map((q) => [q.id, q]));
  const outB = new Map(b.variant.searchOrAnswer.questions.map((q) => [q.id, q]));
  const changed: ChangedQuestion[] = [];
  for (const q of ra.questions) {
    const oa = answers.comparison.refused === null ? outA.get(q.id)?.outcome ?? null : null;
    const ob = answers.comparison.refused === null ? outB.get(q.id)?.outcome ?? null : null;
    const sa = oa ? answerScore(oa) : null;
    const sb = ob ? answerScore(ob) : null;
    const answerChange = sa !== null && sb !== null ? ((sb - sa) as -1 | 0 | 1) : 0;
    const x = mA.get(q.id) ?? null;
    const y = mB.get(q.id) ?? null;
    const delta = x !== null && y !== null ? y - x : null;
    if (oa === ob && (delta === null || Math.abs(delta) < 1e-12)) continue;
    changed.push({ id: q.id, kind: q.kind, outcomeA: oa, outcomeB: ob, answerChange, metricA: x, metricB: y, metricDelta: delta });
  }
  changed.sort((p, q) => p.answerChange - q.answerChange || (p.metricDelta ?? 0) - (q.metricDelta ?? 0) || (p.id < q.id ? -1 : 1));

  const h = headline;
  const where = h.direction === "better" ? "the interval excludes zero (B is better)" : h.direction === "worse" ? "the interval excludes zero (B is worse)" : "the interval includes zero (no evidence of a difference at this sample size)";
  const groupRegressions = regressions.filter((r) => !r.startsWith("overall "));
  const otherOverall = regressions.filter((r) => r.startsWith("overall ") && !r.startsWith(`overall ${metric} `));
  // Overall regressions first, then the groups (kinds and tags), each named as what it is: "no group regressed"
  // followed by "also regressed" read as a contradiction when the other measures had regressed over all questions.
  const verdict = `verdict: ${metric} ${b.variant.name} - ${a.variant.name} = ${f3(h.difference)} (${num(h.meanA)} → ${num(h.meanB)}), 95% CI ${ciText(h.ci)} on ${h.n} questions: ${where}; `
    + (otherOverall.length ? `other measures regressed over all questions: ${otherOverall.map((r) => r.replace(/^overall /, "")).join("; ")}; ` : "")
    + (groupRegressions.length ? `regressed groups: ${groupRegressions.join("; ")}` : "no kind or tag group regressed")
    + ".";
  const side = (s: CompareSide): ComparedSide => ({ folder: s.evaluation.folder, evaluation: s.evaluation.report.folder, variant: s.variant.name, time: s.evaluation.report.time, trust: s.evaluation.trust?.source ?? NOT_RECHECKED });
  return {
    a: side(a), b: side(b), golden: ra.inputs.golden.sha256, metric, seed, reps, minGroup,
    headline, metrics, answers: answers.comparison, rubrics: rubrics.map((r) => r.comparison), groups, changed, regressions, verdict,
  };
}
