import type { RagjudgeConfig, TrustThresholds } from "../golden/schema/config.js";
import type { Judgment } from "../golden/schema/items.js";
import type { CalibrationRecord, LoadedRecord } from "./record.js";
import { describeBasis, type LabelBasis } from "./basis.js";
import { fixed as f2, interval } from "./format.js";
import { HELDOUT_SPLIT } from "./pairing.js";
import { zCritical, type Interval } from "./stats/index.js";
import { uninformativeInterval, type ConfusionCells, type UninformativeInterval } from "./uninformative.js";

/**
 * Why a rubric's scores are not trusted. `kappa-uninformative`: the labels
 * or the judge's verdicts are all one answer, so kappa is 0 by convention
 * and its zero-width interval says nothing; never trusted, whatever the
 * threshold.
 */
export type UntrustedReason = "no-calibration" | "labels-not-random" | "too-few-labels" | "kappa-undefined" | "kappa-uninformative" | "kappa-too-low";

/** The trust state of one rubric under one judge, shown beside every pass rate. */
export interface TrustState {
  rubric: string;
  fingerprint: string;
  trusted: boolean;
  reason?: UntrustedReason;
  /** One line for people: "trusted: kappa 0.78, 95% CI [0.66, 0.90], n = 80 human labels" or why not. */
  message: string;
  kappa: number | null;
  /** Kappa's asymptotic 95% interval (non-null SE), whose lower bound the gate checks. */
  ci: Interval | null;
  /** Set when kappa's interval is not informative (labels or verdicts all one answer): never read [0, 0] as certainty. */
  kappaCiUninformative?: UninformativeInterval;
  /** Gate-eligible labels in the record (0 without a record). */
  n: number;
  /** Whose labels the record rests on (human, author, imported), when the record says. */
  basis?: LabelBasis;
  thresholds: TrustThresholds;
  /** The record used. */
  record?: string;
  /** Records of the same rubric for other fingerprints (another prompt or model): reported, never used. */
  otherFingerprints: { fingerprint: string; file: string; time: string }[];
  /** Remarks that do not change the state (labels changed since the record was written). */
  notes: string[];
}

/** The thresholds for one rubric: the config's defaults overridden by `trust.perRubric[rubric]`. */
export function thresholdsFor(trust: RagjudgeConfig["trust"] | undefined, rubric: string): TrustThresholds {
  const base: TrustThresholds = { minLabels: trust?.minLabels ?? 50, minPerClass: trust?.minPerClass ?? 10, kappaLower: trust?.kappaLower ?? 0.6 };
  const over = trust?.perRubric?.[rubric] ?? {};
  return {
    minLabels: over.minLabels ?? base.minLabels,
    minPerClass: over.minPerClass ?? base.minPerClass,
    kappaLower: over.kappaLower ?? base.kappaLower,
  };
}

/** The confidence level of the interval whose lower bound the gate checks: kappa's asymptotic 95% interval. */
export const GATE_LEVEL = 0.95;

/**
 * The figures the gate reads from a record. `confusion` tells whether the
 * labels or the verdicts are all one answer (kappa's interval then says
 * nothing); without it that check is skipped.
 */
export type GateFigures = Pick<CalibrationRecord["figures"], "n" | "labelYes" | "labelNo" | "kappa" | "kappaSe" | "kappaCi" | "reasons" | "level"> & { confusion?: ConfusionCells };

/** Labels left out of the gate, each group with why it does not count (frame or split). */
function notCounted(excluded: CalibrationRecord["excluded"]): string[] {
  const out: string[] = [];
  if (excluded.nonRandom > 0) out.push(`${excluded.nonRandom} label${excluded.nonRandom === 1 ? "" : "s"} from disagreement, balanced or manual frames (selection distorts kappa)`);
  if (excluded.notHeldout > 0) out.push(`${excluded.notHeldout} random label${excluded.notHeldout === 1 ? "" : "s"} outside the ${HELDOUT_SPLIT} split (the gate uses ${HELDOUT_SPLIT} only; prompts are tuned on the rest)`);
  return out;
}

