import type { Draw, DrawItem } from "../../golden/schema/draw.js";
import { drawItemKey, frameSeed, populationHash, type DrawBody } from "../draws.js";
import { byEvidence, evidenceKey } from "../keys.js";
import { shuffle, streamFor } from "../random.js";
import { SINGLE_STRATUM, STRATA_LEVELS, stratumOf, type StratifiableItem, type StrataLevel } from "./strata.js";
import type { ItemKey } from "../../golden/schema/items.js";

/**
 * Stratified draws: building one (`ragjudge plan --budget`) and replaying
 * one, or a uniform one (the gate). Within each stratum the first n_h of its
 * N_h frame items in the population's one order ({@link drawOrder}, from the
 * seed its population fixes) are drawn, so the manifest is a pure function
 * of its population, strata and allocation: the gate draws it again and
 * refuses a manifest whose seed, drawn items, probabilities or strata were
 * edited, even with its id and hashes recomputed.
 */

/** One item of a stratified frame or of the judged items outside it. */
export interface StratifiedItem {
  key: ItemKey;
  inputHash: string;
  split?: string;
  /** Its stratum (frame items only). */
  stratum?: string;
}

/** What to draw. */
export interface StratifiedSpec {
  rubric: string;
  annotator: string;
  fingerprint: string;
  servedModels: string[];
  scope: Draw["scope"];
  frame: readonly StratifiedItem[];
  /** Judged items outside the frame (another split): recorded with probability 0. */
  outside: readonly StratifiedItem[];
  /** n_h per stratum (every frame stratum needs at least 1). */
  allocation: ReadonlyMap<string, number>;
}


/**
 * The one order every draw of a population takes its items in: the whole
 * population (every judged item of the rubric, in the frame or not) in
 * canonical order, shuffled by the stream `<rubric>/random` of its seed.
 * A uniform draw takes the first n of its frame in this order, a stratified
 * one the first n_h of each stratum, so whatever the design or scope, the
 * held-out items a draw holds are the first ones of this order (per stratum
 * for a stratified draw): choosing among designs or scopes chooses only
 * where a draw stops, as choosing its size does, never which items come first.
 */
export function drawOrder(rubric: string, seed: number, items: readonly DrawItem[]): number[] {
  return shuffle(canonicalIndices(rubric, items), streamFor(seed, `${rubric}/random`));
}

/** The seed a population fixes: a hash of the rubric and its items' keys in canonical order, frame and outside alike. */
export function populationSeed(rubric: string, items: readonly DrawItem[]): number {
  return frameSeed(rubric, canonicalIndices(rubric, items).map((i) => items[i]!));
}

/** The population's indices in canonical (evidence key) order, each key built once. */
function canonicalIndices(rubric: string, items: readonly DrawItem[]): number[] {
  const keys = items.map((it) => drawItemKey(rubric, it));
  return items.map((_, i) => i).sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0));
}

/** The drawn indices of each stratum, replayed from the seed (strata in name order): the first n_h of each in {@link drawOrder}. */
function replayDrawn(rubric: string, seed: number, items: readonly DrawItem[], allocation: ReadonlyMap<string, number>): number[] {
  const order = drawOrder(rubric, seed, items);
  const drawn: number[] = [];
  for (const h of [...allocation.keys()].sort()) drawn.push(...order.filter((i) => items[i]!.stratum === h).slice(0, allocation.get(h)!));
  return drawn;
}

/**
 * The drawn indices of a uniform draw of n, replayed as `ragjudge sample`
 * draws it: the first n frame items (probability above 0) in
 * {@link drawOrder}. With no item outside the frame this is the frame, in
 * canonical order, sampled without replacement from the stream
 * `<rubric>/random` of the seed (a shuffle's first n picks do not depend on
 * how many more were asked for).
 */
export function uniformReplay(rubric: string, seed: number, items: readonly DrawItem[], n: number): number[] {
  return drawOrder(rubric, seed, items).filter((i) => items[i]!.p > 0).slice(0, Math.max(0, n));
}

/** The manifest body of a stratified draw (see the module comment). */
export function stratifiedDrawBody(spec: StratifiedSpec): DrawBody {
  const frame = spec.frame.slice().sort(byEvidence);
  const sizes = new Map<string, number>();
  for (const it of frame) sizes.set(it.stratum!, (sizes.get(it.stratum!) ?? 0) + 1);
  const p = (h: string) => Math.min(sizes.get(h)!, spec.allocation.get(h) ?? 0) / sizes.get(h)!;
  const items: DrawItem[] = [
    ...frame.map((it) => ({ ...base(it), stratum: it.stratum!, p: p(it.stratum!) })),
    ...spec.outside.slice().sort(byEvidence).map((it) => ({ ...base(it), p: 0 })),
  ];
  const allocation = new Map([...sizes.keys()].map((h) => [h, Math.min(sizes.get(h)!, spec.allocation.get(h) ?? 0)]));
  const seed = populationSeed(spec.rubric, items);
  const drawn = replayDrawn(spec.rubric, seed, items, allocation);
  return {
    schema: "ragjudge.draw/1",
    design: "stratified",
    rubric: spec.rubric,
    annotator: spec.annotator,
    seed,
    requested: drawn.length,
    fingerprint: spec.fingerprint,
    servedModels: spec.servedModels,
    scope: spec.scope,
    population: { hash: populationHash(spec.rubric, items), size: items.length, items },
    strata: [...sizes.keys()].sort().map((name) => ({ name, size: sizes.get(name)!, drawn: allocation.get(name)! })),
    drawn,
  };
}

