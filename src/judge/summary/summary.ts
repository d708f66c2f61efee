import type { GoldenSet } from "../../golden/dataset.js";
import type { Judgment } from "../../golden/schema/items.js";
import { RULE_FINGERPRINT, type SkippedItem } from "../items/items.js";
import type { Rubric } from "../rubric/rubric.js";
import type { RubricUsage } from "../schedule/run.js";
import { servedKeys } from "./served.js";
import { isClaimUnit } from "../items/claims.js";

/**
 * Pass rates of a run, computed from its judgments. A pure function over the
 * judgments JSONL rows, so `report` and later trust gates can recompute it.
 *
 * Rules: a rate is pass / (pass + fail); errors are counted apart and never
 * enter it. Each figure belongs to one judge fingerprint: verdicts of
 * different fingerprints never mix. Rule verdicts (no call) count once, in
 * the main figure of their rubric (its most frequent fingerprint), and are
 * also counted apart; so do skipped items. A citation answer goes to the
 * figure of the fingerprint its pairs were judged under, with its rule
 * pairs. Figures use repeat 0; further repeats only feed the
 * self-disagreement figure.
 */

/** A pass rate with its counts. `rate` is null when nothing was scored. */
export interface Rate {
  pass: number;
  fail: number;
  errors: number;
  rate: number | null;
}

/** Citation-accuracy detail for one variant. */
export interface CitationFigures {
  pairs: number;
  supported: number;
  unsupported: number;
  errors: number;
  /** Pairs failed by rule: cited chunk outside the context, or no such chunk. */
  outsideContext: number;
  unknownChunk: number;
  /** Answers without any citation (failing only when citations are required). */
  uncited: number;
  /** Mean over answers of the share of supported pairs. */
  meanShare: number | null;
  /**
   * Answers whose pairs were judged under different fingerprints (a response
   * mode switch mid-run): scored in no figure, since that would mix
   * fingerprints; a rerun judges them under one. Counted in the rubric's
   * main figure.
   */
  splitAnswers?: number;
}

/** Not-found detail for one variant: the two figures it is reported as. */
export interface NotFoundFigures {
  /** Unanswerable questions answered "not available": pass = correct "not found". */
  correctNotFound: Rate;
  /** Answerable questions refused: `refused` of `scored` (lower is better). */
  falseRefusals: { refused: number; scored: number; errors: number; rate: number | null };
}

/** One rubric's figures for one variant. */
export interface VariantFigures {
  variant: string;
  overall: Rate;
  byKind: Record<string, Rate>;
  byTag: Record<string, Rate>;
  /** Items decided by rule (no-answer, no-candidates, outside-context, ...), by rule name. */
  rules: Record<string, number>;
  skipped: number;
  citations?: CitationFigures;
  notFound?: NotFoundFigures;
}

/** The figures of one rubric under one judge fingerprint. */
export interface RubricFigures {
  rubric: string;
  unit: "answer" | "citation" | "question";
  fingerprint: string;
  judge: "llm" | "baseline" | "rule";
  model?: string;
  /**
   * The model the server reported serving ("" when none did): figures are
   * kept per fingerprint and served model, so verdicts of two snapshots
   * behind one alias are never pooled.
   */
  servedModel: string;
  /** `[servedModel]`, or `[]` (kept for callers that list them). */
  servedModels: string[];
  variants: VariantFigures[];
  /** With repeats: items judged at least twice, and how many got different verdicts. */
  selfDisagreement?: { items: number; disagreeing: number; rate: number | null };
  /** Most frequent error causes (cause, count). */
  errorCauses: [string, number][];
}

export interface Summary {
  figures: RubricFigures[];
  /** Whether uncited answers count as failing citation accuracy (`config.requireCitations`). */
  requireCitations: boolean;
  usage: Record<string, RubricUsage>;
  totals: { judgments: number; errors: number; cached: number; rule: number };
}

export interface SummaryInput {
  judgments: readonly Judgment[];
  golden: GoldenSet;
  rubrics: readonly Rubric[];
  requireCitations: boolean;
  skipped?: readonly SkippedItem[];
  usage?: Map<string, RubricUsage>;
}

