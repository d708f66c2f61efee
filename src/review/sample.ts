import type { Evidence, ItemKey, QueueEntry } from "../golden/schema/items.js";
import type { DrawItem } from "../golden/schema/draw.js";
import { BOUNDS, requireWithin } from "../golden/bounds.js";
import { drawIdOf, populationHash, type DrawBody } from "../calibration/draws.js";
import { populationSeed, uniformReplay } from "../calibration/plan/stratified-draw.js";
import { byEvidence, evidenceKey } from "../calibration/keys.js";
import { sampleWithoutReplacement, shuffle, streamFor } from "./rng.js";

/** One item of the run that may be sampled: judged by the judge (not a rule). */
export interface Candidate {
  key: ItemKey;
  inputHash: string;
  evidence: Evidence;
  /**
   * The judge's verdict (majority over repeats); `tie` when repeats split
   * evenly; `error` when every repeat failed (random frame only: calibration
   * counts it as a disagreement).
   */
  verdict: "yes" | "no" | "tie" | "error";
  split?: string;
  kind?: string;
  tags: string[];
  citedIds: string[];
  anchor?: { doc: string; text: string };
}

/** The current labels of one item (key and input hash), one per annotator, adjudications included. */
export interface ExistingLabels {
  key: ItemKey;
  inputHash: string;
  labels: { annotator: string; label: "yes" | "no" }[];
}

/** What to draw, for whom, with which seed. */
export interface SampleOptions {
  /** Who will label the queue: items they already labelled (same input hash) are never sampled. */
  annotator: string;
  /** Seeds the balanced batch and the queue's order; a random draw's seed is its population's ({@link populationSeed}), never this. */
  seed: number;
  /** Uniform sample of this many items per rubric (the trust gate's frame). */
  random?: number;
  /** This many items per rubric, half from the judge's yes verdicts and half from its no verdicts. */
  balanced?: number;
  /** Every item where an existing label differs from the judge. */
  disagreements?: boolean;
  /** The judge whose verdicts each rubric's candidates carry, recorded in the draw's manifest. */
  judges?: ReadonlyMap<string, { fingerprint: string; servedModels: string[] }>;
  /** What the frame was limited to (recorded in the manifest): the variants judged, and the splits (null: all). */
  scope?: { variants: string[]; splits: string[] | null };
  /**
   * Judged items outside the scope (another split): they are part of the
   * population a draw records, with inclusion probability 0, so the gate can
   * tell "left out of the draw" from "new since the draw".
   */
  outOfScope?: readonly Candidate[];
}

/** What one rubric's sampling found and drew, for the command's summary. */
export interface RubricSample {
  rubric: string;
  /** Items of the run the judge judged (yes, no, tied or error verdicts). */
  population: number;
  /** Of those, already labelled by the annotator (never resampled). */
  labelledByAnnotator: number;
  /** Population minus those: what random and balanced draw from. */
  eligible: number;
  /**
   * The random draw: `drawn` of the frame (the whole population, labelled or
   * not), `inclusionProbability` = drawn / population; items the annotator
   * already labelled on the same evidence are not queued again
   * (`alreadyLabelled`): their labels count for the draw as they are. `draw`
   * is the manifest's id.
   */
  random?: { drawn: number; inclusionProbability: number; alreadyLabelled: number; draw?: string };
  balanced?: { yes: { drawn: number; of: number }; no: { drawn: number; of: number } };
  disagreements?: { found: number; queued: number; labelledByAnnotator: number };
  /** Drawn by more than one frame and kept once, under the first (random, balanced, disagreement). */
  duplicates: number;
  queued: number;
}

/** A queue entry for a candidate, in a frame; `manual` picks (`review --item`) carry no inclusion probability. */
export function toEntry(c: Candidate, frame: QueueEntry["frame"], inclusionProbability?: number, stratum?: string, draw?: string): QueueEntry {
  return {
    ...c.key,
    inputHash: c.inputHash,
    frame,
    ...(inclusionProbability !== undefined ? { inclusionProbability } : {}),
    ...(stratum !== undefined ? { stratum } : {}),
    ...(draw !== undefined ? { draw } : {}),
    ...(c.split !== undefined ? { split: c.split } : {}),
    ...(c.kind !== undefined ? { kind: c.kind } : {}),
    tags: c.tags,
    evidence: c.evidence,
    citedIds: c.citedIds,
    ...(c.anchor ? { anchor: c.anchor } : {}),
  };
}