function base(it: StratifiedItem): Omit<DrawItem, "p" | "stratum"> {
  return { variant: it.key.variant, question: it.key.question, unit: it.key.unit, inputHash: it.inputHash, ...(it.split !== undefined ? { split: it.split } : {}) };
}

/** The ways `plan --budget` cuts a frame into strata (strata.ts, chooseStrata, and one stratum for a small budget). */
const LEVELS: readonly StrataLevel[] = [...STRATA_LEVELS, SINGLE_STRATUM];

/**
 * Why a stratified draw's strata are not a judge's, or null: `plan --budget`
 * names each frame item's stratum from the judge's verdict, its confidence
 * band and the variant (strata.ts, at one of a few levels of detail), and
 * each stratum takes its first n_h items in the population's one order.
 * Strata of the manifest's own choosing (items moved between them) would
 * pick which items come first in each, so the gate takes the strata as
 * `judged` gives them (the verdicts of the judge being checked) and refuses
 * any other cut.
 *
 * @example
 * strataMismatch(draw, (it) => verdicts.get(drawItemKey(draw.rubric, it))) // null, or "its strata are not ..."
 */
export function strataMismatch(d: Draw, judged: (it: DrawItem) => StratifiableItem | undefined): string | null {
  if (d.design !== "stratified") return null;
  const frame = d.population.items.filter((it) => it.p > 0);
  const as = frame.map(judged);
  // An item whose verdict is an error today (a transient failure since the draw) is counted as a disagreement
  // whatever its stratum: it neither proves nor disproves the cut. One this judge did not judge (an answer changed
  // since the draw) says nothing of the cut either: the draw fails on it already, with its own reason (draw-status.ts).
  const fits = (i: number, level: StrataLevel) => as[i] === undefined || as[i]!.verdict === "error" || stratumOf(as[i]!, level) === frame[i]!.stratum;
  const off = (level: StrataLevel) => frame.flatMap((_, i) => (fits(i, level) ? [] : [i]));
  // the cut nearest the manifest's names its first misfiled item
  let nearest: number[] | undefined;
  for (const level of LEVELS) {
    const bad = off(level);
    if (bad.length === 0) return null;
    if (!nearest || bad.length < nearest.length) nearest = bad;
  }
  const k = nearest![0]!;
  const it = frame[k]!;
  return `its strata are not this judge's verdicts (item ${it.variant}/${it.question}/${it.unit} is in stratum "${it.stratum}", which this judge's verdict ${as[k]!.verdict} does not give it): a stratified draw counts for the judge whose verdicts cut it, and strata of one's choosing would choose the sample`;
}

/**
 * Why a manifest's population is not in the order `ragjudge sample` and
 * `plan --budget` write it (frame items, then those outside it, each in
 * canonical key order, no item twice), or null. A seed draws by position in
 * that list, so an order of the manifest's own choosing would let a seed pick
 * any items: reordered, a population of 150 put 60 chosen items where seed 1
 * draws, with its hashes and id recomputed.
 */
function orderProblem(d: Draw): string | null {
  const items = d.population.items;
  let inFrame = true;
  let prev = "";
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    const key = evidenceKey({ variant: it.variant, question: it.question, rubric: d.rubric, unit: it.unit }, it.inputHash);
    if (it.p > 0 && !inFrame) return `its population lists item ${i} (${it.variant}/${it.question}/${it.unit}) in the frame after items outside it: a seed draws by position, so the manifest was edited`;
    if (!(it.p > 0) && inFrame) {
      inFrame = false;
      prev = "";
    }
    if (prev !== "" && !(prev < key)) return `its population is not in canonical order at item ${i} (${it.variant}/${it.question}/${it.unit}): a seed draws by position in that order, so the manifest was edited`;
    prev = key;
  }
  return null;
}

/**
 * Why a manifest's frame is not its scope, or null: `ragjudge sample` and
 * `plan --budget` give every item in the scope (its variants, and its splits
 * when it names any) a probability above 0 and every item outside it 0. The
 * frame decides the positions a seed draws from, so an edited manifest that
 * moved an in-scope item out of its frame (or an out-of-scope one in) could
 * shift them where it likes.
 */