/** One answer's (or question's) outcome under a rubric. `uncited` fails only when citations are required. */
export type AnswerOutcome = "pass" | "fail" | "error" | "uncited";

function newRate(): Rate {
  return { pass: 0, fail: 0, errors: 0, rate: null };
}

function add(r: Rate, o: AnswerOutcome, requireCitations: boolean): void {
  if (o === "pass") r.pass++;
  else if (o === "fail" || (o === "uncited" && requireCitations)) r.fail++;
  else if (o === "error") r.errors++;
  r.rate = r.pass + r.fail > 0 ? r.pass / (r.pass + r.fail) : null;
}

function verdictOutcome(j: Judgment): AnswerOutcome {
  if (j.rule === "uncited") return "uncited";
  return j.verdict === "yes" ? "pass" : j.verdict === "no" ? "fail" : "error";
}

/** One answer's citation pairs folded into its outcome and share of supported pairs. */
function citationOutcome(pairs: readonly Judgment[]): { outcome: AnswerOutcome; share: number | null } {
  if (pairs.some((p) => p.rule === "uncited")) return { outcome: "uncited", share: null };
  const yes = pairs.filter((p) => p.verdict === "yes").length;
  const no = pairs.filter((p) => p.verdict === "no").length;
  const share = yes + no > 0 ? yes / (yes + no) : null;
  if (no > 0) return { outcome: "fail", share };
  if (pairs.some((p) => p.verdict === "error")) return { outcome: "error", share };
  return { outcome: "pass", share };
}

/**
 * The one definition of a rubric's pass rate, shared by `judge`, `run`,
 * `compare` and every report: the unit is the answer (for a question-unit
 * rubric, the question). A whole-answer rubric's answer has its verdict;
 * citation accuracy's answer passes when every sentence-citation pair is
 * supported, fails when one is not, is an error when none fails but one
 * errored, and is `uncited` when it cites nothing. The share of supported
 * pairs is a separate figure ("citation pairs supported"), never the pass
 * rate. `rows` are one answer's judgments of repeat 0.
 *
 * @example
 * answerOutcome(pairsOfOneAnswer, "citation") // "fail" when any pair's verdict is "no"
 */
export function answerOutcome(rows: readonly Judgment[], unit: Rubric["unit"]): AnswerOutcome {
  return unit === "citation" ? citationOutcome(rows).outcome : verdictOutcome(rows[0]!);
}

function groupBy<T>(xs: Iterable<T>, key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const list = m.get(k);
    if (list) list.push(x);
    else m.set(k, [x]);
  }
  return m;
}

/**
 * What belongs to one fingerprint's figure. Rule verdicts, skipped items and
 * split citation answers count once per rubric: in its main figure (`home`).
 */
interface FigureRows {
  judged: Judgment[];
  rules: Judgment[];
  allRepeats: Judgment[];
  home: boolean;
  /** Split citation answers by variant (home figure only). */
  split?: Map<string, number>;
}

