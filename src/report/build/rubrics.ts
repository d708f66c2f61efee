import type { CalibrationReport } from "../../calibration/calibrate.js";
import type { LabelBook } from "../../calibration/labels.js";
import { labelledVerdicts, ppiLabels, ppiUninformative, roganGladenUninformative } from "../../calibration/corrected.js";
import type { DrawBook } from "../../calibration/draws.js";
import { heldoutSplit, type TrustSettings } from "../../calibration/gate.js";
import { pairGroup, type GateItem } from "../../calibration/pairing.js";
import { ppiMean, roganGladenBootstrap, wilsonInterval, type Interval } from "../../calibration/stats/index.js";
import { gateContext, splitsOf } from "../../calibration/trust.js";
import { groupJudgments, type JudgeGroup, type JudgedItem } from "../../calibration/verdicts.js";
import type { Wordings } from "../../calibration/wording.js";
import type { GoldenSet } from "../../golden/dataset.js";
import { BOUNDS, requireWithin } from "../../golden/bounds.js";
import type { Judgment } from "../../golden/schema/items.js";
import { RULE_FINGERPRINT } from "../../judge/items/items.js";
import { isClaimUnit } from "../../judge/items/claims.js";
import type { Rubric } from "../../judge/rubric/rubric.js";
import { servedKeys, type ServedKey } from "../../judge/summary/served.js";
import { answerOutcome } from "../../judge/summary/summary.js";
import type { RubricJson, RubricVariantJson } from "../schema.js";
import { recordKey } from "../../calibration/record.js";
import { calibrationJson, trustJson } from "./trust.js";

/** What {@link rubricReports} reads. */
export interface RubricReportInput {
  judgments: readonly Judgment[];
  rubrics: readonly Rubric[];
  variants: readonly string[];
  golden: GoldenSet;
  calibration: CalibrationReport;
  book: LabelBook;
  /** The recorded draws, so the corrections use the labels the gate counts. */
  draws: DrawBook;
  /** Today's wording hash of each rubric (calibration/context.ts `wordingsOf`), so the corrections leave out labels of an earlier wording. */
  wordings?: Wordings;
  trust?: TrustSettings;
  requireCitations: boolean;
  /** Records written into the evaluation folder, by `recordKey`, relative to it. */
  recordFiles: ReadonlyMap<string, string>;
  seed: number;
  reps: number;
}

/**
 * Folds a rate's interval computed on the judge-decided items into the rate
 * over all items, rule verdicts being exact: (rulePass + x·nJudged)/(nRule + nJudged).
 */
function withRules(x: number | null, rulePass: number, nRule: number, nJudged: number): number | null {
  if (x === null) return null;
  const n = nRule + nJudged;
  return n === 0 ? null : (rulePass + x * nJudged) / n;
}

function foldInterval(ci: Interval | null, rulePass: number, nRule: number, nJudged: number): Interval | null {
  if (!ci) return null;
  return { lo: withRules(ci.lo, rulePass, nRule, nJudged)!, hi: withRules(ci.hi, rulePass, nRule, nJudged)! };
}

type QuestionVerdict = "yes" | "no" | "error" | null;

/**
 * Per question (repeat 0) outcome of a rubric for one variant, by the one
 * pass-rate definition (`answerOutcome`): the verdict of a whole-answer or
 * question item; for citation accuracy "no" when any sentence-citation pair
 * fails, "error" when none fails but one errored, "yes" otherwise, and, for
 * an uncited answer, "no" when citations are required, else null (not
 * scored). `compare` pairs these, so its rates are the reports' rates.
 */
function questionVerdicts(rows: readonly Judgment[], unit: Rubric["unit"], requireCitations: boolean): Map<string, QuestionVerdict> {
  const byQ = new Map<string, Judgment[]>();
  for (const j of rows) {
    if (j.repeat !== 0) continue;
    (byQ.get(j.question) ?? byQ.set(j.question, []).get(j.question)!).push(j);
  }
  const out = new Map<string, QuestionVerdict>();
  for (const [q, list] of byQ) {
    const o = answerOutcome(list, unit);
    out.set(q, o === "pass" ? "yes" : o === "fail" ? "no" : o === "error" ? "error" : requireCitations ? "no" : null);
  }
  return out;
}

