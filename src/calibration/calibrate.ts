import { displayPath, InputError, InputErrors } from "../golden/errors.js";
import { BOUNDS, requireWithin } from "../golden/bounds.js";
import type { TrustSettings } from "./gate.js";
import type { GoldenQuestion } from "../golden/schema/golden.js";
import type { Judgment } from "../golden/schema/items.js";
import { labelBasis, type LabelBasis } from "./basis.js";
import { correctedPassRates, type PassRates } from "./corrected.js";
import { confidenceFigures, devItems, type ConfidenceFigures } from "./confidence.js";
import { NO_DRAWS, type DrawBook } from "./draws.js";
import { agreementFigures, breakdowns, gateFigureItems, perAnnotator, type AgreementFigures, type AnnotatorFigures, type Breakdown } from "./figures.js";
import { gateDecision, thresholdsFor } from "./gate.js";
import { humanAgreement, type HumanAgreement } from "./humans.js";
import { firstLabel, type LabelBook } from "./labels.js";
import { pairGroup, unpairedLabels, type DrawStatus, type GroupPairing, type PairedItem, type UnpairedLabels } from "./pairing.js";
import { CalibrationRecord, RECORD_SCHEMA, type LoadedRecord, type RecordFigures } from "./record.js";
import { DEFAULT_REPS, DEFAULT_SEED, noBootstrap } from "./stats/index.js";
import { countedDraws, decideTrust, excludedOf, gateContext, gateOptionsOf, labelsHashOf, splitsOf, type TrustInputs, type TrustState } from "./trust.js";
import { groupJudgments, verdictsHash, type GroupingCounts, type JudgeGroup } from "./verdicts.js";
import { earlierWordingNote, type Wordings } from "./wording.js";

/** Inputs of one calibration run. */
export interface CalibrateInput {
  judgments: readonly Judgment[];
  /** The judgments file, named in each record. */
  judgmentsFile: { file: string };
  book: LabelBook;
  /** The recorded draws (`<labels>/draws/`): without them no label counts as drawn. */
  draws?: DrawBook;
  /** The golden set's questions by id, for the by-kind and by-tag tables and each question's split (optional). */
  questions?: ReadonlyMap<string, GoldenQuestion>;
  trust?: TrustSettings;
  /** Rubric names that exist (rubric files); a label for a rubric outside these and the judgments is an error. */
  knownRubrics?: ReadonlySet<string>;
  /** Where {@link knownRubrics} were read (the project's rubrics folder, or the packaged ones), to say so when a label names another. */
  rubrics?: { dir: string; packaged: boolean };
  /** Today's wording hash of each rubric (context.ts `wordingsOf`): labels of an earlier wording of its question do not count. */
  wordings?: Wordings;
  seed?: number;
  reps?: number;
  level?: number;
  /** Time stamped on the records (default: now). */
  time?: string;
  /**
   * The stored calibration records (`<labels>/calibration`). Given (as `run`
   * gives them), a rubric is trusted only with a current record for its exact
   * judge, as `judge` and every report decide it: a run must not call a
   * judge trusted that `ragjudge calibrate` never measured. Absent (the
   * `calibrate` command, which writes the record it builds), that record
   * stands in.
   */
  records?: readonly LoadedRecord[];
}

/** A judged item where the judge and the label differ, for error analysis. */
export interface Disagreement {
  variant: string;
  question: string;
  unit: string;
  verdict: string;
  label: "yes" | "no";
  annotators: string[];
  frames: string[];
  reason: string;
}

/** Non-gate labels of one kind (frame or split), shown for error analysis only. */
export interface ErrorAnalysisRow {
  /** "frame disagreement", "frames balanced+manual", "split dev". */
  excluded: string;
  /**
   * `frame`: chosen by a non-random frame (disagreement, balanced, manual),
   * so selection distorts kappa, TPR/TNR and every correction; `draw`: not
   * drawn by a counting draw (their selection is unknown); `split`: random
   * labels outside the held-out split, left out because prompts are tuned on
   * them (their agreement figures are not distorted by selection).
   */
  kind: "frame" | "split" | "draw";
  /** What these labels are: "random labels in split dev", "labels from frame disagreement". */
  what: string;
  /** Why they are not in the gate, in one phrase. */
  why: string;
  figures: AgreementFigures;
  disagreements: Disagreement[];
}

