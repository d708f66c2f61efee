import { fisherExact, SKIP_TEST_ALPHA } from "./stats/index.js";
import { drawItemKey, drawItemOf, type DrawBook, type LoadedDraw } from "./draws.js";
import { evidenceKey } from "./keys.js";
import type { LabelBook, LabelledItem } from "./labels.js";
import type { JudgeGroup, JudgedItem } from "./verdicts.js";
import { designRefusal, strataMismatch } from "./plan/stratified-draw.js";

/**
 * How each recorded draw stands for one judge's verdicts (the gate's view
 * of a draw): whether it covers the judged held-out items, how much of it is
 * labelled, its skip test, and why it does not count. pairing.ts sorts the
 * labels with these; reports list them.
 */

/** What a draw's status depends on besides the verdicts and labels (a part of pairing.ts's GateContext). */
export interface DrawContext {
  draws: DrawBook;
  heldout: string;
  splits?: ReadonlyMap<string, string | null>;
}

/** The skip test of one draw: are its unlabelled held-out items like its labelled ones in the judge's verdict? */
export interface SkipTest {
  labelled: { yes: number; no: number };
  unlabelled: { yes: number; no: number };
  /** Fisher's exact test, two-sided. */
  p: number;
  /** True when p < {@link SKIP_TEST_ALPHA}: a warning, the skips lean to one verdict. */
  leaning: boolean;
  /** The verdict the unlabelled items lean to (their share of it is higher). */
  leansTo: "yes" | "no";
}

/** One recorded draw of this rubric as the gate sees it for one judge's verdicts. */
export interface DrawStatus {
  id: string;
  file: string;
  annotator: string;
  /** The judge whose verdicts the draw's population was read from (its manifest's fingerprint). */
  fingerprint: string;
  /** True when the draw's frame holds every held-out item the judge judged (same input hash). */
  covers: boolean;
  /** Why it does not (first reasons, for people). */
  why?: string;
  /** Drawn items among the judge's held-out items, and of those the labelled ones. */
  drawn: number;
  labelled: number;
  /** labelled / drawn (null when nothing relevant was drawn). */
  coverage: number | null;
  /** True when it covers and its coverage reaches `minCoverage`: its labels count. */
  counts: boolean;
  skipTest: SkipTest | null;
}

/**
 * Frames whose labels never count for the gate, whatever draw drew the item:
 * `panel-split` puts in front of people exactly the items a panel's judges
 * split on, so its labels would choose which drawn items get labelled.
 */
export const NEVER_GATE_FRAMES: ReadonlySet<string> = new Set(["panel-split"]);

/** True when every label of the item came from a never-gate frame. */
export function neverGate(l: Pick<LabelledItem, "frames">): boolean {
  return l.frames.length > 0 && l.frames.every((f) => NEVER_GATE_FRAMES.has(f));
}

/**
 * Whether an item is labelled for a draw's coverage: someone gave it a label
 * that may decide it for the gate (labels.ts `answers`: not a second
 * opinion, not an adjudication), so a second annotator cannot void a
 * finished draw, and a label only a second opinion gave leaves it unlabelled.
 */
export function labelledForDraw(l: Pick<LabelledItem, "answers"> | undefined): boolean {
  return l !== undefined && l.answers.length > 0;
}

/** Whether an item needs no new label in a draw's queue: labelled for the draw ({@link labelledForDraw}), which decides it for the gate. */
export function settledForDraw(l: Pick<LabelledItem, "answers"> | undefined): boolean {
  return labelledForDraw(l);
}

/**
 * Why a stratified draw's scope is not one `plan --budget` writes, or null:
 * it draws over the held-out split only, the one frame whose strata the
 * gate knows how to check (a stratum holding dev items would set how many
 * held-out items come first in it).
 */
function stratifiedScope(d: LoadedDraw, heldout: string): string | null {
  const { splits } = d.draw.scope;
  if (d.draw.design !== "stratified" || (splits !== null && splits.length === 1 && splits[0] === heldout)) return null;
  return `it is a stratified draw over ${splits === null ? "every split" : `splits ${splits.join(", ")}`}, and plan --budget draws over the held-out split "${heldout}" only: each scope is a seed of its own, so another would be one more draw to choose from`;
}

const VERDICTS = new WeakMap<JudgeGroup, Map<string, JudgedItem>>();

/** A group's judged items by evidence key, made once per group (every draw of its rubric reads them). */
function verdictsOf(group: JudgeGroup): Map<string, JudgedItem> {
  let m = VERDICTS.get(group);
  if (!m) VERDICTS.set(group, (m = new Map(group.items.map((it) => [evidenceKey(it.key, it.inputHash), it]))));
  return m;
}

const SETS = new WeakMap<readonly JudgedItem[], ReadonlySet<JudgedItem>>();

