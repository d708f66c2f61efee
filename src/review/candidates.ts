import { readCitations } from "../golden/citations.js";
import { contextOf, type GoldenSet, type VariantData } from "../golden/dataset.js";
import type { Judgment } from "../golden/schema/items.js";
import { majorityVerdict } from "../calibration/verdicts.js";
import type { Item } from "../judge/items/items.js";
import { evidenceKey } from "../calibration/keys.js";
import { servedKeys } from "../judge/summary/served.js";
import { newestJudges } from "../calibration/verdicts.js";
import type { Candidate } from "./sample.js";

/** Why judged items of a rubric were left out of sampling, with counts. */
export interface RubricRunNotes {
  rubric: string;
  /** The fingerprint whose verdicts were used (the latest one when the file holds several). */
  fingerprint?: string;
  /** Other fingerprints found and ignored. */
  otherFingerprints: string[];
  /**
   * With {@link CandidateOptions.servedModel}: the served model whose
   * verdicts were used ("" when the server named none), and the items only
   * other served models judged under the same fingerprint (left out).
   */
  servedModel?: string;
  otherServedModels?: { model: string; items: number }[];
  /** Items judged by the judge (not a rule), errors included: the random frame's population. */
  judged: number;
  /**
   * Of those, items whose every repeat failed (verdict `error`). They stay in
   * the random frame, because calibration counts a judge error as a
   * disagreement (re-judging keeps the input hash, so their labels pair with
   * the new verdict); balanced and disagreement frames skip them.
   */
  errors: number;
  /** Rule verdicts (no model call): never sampled for calibration. */
  rules: number;
  /** Judgments whose item or input hash matches no current item (the data changed since the judge ran). */
  stale: number;
  /** Items of the data that have no judgment under the chosen fingerprint. */
  unjudged: number;
}

/** How {@link candidatesFromRun} picks verdicts beyond the latest fingerprint. */
export interface CandidateOptions {
  /**
   * One served model per rubric: `"latest"` (the one with the most recent
   * verdict) or a name. The trust gate calibrates each served model apart
   * (judge/summary/served.ts), so a draw over the verdicts of two (an alias
   * that moved during the run) would be a frame no judge of the gate
   * judged, refused every time and drawn the same way again. Default: the
   * verdicts of every served model, pooled per item (queues that carry no
   * draw's frame).
   */
  servedModel?: string;
}

/**
 * Keeps the latest line per (item, input hash, fingerprint, repeat), and per
 * served model when `served` is given (the gate keeps a repeat re-judged
 * under another served model in each model's group): a judgments file may
 * have been appended to.
 */
function latestPerRepeat(judgments: readonly Judgment[], served?: (j: Judgment) => string): Judgment[] {
  const m = new Map<string, Judgment>();
  for (const j of judgments) {
    const k = `${evidenceKey(j, j.inputHash)}\u0000${j.fingerprint}\u0000${j.repeat}${served ? `\u0000${served(j)}` : ""}`;
    const prev = m.get(k);
    if (!prev || Date.parse(j.time) >= Date.parse(prev.time)) m.set(k, j);
  }
  return [...m.values()];
}

/**
 * Joins the run's judgments to the current items (on key *and* input hash)
 * and turns each judged item into a sampling candidate carrying its
 * evidence and what the page shows (cited chunk ids, anchor, kind, tags,
 * split). Each item's verdict over its repeats follows calibration's rule
 * ({@link majorityVerdict}): an item whose every repeat failed is a
 * candidate with verdict `error` (calibration counts it as a disagreement,
 * so leaving it out of the random frame would hide the judge's failures from
 * the gate). Left out, and counted per rubric: rule verdicts (never
 * calibrated), judgments that match no current item (stale), and verdicts of
 * older fingerprints (when the file mixes prompts, the latest fingerprint is
 * used: verdicts of different fingerprints never mix).
 */
