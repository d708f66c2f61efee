import type { TrustThresholds } from "../golden/schema/config.js";
import type { TrustSettings } from "./gate.js";
import { hashJson } from "../golden/hash.js";
import type { Judgment } from "../golden/schema/items.js";
import { authorLabels, labelBasis, type LabelBasis } from "./basis.js";
import { type DrawBook } from "./draws.js";
import { agreementFigures, gateFigureItems, type AgreementFigures } from "./figures.js";
import { gateDecision, gateInterval, heldoutSplit, SAMPLE_COMMANDS, thresholdsFor, unfinishedDraws, type GateExcluded, type GateFigures, type GateOptions } from "./gate.js";
import type { LabelBook } from "./labels.js";
import { pairGroup, type DrawStatus, type GateContext, type GroupPairing } from "./pairing.js";
import { RECORD_SCHEMA, type CalibrationRecord, type LoadedRecord } from "./record.js";
import type { Interval } from "./stats/index.js";
import { trustRule, type UntrustedReason } from "./trust-rules.js";
import { uninformativeInterval, type UninformativeInterval } from "./uninformative.js";
import { groupJudgments, verdictsHash, type JudgeGroup } from "./verdicts.js";
import { earlierWordingNote, type Wordings } from "./wording.js";

/**
 * Trust is computed, not remembered. This module holds the one function
 * that decides whether a rubric's scores are trusted ({@link decideTrust}):
 * every output that prints a trust state (`judge`, `calibrate`, `run` and
 * its reports, JUnit, the library) calls it with today's verdicts and labels.
 * A calibration record is required, but its verdict is never reused: the
 * gate's figures are recomputed from today's pairing, and a record whose
 * verdicts hash, labels hash, draws or served model differ from today's is
 * stale, never trusted.
 */

/** The trust state of one rubric under one judge (fingerprint and served model), shown beside every pass rate. */
export interface TrustState {
  rubric: string;
  fingerprint: string;
  /** The model the server said it served, or null. */
  servedModel: string | null;
  trusted: boolean;
  reason?: UntrustedReason;
  /** One line for people: "trusted: kappa 0.78, 95% CI [0.66, 0.90], n = 80 human labels" or why not. */
  message: string;
  kappa: number | null;
  /** The interval whose lower bound the gate checks (see `gateInterval`). */
  ci: Interval | null;
  /** Set when kappa's interval is not informative (labels or verdicts all one answer): never read [0, 0] as certainty. */
  kappaCiUninformative?: UninformativeInterval;
  /** Labels the gate counted today. */
  n: number;
  /** Whose labels they are (human, author, imported). */
  basis?: LabelBasis;
  thresholds: TrustThresholds;
  /** The held-out split the gate used (labels with no split are dev). */
  heldout: string;
  /** The record used: its file, or "(this run)" for `calibrate`, which builds it now. */
  record?: string;
  /** Records of the same rubric for other fingerprints (another prompt or model): reported, never used. */
  otherFingerprints: { fingerprint: string; file: string; time: string }[];
  /**
   * Set by `run` when today's labels pass the gate but the stored record is
   * missing, stale or for another served model: `ragjudge calibrate` alone
   * would make the rubric trusted.
   */
  labelsPass?: true;
  /** What made the record stale, when it is. */
  stale?: string[];
  /** The recorded draws of this rubric, with their coverage of today's held-out items. */
  draws: DrawStatus[];
  /** The files of the author labels among the counted ones (the gate refuses them; see `authorLabels`). */
  authorFiles: string[];
  /** Counted labels declared random by an attested import (not drawn by ragjudge), and the attestations. */
  declared: number;
  attestations: string[];
  /** Remarks that do not change the state (skips not at random, declared-random labels, incomplete draws). */
  notes: string[];
}