/** A group's held-out items as a set, made once per group (pairing.ts filters them once; every draw of the rubric reads them). */
function setOf(items: readonly JudgedItem[]): ReadonlySet<JudgedItem> {
  let s = SETS.get(items);
  if (!s) SETS.set(items, (s = new Set(items)));
  return s;
}

/**
 * The draw's population items (in its frame or not) that this judge did not
 * judge, with the same input hash. A draw's seed is its population's
 * (plan/stratified-draw.ts, populationSeed), so a population padded with
 * items nobody judged, a new one per try, would choose the seed again; one
 * of questions removed since is not today's evaluation either.
 */
function unjudgedFrame(d: LoadedDraw, judged: ReadonlyMap<string, unknown>): { count: number; example?: string } {
  let count = 0;
  let example: string | undefined;
  for (const it of d.draw.population.items) {
    if (judged.has(drawItemKey(d.draw.rubric, it))) continue;
    count++;
    example ??= `${it.variant}/${it.question}/${it.unit}`;
  }
  return example === undefined ? { count } : { count, example };
}

/**
 * The judged items outside the held-out split that the draw's population
 * lacks (of any variant), or that its frame lacks though they are in its
 * scope (its variants and, when it names any, its splits), with the same
 * input hash; the held-out
 * ones are the coverage check's. A draw's seed is its whole population's
 * (plan/stratified-draw.ts, populationSeed), so judgments of some dev items
 * dropped before sampling, and put back after, would choose the seed again
 * while the held-out part of the frame looked complete.
 */
function frameGaps(d: LoadedDraw, group: JudgeGroup, heldout: ReadonlySet<JudgedItem>, ctx: Pick<DrawContext, "splits">): { count: number; example?: string } {
  const { variants, splits } = d.draw.scope;
  let count = 0;
  let example: string | undefined;
  for (const it of group.items) {
    if (heldout.has(it)) continue;
    const at = drawItemOf(d, it.key, it.inputHash);
    // another variant's item is outside the frame by right, but not outside the population its seed follows
    if (!variants.includes(it.key.variant)) {
      if (!at) {
        count++;
        example ??= `${it.key.variant}/${it.key.question}/${it.key.unit}`;
      }
      continue;
    }
    if (at && at.item.p > 0) continue;
    // the golden set's split, else the one the draw recorded; an item of unknown split is in a scope of every split only
    const split = ctx.splits?.has(it.key.question) ? ctx.splits.get(it.key.question) ?? undefined : at?.item.split;
    if (at && splits !== null && (split === undefined || !splits.includes(split))) continue;
    count++;
    example ??= `${it.key.variant}/${it.key.question}/${it.key.unit}`;
  }
  return example === undefined ? { count } : { count, example };
}

/**
 * The draw's items whose held-out membership changed since the draw: the
 * golden set now gives the question another split than the draw recorded,
 * and one of the two is the held-out split. Moving a labelled question out of
 * the held-out split would otherwise drop its label from the gate (a way to
 * hide disagreements); moving one in would add an item the draw never framed
 * as held-out.
 */
function movedSplits(d: LoadedDraw, ctx: Pick<DrawContext, "splits" | "heldout">): { count: number; example?: string } {
  let count = 0;
  let example: string | undefined;
  for (const it of d.draw.population.items) {
    if (!ctx.splits?.has(it.question)) continue;
    const now = ctx.splits.get(it.question) ?? undefined;
    if (now === it.split || (now !== ctx.heldout && it.split !== ctx.heldout)) continue;
    count++;
    example ??= `${it.variant}/${it.question}: ${it.split ?? "no split"} then, ${now ?? "no split"} now`;
  }
  return example === undefined ? { count } : { count, example };
}

/**
 * The draws this rubric's labels name (their `draw`) that have no manifest in
 * labels/draws/. Deleting the manifest of a draw whose labels disagreed with
 * the judge, and drawing again with a seed chosen to land on agreeing items,
 * would keep only the draw that flatters the judge: while a named draw is
 * missing, no draw of the rubric counts.
 */
export function missingDraws(rubric: string, book: LabelBook, draws: DrawBook): string[] {
  const known = new Set(draws.draws.map((d) => d.draw.id));
  const missing = new Set<string>();
  for (const l of book.history) if (l.value.rubric === rubric && l.value.draw !== undefined && !known.has(l.value.draw)) missing.add(l.value.draw);
  return [...missing].sort();
}

/**
 * How one draw stands for one judge's verdicts. It covers them when every
 * held-out item they judged is in its frame (in its population with the same
 * input hash and an inclusion probability above 0); an item whose split is
 * unknown counts as held-out, so the check errs on the side of refusing.
 * Coverage and the skip test are over the drawn held-out items the judge
 * judged.
 */
