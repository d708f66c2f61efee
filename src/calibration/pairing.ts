import type { Frame } from "../golden/schema/items.js";
import { drawItemOf, NO_DRAWS, type DrawBook, type LoadedDraw } from "./draws.js";
import { drawStatus, missingDraws, neverGate, type DrawStatus } from "./draw-status.js";
import { inclusionOver } from "./inclusion.js";
import { evidenceKey, itemKey } from "./keys.js";
import { gateLabels, type LabelBook, type LabelledItem, type LocatedLabel } from "./labels.js";
import type { JudgeGroup, JudgedItem } from "./verdicts.js";
import { currentWording, labelledEarlier, type Wordings } from "./wording.js";
export { NEVER_GATE_FRAMES } from "./draw-status.js";
export type { DrawStatus, SkipTest } from "./draw-status.js";

/** The default name of the split whose labels the gate uses (config `trust.heldout`). */
export const HELDOUT_SPLIT = "heldout";

/**
 * What the gate needs besides verdicts and labels: the recorded draws, the
 * held-out split's name, the golden set's split of each question, and the
 * share of a draw that must be labelled before its labels count.
 */
export interface GateContext {
  draws: DrawBook;
  /** The held-out split (config `trust.heldout`); labels with no split are dev. */
  heldout: string;
  /** Each golden question's split (null: it has none). Questions not in it fall back to what the draw or the label recorded. */
  splits?: ReadonlyMap<string, string | null>;
  /** `trust.minCoverage` of this rubric (default 0.8). */
  minCoverage: number;
  /** `trust.attested`: labels imported with an attestation count as random (declared, not drawn); default false. */
  attested?: boolean;
  /**
   * Today's wording hash of each rubric (wording.ts): a label that recorded
   * another wording of its rubric's question is left out, as if never made.
   * Absent: labels are not checked against their rubric's wording.
   */
  wordings?: Wordings;
}

/** No draws, default split and coverage, attestations not counted: every random label is "not drawn". */
export const DEFAULT_GATE: GateContext = { draws: NO_DRAWS, heldout: HELDOUT_SPLIT, minCoverage: 0.8 };

/** A judged item with the label that counts for it. */
export interface PairedItem {
  judged: JudgedItem;
  labelled: LabelledItem;
  label: "yes" | "no";
  /** Inverse inclusion probability when gate items are weighted; 1 otherwise. */
  weight: number;
  /** The item's split as the gate read it (golden set, else the draw, else the label); undefined: none (dev). */
  split?: string;
  /**
   * Every annotator's label on the item, when `labelled` is the gate's view of it (labels.ts `gateLabels`:
   * its first answer): for the agreement between people and each annotator's figures.
   */
  people?: LabelledItem;
}

/** How a gate item counts as random: drawn by ragjudge (in a recorded draw), or declared random by an attested import. */
export type RandomSource = "drawn" | "declared";

/** A gate item: a random held-out item with its label. */
export interface GateItem extends PairedItem {
  source: RandomSource;
  /** The draws (ids) that drew it, for drawn items. */
  draws: string[];
  /** Its inclusion probability over the draws that count (1 - Π(1 - p)), or the attested label's, when known. */
  inclusionProbability?: number;
  stratum?: string;
}

/**
 * Why a paired item is not in the gate:
 * - `frame …`: put in front of the labeller by a non-random frame (disagreement, balanced, manual);
 * - `not drawn`: a random-frame label on an item no recorded draw drew, and not attested (or attested while `trust.attested` is off);
 * - `draw not covering`: drawn only by draws whose frame lacks items the judge judged (the data changed, or the draw left out a variant or split);
 * - `draw incomplete`: drawn only by draws labelled below `trust.minCoverage`;
 * - `split …`: random, but outside the held-out split (`split (none)`: no split, which counts as dev).
 */