/** What the gate reads besides the verdicts. */
export interface TrustInputs {
  book: LabelBook;
  draws: DrawBook;
  /** Calibration records (`<labels>/calibration/`); ignored when a fresh record is passed. */
  records: readonly LoadedRecord[];
  trust?: TrustSettings;
  /** The golden set's split of each question (null: none), so the draw check and the split rule read the data, not what a label says. */
  splits?: ReadonlyMap<string, string | null>;
  /**
   * Today's wording hash of each rubric (calibration/context.ts `wordingsOf`): labels that answered an earlier
   * wording of their rubric's question do not count. Every command passes it; absent, no label is checked.
   */
  wordings?: Wordings;
}

/** The pairing context of one rubric. */
export function gateContext(inputs: Pick<TrustInputs, "draws" | "trust" | "splits" | "wordings">, rubric: string): GateContext {
  return {
    draws: inputs.draws, heldout: heldoutSplit(inputs.trust), minCoverage: thresholdsFor(inputs.trust, rubric).minCoverage, attested: inputs.trust?.attested === true,
    ...(inputs.splits ? { splits: inputs.splits } : {}), ...(inputs.wordings ? { wordings: inputs.wordings } : {}),
  };
}

/** Every golden question's split, for {@link TrustInputs.splits}. */
export function splitsOf(questions: Iterable<{ id: string; split?: string }>): Map<string, string | null> {
  return new Map([...questions].map((q) => [q.id, q.split ?? null]));
}

const rubricHashes = new WeakMap<LabelBook, Map<string, string>>();

/**
 * The SHA-256 over every label of one rubric (its whole history, in a fixed
 * order): a record is stale when it changes, and only then, so labelling
 * another rubric leaves this one's record valid.
 */
export function labelsHashOf(book: LabelBook, rubric: string): string {
  let m = rubricHashes.get(book);
  if (!m) rubricHashes.set(book, (m = new Map()));
  let h = m.get(rubric);
  if (h === undefined) {
    const lines = book.history.filter((l) => l.value.rubric === rubric).map((l) => JSON.stringify(l.value)).sort();
    h = hashJson(lines);
    m.set(rubric, h);
  }
  return h;
}

/** The draws whose labels counted for a pairing, and the hash over their ids (an id is the hash of a draw's content). */
export function countedDraws(pairing: GroupPairing): { hash: string; ids: string[] } {
  const ids = pairing.draws.filter((d) => d.counts).map((d) => d.id).sort();
  return { hash: hashJson(ids), ids };
}

/** Labels left out of the gate, counted by why (a record's `excluded`). */
export function excludedOf(pairing: GroupPairing): CalibrationRecord["excluded"] {
  const count = (f: (e: string) => boolean) => pairing.other.filter((p) => f(p.excluded)).length;
  return {
    nonRandom: count((e) => e.startsWith("frame")),
    notDrawn: count((e) => e === "not drawn"),
    drawNotCovering: count((e) => e === "draw not covering"),
    drawIncomplete: count((e) => e === "draw incomplete"),
    notHeldout: count((e) => e.startsWith("split")),
    ties: pairing.ties.length,
  };
}

/** The figures the gate reads, from agreement figures computed now. */
export function gateFiguresOf(f: AgreementFigures): GateFigures {
  const k = f.kappa;
  const reasons: Record<string, string> = {};
  if (k.reasons.kappa) reasons.kappa = k.reasons.kappa;
  if (k.reasons.se) reasons.kappaSe = k.reasons.se;
  if (k.reasons.ci) reasons.kappaCi = k.reasons.ci;
  return { n: f.n, skipped: f.skipped, labelYes: f.labelYes, labelNo: f.labelNo, kappa: k.kappa, kappaSe: k.se, kappaCi: k.ci, reasons, level: k.level, confusion: f.confusion, kappaGofCi: f.kappaGof.ci };
}

/**
 * What the gate reads of a pairing besides its figures: the held-out split,
 * declared-random labels, author labels and unfinished draws. One place, so
 * `calibrate` (which writes the record) and every later check decide alike.
 */
export function gateOptionsOf(pairing: GroupPairing): Required<Pick<GateOptions, "heldout" | "declared" | "author" | "unfinished" | "drawnFor">> {
  const drawnFor = [...new Set(pairing.draws.filter((d) => d.counts && d.fingerprint !== pairing.group.fingerprint).map((d) => d.fingerprint))].sort();
  return { heldout: pairing.heldout, declared: pairing.declared, author: authorLabels(pairing.gate), unfinished: unfinishedDraws(pairing.draws), drawnFor };
}