/**
 * Why labels excluded for `excluded` (see `ExclusionReason`) do not count in the gate.
 *
 * @example
 * exclusionWhy("split dev", "heldout")
 * // { kind: "split", what: "random labels in split dev", why: "the gate uses the held-out split \"heldout\" only (labels with no split are dev; prompts are tuned on dev)" }
 */
export function exclusionWhy(excluded: string, heldout = "heldout"): { kind: "frame" | "split" | "draw"; what: string; why: string } {
  if (excluded.startsWith("split ")) {
    const what = excluded === "split (none)" ? "random labels with no split (dev)" : `random labels in ${excluded}`;
    return { kind: "split", what, why: `the gate uses the held-out split "${heldout}" only (labels with no split are dev; prompts are tuned on dev)` };
  }
  if (excluded === "not drawn") return { kind: "draw", what: "random-frame labels outside any recorded draw", why: "random means drawn by ragjudge sample (or imported with --attest, where the config's trust.attested is on): a label's frame alone is not enough" };
  if (excluded === "draw not covering") return { kind: "draw", what: "labels drawn by draws that do not cover today's items", why: "the draw's frame is not today's judged items (new or changed evidence, a variant or split left out) or the gate refuses its manifest (a chosen seed, strata not the judge's): draw again" };
  if (excluded === "draw incomplete") return { kind: "draw", what: "labels of draws not labelled far enough", why: "too little of the draw is labelled (trust.minCoverage), so skipping could choose the sample: label the rest" };
  return { kind: "frame", what: `labels from ${excluded}`, why: "a non-random frame, whose selection distorts kappa, TPR/TNR and the corrections" };
}

/** Everything `ragjudge calibrate` reports for one rubric under one judge. */
export interface RubricCalibration {
  group: Omit<JudgeGroup, "items"> & { items: number };
  gate: AgreementFigures;
  heldoutOnly: boolean;
  /** The held-out split's name. */
  heldout: string;
  weighted: boolean;
  /** The recorded draws of this rubric and their coverage. */
  draws: DrawStatus[];
  /** Counted labels declared random (attested), not drawn by ragjudge. */
  declared: number;
  /** Whose labels the gate's figures rest on: human, author (never called human) or imported. */
  basis: LabelBasis;
  perAnnotator: AnnotatorFigures[];
  /** Agreement among annotators (human-human only when every label is human; see `basis`). */
  annotatorAgreement: HumanAgreement | null;
  breakdowns: Breakdown[];
  errorAnalysis: ErrorAnalysisRow[];
  disagreements: Disagreement[];
  ties: number;
  passRates: PassRates;
  /** ROC AUC, reliability and the dev-chosen threshold of the judge's P(yes); null when it gave none. */
  confidence: ConfidenceFigures | null;
  record: CalibrationRecord;
  /** False when no label pairs with this judge's verdicts: no record is written for it. */
  hasLabels: boolean;
  trust: TrustState;
  /**
   * Judged items of this judge in the held-out split, null when the
   * questions' splits are unknown: fewer than the gate's minLabels and no
   * amount of labelling makes the rubric trusted.
   */
  heldoutItems: number | null;
  warnings: string[];
}

/** The whole run. */
export interface CalibrationReport {
  rubrics: RubricCalibration[];
  unpaired: UnpairedLabels;
  grouping: GroupingCounts;
  warnings: string[];
}

