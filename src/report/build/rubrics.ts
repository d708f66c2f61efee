import type { CalibrationReport, RubricCalibration } from "../../calibration/calibrate.js";
import type { LabelBook } from "../../calibration/labels.js";
import { labelledVerdicts, ppiLabels } from "../../calibration/corrected.js";
import { pairGroup, type PairedItem } from "../../calibration/pairing.js";
import { ppiMean, roganGladenBootstrap, wilsonInterval, type Interval } from "../../calibration/stats/index.js";
import { groupJudgments, type JudgeGroup, type JudgedItem } from "../../calibration/verdicts.js";
import type { GoldenSet } from "../../golden/dataset.js";
import type { Judgment } from "../../golden/schema/items.js";
import { RULE_FINGERPRINT } from "../../judge/items/items.js";
import type { Rubric } from "../../judge/rubric/rubric.js";
import type { RubricJson, RubricVariantJson, TrustJson } from "../schema.js";
import { describeBasis, type LabelBasis } from "../../calibration/basis.js";
import { recordKey } from "../../calibration/record.js";

/** What {@link rubricReports} reads. */
export interface RubricReportInput {
  judgments: readonly Judgment[];
  rubrics: readonly Rubric[];
  variants: readonly string[];
  golden: GoldenSet;
  calibration: CalibrationReport;
  book: LabelBook;
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


/**
 * Per question (repeat 0) outcome of a rubric for one variant: the verdict of
 * a whole-answer or question item; for citation accuracy, "no" when any
 * sentence-citation pair fails, "error" when none fails but one errored, "yes"
 * otherwise, and null for an uncited answer when citations are not required.
 */
function questionVerdicts(rows: readonly Judgment[], unit: Rubric["unit"], requireCitations: boolean): Map<string, "yes" | "no" | "error" | null> {
  const byQ = new Map<string, Judgment[]>();
  for (const j of rows) {
    if (j.repeat !== 0) continue;
    (byQ.get(j.question) ?? byQ.set(j.question, []).get(j.question)!).push(j);
  }
  const out = new Map<string, "yes" | "no" | "error" | null>();
  for (const [q, list] of byQ) {
    if (unit !== "citation") {
      out.set(q, list[0]!.verdict);
      continue;
    }
    if (list.some((j) => j.rule === "uncited")) out.set(q, requireCitations ? "no" : null);
    else if (list.some((j) => j.verdict === "no")) out.set(q, "no");
    else if (list.some((j) => j.verdict === "error")) out.set(q, "error");
    else out.set(q, "yes");
  }
  return out;
}

function variantFigures(
  variant: string,
  judged: readonly JudgedItem[],
  rules: readonly Judgment[],
  gate: { pairs: readonly PairedItem[]; weighted: boolean },
  perQuestion: ReadonlyMap<string, "yes" | "no" | "error" | null>,
  input: RubricReportInput,
  rubric: Rubric,
): RubricVariantJson {
  const mine = judged.filter((i) => i.key.variant === variant);
  const ruleRows = rules.filter((j) => j.variant === variant && !(j.rule === "uncited" && !input.requireCitations));
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
  const uncited = rubric.unit === "citation" ? rules.filter((j) => j.variant === variant && j.rule === "uncited").length : null;
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
  return {
    variant,
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
    },
    ppi: {
      estimate: withRules(ppi.estimate, rulePass, nRule, nJ),
      ci: foldInterval(ppi.ci, rulePass, nRule, nJ),
      reason: ppi.estimate === null ? ppi.reasons.estimate ?? "undefined" : ppi.ci ? null : ppi.reasons.ci ?? null,
      labelled: labelledHere.length,
    },
    uncited,
    notFound,
  };
}

const NO_BASIS: LabelBasis = { human: 0, author: 0, import: 0, mixed: 0, sources: [] };

