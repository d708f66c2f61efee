import type { TrustOverride, TrustThresholds } from "../golden/schema/config.js";
import type { CalibrationRecord } from "./record.js";
import { resolve, sep } from "node:path";
import { packageLabelsDir } from "../golden/config.js";
import { displayPath } from "../golden/errors.js";
import { describeBasis, type LabelBasis } from "./basis.js";
import { fixed as f2, interval } from "./format.js";
import { HELDOUT_SPLIT, type DrawStatus } from "./pairing.js";
import { zCritical, type Interval } from "./stats/index.js";
import { labelRule, trustRule, type UntrustedReason } from "./trust-rules.js";
import { uninformativeInterval, type ConfusionCells } from "./uninformative.js";

export type { UntrustedReason } from "./trust-rules.js";

/** The config's `trust` as the gate reads it: every field optional (defaults below). */
export type TrustSettings = Partial<TrustThresholds> & { heldout?: string; perRubric?: Record<string, TrustOverride>; attested?: boolean };

/** The gate's thresholds when the config sets none (the README's table states them). */
export const DEFAULT_TRUST_THRESHOLDS: Readonly<TrustThresholds> = { minLabels: 50, minPerClass: 10, kappaLower: 0.6, minCoverage: 0.8 };

/** The thresholds for one rubric: the config's defaults overridden by `trust.perRubric[rubric]`. */
export function thresholdsFor(trust: TrustSettings | undefined, rubric: string): TrustThresholds {
  const d = DEFAULT_TRUST_THRESHOLDS;
  const base: TrustThresholds = { minLabels: trust?.minLabels ?? d.minLabels, minPerClass: trust?.minPerClass ?? d.minPerClass, kappaLower: trust?.kappaLower ?? d.kappaLower, minCoverage: trust?.minCoverage ?? d.minCoverage };
  const over = trust?.perRubric?.[rubric] ?? {};
  return {
    minLabels: over.minLabels ?? base.minLabels,
    minPerClass: over.minPerClass ?? base.minPerClass,
    kappaLower: over.kappaLower ?? base.kappaLower,
    minCoverage: over.minCoverage ?? base.minCoverage,
  };
}

/** The held-out split the gate uses (config `trust.heldout`, default `heldout`). */
export function heldoutSplit(trust: TrustSettings | undefined): string {
  return trust?.heldout ?? HELDOUT_SPLIT;
}

/** The confidence level of the interval whose lower bound the gate checks. */
export const GATE_LEVEL = 0.95;

/**
 * The figures the gate reads. `confusion` tells whether the labels or the
 * verdicts are all one answer (kappa's interval then says nothing); without
 * it that check is skipped. `kappaGofCi` is Donner & Eliasziw's interval
 * (absent from older records).
 */
export type GateFigures = Pick<CalibrationRecord["figures"], "n" | "labelYes" | "labelNo" | "kappa" | "kappaSe" | "kappaCi" | "reasons" | "level"> & { confusion?: ConfusionCells; kappaGofCi?: Interval | null; skipped?: number };

/** Labels left out of the gate, by why (a record's `excluded`, with the newer counts optional). */
export type GateExcluded = Pick<CalibrationRecord["excluded"], "nonRandom" | "notHeldout"> & Partial<Pick<CalibrationRecord["excluded"], "notDrawn" | "drawNotCovering" | "drawIncomplete" | "ties">>;

/** "N <phrase>" with the rule's phrase in the singular for one label. */
function counted(n: number, phrase: string): string {
  return `${n} ${n === 1 ? phrase.replace(/\blabels\b/, "label") : phrase}`;
}

/** Labels left out of the gate, each group with why it does not count (the phrases of LABEL_RULES). */
function notCounted(excluded: GateExcluded, heldout: string, minCoverage: number): string[] {
  const out: string[] = [];
  if (excluded.nonRandom > 0) out.push(`${counted(excluded.nonRandom, labelRule("frame").says)} (selection distorts kappa)`);
  if (excluded.notDrawn) out.push(`${counted(excluded.notDrawn, labelRule("not-drawn").says)} (random means drawn by ragjudge sample, or imported with --attest where the config's trust.attested is on)`);
  if (excluded.drawNotCovering) out.push(`${counted(excluded.drawNotCovering, labelRule("draw-not-covering").says)} (the data changed since, the draw left out a variant or split, or the gate refuses its manifest (each draw's line says why): draw again)`);
  if (excluded.drawIncomplete) out.push(`${counted(excluded.drawIncomplete, labelRule("draw-incomplete").says)} ${Math.round(minCoverage * 100)}% (label the rest of the draw)`);
  if (excluded.notHeldout > 0) out.push(`${counted(excluded.notHeldout, labelRule("split").says)} "${heldout}" (labels with no split count as dev; prompts are tuned on dev)`);
  return out;
}