function disagreementOf(p: PairedItem): Disagreement {
  return {
    variant: p.judged.key.variant,
    question: p.judged.key.question,
    unit: p.judged.key.unit,
    verdict: p.judged.verdict,
    label: p.label,
    annotators: p.labelled.byAnnotator.map((l) => l.value.annotator),
    frames: p.labelled.frames,
    reason: p.judged.verdict === "error" ? `error: ${p.judged.errors.join(", ")}` : p.judged.reason,
  };
}

/** The stored form of the gate's figures. */
export function recordFigures(f: AgreementFigures, weighted: boolean, level: number, seed: number, reps: number): RecordFigures {
  const reasons: Record<string, string> = {};
  const k = f.kappa;
  for (const [field, why] of Object.entries(k.reasons)) reasons[`kappa${field === "kappa" ? "" : field[0]!.toUpperCase() + field.slice(1)}`] = why;
  for (const [field, why] of Object.entries(f.rates.reasons)) reasons[field] = why;
  for (const [field, why] of Object.entries(f.paradox.reasons)) reasons[field] = why;
  if (f.ac1.reasons.ac1) reasons.ac1 = f.ac1.reasons.ac1;
  const boot = f.bootstrap ?? noBootstrap("not computed", { reps, seed, level });
  return {
    n: f.n,
    nEffective: f.nEffective,
    weighted,
    labelYes: f.labelYes,
    labelNo: f.labelNo,
    judgeErrors: f.judgeErrors,
    skipped: f.skipped,
    confusion: { tp: f.confusion.tp, fn: f.confusion.fn, fp: f.confusion.fp, tn: f.confusion.tn },
    agreement: f.rates.agreement,
    tpr: f.rates.tpr,
    tnr: f.rates.tnr,
    kappa: k.kappa,
    kappaSe: k.se,
    kappaSe0: k.se0,
    kappaCi: k.ci,
    kappaZ: k.z,
    kappaP: k.p,
    kappaGofCi: f.kappaGof.ci,
    ...(f.kappaCiUninformative ? { kappaCiUninformative: { ...f.kappaCiUninformative } } : {}),
    bootstrap: { ci: boot.ci, reps: boot.reps, seed: boot.seed, level: boot.level, undefinedReps: boot.undefinedReps, ...(boot.reason ? { reason: boot.reason } : {}) },
    level,
    prevalenceIndex: f.paradox.prevalenceIndex,
    biasIndex: f.paradox.biasIndex,
    pabak: f.paradox.pabak,
    ac1: f.ac1.ac1,
    reasons,
  };
}