function figuresFor(rubric: Rubric, fingerprint: string, servedModel: string, part: FigureRows, input: SummaryInput, variantOrder: string[]): RubricFigures {
  const { judged, rules, allRepeats } = part;
  const rows = [...judged, ...rules];
  const first = judged[0] ?? allRepeats[0];
  const fig: RubricFigures = {
    rubric: rubric.name,
    unit: rubric.unit,
    fingerprint,
    judge: first ? first.judge : "rule",
    model: first?.model,
    servedModel,
    servedModels: servedModel ? [servedModel] : [],
    variants: [],
    errorCauses: [...groupBy(judged.filter((j) => j.verdict === "error"), (j) => (j.error ?? "unknown").replace(/ \(gave up after \d+ attempts\)$/, "")).entries()]
      .map(([c, l]) => [c, l.length] as [string, number])
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5),
  };
  const byVariant = groupBy(rows, (j) => j.variant);
  for (const variant of variantOrder) {
    const vrows = byVariant.get(variant) ?? [];
    const skipped = part.home ? (input.skipped ?? []).filter((s) => s.key.rubric === rubric.name && s.key.variant === variant).length : 0;
    const split = part.split?.get(variant) ?? 0;
    if (vrows.length === 0 && skipped === 0 && split === 0) continue;
    const vf: VariantFigures = { variant, overall: newRate(), byKind: {}, byTag: {}, rules: {}, skipped };
    for (const j of vrows) if (j.rule) vf.rules[j.rule] = (vf.rules[j.rule] ?? 0) + 1;
    const perQuestion = groupBy(vrows, (j) => j.question);
    if (rubric.unit === "citation") vf.citations = { pairs: 0, supported: 0, unsupported: 0, errors: 0, outsideContext: 0, unknownChunk: 0, uncited: 0, meanShare: null, ...(split ? { splitAnswers: split } : {}) };
    if (rubric.cases) vf.notFound = { correctNotFound: newRate(), falseRefusals: { refused: 0, scored: 0, errors: 0, rate: null } };
    const shares: number[] = [];
    for (const [qid, qrows] of perQuestion) {
      const q = input.golden.byId.get(qid);
      let outcome: AnswerOutcome;
      if (rubric.unit === "citation") {
        const c = citationOutcome(qrows);
        outcome = c.outcome;
        if (c.share !== null) shares.push(c.share);
        const cf = vf.citations!;
        for (const p of qrows) {
          if (p.rule === "uncited") cf.uncited++;
          else {
            cf.pairs++;
            if (p.verdict === "yes") cf.supported++;
            else if (p.verdict === "no") cf.unsupported++;
            else cf.errors++;
            if (p.rule === "outside-context") cf.outsideContext++;
            if (p.rule === "unknown-chunk") cf.unknownChunk++;
          }
        }
      } else {
        outcome = verdictOutcome(qrows[0]!);
      }
      add(vf.overall, outcome, input.requireCitations);
      const kind = q?.kind ?? "(no kind)";
      add((vf.byKind[kind] ??= newRate()), outcome, input.requireCitations);
      for (const tag of q?.tags ?? []) add((vf.byTag[tag] ??= newRate()), outcome, input.requireCitations);
      if (vf.notFound && q) {
        if (!q.answerable) add(vf.notFound.correctNotFound, outcome, false);
        else {
          const fr = vf.notFound.falseRefusals;
          if (outcome === "error") fr.errors++;
          else {
            fr.scored++;
            if (outcome === "fail") fr.refused++;
          }
          fr.rate = fr.scored > 0 ? fr.refused / fr.scored : null;
        }
      }
    }
    if (vf.citations) vf.citations.meanShare = shares.length ? shares.reduce((a, b) => a + b, 0) / shares.length : null;
    fig.variants.push(vf);
  }
  // Self-disagreement needs repeats: without one, no key string per verdict.
  if (allRepeats.some((j) => j.repeat > 0)) {
    const repeated = groupBy(allRepeats, (j) => `${j.variant}\0${j.question}\0${j.unit}`);
    let items = 0;
    let disagreeing = 0;
    for (const list of repeated.values()) {
      const verdicts = list.filter((j) => j.verdict !== "error").map((j) => j.verdict);
      if (verdicts.length < 2) continue;
      items++;
      if (new Set(verdicts).size > 1) disagreeing++;
    }
    fig.selfDisagreement = { items, disagreeing, rate: items ? disagreeing / items : null };
  }
  return fig;
}

/**
 * Citation accuracy splits by answer: each answer (its judged pairs and its
 * rule pairs) goes to the figure of the one fingerprint its pairs were
 * judged under; an answer with rule pairs only goes to the main figure (the
 * first fingerprint); an answer judged under several is scored nowhere and
 * counted as split in the main figure.
 */