/**
 * Where the commands are that label a random sample: a hint must work as
 * printed, and a complete sample command needs a count, an annotator and the
 * config, which ragjudge run's Next lines give for this very project.
 */
export const SAMPLE_COMMANDS = "ragjudge run prints the sample, review and calibrate commands for this project under Next";

/** The asymptotic interval kappa ± z·se at the gate's level, clipped to [-1, 1]. */
function asymptotic(f: Pick<GateFigures, "kappa" | "kappaSe" | "kappaCi" | "level">): Interval | null {
  if (f.kappa === null) return null;
  if (f.kappaSe === null) return f.level === GATE_LEVEL ? f.kappaCi : null;
  const half = zCritical(GATE_LEVEL) * f.kappaSe;
  return { lo: Math.max(-1, f.kappa - half), hi: Math.min(1, f.kappa + half) };
}

/**
 * The interval whose lower bound the gate checks: the union of kappa's
 * asymptotic 95% interval (kappa ± z(0.975)·se with the non-null standard
 * error, recomputed so the gate checks the 95% bound whatever level the
 * figures were printed at) and Donner & Eliasziw's 95% goodness-of-fit
 * interval. The asymptotic interval has zero width when no item disagrees
 * (46 agreements of 46 would read [1.00, 1.00]); the goodness-of-fit one
 * does not, so the union stays honest at and near perfect agreement and is
 * the asymptotic one elsewhere (where the two nearly agree). Null when kappa
 * or its standard error is undefined.
 */
export function gateInterval(f: Pick<GateFigures, "kappa" | "kappaSe" | "kappaCi" | "level" | "kappaGofCi">): Interval | null {
  const a = asymptotic(f);
  if (!a) return null;
  const g = f.kappaGofCi;
  return g ? { lo: Math.min(a.lo, g.lo), hi: Math.max(a.hi, g.hi) } : a;
}

/** Options of {@link gateDecision}. */
export interface GateOptions {
  /** The held-out split's name (default `heldout`). */
  heldout?: string;
  /** `minCoverage`, for the not-counted text (default the thresholds'). */
  minCoverage?: number;
  /** Counted labels declared random by an attested import, not drawn by ragjudge. */
  declared?: number;
  /** Counted items whose labels include an author label, and their files (basis.ts authorLabels): never trusted. */
  author?: { items: number; files: readonly string[] };
  /** Draws that cover the judged items but are labelled below `minCoverage` ({@link unfinishedDraws}): never trusted while any is. */
  unfinished?: readonly Pick<DrawStatus, "id" | "annotator" | "drawn" | "labelled">[];
  /** Fingerprints of other judges of the rubric whose draws' labels count here ({@link reusedText}). */
  drawnFor?: readonly string[];
}

/**
 * Whether a draw that covers the verdicts still has drawn items without a
 * label: below `minCoverage` they block trust, above it they count as
 * disagreements; either way labelling them (`ragjudge sample --draw ID`)
 * comes before drawing more.
 */
export function hasUnlabelled(d: Pick<DrawStatus, "covers" | "coverage" | "labelled" | "drawn">): boolean {
  return d.covers && d.coverage !== null && d.labelled < d.drawn;
}

/** The draws of a pairing that cover its verdicts but are not labelled enough to count (the gate refuses trust while one is). */
export function unfinishedDraws(draws: readonly DrawStatus[]): DrawStatus[] {
  return draws.filter((d) => d.covers && !d.counts && d.coverage !== null);
}

/** ", 12 declared random, not drawn by ragjudge" when some counted labels were attested. */
function declaredText(n: number | undefined): string {
  return n ? `; ${n} of them declared random, not drawn by ragjudge` : "";
}