/**
 * Kappa's asymptotic 95% interval, kappa ± z(0.975)·se with the non-null
 * standard error, clipped to [-1, 1]: recomputed from the record's kappa and
 * SE so the gate checks the 95% bound whatever level the record printed.
 * Null when kappa or its SE is undefined.
 */
export function gateInterval(f: Pick<GateFigures, "kappa" | "kappaSe" | "kappaCi" | "level">): Interval | null {
  if (f.kappa === null) return null;
  if (f.kappaSe === null) return f.level === GATE_LEVEL ? f.kappaCi : null;
  const half = zCritical(GATE_LEVEL) * f.kappaSe;
  return { lo: Math.max(-1, f.kappa - half), hi: Math.min(1, f.kappa + half) };
}

/**
 * The gate's rule on one record's figures: trusted only with at least
 * `minLabels` gate-eligible labels, at least `minPerClass` of each label, a
 * defined kappa whose interval is informative (neither the labels nor the
 * judge's verdicts all one answer: kappa is then 0 by convention with a
 * zero-width interval, never trusted whatever the threshold), and the lower
 * bound of kappa's asymptotic 95% interval at or above `kappaLower`. The
 * first failed condition is the reason; the message also says when the
 * interval is not informative, and why each group of other labels does not
 * count (non-random frame, or outside the held-out split). It names whose
 * labels the figures rest on (`basis`): author and imported labels are never
 * called human.
 */
export function gateDecision(
  figures: GateFigures,
  excluded: CalibrationRecord["excluded"],
  t: TrustThresholds,
  basis?: LabelBasis,
  options: { heldoutOnly?: boolean } = {},
): { trusted: boolean; reason?: UntrustedReason; message: string } {
  const ci = gateInterval(figures);
  const labels = basis ? describeBasis(figures.n, basis) : `${figures.n} labels`;
  const nText = basis ? `n = ${labels}` : `n = ${figures.n}`;
  const flat = figures.confusion && figures.kappa !== null ? uninformativeInterval(figures.confusion) : null;
  const others = notCounted(excluded);
  if (figures.n === 0 && excluded.nonRandom + excluded.notHeldout > 0) {
    const what = excluded.nonRandom > 0 ? "labels not from random frames" : `no random label in the ${HELDOUT_SPLIT} split`;
    const fix = excluded.nonRandom > 0 ? "label a random sample" : `label a random sample of the ${HELDOUT_SPLIT} split`;
    return { trusted: false, reason: "labels-not-random", message: `untrusted: ${what} (not counted: ${others.join("; ")}); ${fix}` };
  }
  if (figures.n < t.minLabels || figures.labelYes < t.minPerClass || figures.labelNo < t.minPerClass) {
    const have = basis ? `${labels} from random frames` : `${figures.n} random`;
    const where = options.heldoutOnly ? ` in the ${HELDOUT_SPLIT} split` : "";
    const note = flat ? `; ${flat.reason}, so kappa's interval is not informative` : "";
    const other = others.length ? `; not counted: ${others.join("; ")}` : "";
    return {
      trusted: false,
      reason: "too-few-labels",
      message: `untrusted: too few labels (${have}${where}, ${figures.labelYes} yes / ${figures.labelNo} no; need ${t.minLabels} with ${t.minPerClass} of each${note}${other})`,
    };
  }
  if (figures.kappa === null || ci === null) {
    return { trusted: false, reason: "kappa-undefined", message: `untrusted: kappa undefined (${figures.reasons.kappa ?? figures.reasons.kappaSe ?? figures.reasons.kappaCi ?? "no interval"})` };
  }
  if (flat) {
    return {
      trusted: false,
      reason: "kappa-uninformative",
      message: `untrusted: kappa's interval is not informative (${flat.reason}, so kappa is 0 by convention and its 95% CI ${interval(ci)} has zero width by formula, not certainty; ${nText})`,
    };
  }
  if (ci.lo < t.kappaLower) {
    return {
      trusted: false,
      reason: "kappa-too-low",
      message: `untrusted: kappa too low (${f2(figures.kappa)}, 95% CI ${interval(ci)}; lower bound must be >= ${f2(t.kappaLower)}, ${nText})`,
    };
  }
  return { trusted: true, message: `trusted: kappa ${f2(figures.kappa)}, 95% CI ${interval(ci)}, ${nText}` };
}

