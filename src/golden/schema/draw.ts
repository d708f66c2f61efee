import { z } from "zod";
import { Id, Sha256, Time } from "./common.js";

/**
 * A sampling manifest (`labels/draws/<id>.json`): one random draw that
 * `ragjudge sample` made for one rubric, recorded so that "random" means
 * "drawn by ragjudge" and not whatever frame a label claims. The trust gate
 * counts a label as a random-sample label only when its item (key and input
 * hash) is among the drawn items of a draw whose frame holds every held-out
 * item the judge judged (src/calibration/draws.ts states the rule).
 *
 * The manifest lists the whole population the draw saw (every judged item of
 * the rubric, with its input hash and split), each item's inclusion
 * probability in this draw (0 outside the frame: a variant or split left out)
 * and, for stratified designs, its stratum; then the drawn items by index.
 * Uniform draws give every frame item the same probability; a stratified
 * design (a later label-budget planner, Neyman allocation) gives each stratum
 * its own, and the gate weights by them: nothing in the format assumes a
 * uniform draw.
 */

/** One item of the population: the item key without the rubric (the manifest's), its input hash and what the draw knew of it. */
export const DrawItem = z.strictObject({
  variant: Id,
  question: Id,
  unit: z.string().min(1),
  inputHash: Sha256,
  /** The question's golden-set split when it has one. */
  split: z.string().min(1).optional(),
  /** The stratum of a stratified design (absent for a uniform draw). */
  stratum: z.string().min(1).optional(),
  /** This item's probability of being drawn by this draw: 0 outside the frame. */
  p: z.number().min(0).max(1),
});
export type DrawItem = z.infer<typeof DrawItem>;

/** One stratum of the frame: its size and how many of it were drawn. */
export const DrawStratum = z.strictObject({ name: z.string().min(1), size: z.number().int().min(0), drawn: z.number().int().min(0) });

/** A sampling manifest (see the module comment). */
export const Draw = z.strictObject({
  schema: z.literal("ragjudge.draw/1"),
  /** 16 hex digits of the SHA-256 of the manifest without `id` and `time`: the same draw always has the same id. */
  id: z.string().regex(/^[0-9a-f]{16}$/, "must be 16 lower-case hex digits"),
  time: Time,
  /**
   * `uniform`: a simple random sample without replacement from the frame;
   * `stratified`: per stratum (src/calibration/plan/designs.ts); `active`:
   * uncertain items first, for error analysis only (probabilities unknown,
   * recorded as 0; the gate refuses it).
   */
  design: z.enum(["uniform", "stratified", "active"]),
  rubric: Id,
  /** Who the queue was drawn for (the review page and `--tty` write this draw's labels). */
  annotator: Id,
  seed: z.number().int().min(0),
  /** Items asked for (per stratum for stratified designs: the sum). */
  requested: z.number().int().min(0),
  /** The judge whose verdicts the population was read from (informational: the draw does not depend on verdicts). */
  fingerprint: z.string().min(1),
  servedModels: z.array(z.string()),
  /** What the frame was limited to: variants, and golden-set splits (null: every split). */
  scope: z.strictObject({ variants: z.array(Id), splits: z.array(z.string().min(1)).nullable() }),
  population: z.strictObject({
    /** SHA-256 of the items' (variant, question, rubric, unit, input hash) in the listed order. */
    hash: Sha256,
    size: z.number().int().min(0),
    items: z.array(DrawItem),
  }),
  strata: z.array(DrawStratum).optional(),
  /** Indices into `population.items`, in draw order. */
  drawn: z.array(z.number().int().min(0)),
}).superRefine((d, ctx) => {
  if (d.population.size !== d.population.items.length) {
    ctx.addIssue({ code: "custom", path: ["population", "size"], message: `says ${d.population.size} but ${d.population.items.length} items are listed` });
  }
  const seen = new Set<number>();
  d.drawn.forEach((i, k) => {
    const item = d.population.items[i];
    if (!item) ctx.addIssue({ code: "custom", path: ["drawn", k], message: `index ${i} is outside the population (${d.population.items.length} items)` });
    else if (!(item.p > 0) && d.design !== "active") ctx.addIssue({ code: "custom", path: ["drawn", k], message: `item ${i} has inclusion probability 0, so it cannot have been drawn` });
    if (seen.has(i)) ctx.addIssue({ code: "custom", path: ["drawn", k], message: `index ${i} is drawn twice` });
    seen.add(i);
  });
});
export type Draw = z.infer<typeof Draw>;