/** "; 4 drawn items with no counting label counted as disagreements (...)" when a counting draw was not labelled whole. */
export function skippedText(n: number | undefined): string {
  if (!n) return "";
  return `; ${n} drawn held-out item${n === 1 ? "" : "s"} with no counting label ${n === 1 ? "is" : "are"} counted as ${n === 1 ? "a disagreement" : "disagreements"} (label ${n === 1 ? "it" : "them"} to count ${n === 1 ? "its label" : "their labels"} instead)`;
}

/**
 * The gate's rule on a set of figures: trusted only with at least
 * `minLabels` counted labels, at least `minPerClass` of each label, a defined
 * kappa whose interval is informative, and the lower bound of
 * {@link gateInterval} at or above `kappaLower`. Kappa counts a counting
 * draw's skipped items as disagreements (`figures.skipped`), the counts of
 * labels do not include them. The first failed condition
 * is the reason (the order of TRUST_RULES). The message names whose labels
 * the figures rest on (`basis`: author and imported labels are never called
 * human), which split is held out (labels with no split are dev), why each
 * group of other labels does not count, and any declared-random labels.
 */
export function gateDecision(
  figures: GateFigures,
  excluded: GateExcluded,
  t: TrustThresholds,
  basis?: LabelBasis,
  options: GateOptions = {},
): { trusted: boolean; reason?: UntrustedReason; message: string } {
  const heldout = options.heldout ?? HELDOUT_SPLIT;
  const ci = gateInterval(figures);
  const labels = basis ? describeBasis(figures.n, basis) : `${figures.n} labels`;
  const nText = `n = ${basis ? labels : figures.n}${declaredText(options.declared)}${skippedText(figures.skipped)}`;
  const flat = figures.confusion && figures.kappa !== null ? uninformativeInterval(figures.confusion) : null;
  const others = notCounted(excluded, heldout, options.minCoverage ?? t.minCoverage);
  const excludedTotal = excluded.nonRandom + excluded.notHeldout + (excluded.notDrawn ?? 0) + (excluded.drawNotCovering ?? 0) + (excluded.drawIncomplete ?? 0);
  if (figures.n === 0 && excludedTotal > 0) {
    const fix = excluded.notHeldout === excludedTotal
      ? `label a random sample of the "${heldout}" split (${SAMPLE_COMMANDS})`
      : `label a random sample drawn by ragjudge (${SAMPLE_COMMANDS})`;
    return { trusted: false, reason: "labels-not-random", message: `${trustRule("labels-not-random").says} (not counted: ${others.join("; ")}); ${fix}` };
  }
  if (options.unfinished?.length) {
    const u = options.unfinished;
    const list = u.slice(0, 3).map((d) => `draw ${d.id} for ${d.annotator}: ${d.labelled} of ${d.drawn} drawn held-out items labelled`).join("; ");
    return {
      trusted: false,
      reason: "incomplete-draw",
      message: `${trustRule("incomplete-draw").says} (${list}${u.length > 3 ? `; ${u.length - 3} more` : ""}; each must be labelled to ${Math.round(100 * (options.minCoverage ?? t.minCoverage))}% before any label counts toward trust, or a draw dropped once it showed disagreements would choose the sample: label the rest; ${SAMPLE_COMMANDS})`,
    };
  }
  if (options.author?.items) {
    const { items: k, files } = options.author;
    const which = k === figures.n ? "" : `${k} of them with author labels; `;
    const where = files.length ? `${files.slice(0, 3).map(displayPath).join(", ")}${files.length > 3 ? `, and ${files.length - 3} more` : ""}` : "the labels folder";
    // the shipped example's own labels are never moved or written (the package stays as installed): say where trust comes from instead
    const fix = files.length && files.every(isShippedLabel)
      ? `they are the shipped example's (${where}) and stay as shipped; a rubric of your own project is trusted on people's labels (start one with ragjudge init my-eval)`
      : `move them out of the labels folder (${where}) and have people label those items, as ragjudge review does`;
    return {
      trusted: false,
      reason: "author-labels",
      message: `${trustRule("author-labels").says} (n = ${labels}; ${which}author labels are example labels, the project's own, and say nothing about a judge: ${fix})`,
    };
  }
  if (figures.n < t.minLabels || figures.labelYes < t.minPerClass || figures.labelNo < t.minPerClass) {
    const have = `${labels}, random and in the held-out split "${heldout}" (no split counts as dev)`;
    const note = flat ? `; ${flat.reason}, so kappa's interval is not informative` : "";
    const other = others.length ? `; not counted: ${others.join("; ")}` : "";
    return {
      trusted: false,
      reason: "too-few-labels",
      message: `${trustRule("too-few-labels").says} (${have}: ${figures.labelYes} yes / ${figures.labelNo} no${declaredText(options.declared)}${skippedText(figures.skipped)}; need ${t.minLabels} with ${t.minPerClass} of each${note}${other})`,
    };
  }
  if (figures.kappa === null || ci === null) {
    return { trusted: false, reason: "kappa-undefined", message: `${trustRule("kappa-undefined").says} (${figures.reasons.kappa ?? figures.reasons.kappaSe ?? figures.reasons.kappaCi ?? "no interval"})` };
  }
  if (flat) {
    return {
      trusted: false,
      reason: "kappa-uninformative",
      message: `${trustRule("kappa-uninformative").says} (${flat.reason}, so kappa is 0 by convention and its 95% CI ${interval(ci)} has zero width by formula, not certainty; ${nText})`,
    };
  }
  if (ci.lo < t.kappaLower) {
    return {
      trusted: false,
      reason: "kappa-too-low",
      message: `${trustRule("kappa-too-low").says} (${f2(figures.kappa)}, 95% CI ${interval(ci, digitsApart(ci.lo, t.kappaLower))}; lower bound must be >= ${f2(t.kappaLower, digitsApart(ci.lo, t.kappaLower))}, ${nText})`,
    };
  }
  return { trusted: true, message: `trusted: kappa ${f2(figures.kappa)}, 95% CI ${interval(ci)}, ${nText}${splitText(heldout)}${reusedText(options.drawnFor)}${loweredText(t)}` };
}