/** The record of this judge: same rubric, fingerprint and served model (the latest when several). */
function findRecord(group: JudgeGroup, records: readonly LoadedRecord[]): { mine?: LoadedRecord; otherServed: LoadedRecord[] } {
  const same = records.filter((r) => r.record.rubric === group.rubric && r.record.fingerprint === group.fingerprint)
    .sort((a, b) => (a.record.time < b.record.time ? 1 : -1));
  const served = group.servedModel ?? null;
  const exact = same.filter((r) => (r.record.schema === RECORD_SCHEMA ? (r.record.servedModels[0] ?? null) === served : true));
  return { mine: exact[0], otherServed: same.filter((r) => !exact.includes(r)) };
}

/** Why a record no longer describes today's verdicts, labels and question ([] when it does). */
function staleness(record: CalibrationRecord, pairing: GroupPairing, book: LabelBook, wordings?: Wordings): string[] {
  if (record.schema !== RECORD_SCHEMA) return ["the record was written by an older ragjudge, before draws were recorded"];
  const out: string[] = [];
  if (record.judgments.sha256 !== verdictsHash(pairing.group)) out.push(`the verdicts changed (${record.judgments.items} then, ${pairing.group.items.length} now, or other verdicts or evidence)`);
  if (record.labels.rubricHash !== labelsHashOf(book, pairing.group.rubric)) out.push("the labels of this rubric changed");
  if (record.draws?.hash !== countedDraws(pairing).hash) out.push("the draws whose labels count changed");
  // a record made before the wording was recorded is not checked, as a label that records none counts
  const today = wordings?.get(pairing.group.rubric);
  if (record.wordingHash !== undefined && today !== undefined && today !== record.wordingHash) {
    out.push(today === null ? "the rubric's file does not read, so its question cannot be checked" : "the wording of the rubric's question changed");
  }
  return out;
}

/** Options of {@link decideTrust}. */
export interface DecideOptions {
  /**
   * The record `calibrate` or `run` builds from this very pairing (it cannot
   * be stale); `null` when they write none because no label pairs. Absent:
   * look the record up in `inputs.records`.
   */
  fresh?: CalibrationRecord | null;
  /** Agreement figures already computed for `pairing.gate` (else computed here, without a bootstrap). */
  figures?: AgreementFigures;
}

/**
 * The one function that decides trust (see the module comment). In order:
 * a record for this exact judge must exist (else `no-calibration`, or
 * `served-model-changed` when one exists for another served model); it must
 * describe today's verdicts, labels and draws (else `stale`); then the
 * gate's rule runs on figures recomputed now from the labels that count.
 *
 * @example
 * const pairing = pairGroup(group, book, gateContext(inputs, group.rubric));
 * decideTrust(pairing, inputs).message // "untrusted: stale: run ragjudge calibrate (the labels of this rubric changed since 2026-11-30T…)"
 */
