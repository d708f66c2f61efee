import type { RagjudgeConfig, TrustThresholds } from "../golden/schema/config.js";
import type { Judgment } from "../golden/schema/items.js";
import type { CalibrationRecord, LoadedRecord } from "./record.js";
import { describeBasis, type LabelBasis } from "./basis.js";
import { zCritical, type Interval } from "./stats/index.js";

/** Why a rubric's scores are not trusted. */
export type UntrustedReason = "no-calibration" | "labels-not-random" | "too-few-labels" | "kappa-undefined" | "kappa-too-low";

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

const f2 = (v: number) => v.toFixed(2);

/** The confidence level of the interval whose lower bound the gate checks: kappa's asymptotic 95% interval. */
export const GATE_LEVEL = 0.95;

/** The figures the gate reads from a record. */
export type GateFigures = Pick<CalibrationRecord["figures"], "n" | "labelYes" | "labelNo" | "kappa" | "kappaSe" | "kappaCi" | "reasons" | "level">;

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
 * defined kappa, and the lower bound of kappa's asymptotic 95% interval at or
 * above `kappaLower`. The first failed condition is the reason. The message
 * names whose labels the figures rest on (`basis`): author and imported
 * labels are never called human.
 */
export function gateDecision(
  figures: GateFigures,
  excluded: CalibrationRecord["excluded"],
  t: TrustThresholds,
  basis?: LabelBasis,
): { trusted: boolean; reason?: UntrustedReason; message: string } {
  const ci = gateInterval(figures);
  const labels = basis ? describeBasis(figures.n, basis) : `${figures.n} labels`;
  const nText = basis ? `n = ${labels}` : `n = ${figures.n}`;
  if (figures.n === 0 && excluded.nonRandom + excluded.notHeldout > 0) {
    const what = excluded.nonRandom > 0 ? `${excluded.nonRandom} labels come from disagreement, balanced or manual frames` : "";
    const split = excluded.notHeldout > 0 ? `${excluded.notHeldout} random labels are outside the heldout split` : "";
    return { trusted: false, reason: "labels-not-random", message: `untrusted: labels not from random frames (${[what, split].filter(Boolean).join("; ")}); label a random sample` };
  }
  if (figures.n < t.minLabels || figures.labelYes < t.minPerClass || figures.labelNo < t.minPerClass) {
    const other = excluded.nonRandom + excluded.notHeldout > 0 ? `; ${excluded.nonRandom + excluded.notHeldout} other labels do not count` : "";
    const have = basis ? `${labels} from random frames` : `${figures.n} random`;
    return {
      trusted: false,
      reason: "too-few-labels",
      message: `untrusted: too few labels (${have}, ${figures.labelYes} yes / ${figures.labelNo} no; need ${t.minLabels} with ${t.minPerClass} of each${other})`,
    };
  }
  if (figures.kappa === null || ci === null) {
    return { trusted: false, reason: "kappa-undefined", message: `untrusted: kappa undefined (${figures.reasons.kappa ?? figures.reasons.kappaSe ?? figures.reasons.kappaCi ?? "no interval"})` };
  }
  if (ci.lo < t.kappaLower) {
    return {
      trusted: false,
      reason: "kappa-too-low",
      message: `untrusted: kappa too low (${f2(figures.kappa)}, 95% CI [${f2(ci.lo)}, ${f2(ci.hi)}]; lower bound must be >= ${f2(t.kappaLower)}, ${nText})`,
    };
  }
  return { trusted: true, message: `trusted: kappa ${f2(figures.kappa)}, 95% CI [${f2(ci.lo)}, ${f2(ci.hi)}], ${nText}` };
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
  const decision = gateDecision(record.figures, record.excluded, thresholds, record.basis);
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