function calibrateGroup(pairing: GroupPairing, input: CalibrateInput, inputs: TrustInputs, time: string): RubricCalibration {
  const { group } = pairing;
  const seed = input.seed ?? DEFAULT_SEED;
  const reps = input.reps ?? DEFAULT_REPS;
  const level = input.level ?? 0.95;
  const gate = agreementFigures(gateFigureItems(pairing), { bootstrap: { seed, reps }, level });
  const byExclusion = new Map<string, PairedItem[]>();
  for (const p of pairing.other) (byExclusion.get(p.excluded) ?? byExclusion.set(p.excluded, []).get(p.excluded)!).push(p);
  const errorAnalysis = [...byExclusion].sort(([a], [b]) => (a < b ? -1 : 1)).map(([excluded, ps]) => ({
    excluded,
    ...exclusionWhy(excluded, pairing.heldout),
    figures: agreementFigures(ps, { level }),
    disagreements: ps.filter((p) => p.judged.verdict !== p.label).map(disagreementOf),
  }));
  const excluded = excludedOf(pairing);
  const thresholds = thresholdsFor(input.trust, group.rubric);
  const figures = recordFigures(gate, pairing.weighted, level, seed, reps);
  const basis = labelBasis(pairing.gate.map((p) => p.labelled));
  const decision = gateDecision(figures, excluded, thresholds, basis, gateOptionsOf(pairing));
  const wording = input.wordings?.get(group.rubric);
  const record = CalibrationRecord.parse({
    schema: RECORD_SCHEMA,
    rubric: group.rubric,
    fingerprint: group.fingerprint,
    judge: group.judge,
    models: group.models,
    servedModels: group.servedModels,
    time,
    thresholds,
    heldoutOnly: true,
    heldout: pairing.heldout,
    labels: { hash: input.book.hash, rubricHash: labelsHashOf(input.book, group.rubric), files: input.book.files.map((f) => ({ name: f.name, sha256: f.sha256, labels: f.labels })) },
    ...(typeof wording === "string" ? { wordingHash: wording } : {}),
    draws: countedDraws(pairing),
    judgments: { file: input.judgmentsFile.file, sha256: verdictsHash(group), items: group.items.length },
    figures,
    basis,
    excluded,
    gate: decision,
  });
  const hasLabels = pairing.gate.length + pairing.other.length + pairing.ties.length > 0;
  // Without any label for this judge no record is written, so the gate sees no calibration.
  const fresh = decideTrust(pairing, inputs, { fresh: hasLabels ? record : null, figures: gate });
  const trust = input.records ? againstStored(fresh, decideTrust(pairing, inputs, { figures: gate })) : fresh;
  const warnings = [...pairing.warnings];
  if (pairing.ties.length) warnings.push(`${pairing.ties.length} item(s) have tied labels and no adjudication label: left out until adjudicated`);
  // an untrusted state's message says it already
  if (pairing.earlierWording && trust.trusted) warnings.push(earlierWordingNote(group.rubric, pairing.earlierWording, pairing.wordingUnread));
  // labels, not items: an item two people labelled counts twice, as the message says
  const unworded = input.wordings?.has(group.rubric) ? pairing.gate.reduce((n, p) => n + p.labelled.byAnnotator.filter((l) => l.value.wordingHash === undefined).length, 0) : 0;
  if (unworded) warnings.push(`${unworded} counted label${unworded === 1 ? " does" : "s do"} not record which wording of the question of ${group.rubric} ${unworded === 1 ? "it" : "they"} answered (made before ragjudge recorded it, or by hand): taken to answer today's; if the question changed since, label ${unworded === 1 ? "that item" : "those items"} again`);
  const { items: _items, ...groupInfo } = group;
  return {
    group: { ...groupInfo, items: group.items.length },
    gate,
    heldoutOnly: true,
    heldout: pairing.heldout,
    weighted: pairing.weighted,
    draws: pairing.draws,
    declared: pairing.declared,
    basis,
    perAnnotator: perAnnotator(pairing.gate),
    annotatorAgreement: humanAgreement(pairing.gate.map((p) => p.people ?? p.labelled)),
    breakdowns: input.questions ? breakdowns(pairing.gate, input.questions) : [],
    errorAnalysis,
    disagreements: pairing.gate.filter((p) => p.judged.verdict !== p.label).map(disagreementOf),
    ties: pairing.ties.length,
    passRates: correctedPassRates(pairing, { seed, reps, level }),
    // Dev: labelled items outside the held-out split (any frame); never a held-out one.
    confidence: confidenceFigures(pairing.gate, devItems(pairing.other, pairing.heldout), pairing.weighted, level),
    record,
    hasLabels,
    trust,
    heldoutItems: inputs.splits ? group.items.filter((it) => (inputs.splits!.get(it.key.question) ?? null) === pairing.heldout).length : null,
    warnings,
  };
}

/**
 * The trust state `run` shows: the stored record's, as everywhere else, so
 * a judge `ragjudge calibrate` never measured (or measured on other
 * verdicts, labels or draws) is never trusted. When the labels themselves
 * would fail the gate, their reason is the one to act on, not the missing
 * or stale record: calibrating would only lead to it.
 */
function againstStored(fresh: TrustState, stored: TrustState): TrustState {
  if (stored.trusted) return stored;
  return fresh.trusted ? { ...stored, labelsPass: true } : fresh;
}