type RateFigures = NonNullable<RubricVariantJson["pairs"]>;

const NO_CORRECTION = "corrections are computed on citation pairs, the unit labels are made on (see citation pairs)";
const NO_CORRECTION_CLAIMS = "corrections are computed on claims, the unit labels are made on (see claims supported)";

/**
 * The answer-level rate of citation accuracy (its pass rate): answers whose
 * every pair is supported over answers scored; answers whose every pair was
 * decided by rule are counted as rule verdicts. No corrections: labels are
 * made on pairs.
 */
function answerRate(rows: readonly Judgment[], perQuestion: ReadonlyMap<string, QuestionVerdict>, claims = false): RateFigures {
  const ruleOnly = new Set<string>();
  const judged = new Set<string>();
  for (const j of rows) (j.judge === "rule" ? ruleOnly : judged).add(j.question);
  const r = { pass: 0, fail: 0, errors: 0, rulePass: 0, ruleFail: 0 };
  for (const [q, v] of perQuestion) {
    const byRule = ruleOnly.has(q) && !judged.has(q);
    if (v === "yes") {
      r.pass++;
      if (byRule) r.rulePass++;
    } else if (v === "no") {
      r.fail++;
      if (byRule) r.ruleFail++;
    } else if (v === "error") r.errors++;
  }
  const n = r.pass + r.fail;
  const none = { estimate: null, ci: null, reason: claims ? NO_CORRECTION_CLAIMS : NO_CORRECTION, uninformative: null };
  return { ...r, raw: { value: n ? r.pass / n : null, ci: wilsonInterval(r.pass, n) }, roganGladen: none, ppi: { ...none, labelled: 0 } };
}

/** The gate's items of one judge as the pass-rate corrections take them (skipped: drawn items with no counting label). */
interface GateRows {
  pairs: readonly GateItem[];
  weighted: boolean;
  skipped: readonly { judged: JudgedItem }[];
}

/** The item-level rate (answers, questions, or citation pairs) with its two corrections from the gate's labels. */

function itemRate(variant: string, judged: readonly JudgedItem[], ruleRows: readonly Judgment[], gate: GateRows, input: RubricReportInput): RateFigures {
  const mine = judged.filter((i) => i.key.variant === variant);
  const verdicts = mine.filter((i) => i.verdict !== "error").map((i) => (i.verdict === "yes" ? 1 : 0) as 0 | 1);
  const judgedYes = verdicts.filter((v) => v === 1).length;
  const rulePass = ruleRows.filter((j) => j.verdict === "yes").length;
  const ruleFail = ruleRows.filter((j) => j.verdict === "no").length;
  const nRule = rulePass + ruleFail;
  const nJ = verdicts.length;
  const pass = judgedYes + rulePass;
  const fail = nJ - judgedYes + ruleFail;
  const labelledAll = labelledVerdicts(gate.pairs, gate.weighted);
  const labelledHere = labelledVerdicts(gate.pairs.filter((p) => p.judged.key.variant === variant), gate.weighted);
  const rg = roganGladenBootstrap(verdicts, labelledAll, { seed: input.seed, reps: input.reps });
  const ppi = ppiMean(verdicts, ppiLabels(labelledHere));
  return {
    pass,
    fail,
    errors: mine.length - nJ,
    rulePass,
    ruleFail,
    raw: { value: pass + fail ? pass / (pass + fail) : null, ci: wilsonInterval(pass, pass + fail) },
    roganGladen: {
      estimate: withRules(rg.estimate, rulePass, nRule, nJ),
      ci: foldInterval(rg.bootstrap.ci, rulePass, nRule, nJ),
      reason: rg.estimate === null ? rg.reason ?? "undefined" : rg.bootstrap.ci ? null : rg.bootstrap.reason ?? null,
      uninformative: roganGladenUninformative(rg, labelledAll, gate.skipped.length),
    },
    ppi: {
      estimate: withRules(ppi.estimate, rulePass, nRule, nJ),
      ci: foldInterval(ppi.ci, rulePass, nRule, nJ),
      reason: ppi.estimate === null ? ppi.reasons.estimate ?? "undefined" : ppi.ci ? null : ppi.reasons.ci ?? null,
      uninformative: ppiUninformative(ppi, gate.skipped.filter((p) => p.judged.key.variant === variant).length),
      labelled: labelledHere.length,
    },
  };
}