function citationParts(fps: readonly string[], byFp: Map<string, Judgment[]>, rules: readonly Judgment[], partOf: (j: Judgment) => string): Map<string, FigureRows> {
  const parts = new Map<string, FigureRows>(fps.map((fp, i) => [fp, { judged: [], rules: [], allRepeats: byFp.get(fp)!, home: i === 0, ...(i === 0 ? { split: new Map<string, number>() } : {}) }]));
  const home = parts.get(fps[0]!)!;
  const answerOf = (j: Judgment) => `${j.variant}\0${j.question}`;
  const judged = groupBy(fps.flatMap((fp) => byFp.get(fp)!.filter((j) => j.repeat === 0)), answerOf);
  const ruled = groupBy(rules, answerOf);
  for (const key of new Set([...judged.keys(), ...ruled.keys()])) {
    const pairs = judged.get(key) ?? [];
    const answerFps = new Set(pairs.map(partOf));
    if (answerFps.size > 1) {
      const variant = pairs[0]!.variant;
      home.split!.set(variant, (home.split!.get(variant) ?? 0) + 1);
      continue;
    }
    const part = answerFps.size === 1 ? parts.get([...answerFps][0]!)! : home;
    part.judged.push(...pairs);
    part.rules.push(...(ruled.get(key) ?? []));
  }
  return parts;
}

/**
 * Summarises judgments into pass rates per rubric and judge fingerprint,
 * per variant, kind and tag, with error, rule and uncited counts, the two
 * not-found figures, citation pair counts, self-disagreement across repeats
 * and token usage per rubric.
 *
 * @example
 * const summary = summarise({ judgments, golden, rubrics, requireCitations: false, usage });
 * process.stdout.write(formatSummary(summary));
 */
export function summarise(input: SummaryInput): Summary {
  const variantOrder = [...new Set(input.judgments.map((j) => j.variant))];
  const figures: RubricFigures[] = [];
  const byRubric = groupBy(input.judgments, (j) => j.rubric);
  const served = servedKeys(input.judgments.filter((j) => j.judge !== "rule"));
  // One key string per (fingerprint, served model), built once: a Map hashes the same string object once.
  const partKeys = new Map<string, Map<string, string>>();
  const partOf = (j: Judgment): string => {
    const model = served(j);
    const byModel = partKeys.get(j.fingerprint) ?? partKeys.set(j.fingerprint, new Map()).get(j.fingerprint)!;
    return byModel.get(model) ?? byModel.set(model, `${j.fingerprint}\u0000${model}`).get(model)!;
  };
  for (const rubric of input.rubrics) {
    // Claim verdicts (c<n>) are not answers: the answer's is derived from them (judge/items/derive-claims.ts).
    const rows = (byRubric.get(rubric.name) ?? []).filter((j) => !isClaimUnit(j.unit));
    const rules = rows.filter((j) => j.judge === "rule");
    const judgedAll = rows.filter((j) => j.judge !== "rule");
    // One figure per fingerprint and served model (see served.ts).
    const byFp = groupBy(judgedAll, partOf);
    const fps = [...byFp.keys()].sort((a, b) => byFp.get(b)!.length - byFp.get(a)!.length);
    if (fps.length === 0 && (rules.length > 0 || (input.skipped ?? []).some((s) => s.key.rubric === rubric.name))) {
      figures.push(figuresFor(rubric, RULE_FINGERPRINT, "", { judged: [], rules, allRepeats: [], home: true }, input, variantOrder));
    }
    // With no judged citation (every pair decided by rule, as when no answer cites) the rule figure above is all.
    const parts = rubric.unit === "citation" && fps.length > 0 ? citationParts(fps, byFp, rules, partOf) : undefined;
    fps.forEach((key, i) => {
      const all = byFp.get(key)!;
      const [fp, model] = key.split("\u0000") as [string, string];
      const part: FigureRows = parts?.get(key) ?? { judged: all.filter((j) => j.repeat === 0), rules: i === 0 ? rules : [], allRepeats: all, home: i === 0 };
      figures.push(figuresFor(rubric, fp, model, part, input, variantOrder));
    });
  }
  const usage: Record<string, RubricUsage> = {};
  for (const [k, v] of input.usage ?? []) usage[k] = v;
  return {
    figures,
    requireCitations: input.requireCitations,
    usage,
    // Answer verdicts derived from claims are not judgments made: counted through their claims.
    totals: {
      judgments: input.judgments.filter((j) => !j.derived).length,
      errors: input.judgments.filter((j) => j.verdict === "error" && !j.derived).length,
      cached: input.judgments.filter((j) => j.cached && !j.derived).length,
      rule: input.judgments.filter((j) => j.judge === "rule").length,
    },
  };
}