/**
 * Said wherever a trusted verdict is printed when its labels were drawn for
 * another judge of the rubric (an earlier prompt, model or parameters): the
 * items are the same (a draw's seed follows the items, not the judge), so
 * they measure the new judge as well, unless it was tuned on their
 * disagreements, which no gate can see. A judge changed after reading the
 * held-out disagreements needs new held-out questions to be measured.
 */
function reusedText(drawnFor: readonly string[] | undefined): string {
  if (!drawnFor?.length) return "";
  const which = drawnFor.map((f) => f.slice(0, 12)).join(", ");
  return `; labels drawn for another judge of this rubric (fingerprint ${which}): they measure this one only if it was not tuned on their disagreements`;
}

/**
 * `; held-out split "dev" (trust.heldout)` when the config names a split
 * other than the default: a trusted verdict says which questions it rests
 * on wherever it is printed, so a team that holds out the split it tuned
 * prompts on is seen doing it.
 */
function splitText(heldout: string): string {
  return heldout === HELDOUT_SPLIT ? "" : `; held-out split ${JSON.stringify(heldout)} (trust.heldout; default "${HELDOUT_SPLIT}")`;
}

/**
 * "; thresholds below the defaults: minLabels 4 (default 50)" when a config
 * made the gate easier to pass: a trusted verdict carries it wherever it is
 * printed (summary, report.md, junit.xml, calibrate), so lowered thresholds
 * are never read as the README's.
 */
export function loweredText(t: TrustThresholds): string {
  const d = DEFAULT_TRUST_THRESHOLDS;
  const lower = (["minLabels", "minPerClass", "kappaLower", "minCoverage"] as const).filter((k) => t[k] < d[k]);
  return lower.length ? `; thresholds below the defaults: ${lower.map((k) => `${k} ${t[k]} (default ${d[k]})`).join(", ")}` : "";
}

/**
 * Decimals enough to show a lower bound apart from the threshold it missed:
 * 0.396 against 0.40 printed as "[0.40, ...]; must be >= 0.40" reads as a
 * pass. Two, or up to six when two round it onto the threshold; the
 * threshold is printed with as many.
 */
export function digitsApart(lo: number, threshold: number): number {
  let d = 2;
  while (d < 6 && lo.toFixed(d) === threshold.toFixed(d)) d++;
  return d;
}

/** The label-rule phrase, exported for renderers that list exclusions. */
export { labelRule };

/** Whether a labels file is one of the shipped example's, in the package's own labels folder. */
function isShippedLabel(file: string): boolean {
  return resolve(file).startsWith(packageLabelsDir() + sep);
}