export function drawStatus(d: LoadedDraw, group: JudgeGroup, heldoutItems: readonly JudgedItem[], book: LabelBook, minCoverage: number, ctx: DrawContext, lost: readonly string[]): DrawStatus {
  let missing = 0;
  let outside = 0;
  let example: JudgedItem | undefined;
  const drawnItems: JudgedItem[] = [];
  for (const it of heldoutItems) {
    const at = drawItemOf(d, it.key, it.inputHash);
    if (!at && d.draw.scope.variants.includes(it.key.variant)) missing++;
    else if (!at || !(at.item.p > 0)) outside++;
    else {
      if (at.drawn) drawnItems.push(it);
      continue;
    }
    example ??= it;
  }
  // A design whose inclusion probabilities are unknown, or do not replay from its population's seed, never covers (plan/designs.ts).
  const verdicts = verdictsOf(group);
  const refused = designRefusal(d.draw) ?? stratifiedScope(d, ctx.heldout) ?? strataMismatch(d.draw, (it) => {
    const j = verdicts.get(drawItemKey(d.draw.rubric, it));
    return j && { variant: it.variant, verdict: j.verdict, ...(j.pYes !== undefined ? { pYes: j.pYes } : {}) };
  });
  const moved = movedSplits(d, ctx);
  const unjudged = unjudgedFrame(d, verdicts);
  const short = frameGaps(d, group, setOf(heldoutItems), ctx);
  const covers = missing === 0 && outside === 0 && refused === null && moved.count === 0 && lost.length === 0 && unjudged.count === 0 && short.count === 0;
  const why: string[] = refused ? [`the gate refuses this draw: ${refused}`] : [];
  if (lost.length) why.push(`labels of ${d.draw.rubric} name ${lost.length === 1 ? "a draw" : `${lost.length} draws`} whose manifest is missing from ${ctx.draws.dir || "labels/draws"} (${lost.slice(0, 3).join(", ")}${lost.length > 3 ? ", ..." : ""}): no draw of the rubric counts until it is back (a deleted draw could leave only one that flatters the judge)`);
  if (moved.count) why.push(`the split of ${moved.count} of its item${moved.count === 1 ? "" : "s"} changed in the golden set since the draw, in or out of "${ctx.heldout}" (for example ${moved.example}): draw again on today's splits`);
  if (unjudged.count) why.push(`${unjudged.count} item${unjudged.count === 1 ? "" : "s"} of its population ${unjudged.count === 1 ? "is" : "are"} not among the items this judge judged (for example ${unjudged.example}): its seed follows its population, so a population that is not today's judged items draws what it likes; draw again`);
  if (short.count) why.push(`${short.count} judged item${short.count === 1 ? "" : "s"} outside the held-out split ${short.count === 1 ? "is" : "are"} not in its population, or in its scope but not its frame (for example ${short.example}): its seed follows its whole population, dev items too, so a population short of judged items draws what it likes; draw again`);
  if (missing) why.push(`${missing} held-out item${missing === 1 ? "" : "s"} judged now ${missing === 1 ? "is" : "are"} not in its population (new items, or their evidence changed since the draw)`);
  if (outside) why.push(`${outside} held-out item${outside === 1 ? "" : "s"} judged now ${outside === 1 ? "was" : "were"} outside its frame (it was limited to variants ${d.draw.scope.variants.join(", ")}${d.draw.scope.splits ? ` and splits ${d.draw.scope.splits.join(", ")}` : ""})`);
  if (example) why.push(`for example ${example.key.variant}/${example.key.question}/${example.key.unit}`);
  let labelled = 0;
  const tally = { labelled: { yes: 0, no: 0 }, unlabelled: { yes: 0, no: 0 } };
  for (const it of drawnItems) {
    // Any answer labels an item for coverage (the gate then takes one against the judge, if any): a second
    // annotator cannot void a finished draw; a second opinion alone does not label it.
    const l = book.items.get(evidenceKey(it.key, it.inputHash));
    const has = labelledForDraw(l);
    if (has) labelled++;
    if (it.verdict === "yes" || it.verdict === "no") tally[has ? "labelled" : "unlabelled"][it.verdict]++;
  }
  const coverage = drawnItems.length ? labelled / drawnItems.length : null;
  let skipTest: SkipTest | null = null;
  const un = tally.unlabelled.yes + tally.unlabelled.no;
  const lab = tally.labelled.yes + tally.labelled.no;
  if (un > 0 && lab > 0) {
    const p = fisherExact([[tally.labelled.yes, tally.labelled.no], [tally.unlabelled.yes, tally.unlabelled.no]]);
    const leansTo = tally.unlabelled.yes / un >= tally.labelled.yes / lab ? "yes" : "no";
    skipTest = { ...tally, p, leaning: p < SKIP_TEST_ALPHA, leansTo };
  }
  return {
    id: d.draw.id,
    file: d.file,
    annotator: d.draw.annotator,
    fingerprint: d.draw.fingerprint,
    covers,
    ...(why.length ? { why: why.join("; ") } : {}),
    drawn: drawnItems.length,
    labelled,
    coverage,
    counts: covers && (coverage ?? 1) >= minCoverage,
    skipTest,
  };
}
