import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { InputError, InputErrors } from "../golden/errors.js";
import { hashJson, sha256 } from "../golden/hash.js";
import { loadJson } from "../golden/jsonl.js";
import { Draw, type DrawItem } from "../golden/schema/draw.js";
import type { ItemKey } from "../golden/schema/items.js";
import { evidenceKey } from "./keys.js";
import { writeOutputFile } from "./output.js";

/**
 * Sampling manifests on disk (`<labels>/draws/<id>.json`, schema in
 * src/golden/schema/draw.ts): writing one when `ragjudge sample` draws,
 * reading them all back for the trust gate. A draw's id is a hash of its
 * content, so the same draw (same data and verdicts) is the same file,
 * and a file whose content does not hash to its name was edited: an error.
 */

/** The folder of sampling manifests inside a labels folder. */
export function drawsDir(labelsDir: string): string {
  return join(labelsDir, "draws");
}

/** A draw before it has its id and time. */
export type DrawBody = Omit<Draw, "id" | "time">;

/** The id of a draw: 16 hex digits of the SHA-256 of its canonical JSON without `id` and `time`. */
export function drawIdOf(body: DrawBody | Draw): string {
  const { id: _id, time: _time, ...rest } = body as Draw;
  return hashJson(rest).slice(0, 16);
}

/** The SHA-256 of a population's items (rubric, key and input hash, in order): what the manifest's `population.hash` holds. */
export function populationHash(rubric: string, items: readonly Pick<DrawItem, "variant" | "question" | "unit" | "inputHash">[]): string {
  return hashJson(items.map((i) => [i.variant, i.question, rubric, i.unit, i.inputHash]));
}

/**
 * The seed of every uniform or stratified draw of `rubric` over a
 * population (every item the judge judged, in the frame or not, in
 * canonical order: plan/stratified-draw.ts, populationSeed): 48 bits of a
 * hash of the rubric and the items' keys (variant, question, unit). Never chosen: with a seed of one's choosing, a user
 * could draw, see which items came up (where the judge is wrong, say),
 * delete the manifest and draw again until a draw flattered the judge, and
 * nothing would show it. Fixed by the frame, a draw deleted and made again
 * is the same draw, and draws of different sizes are nested (a partial
 * shuffle's first n picks do not depend on how many more are asked for).
 * The input hashes are left out on purpose: with them, a space added to one
 * answer would give a new seed, a way to choose one again; without them,
 * another seed takes another set of questions, variants or units. The gate
 * refuses a manifest with any other seed.
 *
 * @example
 * frameSeed("faithfulness", canonicalItems) // 118249237355093 (plan/stratified-draw.ts, populationSeed, passes the whole population)
 */
export function frameSeed(rubric: string, frame: readonly Pick<DrawItem, "variant" | "question" | "unit">[]): number {
  const h = hashJson(["ragjudge.frame-seed/1", rubric, frame.map((i) => [i.variant, i.question, i.unit])]);
  return Number.parseInt(h.slice(0, 12), 16);
}

/** A manifest as written: readable JSON with one population item per line, so a diff shows what changed. */
export function drawText(d: Draw): string {
  const { population, drawn, ...head } = d;
  const top = JSON.stringify(head, null, 2).replace(/\n}$/, "");
  const items = population.items.map((i) => `      ${JSON.stringify(i)}`).join(",\n");
  return `${top},\n  "population": {\n    "hash": ${JSON.stringify(population.hash)},\n    "size": ${population.size},\n    "items": [\n${items}${items ? "\n" : ""}    ]\n  },\n  "drawn": ${JSON.stringify(drawn)}\n}\n`;
}

/** What {@link writeDraw} did. */
export interface DrawWrite {
  id: string;
  file: string;
  /** `unchanged`: the same draw was already recorded (its file is left alone, with its first time). */
  status: "written" | "unchanged";
}