/**
 * Throws a RangeError for a `seed`, `random` or `balanced` outside the
 * bounds of `sample --seed`, `--random` and `--balanced` (golden/bounds.ts):
 * the numbers of a library call, which no flag parser read.
 */
export function requireSampleNumbers(opts: Pick<SampleOptions, "seed" | "random" | "balanced">): void {
  requireWithin("seed", opts.seed, BOUNDS.randomSeed);
  requireWithin("random", opts.random, BOUNDS.sampleSize);
  requireWithin("balanced", opts.balanced, BOUNDS.sampleSize);
}

/**
 * Builds a review queue from the run's candidates and the existing labels.
 * Per rubric (sorted by name), each frame draws from its own seeded stream:
 *
 * - `random N`: a uniform sample without replacement of n = min(N,
 *   population) items from the rubric's judged items in scope (error
 *   verdicts included: the gate counts a judge error as a disagreement),
 *   inclusion probability n / population, recorded as a sampling manifest
 *   (`draws`, with the id every entry carries). Items the annotator already
 *   labelled on the same evidence are drawn like any other but not queued:
 *   their existing label counts for the draw. So the draw stays a uniform
 *   sample of the whole population, which is what lets the trust gate count
 *   it; a larger N draws the same items and more, and every scope of one
 *   population takes its items in one order (calibration/plan/stratified-draw.ts,
 *   drawOrder).
 * - `balanced N`: ceil(N/2) from the judge's yes verdicts and floor(N/2) from
 *   its no verdicts (all that is left of a stratum when it is smaller; tied
 *   and error items belong to neither); stratum = the verdict, inclusion probability
 *   n_s / (the stratum's size in the population).
 * - `disagreements`: every item where some annotator's current label (or an
 *   adjudication) differs from the judge's verdict, except items this
 *   annotator labelled; inclusion probability 1, stratum = the verdict.
 *
 * An item drawn by two frames is kept once, under the first in that order.
 * Each rubric's entries are then shuffled with the seed, so position gives no
 * hint of frame or verdict. The same inputs and seed give the same queue,
 * whatever order the inputs come in. A `seed`, `random` or `balanced`
 * outside the bounds of `sample`'s flags throws a RangeError (golden/bounds.ts).
 */