export type ExclusionReason = `frame ${Frame}` | `frames ${string}` | "not drawn" | "draw not covering" | "draw incomplete" | `split ${string}`;


/**
 * A drawn held-out item of a counting draw whose label does not count (none,
 * tied, or from a frame the gate never counts): the gate counts it as a
 * disagreement, with the label imputed opposite to the judge's verdict (an
 * error verdict is a disagreement whatever the label). Skipping is the
 * labeller's choice, so the items skipped could be exactly the ones where
 * the judge was wrong: counting them against the judge means skipping can
 * never raise the gate's kappa, only lower it (label them to count their
 * real labels).
 */
export interface UnlabelledDrawnItem {
  judged: JudgedItem;
  /** The imputed label: the opposite of the verdict ("no" for an error verdict). */
  label: "yes" | "no";
  weight: number;
  imputed: true;
  draws: string[];
  inclusionProbability: number;
  stratum?: string;
}


/** The labels of one rubric and fingerprint, sorted into what counts and what does not. */
export interface GroupPairing {
  group: JudgeGroup;
  /** Random held-out items with a resolved label: drawn by a counting draw, or declared random by an attested import. */
  gate: GateItem[];
  /** Other paired items, for the error-analysis table, with why they are not in the gate. */
  other: (PairedItem & { excluded: ExclusionReason })[];
  /** Items labelled by annotators who tie, with no adjudication label. */
  ties: LabelledItem[];
  /** The held-out split the gate used. */
  heldout: string;
  /** Always true: the gate uses the held-out split only (kept for records and reports). */
  heldoutOnly: boolean;
  /** True when gate items are weighted by inverse inclusion probability (their probabilities differ). */
  weighted: boolean;
  /** The recorded draws of this rubric and how each stands. */
  draws: DrawStatus[];
  /** Drawn held-out items of counting draws with no counting label: counted as disagreements ({@link UnlabelledDrawnItem}). */
  skipped: UnlabelledDrawnItem[];
  /** Gate items declared random (attested imports), not drawn by ragjudge. */
  declared: number;
  /** The attestations of the declared items, deduplicated. */
  attestations: string[];
  /** Attested labels left out (as `not drawn`) because `trust.attested` is off. */
  attestedOff: number;
  /** Judged items labelled only under an earlier wording of the rubric's question (wording.ts): their labels do not count. */
  earlierWording: number;
  /** True when the rubric's file does not read (or two files give its name), so no wording a label records can be checked (such labels do not count). */
  wordingUnread: boolean;
  warnings: string[];
}

/** Labels that pair with no verdict, for the warnings line. */
export interface UnpairedLabels {
  /** Label items whose item is judged but never on this evidence, and has no label on the evidence judged now: stale, reported, never paired. */
  stale: LabelledItem[];
  /** Label items on earlier evidence of an item labelled again on the evidence judged now: history (labels are append-only), never paired, nothing to do. */
  relabelled: LabelledItem[];
  /** Label items whose item no judgment covers (another variant, question or unit). */
  unknownItem: LabelledItem[];
  /** Label items for a rubric no judgment covers. */
  unknownRubric: LabelledItem[];
}

/** The split of a judged item: the golden set's when it knows the question, else what a draw or a label recorded. */
function splitOf(ctx: GateContext, judged: JudgedItem, draws: readonly LoadedDraw[], label?: LocatedLabel): string | undefined {
  const q = judged.key.question;
  if (ctx.splits?.has(q)) return ctx.splits.get(q) ?? undefined;
  for (const d of draws) {
    const at = drawItemOf(d, judged.key, judged.inputHash);
    if (at) return at.item.split;
  }
  return label?.value.split;
}

/** Whether a judged item is held-out for the draw check: its known split is the held-out one, or its split is unknown (refuse rather than guess). */
function heldoutForCheck(ctx: GateContext, judged: JudgedItem, draws: readonly LoadedDraw[]): boolean {
  const q = judged.key.question;
  if (ctx.splits?.has(q)) return ctx.splits.get(q) === ctx.heldout;
  for (const d of draws) {
    const at = drawItemOf(d, judged.key, judged.inputHash);
    if (at) return at.item.split === ctx.heldout;
  }
  return true;
}

