/**
 * Sampling manifests for tests: a draw built in memory the way `ragjudge
 * sample` records one (id from its content, population hash), and the book
 * the gate reads.
 */
import { drawIdOf, drawItemKey, populationHash, type DrawBody, type DrawBook, type LoadedDraw } from "../../src/calibration/draws.js";
import { DEFAULT_GATE, type GateContext } from "../../src/calibration/pairing.js";
import { Draw, type DrawItem } from "../../src/golden/schema/draw.js";
import { stratifiedDrawBody, uniformReplay } from "../../src/calibration/plan/stratified-draw.js";

/** One population item: at least its question and input hash (variant "v", unit "answer" by default). */
export type TestItem = Partial<DrawItem> & Pick<DrawItem, "question" | "inputHash">;

/**
 * A recorded uniform draw of `rubric` over `items` that draws exactly the
 * items at `drawn` (indices into `items`), made as `ragjudge sample` makes
 * one: the population in canonical order, the drawn items what the seed
 * draws from it. The gate replays that, so a test cannot choose the drawn
 * items by ordering the population (that was a way to forge a draw); instead
 * the seed is searched, from `over.seed` (default 1) up, for one that draws
 * those items: small draws only (a few items, or all of them). For a draw of
 * many items out of many, see {@link honestDraw}.
 */
export function testDraw(rubric: string, items: readonly TestItem[], drawn: readonly number[], over: Partial<DrawBody> = {}): LoadedDraw {
  const full: DrawItem[] = items.map((i) => ({ variant: "v", unit: "answer", split: "heldout", p: drawn.length / items.length, ...i }));
  const key = (i: DrawItem) => drawItemKey(rubric, i);
  const wanted = new Set(drawn.map((k) => key(full[k]!)));
  const population = canonical(rubric, full);
  for (let seed = over.seed ?? 1; seed < (over.seed ?? 1) + 200_000; seed++) {
    const slots = uniformReplay(rubric, seed, population, wanted.size);
    if (slots.every((slot) => wanted.has(key(population[slot]!)))) return loaded(rubric, population, slots, { ...over, seed });
  }
  throw new Error(`testDraw: no seed draws those ${drawn.length} of ${items.length} items; use honestDraw`);
}

/** A recorded uniform draw of `n` of `items` by `seed`, as `ragjudge sample --random n` makes it; the caller reads which it drew (`drawnItems`). */
export function honestDraw(rubric: string, items: readonly TestItem[], n: number, over: Partial<DrawBody> = {}): LoadedDraw {
  const frameSize = items.filter((i) => i.p === undefined || i.p > 0).length;
  const full: DrawItem[] = items.map((i) => ({ variant: "v", unit: "answer", split: "heldout", p: n / frameSize, ...i }));
  const population = canonical(rubric, full);
  const seed = over.seed ?? 1;
  return loaded(rubric, population, uniformReplay(rubric, seed, population, n), { ...over, seed });
}

/** The drawn items of a draw, in draw order. */
export function drawnItems(d: LoadedDraw): DrawItem[] {
  return d.draw.drawn.map((i) => d.draw.population.items[i]!);
}

/** Frame items (p > 0), then the rest, each in canonical key order: the order `ragjudge sample` writes. */
function canonical(rubric: string, items: readonly DrawItem[]): DrawItem[] {
  const order = (a: DrawItem, b: DrawItem) => (drawItemKey(rubric, a) < drawItemKey(rubric, b) ? -1 : 1);
  return [...items.filter((i) => i.p > 0).sort(order), ...items.filter((i) => !(i.p > 0)).sort(order)];
}

function loaded(rubric: string, population: DrawItem[], slots: number[], over: Partial<DrawBody>): LoadedDraw {
  const body: DrawBody = {
    schema: "ragjudge.draw/1", design: "uniform", rubric, annotator: "a", seed: 1, requested: slots.length, fingerprint: "fp", servedModels: [],
    scope: { variants: [...new Set(population.map((i) => i.variant))].sort(), splits: null },
    population: { hash: populationHash(rubric, population), size: population.length, items: population }, drawn: slots, ...over,
  };
  const draw = Draw.parse({ ...body, id: drawIdOf(body), time: "2026-01-01T00:00:00.000Z" });
  const index = new Map(draw.population.items.map((it, i) => [drawItemKey(rubric, it), i]));
  return { file: `labels/draws/${draw.id}.json`, draw, index, drawn: new Set(draw.drawn) };
}

/** The gate context over some draws (default split and coverage). */
export function withDraws(draws: readonly LoadedDraw[], over: Partial<GateContext> = {}): GateContext {
  const book: DrawBook = { dir: "labels/draws", draws: [...draws] };
  return { ...DEFAULT_GATE, draws: book, ...over };
}

/** A recorded stratified draw of `rubric` (variant "v", unit "answer", held-out), `allocation` drawn per stratum from the seed as `ragjudge plan --budget` draws. */
export function stratifiedTestDraw(rubric: string, items: readonly { question: string; inputHash: string; stratum: string; split?: string }[], allocation: Record<string, number>, seed = 1, over: Partial<DrawBody> = {}): LoadedDraw {
  const frame = items.map((i) => ({ key: { variant: "v", question: i.question, rubric, unit: "answer" }, inputHash: i.inputHash, split: i.split ?? "heldout", stratum: i.stratum }));
  const body: DrawBody = {
    ...stratifiedDrawBody({ rubric, annotator: "a", seed, fingerprint: "fp", servedModels: [], scope: { variants: ["v"], splits: null }, frame, outside: [], allocation: new Map(Object.entries(allocation)) }),
    ...over,
  };
  const draw = Draw.parse({ ...body, id: drawIdOf(body), time: "2026-01-01T00:00:00.000Z" });
  const index = new Map(draw.population.items.map((it, i) => [drawItemKey(rubric, it), i]));
  return { file: `labels/draws/${draw.id}.json`, draw, index, drawn: new Set(draw.drawn) };
}