export function sampleQueue(
  candidates: readonly Candidate[],
  existing: readonly ExistingLabels[],
  opts: SampleOptions,
  /** Items the annotator ever labelled (superseded labels too), beyond those in `existing`. */
  labelledEarlier: readonly { key: ItemKey; inputHash: string }[] = [],
): { entries: QueueEntry[]; rubrics: RubricSample[]; draws: DrawBody[] } {
  requireSampleNumbers(opts);
  const labelsOf = new Map<string, ExistingLabels["labels"]>();
  const own = new Set(labelledEarlier.map((l) => evidenceKey(l.key, l.inputHash)));
  for (const e of existing) {
    const id = evidenceKey(e.key, e.inputHash);
    labelsOf.set(id, [...(labelsOf.get(id) ?? []), ...e.labels]);
    if (e.labels.some((l) => l.annotator === opts.annotator)) own.add(id);
  }
  const mine = (c: Candidate) => own.has(evidenceKey(c.key, c.inputHash));

  const byRubric = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const list = byRubric.get(c.key.rubric) ?? [];
    list.push(c);
    byRubric.set(c.key.rubric, list);
  }
  const entries: QueueEntry[] = [];
  const rubrics: RubricSample[] = [];
  const draws: DrawBody[] = [];
  const outside = new Map<string, Candidate[]>();
  for (const c of opts.outOfScope ?? []) (outside.get(c.key.rubric) ?? outside.set(c.key.rubric, []).get(c.key.rubric)!).push(c);
  for (const rubric of [...byRubric.keys()].sort()) {
    // Canonical order first: the sample must not depend on file order.
    const population = byRubric.get(rubric)!.slice().sort(byEvidence);
    const eligible = population.filter((c) => !mine(c));
    const summary: RubricSample = { rubric, population: population.length, labelledByAnnotator: population.length - eligible.length, eligible: eligible.length, duplicates: 0, queued: 0 };
    const picked = new Map<string, QueueEntry>();
    const add = (c: Candidate, e: QueueEntry) => {
      const id = evidenceKey(c.key, c.inputHash);
      if (picked.has(id)) summary.duplicates++;
      else picked.set(id, e);
    };

    if (opts.random !== undefined && population.length > 0) {
      const { body, drawn } = uniformDraw(rubric, population, outside.get(rubric) ?? [], opts.random, opts);
      const p = drawn.length / population.length;
      const id = drawIdOf(body);
      draws.push(body);
      const fresh = drawn.filter((c) => !mine(c));
      summary.random = { drawn: drawn.length, inclusionProbability: p, alreadyLabelled: drawn.length - fresh.length, draw: id };
      for (const c of fresh) add(c, toEntry(c, "random", p, undefined, id));
    } else if (opts.random !== undefined) summary.random = { drawn: 0, inclusionProbability: 0, alreadyLabelled: 0 };

    if (opts.balanced !== undefined) {
      const want = { yes: Math.ceil(opts.balanced / 2), no: Math.floor(opts.balanced / 2) };
      const result = { yes: { drawn: 0, of: 0 }, no: { drawn: 0, of: 0 } };
      for (const v of ["yes", "no"] as const) {
        const stratum = eligible.filter((c) => c.verdict === v);
        const size = population.filter((c) => c.verdict === v).length;
        const drawn = sampleWithoutReplacement(stratum, want[v], streamFor(opts.seed, `${rubric}/balanced/${v}`));
        result[v] = { drawn: drawn.length, of: stratum.length };
        for (const c of drawn) add(c, toEntry(c, "balanced", drawn.length / size, v));
      }
      summary.balanced = result;
    }

    if (opts.disagreements) {
      let found = 0;
      let ownCount = 0;
      for (const c of population) {
        if (c.verdict === "tie" || c.verdict === "error") continue;
        const labels = labelsOf.get(evidenceKey(c.key, c.inputHash)) ?? [];
        if (!labels.some((l) => l.label !== c.verdict)) continue;
        found++;
        if (mine(c)) ownCount++;
        else add(c, toEntry(c, "disagreement", 1, c.verdict));
      }
      summary.disagreements = { found, queued: found - ownCount, labelledByAnnotator: ownCount };
    }

    const ordered = shuffle([...picked.values()], streamFor(opts.seed, `${rubric}/order`));
    summary.queued = ordered.length;
    entries.push(...ordered);
    rubrics.push(summary);
  }
  return { entries, rubrics, draws };
}

/**
 * One uniform draw of `n` and its sampling manifest: the population (the
 * frame's items with probability p, then the judged items outside the scope
 * with 0), in canonical order, and the drawn items by index in draw order.
 * Its seed is the one the whole population fixes, never opts.seed (the gate
 * refuses a chosen one), and the draw is the gate's own replay of it
 * ({@link uniformReplay}: the first n of its frame in the population's one
 * order), so another scope is a draw of another size, never another order.
 */
function uniformDraw(rubric: string, frame: readonly Candidate[], outside: readonly Candidate[], n: number, opts: SampleOptions): { body: DrawBody; drawn: Candidate[] } {
  const p = Math.min(n, frame.length) / frame.length;
  const all = [...frame.map((c) => ({ c, p })), ...outside.slice().sort(byEvidence).map((c) => ({ c, p: 0 }))];
  const items: DrawItem[] = all.map(({ c, p: pi }) => ({
    variant: c.key.variant, question: c.key.question, unit: c.key.unit, inputHash: c.inputHash,
    ...(c.split !== undefined ? { split: c.split } : {}), p: pi,
  }));
  const seed = populationSeed(rubric, items);
  const drawnAt = uniformReplay(rubric, seed, items, n);
  const judge = opts.judges?.get(rubric);
  const body: DrawBody = {
    schema: "ragjudge.draw/1",
    design: "uniform",
    rubric,
    annotator: opts.annotator,
    seed,
    requested: n,
    fingerprint: judge?.fingerprint ?? "unknown",
    servedModels: judge?.servedModels ?? [],
    scope: opts.scope ?? { variants: [...new Set(frame.map((c) => c.key.variant))].sort(), splits: null },
    population: { hash: populationHash(rubric, items), size: items.length, items },
    drawn: drawnAt,
  };
  return { body, drawn: drawnAt.map((i) => all[i]!.c) };
}