/**
 * Joins one judge group with the labels on item AND input hash, and sorts
 * the pairs. "Random" means drawn by ragjudge: an item is in the gate when
 *
 * 1. a recorded draw of this rubric drew it, that draw's frame holds every
 *    held-out item this judge judged (so its labels are a random sample of
 *    them, not of some earlier data), and at least `minCoverage` of the
 *    draw's drawn held-out items are labelled (so skipping cannot choose the
 *    sample), and some label may decide it (labels.ts `gateLabels`: from
 *    whatever frame put it in front of its annotator, except second opinions
 *    and adjudications, which go only where people or judges parted); or its
 *    random-frame label is attested (`labels import --attest`): declared
 *    random, not drawn by ragjudge. Such an item is decided by those labels
 *    alone, an annotator who changed their answer taken at the one against
 *    the judge;
 * 2. its split is the held-out split (the golden set's, else the draw's or
 *    the label's; no split is dev).
 *
 * Everything else goes to `other` with why. Weights: drawn items carry their
 * inclusion probability over the counting draws (inclusion.ts: the largest
 * p over nested ones, the union's over draws sharing one order, 1 - Π(1 -
 * p) over independent ones); when those
 * differ among gate items (a stratified design), each is weighted by its
 * inverse; uniform draws give one probability to all, so no weighting.
 *
 * @example
 * const pairing = pairGroup(group, loadLabels("labels"), { ...DEFAULT_GATE, draws: loadDraws("labels") });
 * pairing.gate.length // labels the gate counts
 */