/**
 * Runs calibration: groups verdicts by rubric and fingerprint (rule verdicts
 * left out), joins labels on item and input hash, and computes for each
 * group the gate's figures, per-annotator and human-human agreement, the
 * by-kind/by-tag tables, the error-analysis table of non-gate labels, the
 * corrected pass rates, and the calibration record with the gate's state.
 * A label for a rubric that neither the judgments nor the rubric files know
 * is an error (a typo); stale labels and labels for unjudged items are
 * counted in `unpaired` and warned about. A `seed` or `reps` outside the
 * bounds of `calibrate --seed` and `--reps` throws a RangeError before any
 * work (golden/bounds.ts): 10^9 bootstrap resamples would run for hours.
 *
 * @example
 * const report = calibrate({ judgments, judgmentsFile, book: loadLabels("labels"), trust: config.trust });
 * report.rubrics[0].trust.message
 */
export function calibrate(input: CalibrateInput): CalibrationReport {
  requireWithin("seed", input.seed, BOUNDS.randomSeed);
  requireWithin("reps", input.reps, BOUNDS.bootstrapReps);
  const time = input.time ?? new Date().toISOString();
  const { groups, counts } = groupJudgments(input.judgments);
  const unpaired = unpairedLabels(groups, input.book);
  if (input.knownRubrics) {
    const unknown = unpaired.unknownRubric.filter((i) => !input.knownRubrics!.has(i.key.rubric));
    if (unknown.length) {
      const known = [...new Set([...input.knownRubrics, ...groups.map((g) => g.rubric)])].sort().join(", ");
      throw new InputErrors(unknown.map((i) => {
        const l = firstLabel(i);
        // a rubric file removed from the folder (or a copy made without it) drops the rubric: say where it is missing
        // the packaged rubrics are the installed package's: nothing to put back there, only the label to correct
        const where = input.rubrics;
        const gone = where === undefined ? ""
          : where.packaged ? `: the project uses the packaged rubrics, which have no ${i.key.rubric}: correct or move the label (ragjudge init --rubrics copies the rubrics out for editing)`
          : `: there is no ${i.key.rubric}.yaml in ${displayPath(where.dir)} (a rubric whose file was removed is no longer judged): put the file back, or correct or move the label`;
        return new InputError(l.file, l.line, "rubric", `unknown rubric ${JSON.stringify(i.key.rubric)} (known: ${known || "none"})${gone}`);
      }));
    }
  }
  const inputs: TrustInputs = {
    book: input.book, draws: input.draws ?? NO_DRAWS, records: input.records ?? [],
    ...(input.trust ? { trust: input.trust } : {}),
    ...(input.questions ? { splits: splitsOf(input.questions.values()) } : {}),
    ...(input.wordings ? { wordings: input.wordings } : {}),
  };
  const rubrics = groups.map((g) => calibrateGroup(pairGroup(g, input.book, gateContext(inputs, g.rubric)), input, inputs, time));
  const warnings: string[] = [];
  if (counts.ruleVerdicts) warnings.push(`${counts.ruleVerdicts} rule verdict(s) left out: rule verdicts are never calibrated`);
  if (counts.duplicates) warnings.push(`${counts.duplicates} judgment line(s) repeat an earlier item, fingerprint and repeat: the later line was used`);
  if (unpaired.stale.length) warnings.push(`${unpaired.stale.length} stale label(s): the judged evidence changed since labelling (input hash differs); not paired, relabel them`);
  if (unpaired.relabelled.length) warnings.push(`${unpaired.relabelled.length} label(s) on earlier evidence of items labelled again since: kept as history, not paired`);
  if (unpaired.unknownItem.length) warnings.push(`${unpaired.unknownItem.length} label(s) for items the judgments do not cover (other variants, questions or units): not paired`);
  if (unpaired.unknownRubric.length) warnings.push(`${unpaired.unknownRubric.length} label(s) for rubrics the judgments do not cover: not paired`);
  if (groups.length === 0) warnings.push("no judge verdicts to calibrate (only rule verdicts, or an empty file)");
  return { rubrics, unpaired, grouping: counts, warnings };
}
