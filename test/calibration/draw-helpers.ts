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
 * A recorded uniform draw of `rubric` over `items`, drawing the items at
 * `drawn` (indices into `items`). The gate replays every draw from its seed,
 * so the population is listed in the order that makes the seed's draw land
 * on exactly those items (their positions in `population.items` then differ
 * from `items`; look items up by question).
 */
export function testDraw(rubric: string, items: readonly TestItem[], drawn: readonly number[], over: Partial<DrawBody> = {}): LoadedDraw {
  const full: DrawItem[] = items.map((i) => ({ variant: "v", unit: "answer", split: "heldout", p: drawn.length / items.length, ...i }));
  const seed = over.seed ?? 1;
  const frame = full.filter((i) => i.p > 0);
  const wanted = drawn.map((k) => full[k]!);
  const slots = uniformReplay(rubric, seed, frame, wanted.length);
  const listed: (DrawItem | undefined)[] = new Array(frame.length).fill(undefined);
  slots.forEach((slot, k) => (listed[slot] = wanted[k]));
  const rest = frame.filter((i) => !wanted.includes(i));
  for (let k = 0; k < listed.length; k++) listed[k] ??= rest.shift();
  const population = [...(listed as DrawItem[]), ...full.filter((i) => !(i.p > 0))];
  const body: DrawBody = {
    schema: "ragjudge.draw/1", design: "uniform", rubric, annotator: "a", seed, requested: drawn.length, fingerprint: "fp", servedModels: [],
    scope: { variants: [...new Set(full.map((i) => i.variant))].sort(), splits: null },
    population: { hash: populationHash(rubric, population), size: population.length, items: population }, drawn: slots, ...over,
  };
  if (over.population && !over.drawn) body.drawn = [...drawn];
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