function trustJson(cal: RubricCalibration | undefined): TrustJson {
  const labels = cal?.basis ?? NO_BASIS;
  const n = cal?.gate.n ?? 0;
  const basis = n > 0 ? describeBasis(n, labels) : "no labels";
  if (!cal) {
    return {
      trusted: true,
      reason: null,
      message: "decided by rule only: no judge verdict to calibrate (rule verdicts are exact)",
      kappa: null, ci: null, n: 0,
      thresholds: { minLabels: 0, minPerClass: 0, kappaLower: 0 },
      basis, labels: { ...labels, sources: [...labels.sources] }, notes: [],
    };
  }
  const t = cal.trust;
  const message = t.reason === "no-calibration"
    ? "untrusted: no labels for this judge's verdicts (label a random sample: ragjudge sample --random, then ragjudge review)"
    : t.message;
  return {
    trusted: t.trusted,
    reason: t.reason ?? null,
    message,
    kappa: t.kappa,
    ci: t.ci,
    n: t.n,
    thresholds: { ...t.thresholds },
    basis,
    labels: { ...labels, sources: [...labels.sources] },
    notes: [...t.notes, ...cal.warnings],
  };
}

function calibrationJson(cal: RubricCalibration | undefined, record: string | undefined): RubricJson["calibration"] {
  if (!cal || !cal.hasLabels || !record) return null;
  const g = cal.gate;
  return {
    n: g.n,
    labelYes: g.labelYes,
    labelNo: g.labelNo,
    judgeErrors: g.judgeErrors,
    confusion: { ...g.confusion },
    agreement: g.rates.agreement,
    tpr: g.rates.tpr,
    tnr: g.rates.tnr,
    kappa: g.kappa.kappa,
    kappaCi: g.kappa.ci,
    bootstrapCi: g.bootstrap?.ci ?? null,
    record,
  };
}

/**
 * One report entry per judged rubric and judge fingerprint (verdicts of
 * different fingerprints never mix): the trust state from this run's
 * calibration with what it was based on (author, imported or human labels),
 * the agreement figures, and per variant the pass rate with its Wilson
 * interval beside the Rogan-Gladen and prediction-powered corrections.
 *
 * Rates are over items (answers, questions, or sentence-citation pairs),
 * each item's verdict the majority over repeats as in calibration; rule
 * verdicts count as exact yes/no and only the judge-decided part is
 * corrected. Rogan-Gladen takes TPR and TNR from every gate label of the
 * judge (its error rates are the judge's, whatever the variant); PPI's
 * rectifier uses the variant's own gate labels (it must be a random sample
 * of the population whose rate it corrects). Uncited answers are counted
 * apart unless citations are required.
 */
export function rubricReports(input: RubricReportInput): RubricJson[] {
  const { groups } = groupJudgments(input.judgments);
  const out: RubricJson[] = [];
  for (const rubric of input.rubrics) {
    const rows = input.judgments.filter((j) => j.rubric === rubric.name);
    const rules = rows.filter((j) => j.judge === "rule");
    const mine: (JudgeGroup | undefined)[] = groups.filter((g) => g.rubric === rubric.name).sort((a, b) => b.items.length - a.items.length);
    if (mine.length === 0) {
      if (rules.length === 0) continue;
      mine.push(undefined);
    }
    mine.forEach((group, gi) => {
      const fingerprint = group?.fingerprint ?? RULE_FINGERPRINT;
      const cal = input.calibration.rubrics.find((r) => r.group.rubric === rubric.name && r.group.fingerprint === fingerprint);
      const pairing = group ? pairGroup(group, input.book) : undefined;
      const gate = { pairs: pairing?.gate ?? [], weighted: pairing?.weighted ?? false };
      const myRules = gi === 0 ? rules : [];
      const judgedRows = rows.filter((j) => j.judge !== "rule" && j.fingerprint === fingerprint);
      const perQuestionAll = new Map<string, Map<string, "yes" | "no" | "error" | null>>();
      for (const v of input.variants) perQuestionAll.set(v, questionVerdicts([...judgedRows, ...myRules].filter((j) => j.variant === v), rubric.unit, input.requireCitations));
      out.push({
        rubric: rubric.name,
        unit: rubric.unit,
        fingerprint,
        judge: group?.judge ?? "rule",
        model: group?.models[0] ?? null,
        trust: trustJson(cal),
        calibration: calibrationJson(cal, input.recordFiles.get(recordKey({ rubric: rubric.name, fingerprint }))),
        variants: input.variants
          .map((v) => variantFigures(v, group?.items ?? [], myRules, gate, perQuestionAll.get(v)!, input, rubric))
          .filter((f) => f.pass + f.fail + f.errors > 0 || (f.uncited ?? 0) > 0),
        verdicts: [...perQuestionAll].flatMap(([variant, m]) => [...m].map(([question, verdict]) => ({ variant, question, verdict }))),
      });
    });
  }
  return out;
}