export function candidatesFromRun(
  items: readonly Item[],
  judgments: readonly Judgment[],
  golden: GoldenSet,
  variants: readonly VariantData[],
  options: CandidateOptions = {},
): { candidates: Candidate[]; notes: RubricRunNotes[] } {
  const itemsById = new Map(items.map((i) => [evidenceKey(i.key, i.inputHash), i]));
  const variantByName = new Map(variants.map((v) => [v.name, v]));
  const notes = new Map<string, RubricRunNotes>();
  const note = (rubric: string) => {
    let n = notes.get(rubric);
    if (!n) notes.set(rubric, (n = { rubric, otherFingerprints: [], judged: 0, errors: 0, rules: 0, stale: 0, unjudged: 0 }));
    return n;
  };
  for (const i of items) if (!i.rule) note(i.key.rubric);

  // Fingerprint per rubric: the one with the most recent verdict.
  const latestTime = new Map<string, Map<string, number>>();
  const model: Judgment[] = [];
  // Each verdict's served model as the gate assigns it (calibration/verdicts.ts: over every verdict not decided by rule).
  const served = options.servedModel === undefined ? undefined : servedKeys(judgments.filter((j) => j.judge !== "rule"));
  for (const j of latestPerRepeat(judgments, served)) {
    if (j.derived) continue; // derived from its claims, which are the items sampled
    if (j.judge === "rule") {
      note(j.rubric).rules++;
      continue;
    }
    model.push(j);
    const byFp = latestTime.get(j.rubric) ?? new Map<string, number>();
    byFp.set(j.fingerprint, Math.max(byFp.get(j.fingerprint) ?? -Infinity, Date.parse(j.time)));
    latestTime.set(j.rubric, byFp);
  }
  for (const [rubric, byFp] of latestTime) {
    const sorted = [...byFp.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const n = note(rubric);
    n.fingerprint = sorted[0]![0];
    n.otherFingerprints = sorted.slice(1).map(([fp]) => fp);
  }

  const current = model.filter((j) => j.fingerprint === notes.get(j.rubric)!.fingerprint);
  let newest: ReadonlyMap<string, { servedModel: string }> | undefined;
  const others = served === undefined ? undefined : pickServed(current, served, notes, options.servedModel!, () => (newest ??= newestJudges(judgments)));
  const repeats = new Map<string, Judgment[]>();
  const stale = new Set<string>();
  for (const j of current) {
    if (others?.has(j)) continue;
    const id = evidenceKey(j, j.inputHash);
    if (!itemsById.has(id)) {
      if (!stale.has(id)) note(j.rubric).stale++;
      stale.add(id);
      continue;
    }
    const list = repeats.get(id) ?? [];
    list.push(j);
    repeats.set(id, list);
  }

  const candidates: Candidate[] = [];
  for (const item of items) {
    if (item.rule) continue;
    const id = evidenceKey(item.key, item.inputHash);
    const n = note(item.key.rubric);
    const js = repeats.get(id);
    if (!js || js.length === 0) {
      const by = others?.servedBy(id);
      if (by === undefined) n.unjudged++;
      else countOther(n, by);
      continue;
    }
    const verdict = majorityVerdict(js.map((j) => j.verdict));
    if (verdict === "error") n.errors++;
    n.judged++;
    const q = golden.byId.get(item.key.question);
    const v = variantByName.get(item.key.variant);
    candidates.push({
      key: item.key,
      inputHash: item.inputHash,
      evidence: item.evidence,
      verdict,
      ...(q?.split !== undefined ? { split: q.split } : {}),
      ...(q?.kind !== undefined ? { kind: q.kind } : {}),
      tags: q?.tags ?? [],
      citedIds: v ? citedIdsOf(v, item.key.question) : [],
      ...(q?.anchor ? { anchor: q.anchor } : {}),
    });
  }
  return { candidates, notes: [...notes.values()].sort((a, b) => (a.rubric < b.rubric ? -1 : 1)) };
}

/**
 * Chooses each rubric's served model among its current fingerprint's
 * verdicts (recorded in its note) and returns the verdicts of the others,
 * with the served model of the items they alone judged. Each verdict's
 * served model is the gate's (`served`, {@link servedKeys}: a failed call
 * joins the most frequent one). `latest` takes the newest judge's
 * ({@link newestJudges}, as `plan --budget` does: the served model of the
 * most recent verdict whose reply named one); a name the rubric's verdicts
 * do not have leaves every item to the others (the caller words that).
 */
function pickServed(current: readonly Judgment[], served: (j: Judgment) => string, notes: ReadonlyMap<string, RubricRunNotes>, wanted: string, newest: () => ReadonlyMap<string, { servedModel: string }>): { has: (j: Judgment) => boolean; servedBy: (id: string) => string | undefined } {
  for (const rubric of new Set(current.map((j) => j.rubric))) {
    notes.get(rubric)!.servedModel = wanted === "latest" ? newest().get(rubric)!.servedModel : wanted;
    notes.get(rubric)!.otherServedModels = [];
  }
  const left = new Set<Judgment>();
  const servedBy = new Map<string, string>();
  for (const j of current) {
    const m = served(j);
    if (m === notes.get(j.rubric)!.servedModel) continue;
    left.add(j);
    servedBy.set(evidenceKey(j, j.inputHash), m);
  }
  return { has: (j) => left.has(j), servedBy: (id) => servedBy.get(id) };
}

/** Counts an item that only another served model judged in its rubric's note. */
function countOther(n: RubricRunNotes, model: string): void {
  const list = (n.otherServedModels ??= []);
  const at = list.find((o) => o.model === model);
  if (at) at.items++;
  else list.push({ model, items: 1 });
}

/** The chunk ids an answer cites (markers or explicit citations), for highlighting on the page. */
function citedIdsOf(v: VariantData, question: string): string[] {
  const line = v.outputs.get(question);
  if (!line || (line.answer === undefined && !line.citations)) return [];
  const cites = readCitations(line, contextOf(line, v.contextK), (id) => v.chunks.byId.has(id));
  return [...new Set(cites.flatMap((c) => c.chunks))];
}