function variantFigures(
  variant: string,
  judged: readonly JudgedItem[],
  rows: readonly Judgment[],
  rules: readonly Judgment[],
  gate: GateRows,
  perQuestion: ReadonlyMap<string, QuestionVerdict>,
  input: RubricReportInput,
  rubric: Rubric,
  claims = false,
): RubricVariantJson {
  const ruleRows = rules.filter((j) => j.variant === variant && !(j.rule === "uncited" && !input.requireCitations));
  // Claim-level faithfulness is read like citation accuracy: answers derived from claims, claims the labelled unit.
  const items = itemRate(variant, judged, claims ? [] : ruleRows, gate, input);
  const citation = rubric.unit === "citation" || claims;
  const main = citation ? answerRate(rows.filter((j) => j.variant === variant && j.repeat === 0), perQuestion, claims) : items;
  const uncited = citation ? rules.filter((j) => j.variant === variant && j.rule === "uncited").length : null;
  let notFound: RubricVariantJson["notFound"] = null;
  if (rubric.cases) {
    notFound = { correct: 0, unanswerable: 0, refused: 0, answerable: 0 };
    for (const [q, v] of perQuestion) {
      const gq = input.golden.byId.get(q);
      if (!gq || (v !== "yes" && v !== "no")) continue;
      if (gq.answerable) {
        notFound.answerable++;
        if (v === "no") notFound.refused++;
      } else {
        notFound.unanswerable++;
        if (v === "yes") notFound.correct++;
      }
    }
  }
  return { variant, ...main, pairs: citation ? items : null, uncited, notFound };
}

/** One report entry's judge and per-question verdicts, as {@link entryVerdicts} derives them from the judgments. */
export interface EntryVerdicts {
  fingerprint: string;
  servedModel: string | null;
  judge: RubricJson["judge"];
  /** The judge group (absent for a rubric decided by rule alone). */
  group: JudgeGroup | undefined;
  /** Claim verdicts (c<n>) are the labelled unit; the answers' verdicts are derived from them. */
  claims: boolean;
  /** The judge-decided rows (claims left out) and, for the rubric's first entry, its rule rows. */
  rows: Judgment[];
  rules: Judgment[];
  perQuestion: Map<string, Map<string, QuestionVerdict>>;
  /** report.json's `verdicts` of the entry. */
  verdicts: RubricJson["verdicts"];
}

/**
 * The report entries of one rubric (one per judge fingerprint and served
 * model, the most verdicts first; rule verdicts join the first, or make one
 * entry of their own when no judge gave any) with their per-question
 * verdicts: what report.json's `rubrics[].verdicts` says, so `compare` can
 * check a report against the judgments.jsonl it was built from.
 */
export function entryVerdicts(
  judgments: readonly Judgment[],
  rubric: Pick<Rubric, "name" | "unit">,
  variants: readonly string[],
  requireCitations: boolean,
  groups: readonly JudgeGroup[] = groupJudgments(judgments).groups,
  served: (j: Judgment) => ServedKey = servedKeys(judgments.filter((j) => j.judge !== "rule")),
): EntryVerdicts[] {
  const rows = judgments.filter((j) => j.rubric === rubric.name);
  const rules = rows.filter((j) => j.judge === "rule");
  const mine: (JudgeGroup | undefined)[] = groups.filter((g) => g.rubric === rubric.name).sort((a, b) => b.items.length - a.items.length);
  if (mine.length === 0) {
    if (rules.length === 0) return [];
    mine.push(undefined);
  }
  return mine.map((group, gi) => {
    const fingerprint = group?.fingerprint ?? RULE_FINGERPRINT;
    const servedModel = group?.servedModel ?? null;
    const myRules = gi === 0 ? rules : [];
    const judgedAll = rows.filter((j) => j.judge !== "rule" && j.fingerprint === fingerprint && served(j) === (servedModel ?? ""));
    const claims = judgedAll.some((j) => isClaimUnit(j.unit));
    const judgedRows = claims ? judgedAll.filter((j) => !isClaimUnit(j.unit)) : judgedAll;
    const perQuestion = new Map<string, Map<string, QuestionVerdict>>();
    for (const v of variants) perQuestion.set(v, questionVerdicts([...judgedRows, ...myRules].filter((j) => j.variant === v), rubric.unit, requireCitations));
    const verdicts = [...perQuestion].flatMap(([variant, m]) => [...m].map(([question, verdict]) => ({ variant, question, verdict })));
    return { fingerprint, servedModel, judge: group?.judge ?? "rule", group, claims, rows: [...judgedRows, ...myRules], rules: myRules, perQuestion, verdicts };
  });
}

