/**
 * Sampling manifests for tests: a draw built in memory the way `ragjudge
 * sample` records one (id from its content, population hash), and the book
 * the gate reads.
 */
import { drawIdOf, drawItemKey, populationHash, type DrawBody, type DrawBook, type LoadedDraw } from "../../src/calibration/draws.js";
import { DEFAULT_GATE, type GateContext } from "../../src/calibration/pairing.js";
import { Draw, type DrawItem } from "../../src/golden/schema/draw.js";

/** One population item: at least its question and input hash (variant "v", unit "answer" by default). */
export type TestItem = Partial<DrawItem> & Pick<DrawItem, "question" | "inputHash">;

/** A recorded draw of `rubric` over `items`, drawing the items at `drawn` (indices). */
export function testDraw(rubric: string, items: readonly TestItem[], drawn: readonly number[], over: Partial<DrawBody> = {}): LoadedDraw {
  const full: DrawItem[] = items.map((i) => ({ variant: "v", unit: "answer", split: "heldout", p: drawn.length / items.length, ...i }));
  const body: DrawBody = {
    schema: "ragjudge.draw/1", design: "uniform", rubric, annotator: "a", seed: 1, requested: drawn.length, fingerprint: "fp", servedModels: [],
    scope: { variants: [...new Set(full.map((i) => i.variant))].sort(), splits: null },
    population: { hash: populationHash(rubric, full), size: full.length, items: full }, drawn: [...drawn], ...over,
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