/**
 * The trust state of one rubric under one judge. Only a record for this
 * exact fingerprint is used; records for the rubric under other fingerprints
 * are listed (a changed prompt or model voids the old calibration). When
 * `labelsHash` is given and differs from the record's, a note says the labels
 * changed since calibration.
 */
export function trustState(
  rubric: string,
  fingerprint: string,
  records: readonly LoadedRecord[],
  trust: RagjudgeConfig["trust"] | undefined,
  options: { labelsHash?: string } = {},
): TrustState {
  const thresholds = thresholdsFor(trust, rubric);
  const mine = records.filter((r) => r.record.rubric === rubric && r.record.fingerprint === fingerprint);
  const others = records
    .filter((r) => r.record.rubric === rubric && r.record.fingerprint !== fingerprint)
    .map((r) => ({ fingerprint: r.record.fingerprint, file: r.file, time: r.record.time }));
  const base = { rubric, fingerprint, thresholds, otherFingerprints: others, notes: [] as string[] };
  const loaded = mine.sort((a, b) => (a.record.time < b.record.time ? 1 : -1))[0];
  if (!loaded) {
    const also = others.length ? `; ${others.length} record(s) exist for other fingerprints of ${rubric} (prompt or model changed), not used` : "";
    return { ...base, trusted: false, reason: "no-calibration", message: `untrusted: no calibration for this judge${also}; run ragjudge calibrate`, kappa: null, ci: null, n: 0 };
  }
  const { record } = loaded;
  const decision = gateDecision(record.figures, record.excluded, thresholds, record.basis, { heldoutOnly: record.heldoutOnly });
  const state: TrustState = {
    ...base,
    trusted: decision.trusted,
    message: decision.message,
    kappa: record.figures.kappa,
    ci: gateInterval(record.figures),
    n: record.figures.n,
    record: loaded.file,
  };
  if (record.basis) state.basis = record.basis;
  const flat = record.figures.kappa === null ? null : uninformativeInterval(record.figures.confusion);
  if (flat) state.kappaCiUninformative = flat;
  if (decision.reason) state.reason = decision.reason;
  if (options.labelsHash && options.labelsHash !== record.labels.hash) {
    state.notes.push(`labels changed since this calibration (${record.time}): run ragjudge calibrate again`);
  }
  return state;
}

/**
 * Trust states for every (rubric, fingerprint) among judgments, sorted by
 * rubric. Rule verdicts are left out: they are never calibrated. This is what
 * the judge summary and reports show beside each pass rate.
 *
 * @example
 * for (const s of trustStates(judgments, loadRecords("labels"), config.trust)) console.log(s.rubric, s.message);
 */
export function trustStates(
  judgments: readonly Pick<Judgment, "rubric" | "fingerprint" | "judge">[],
  records: readonly LoadedRecord[],
  trust: RagjudgeConfig["trust"] | undefined,
  options: { labelsHash?: string } = {},
): TrustState[] {
  const seen = new Map<string, [string, string]>();
  for (const j of judgments) if (j.judge !== "rule") seen.set(JSON.stringify([j.rubric, j.fingerprint]), [j.rubric, j.fingerprint]);
  return [...seen.values()]
    .sort(([a, fa], [b, fb]) => (a === b ? (fa < fb ? -1 : 1) : a < b ? -1 : 1))
    .map(([rubric, fingerprint]) => trustState(rubric, fingerprint, records, trust, options));
}