/**
 * Records a draw atomically under `<labels>/draws/<id>.json`, its id the
 * hash of its content. The same draw drawn again (same data and verdicts:
 * its seed is its frame's, {@link frameSeed}) is already there and is left
 * untouched.
 *
 * @example
 * writeDraw("labels", body, new Date().toISOString()) // { id: "3f1c…", file: "labels/draws/3f1c….json", status: "written" }
 */
export function writeDraw(labelsDir: string, body: DrawBody, time: string): DrawWrite {
  const id = drawIdOf(body);
  const draw = Draw.parse({ ...body, id, time });
  const file = join(drawsDir(labelsDir), `${id}.json`);
  if (existsSync(file)) return { id, file, status: "unchanged" };
  writeOutputFile(file, drawText(draw));
  return { id, file, status: "written" };
}

/** A draw as loaded, with lookups the gate needs. */
export interface LoadedDraw {
  file: string;
  draw: Draw;
  /** {@link evidenceKey} (with the draw's rubric) -> index into `population.items`. */
  index: Map<string, number>;
  /** Indices of the drawn items. */
  drawn: Set<number>;
}

/** Every recorded draw of a labels folder. */
export interface DrawBook {
  dir: string;
  draws: LoadedDraw[];
}

/** No draws (a labels folder without a draws/ folder, or a caller with none). */
export const NO_DRAWS: DrawBook = { dir: "", draws: [] };

/** The evidence key of a population item of a draw. */
export function drawItemKey(rubric: string, i: Pick<DrawItem, "variant" | "question" | "unit" | "inputHash">): string {
  return evidenceKey({ variant: i.variant, question: i.question, rubric, unit: i.unit }, i.inputHash);
}

/**
 * Loads every manifest in `<labels>/draws/` (none when the folder is
 * missing). A manifest that fails its schema, whose id is not the hash of
 * its content (edited by hand), whose file is not named `<id>.json`, or
 * whose population hash does not match its items is an InputError naming the
 * file and field: a gate that counted an edited draw could be talked into
 * anything.
 */
export function loadDraws(labelsDir: string): DrawBook {
  const dir = drawsDir(labelsDir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return { dir, draws: [] };
  const problems: InputError[] = [];
  const draws: LoadedDraw[] = [];
  for (const name of readdirSync(dir).filter((f) => f.endsWith(".json") && !f.startsWith(".")).sort()) {
    const file = join(dir, name);
    try {
      const draw = loadJson(file, Draw);
      const id = drawIdOf(draw);
      if (draw.id !== id) {
        problems.push(new InputError(file, undefined, "id", `the manifest's content hashes to ${id}, not ${draw.id}: it was edited after it was drawn (draw again with ragjudge sample)`));
        continue;
      }
      if (name !== `${draw.id}.json`) {
        problems.push(new InputError(file, undefined, "id", `the manifest of draw ${draw.id} must be named ${draw.id}.json`));
        continue;
      }
      if (populationHash(draw.rubric, draw.population.items) !== draw.population.hash) {
        problems.push(new InputError(file, undefined, "population.hash", "does not match the listed items"));
        continue;
      }
      const index = new Map<string, number>();
      draw.population.items.forEach((it, i) => index.set(drawItemKey(draw.rubric, it), i));
      draws.push({ file, draw, index, drawn: new Set(draw.drawn) });
    } catch (e) {
      if (e instanceof InputErrors) problems.push(...e.problems);
      else if (e instanceof InputError) problems.push(e);
      else throw e;
    }
  }
  if (problems.length) throw new InputErrors(problems);
  return { dir, draws };
}

/** The manifest file's bytes' hash, for records that name the draws they counted. */
export function drawFileHash(d: LoadedDraw): string {
  return sha256(readFileSync(d.file));
}

/** Where one judged item stands in one draw. */
export function drawItemOf(d: LoadedDraw, key: ItemKey, inputHash: string): { index: number; item: DrawItem; drawn: boolean } | undefined {
  if (d.draw.rubric !== key.rubric) return undefined;
  const i = d.index.get(evidenceKey(key, inputHash));
  if (i === undefined) return undefined;
  return { index: i, item: d.draw.population.items[i]!, drawn: d.drawn.has(i) };
}