export function decideTrust(pairing: GroupPairing, inputs: TrustInputs, options: DecideOptions = {}): TrustState {
  const group = pairing.group;
  const thresholds = thresholdsFor(inputs.trust, group.rubric);
  const heldout = pairing.heldout;
  const figures = options.figures ?? agreementFigures(gateFigureItems(pairing));
  const gf = gateFiguresOf(figures);
  const basis = labelBasis(pairing.gate.map((p) => p.labelled));
  const gateOptions = gateOptionsOf(pairing);
  const others = (options.fresh !== undefined ? [] : inputs.records)
    .filter((r) => r.record.rubric === group.rubric && r.record.fingerprint !== group.fingerprint)
    .map((r) => ({ fingerprint: r.record.fingerprint, file: r.file, time: r.record.time }));
  const notes = [...pairing.warnings];
  // Said in the message of an untrusted state (the line every output shows), as a note beside a trusted one.
  const wording = pairing.earlierWording ? earlierWordingNote(group.rubric, pairing.earlierWording, pairing.wordingUnread) : undefined;
  const also = (message: string) => (wording ? `${message}; ${wording}` : message);
  // A part-labelled draw is not a note here: every report lists each draw with its coverage (a note repeated it).
  if (pairing.attestedOff) notes.push(`${pairing.attestedOff} random label${pairing.attestedOff === 1 ? "" : "s"} imported with an attestation (declared random, not drawn by ragjudge) ${pairing.attestedOff === 1 ? "does" : "do"} not count: the config's trust.attested is off; set it to true to count declared random labels`);
  if (pairing.declared) notes.push(`${pairing.declared} counted label${pairing.declared === 1 ? " is" : "s are"} declared random, not drawn by ragjudge (attested: ${pairing.attestations.map((a) => JSON.stringify(a)).join("; ")})`);
  const base = {
    rubric: group.rubric, fingerprint: group.fingerprint, servedModel: group.servedModel, thresholds, heldout, otherFingerprints: others,
    kappa: gf.kappa, ci: gateInterval(gf), n: gf.n, basis, draws: pairing.draws, authorFiles: [...gateOptions.author.files], declared: pairing.declared, attestations: pairing.attestations, notes,
  };
  const flat = gf.kappa === null ? null : uninformativeInterval(figures.confusion);
  const withFlat = flat ? { kappaCiUninformative: flat } : {};
  const untrusted = (reason: UntrustedReason, message: string, extra: Partial<TrustState> = {}): TrustState => ({ ...base, ...withFlat, trusted: false, reason, message: also(message), ...extra });

  let record: CalibrationRecord | undefined;
  let file: string | undefined;
  if (options.fresh !== undefined) {
    if (options.fresh === null) {
      return untrusted("no-calibration", `${trustRule("no-calibration").says}: no label pairs with its verdicts yet (label a random sample of the "${heldout}" split: ${SAMPLE_COMMANDS})`);
    }
    record = options.fresh;
    file = "(this run)";
  } else {
    const { mine, otherServed } = findRecord(group, inputs.records);
    if (!mine) {
      const then = otherServed[0];
      if (then && then.record.servedModels.length && group.servedModel) {
        return untrusted("served-model-changed", `${trustRule("served-model-changed").says} ${then.record.servedModels.join(", ")} to ${group.servedModel} (the calibration of ${then.record.time} measured ${then.record.servedModels.join(", ")}): run ragjudge calibrate`, { record: then.file });
      }
      const also = others.length ? `; ${others.length} record(s) exist for other fingerprints of ${group.rubric} (prompt or model changed), not used` : "";
      return untrusted("no-calibration", `${trustRule("no-calibration").says}${also}: run ragjudge calibrate`);
    }
    record = mine.record;
    file = mine.file;
    const stale = staleness(record, pairing, inputs.book, inputs.wordings);
    if (stale.length) {
      return untrusted("stale", `${trustRule("stale").says} (${stale.join("; ")} since the calibration of ${record.time})`, { record: file, stale });
    }
  }
  const decision = gateDecision(gf, excludedOf(pairing) satisfies GateExcluded, thresholds, basis, gateOptions);
  if (decision.trusted && wording) notes.push(wording);
  return { ...base, ...withFlat, trusted: decision.trusted, ...(decision.reason ? { reason: decision.reason } : {}), message: decision.trusted ? decision.message : also(decision.message), record: file };
}

/**
 * Trust states for every (rubric, fingerprint, served model) among
 * judgments, sorted: what `ragjudge judge` and the library show beside each
 * pass rate. Rule verdicts are left out (never calibrated).
 *
 * @example
 * for (const s of trustStates(judgments, { book, draws, records, trust: config.trust })) console.log(s.rubric, s.message);
 */
export function trustStates(judgments: readonly Judgment[], inputs: TrustInputs): TrustState[] {
  return groupJudgments(judgments).groups.map((g) => decideTrust(pairGroup(g, inputs.book, gateContext(inputs, g.rubric)), inputs));
}