export function pairGroup(group: JudgeGroup, labels: LabelBook, ctx: GateContext = DEFAULT_GATE): GroupPairing {
  // Labels of an earlier wording of the rubric's question are left out before anything is read of them (wording.ts).
  const wording = ctx.wordings ? currentWording(labels, ctx.wordings) : undefined;
  const book = wording?.book ?? labels;
  const mine = ctx.draws.draws.filter((d) => d.draw.rubric === group.rubric);
  const heldoutItems = group.items.filter((it) => heldoutForCheck(ctx, it, mine));
  // Every label, of any wording, names the draws that were there: a draw labelled, reworded away and its manifest deleted still voids.
  const lost = missingDraws(group.rubric, labels, ctx.draws);
  const statuses = mine.map((d) => drawStatus(d, group, heldoutItems, book, ctx.minCoverage, ctx, lost));
  const byId = new Map(mine.map((d, i) => [d.draw.id, { d, s: statuses[i]! }]));
  const countingDraws = mine.filter((_, i) => statuses[i]!.counts);
  const gate: GateItem[] = [];
  const other: GroupPairing["other"] = [];
  const ties: LabelledItem[] = [];
  const attestations = new Set<string>();
  let attestedOff = 0;
  // An item's inclusion probability over every counting draw of the rubric (any of them could have drawn it): see
  // inclusion.ts (nested draws, draws sharing one order, independent ones).
  const union = inclusionOver(countingDraws);
  const inclusion = (judged: JudgedItem): number => union(evidenceKey(judged.key, judged.inputHash));
  for (const judged of group.items) {
    const found = book.items.get(evidenceKey(judged.key, judged.inputHash));
    if (!found) continue;
    const drawnBy = mine.map((d) => ({ d, at: drawItemOf(d, judged.key, judged.inputHash) })).filter((x) => x.at?.drawn);
    const counting = drawnBy.filter((x) => byId.get(x.d.draw.id)!.s.counts);
    // A random item (drawn, or declared by an attested import) is decided for the gate by its answers (labels.ts
    // gateLabels): an answer against the judge wins, whoever gave it; no second opinion or adjudication.
    const attested = found.answers.some((l) => l.value.attestation !== undefined);
    const declared = !drawnBy.length && attested && ctx.attested === true;
    const view = counting.length || declared ? gateLabels(found, judged.verdict) : undefined;
    const labelled = view ?? found;
    if (labelled.label === null) {
      ties.push(labelled);
      continue;
    }
    const split = splitOf(ctx, judged, mine, labelled.random ?? labelled.byAnnotator[0] ?? labelled.adjudication);
    const pair: PairedItem = { judged, labelled, label: labelled.label, weight: 1, ...(split !== undefined ? { split } : {}) };
    const frames: ExclusionReason = found.frames.length === 1 ? `frame ${found.frames[0]!}` : `frames ${found.frames.join("+")}`;
    let excluded: ExclusionReason | undefined;
    let item: GateItem | undefined;
    let attestation: string | undefined;
    if (neverGate(found)) excluded = `frame ${found.frames[0]!}` as ExclusionReason;
    else if (counting.length && view) {
      const p = inclusion(judged);
      const stratum = counting.length === 1 ? counting[0]!.at!.item.stratum : undefined;
      item = { ...pair, people: found, source: "drawn", draws: counting.map((x) => x.d.draw.id), inclusionProbability: p, ...(stratum !== undefined ? { stratum } : {}) };
    } else if (counting.length) excluded = frames; // only second opinions or adjudications: unlabelled for the draw
    else if (drawnBy.some((x) => byId.get(x.d.draw.id)!.s.covers)) excluded = "draw incomplete";
    else if (drawnBy.length) excluded = "draw not covering";
    else if (declared && view) {
      // the attested label's inclusion probability and stratum (the latest random-frame label of those who attested)
      const r = (labelled.random?.value.attestation !== undefined ? labelled.random : found.answers.filter((l) => l.value.attestation !== undefined).at(-1)!).value;
      attestation = r.attestation;
      item = { ...pair, people: found, source: "declared", draws: [], ...(r.stratum !== undefined && r.inclusionProbability !== undefined ? { inclusionProbability: r.inclusionProbability, stratum: r.stratum } : {}) };
    } else if (found.random) {
      excluded = "not drawn";
      // only held-out ones: the note says setting trust.attested would count them
      if (found.random.value.attestation !== undefined && split === ctx.heldout) attestedOff++;
    }
    else excluded = frames;
    if (excluded) {
      other.push({ ...pair, excluded });
      continue;
    }
    if (split !== ctx.heldout) {
      other.push({ ...pair, excluded: `split ${split ?? "(none)"}` });
      continue;
    }
    if (attestation !== undefined) attestations.add(attestation);
    gate.push(item!);
  }
  const skipped = skippedItems(gate, heldoutItems, countingDraws, inclusion);
  const warnings: string[] = [];
  const withP = gate.filter((p) => p.inclusionProbability !== undefined);
  const distinct = new Set([...withP, ...skipped].map((p) => p.inclusionProbability)).size;
  const weighted = withP.length === gate.length && distinct > 1;
  if (weighted) {
    for (const p of [...gate, ...skipped]) p.weight = 1 / p.inclusionProbability!;
  } else if (withP.length > 0 && withP.length < gate.length && distinct > 1) {
    warnings.push(`${gate.length - withP.length} of ${gate.length} gate labels have no known inclusion probability: the gate treats all as one uniform sample (unweighted)`);
  }
  for (const s of statuses) {
    if (s.skipTest?.leaning) {
      const t = s.skipTest;
      const share = (c: { yes: number; no: number }) => `${Math.round((100 * c[t.leansTo]) / (c.yes + c.no))}%`;
      warnings.push(`draw ${s.id}: skips are not at random: the judge said ${t.leansTo} to ${share(t.unlabelled)} of the ${t.unlabelled.yes + t.unlabelled.no} unlabelled drawn items but to ${share(t.labelled)} of the ${t.labelled.yes + t.labelled.no} labelled ones (Fisher's exact test p = ${t.p < 0.001 ? t.p.toExponential(1) : t.p.toFixed(3)}); label the rest of the draw`);
    }
  }
  return {
    group, gate, other, ties, heldout: ctx.heldout, heldoutOnly: true, weighted, draws: statuses, skipped,
    declared: gate.filter((g) => g.source === "declared").length, attestations: [...attestations].sort(), attestedOff,
    earlierWording: wording ? labelledEarlier(wording, group.items.map((it) => evidenceKey(it.key, it.inputHash))) : 0,
    wordingUnread: ctx.wordings?.get(group.rubric) === null, warnings,
  };
}