function scopeProblem(d: Draw): string | null {
  const { variants, splits } = d.scope;
  const items = d.population.items;
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    const inScope = variants.includes(it.variant) && (splits === null || (it.split !== undefined && splits.includes(it.split)));
    if (inScope === it.p > 0) continue;
    const where = `variants ${variants.join(", ")}${splits ? `, splits ${splits.join(", ")}` : ", every split"}`;
    return `its population gives item ${i} (${it.variant}/${it.question}/${it.unit}, split ${it.split ?? "none"}) probability ${it.p} though it is ${inScope ? "inside" : "outside"} the draw's scope (${where}): the manifest was edited`;
  }
  return null;
}

/**
 * Why the gate refuses a draw's design, or null when it accepts it: the
 * design must know every item's inclusion probability (an active frame does
 * not); its seed is its population's ({@link populationSeed}); a uniform draw gives
 * every frame item the same probability n/N and its drawn items are what
 * the seed draws again; a stratified one gives stratum h exactly n_h/N_h
 * with n_h >= 1 (a stratum with probability 0 is not represented), items
 * outside every stratum 0, its strata table says the same, and its drawn
 * items are what the seed draws again. Either way its frame (probability
 * above 0) is exactly its scope.
 *
 * @example
 * designRefusal(draw) // null, or "its design is active: ..."
 */
export function designRefusal(d: Draw): string | null {
  const items = d.population.items;
  if (d.design === "active") return "its design is active (uncertain items first): no item has a known inclusion probability, so its labels never feed the gate (error analysis only)";
  const disorder = orderProblem(d);
  if (disorder) return disorder;
  const seed = populationSeed(d.rubric, items);
  if (d.seed !== seed) {
    const again = d.design === "uniform" ? `with ragjudge sample --random, ${d.drawn.length} items${d.scope.splits ? ` of split ${d.scope.splits.join(", ")}` : ""}` : "with ragjudge plan --budget";
    return `its seed ${d.seed} is not the one its population fixes (${seed}): a seed of one's choosing lets a draw be picked among many, so ragjudge draws with the population's own (a draw made by a ragjudge older than that, or edited); draw again ${again}: labels of the items it draws again still count`;
  }
  const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9;
  if (d.design === "uniform") {
    const frame = items.filter((i) => i.p > 0);
    const p = d.drawn.length / Math.max(1, frame.length);
    if (frame.some((i) => !near(i.p, p))) return `its inclusion probabilities are not those of a uniform draw (${d.drawn.length} of ${frame.length} gives ${p.toPrecision(3)} to every frame item): the manifest was edited`;
    const outOfFrame = scopeProblem(d);
    if (outOfFrame) return outOfFrame;
    const replay = uniformReplay(d.rubric, d.seed, items, d.drawn.length);
    if (replay.some((x, k) => x !== d.drawn[k])) return `its drawn items are not what seed ${d.seed} draws from its frame: the manifest was edited`;
    return null;
  }
  const sizes = new Map<string, number>();
  const drawnIn = new Map<string, number>();
  for (const it of items) if (it.stratum !== undefined) sizes.set(it.stratum, (sizes.get(it.stratum) ?? 0) + 1);
  for (const i of d.drawn) {
    const h = items[i]!.stratum;
    if (h === undefined) return `drawn item ${i} has no stratum`;
    drawnIn.set(h, (drawnIn.get(h) ?? 0) + 1);
  }
  for (const [h, size] of [...sizes].sort()) {
    const n = drawnIn.get(h) ?? 0;
    if (n === 0) return `stratum "${h}" has inclusion probability 0 (none of its ${size} items drawn): the draw does not represent it`;
  }
  for (const it of items) {
    const want = it.stratum === undefined ? 0 : drawnIn.get(it.stratum)! / sizes.get(it.stratum)!;
    if (!near(it.p, want)) return `item ${it.variant}/${it.question}/${it.unit} has inclusion probability ${it.p} but its stratum's is ${want.toPrecision(3)} (${it.stratum === undefined ? "outside every stratum" : `${drawnIn.get(it.stratum)} of ${sizes.get(it.stratum)}`}): the manifest was edited`;
  }
  for (const s of d.strata ?? []) {
    if ((sizes.get(s.name) ?? 0) !== s.size || (drawnIn.get(s.name) ?? 0) !== s.drawn) return `its strata table says ${s.name} has ${s.drawn} of ${s.size} drawn, but the items say ${drawnIn.get(s.name) ?? 0} of ${sizes.get(s.name) ?? 0}: the manifest was edited`;
  }
  const outOfFrame = scopeProblem(d);
  if (outOfFrame) return outOfFrame;
  const replay = replayDrawn(d.rubric, d.seed, items, new Map([...sizes.keys()].map((h) => [h, drawnIn.get(h)!])));
  if (replay.length !== d.drawn.length || replay.some((x, k) => x !== d.drawn[k])) return `its drawn items are not what seed ${d.seed} draws from its strata: the manifest was edited`;
  return null;
}
