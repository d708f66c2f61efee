/**
 * Sampling manifests for tests: a draw built in memory the way `ragjudge
 * sample` records one (id from its content, population hash), and the book
 * the gate reads.
 */
import { drawIdOf, drawItemKey, populationHash, type DrawBody, type DrawBook, type LoadedDraw } from "../../src/calibration/draws.js";
import { DEFAULT_GATE, type GateContext } from "../../src/calibration/pairing.js";
import { Draw, type DrawItem } from "../../src/golden/schema/draw.js";
import { populationSeed, stratifiedDrawBody, uniformReplay } from "../../src/calibration/plan/stratified-draw.js";

/** One population item: at least its question and input hash (variant "v", unit "answer" by default). */
export type TestItem = Partial<DrawItem> & Pick<DrawItem, "question" | "inputHash">;

/**
 * A recorded uniform draw of `n` of `items`, as `ragjudge sample --random n`
 * makes it: the population in canonical order, the seed the frame's own
 * (a test cannot choose which items a draw draws, any more than a user can:
 * that was a way to pick a flattering sample), the drawn items what that
 * seed draws. The caller reads which it drew ({@link drawnItems}) and gives
 * those items their parts.
 */
export function honestDraw(rubric: string, items: readonly TestItem[], n: number, over: Partial<DrawBody> = {}): LoadedDraw {
  const frameSize = items.filter((i) => i.p === undefined || i.p > 0).length;
  const full: DrawItem[] = items.map((i) => ({ variant: "v", unit: "answer", split: "heldout", p: n / frameSize, ...i }));
  const population = canonical(rubric, full);
  const seed = populationSeed(rubric, population);
  return loaded(rubric, population, uniformReplay(rubric, seed, population, n), { seed, ...over });
}

/**
 * {@link honestDraw} of `n` of questions q1..q`size` (variant "v", unit
 * "answer", held-out, input hash `hash(i)`), with the question numbers in
 * roles: the drawn ones first, then the rest, each in ascending order. A test
 * writes its items by role (`const [a, b, c] = roles`: `a` drawn when n is 1).
 */
export function drawByRoles(rubric: string, size: number, n: number, hash: (i: number) => string, over: Partial<DrawBody> = {}): { draw: LoadedDraw; roles: number[] } {
  const draw = honestDraw(rubric, Array.from({ length: size }, (_, k) => ({ question: `q${k + 1}`, inputHash: hash(k + 1) })), n, over);
  const num = (q: string) => Number(q.slice(1));
  const drawn = drawnItems(draw).map((it) => num(it.question)).sort((x, y) => x - y);
  const rest = Array.from({ length: size }, (_, k) => k + 1).filter((i) => !drawn.includes(i));
  return { draw, roles: [...drawn, ...rest] };
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

/** A recorded stratified draw of `rubric` (variant "v", unit "answer", held-out), `allocation` drawn per stratum from the frame's seed as `ragjudge plan --budget` draws. */
export function stratifiedTestDraw(rubric: string, items: readonly { question: string; inputHash: string; stratum: string; split?: string }[], allocation: Record<string, number>, over: Partial<DrawBody> = {}): LoadedDraw {
  const frame = items.map((i) => ({ key: { variant: "v", question: i.question, rubric, unit: "answer" }, inputHash: i.inputHash, split: i.split ?? "heldout", stratum: i.stratum }));
  const body: DrawBody = {
    ...stratifiedDrawBody({ rubric, annotator: "a", fingerprint: "fp", servedModels: [], scope: { variants: ["v"], splits: ["heldout"] }, frame, outside: [], allocation: new Map(Object.entries(allocation)) }),
    ...over,
  };
  const draw = Draw.parse({ ...body, id: drawIdOf(body), time: "2026-01-01T00:00:00.000Z" });
  const index = new Map(draw.population.items.map((it, i) => [drawItemKey(rubric, it), i]));
  return { file: `labels/draws/${draw.id}.json`, draw, index, drawn: new Set(draw.drawn) };
}