/**
 * The drawn held-out items of the counting draws that are not gate items
 * (see {@link UnlabelledDrawnItem}): the labels a labeller skipped, tied, or gave
 * from a frame the gate never counts. A draw counts from `minCoverage` of
 * its items labelled, so without this the rest, up to a fifth by default,
 * could be left unlabelled exactly where the judge disagrees.
 */
function skippedItems(gate: readonly GateItem[], heldoutItems: readonly JudgedItem[], counting: readonly LoadedDraw[], inclusion: (j: JudgedItem) => number): UnlabelledDrawnItem[] {
  if (!counting.length) return [];
  const inGate = new Set(gate.map((g) => evidenceKey(g.judged.key, g.judged.inputHash)));
  const out: UnlabelledDrawnItem[] = [];
  for (const judged of heldoutItems) {
    if (inGate.has(evidenceKey(judged.key, judged.inputHash))) continue;
    const drawnBy = counting.map((d) => ({ d, at: drawItemOf(d, judged.key, judged.inputHash) })).filter((x) => x.at?.drawn);
    if (!drawnBy.length) continue;
    const stratum = drawnBy.length === 1 ? drawnBy[0]!.at!.item.stratum : undefined;
    out.push({
      judged, label: judged.verdict === "no" ? "yes" : "no", weight: 1, imputed: true, draws: drawnBy.map((x) => x.d.draw.id), inclusionProbability: inclusion(judged),
      ...(stratum !== undefined ? { stratum } : {}),
    });
  }
  return out;
}

/**
 * Finds the labels that pair with no verdict: stale ones (the item was
 * judged, but on other evidence: its answer or context changed since the
 * label, and no label is on the evidence judged now), earlier labels of an
 * item labelled again on its current evidence, labels for items no judgment
 * covers, and labels for rubrics no judgment covers. Rule verdicts count as coverage for none of these: their
 * items are never calibrated, and their labels are reported as unknown items.
 */
export function unpairedLabels(groups: readonly JudgeGroup[], book: LabelBook): UnpairedLabels {
  const judgedEvidence = new Set<string>();
  const judgedItems = new Set<string>();
  const rubrics = new Set<string>();
  for (const g of groups) {
    rubrics.add(g.rubric);
    for (const it of g.items) {
      judgedEvidence.add(evidenceKey(it.key, it.inputHash));
      judgedItems.add(itemKey(it.key));
    }
  }
  // items with a label on evidence judged now: their labels on other evidence are history
  const labelledNow = new Set<string>();
  for (const [ek, item] of book.items) if (judgedEvidence.has(ek)) labelledNow.add(itemKey(item.key));
  const out: UnpairedLabels = { stale: [], relabelled: [], unknownItem: [], unknownRubric: [] };
  for (const [ek, item] of book.items) {
    if (judgedEvidence.has(ek)) continue;
    if (!rubrics.has(item.key.rubric)) out.unknownRubric.push(item);
    else if (labelledNow.has(itemKey(item.key))) out.relabelled.push(item);
    else if (judgedItems.has(itemKey(item.key))) out.stale.push(item);
    else out.unknownItem.push(item);
  }
  return out;
}