/**
 * One report entry per judged rubric and judge fingerprint (verdicts of
 * different fingerprints never mix): the trust state from this run's
 * calibration with what it was based on (author, imported or human labels),
 * the agreement figures, and per variant the pass rate with its Wilson
 * interval beside the Rogan-Gladen and prediction-powered corrections.
 *
 * The pass rate counts answers (questions for a question-unit rubric), by
 * the one definition `judge`, `compare` and every report share; citation
 * accuracy's sentence-citation pairs (the unit of its labels, kappa and
 * corrections) are a separate figure, `pairs`. Item rates use each item's
 * verdict as the majority over repeats as in calibration; rule
 * verdicts count as exact yes/no and only the judge-decided part is
 * corrected. Rogan-Gladen takes TPR and TNR from every gate label of the
 * judge (its error rates are the judge's, whatever the variant); PPI's
 * rectifier uses the variant's own gate labels (it must be a random sample
 * of the population whose rate it corrects). Uncited answers are counted
 * apart unless citations are required. A `seed` or `reps` outside the
 * bounds of their flags throws a RangeError (golden/bounds.ts).
 */
export function rubricReports(input: RubricReportInput): RubricJson[] {
  requireWithin("seed", input.seed, BOUNDS.randomSeed);
  requireWithin("reps", input.reps, BOUNDS.bootstrapReps);
  const { groups } = groupJudgments(input.judgments);
  const served = servedKeys(input.judgments.filter((j) => j.judge !== "rule"));
  const heldout = heldoutSplit(input.trust);
  const gateInputs = { draws: input.draws, ...(input.trust ? { trust: input.trust } : {}), splits: splitsOf(input.golden.questions), ...(input.wordings ? { wordings: input.wordings } : {}) };
  const out: RubricJson[] = [];
  for (const rubric of input.rubrics) {
    for (const e of entryVerdicts(input.judgments, rubric, input.variants, input.requireCitations, groups, served)) {
      const { group, fingerprint, servedModel, claims } = e;
      const cal = input.calibration.rubrics.find((r) => r.group.rubric === rubric.name && r.group.fingerprint === fingerprint && r.group.servedModel === servedModel);
      const pairing = group ? pairGroup(group, input.book, gateContext(gateInputs, group.rubric)) : undefined;
      const gate = { pairs: pairing?.gate ?? [], weighted: pairing?.weighted ?? false, skipped: pairing?.skipped ?? [] };
      out.push({
        rubric: rubric.name,
        unit: claims ? "claim" : rubric.unit,
        rateUnit: rubric.unit === "question" ? "questions" : "answers",
        fingerprint,
        servedModel,
        judge: e.judge,
        model: group?.models[0] ?? null,
        trust: trustJson(cal, heldout),
        calibration: calibrationJson(cal, input.recordFiles.get(recordKey({ rubric: rubric.name, fingerprint, servedModels: group?.servedModels ?? [] }))),
        variants: input.variants
          .map((v) => variantFigures(v, group?.items ?? [], e.rows, e.rules, gate, e.perQuestion.get(v)!, input, rubric, claims))
          .filter((f) => f.pass + f.fail + f.errors > 0 || (f.uncited ?? 0) > 0),
        verdicts: e.verdicts,
      });
    }
  }
  return out;
}
