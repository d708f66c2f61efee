import type { Frame } from "../golden/schema/items.js";
import { evidenceKey, itemKey } from "./keys.js";
import type { LabelBook, LabelledItem } from "./labels.js";
import type { JudgeGroup, JudgedItem } from "./verdicts.js";

/** The split whose labels the gate uses when labels carry splits. */
export const HELDOUT_SPLIT = "heldout";

/** A judged item with the label that counts for it. */
export interface PairedItem {
  judged: JudgedItem;
  labelled: LabelledItem;
  label: "yes" | "no";
  /** Inverse inclusion probability for gate items of a stratified random frame; 1 otherwise. */
  weight: number;
}

/** Why a paired item is not in the gate: its frames, or its split. */
export type ExclusionReason = `frame ${Frame}` | `frames ${string}` | `split ${string}`;

/** The labels of one rubric and fingerprint, sorted into what counts and what does not. */
export interface GroupPairing {
  group: JudgeGroup;
  /** Items with a verdict and a resolved label from a uniform random frame (and the held-out split when splits exist). */
  gate: PairedItem[];
  /** Other paired items, for the error-analysis table, with why they are not in the gate. */
  other: (PairedItem & { excluded: ExclusionReason })[];
  /** Items labelled by annotators who tie, with no adjudication label. */
  ties: LabelledItem[];
  /** True when the gate uses only the held-out split. */
  heldoutOnly: boolean;
  /** True when gate items are weighted by inverse inclusion probability. */
  weighted: boolean;
  warnings: string[];
}

/** Labels that pair with no verdict, for the warnings line. */
export interface UnpairedLabels {
  /** Label items whose item is judged but never on this evidence: stale, reported, never paired. */
  stale: LabelledItem[];
  /** Label items whose item no judgment covers (another variant, question or unit). */
  unknownItem: LabelledItem[];
  /** Label items for a rubric no judgment covers. */
  unknownRubric: LabelledItem[];
}

/**
 * Joins one judge group with the labels on item AND input hash, and sorts
 * the pairs:
 *
 * - the gate takes items whose reference label is resolved and that a
 *   uniform `random` frame put in front of a labeller; disagreement,
 *   balanced and manual labels go to `other` (they distort kappa, TPR/TNR
 *   and every correction);
 * - when any gate label carries a split, only `heldout` items stay in the
 *   gate (prompts are tuned on the rest);
 * - stratified random frames (labels carrying a `stratum`): when every gate
 *   label has an inclusion probability, each item is weighted by its
 *   inverse; when only some have one, items stay unweighted with a warning.
 *   Unstratified random labels are never weighted: rounds of `sample --random`
 *   with different sizes draw uniformly from what is still unlabelled, so
 *   together they are one uniform sample whatever each round's probability.
 *
 * @example
 * const pairing = pairGroup(group, loadLabels("labels"));
 * pairing.gate.length // gate-eligible labels
 */
export function pairGroup(group: JudgeGroup, book: LabelBook): GroupPairing {
  const candidates: PairedItem[] = [];
  const other: GroupPairing["other"] = [];
  const ties: LabelledItem[] = [];
  for (const judged of group.items) {
    const labelled = book.items.get(evidenceKey(judged.key, judged.inputHash));
    if (!labelled) continue;
    if (labelled.label === null) {
      ties.push(labelled);
      continue;
    }
    const pair: PairedItem = { judged, labelled, label: labelled.label, weight: 1 };
    if (labelled.random) candidates.push(pair);
    else other.push({ ...pair, excluded: labelled.frames.length === 1 ? `frame ${labelled.frames[0]!}` : `frames ${labelled.frames.join("+")}` });
  }
  const warnings: string[] = [];
  const heldoutOnly = candidates.some((p) => p.labelled.random!.value.split !== undefined);
  let gate = candidates;
  if (heldoutOnly) {
    gate = [];
    for (const p of candidates) {
      const split = p.labelled.random!.value.split;
      if (split === HELDOUT_SPLIT) gate.push(p);
      else other.push({ ...p, excluded: `split ${split ?? "(none)"}` });
    }
  }
  const stratified = gate.some((p) => p.labelled.random!.value.stratum !== undefined);
  const withP = gate.filter((p) => p.labelled.random!.value.inclusionProbability !== undefined).length;
  const weighted = stratified && withP > 0 && withP === gate.length && new Set(gate.map((p) => p.labelled.random!.value.inclusionProbability)).size > 1;
  if (weighted) {
    for (const p of gate) p.weight = 1 / p.labelled.random!.value.inclusionProbability!;
  } else if (stratified && withP > 0 && withP < gate.length) {
    warnings.push(`${gate.length - withP} of ${gate.length} random-frame labels have no inclusion probability: the gate treats all as one uniform sample (unweighted)`);
  }
  return { group, gate, other, ties, heldoutOnly, weighted, warnings };
}

/**
 * Finds the labels that pair with no verdict: stale ones (the item was
 * judged, but on other evidence: its answer or context changed since the
 * label), labels for items no judgment covers, and labels for rubrics no
 * judgment covers. Rule verdicts count as coverage for none of these: their
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
  const out: UnpairedLabels = { stale: [], unknownItem: [], unknownRubric: [] };
  for (const [ek, item] of book.items) {
    if (judgedEvidence.has(ek)) continue;
    if (!rubrics.has(item.key.rubric)) out.unknownRubric.push(item);
    else if (judgedItems.has(itemKey(item.key))) out.stale.push(item);
    else out.unknownItem.push(item);
  }
  return out;
}
