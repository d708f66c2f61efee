/**
 * Which designs the gate accepts (src/calibration/plan/designs.ts): a
 * stratified draw weighted back, and the ways to talk it into trusting a
 * sample that is not one. Every attack recomputes the manifest's id and
 * population hash, so only the design check can catch it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/paths.js";
import { calibrate } from "../../../src/calibration/calibrate.js";
import { drawIdOf, drawItemKey, frameSeed, populationHash, type DrawBody, type DrawBook, type LoadedDraw } from "../../../src/calibration/draws.js";
import { resolveLabels, type LocatedLabel } from "../../../src/calibration/labels.js";
import { accepts, DESIGNS, renderDesignsMarkdown } from "../../../src/calibration/plan/designs.js";
import { designRefusal, populationSeed, stratifiedDrawBody, uniformReplay } from "../../../src/calibration/plan/stratified-draw.js";
import { Draw } from "../../../src/golden/schema/draw.js";
import type { Judgment, Label } from "../../../src/golden/schema/items.js";

const H = (i: number) => i.toString(16).padStart(64, "0");
const T = "2026-01-01T00:00:00.000Z";
const q = (i: number) => `q${String(i).padStart(3, "0")}`;
const verdictOf = (i: number): "yes" | "no" => (i <= 340 ? "yes" : "no");

const judgments: Judgment[] = Array.from({ length: 400 }, (_, k) => ({
  variant: "v", question: q(k + 1), rubric: "r", unit: "answer", inputHash: H(k + 1), fingerprint: "fp", judge: "llm", repeat: 0, verdict: verdictOf(k + 1), reason: "", cached: false, time: T,
}) as Judgment);
const key = (i: number) => ({ key: { variant: "v", question: q(i), rubric: "r", unit: "answer" }, inputHash: H(i), split: "heldout" });

function loaded(body: DrawBody): LoadedDraw {
  // The attacker recomputes every hash: the manifest loads as if untouched.
  const fixed = { ...body, population: { ...body.population, hash: populationHash(body.rubric, body.population.items) } };
  const draw = Draw.parse({ ...fixed, id: drawIdOf(fixed), time: T });
  return { file: `labels/draws/${draw.id}.json`, draw, index: new Map(draw.population.items.map((it, i) => [drawItemKey("r", it), i])), drawn: new Set(draw.drawn) };
}

function honestBody(allocation = { "verdict no": 40, "verdict yes": 60 }): DrawBody {
  return stratifiedDrawBody({
    rubric: "r", annotator: "asha", fingerprint: "fp", servedModels: [], scope: { variants: ["v"], splits: ["heldout"] },
    frame: Array.from({ length: 400 }, (_, k) => ({ ...key(k + 1), stratum: `verdict ${verdictOf(k + 1)}` })), outside: [], allocation: new Map(Object.entries(allocation)),
  });
}

/** Labels on the drawn items: agreeing with the judge except one in 40 (yes stratum) and one in 20 (no stratum). */
function labelsFor(body: Pick<DrawBody, "drawn" | "population">, frame: Label["frame"] = "random"): LocatedLabel[] {
  return body.drawn.map((idx, k) => {
    const i = Number(body.population.items[idx]!.question.slice(1));
    const v = verdictOf(i);
    const flip = v === "yes" ? k % 40 === 0 : k % 20 === 0;
    const label = flip ? (v === "yes" ? "no" : "yes") : v;
    return { value: { variant: "v", question: q(i), rubric: "r", unit: "answer", inputHash: H(i), label, annotator: "asha", provenance: "human", frame, split: "heldout", time: T } as Label, file: "labels/asha.jsonl", line: k + 1 };
  });
}

const run = (labels: LocatedLabel[], ...ds: LoadedDraw[]) => {
  const book: DrawBook = { dir: "labels/draws", draws: ds };
  return calibrate({ judgments, judgmentsFile: { file: "j.jsonl" }, book: resolveLabels("labels", [], labels), draws: book, reps: 200, time: T }).rubrics[0]!;
};

describe("the gate and sampling designs", () => {
  it("counts an honest stratified draw, weighted back to the population, and trusts it", () => {
    const body = honestBody();
    expect(designRefusal(loaded(body).draw)).toBeNull();
    const r = run(labelsFor(body), loaded(body));
    expect(r.gate.n).toBe(100);
    expect(r.weighted).toBe(true);
    // Weighted shares: the judge said yes to 340 of 400 items.
    expect((r.gate.confusion.tp + r.gate.confusion.fp) / r.gate.confusion.n).toBeCloseTo(340 / 400, 10);
    expect(r.trust.trusted).toBe(true);
  });

  it("refuses a stratified draw whose probabilities were edited (hashes recomputed)", () => {
    const body = honestBody();
    const edited = { ...body, population: { ...body.population, items: body.population.items.map((it) => (it.stratum === "verdict no" ? { ...it, p: 0.9 } : it)) } };
    const d = loaded(edited);
    expect(designRefusal(d.draw)).toMatch(/has inclusion probability 0\.9 but its stratum's is 0\.667 \(40 of 60\): the manifest was edited/);
    const r = run(labelsFor(body), d);
    expect(r.draws[0]).toMatchObject({ covers: false, counts: false });
    expect(r.draws[0]!.why).toMatch(/^the gate refuses this draw: /);
    expect(r.gate.n).toBe(0);
    expect(r.trust.trusted).toBe(false);
  });

  it("refuses a draw whose drawn items were swapped within a stratum (probabilities still consistent)", () => {
    const body = honestBody();
    const drawnSet = new Set(body.drawn);
    const undrawn = body.population.items.findIndex((it, i) => it.stratum === "verdict no" && !drawnSet.has(i));
    const swapAt = body.drawn.findIndex((i) => body.population.items[i]!.stratum === "verdict no");
    const edited = { ...body, drawn: body.drawn.map((x, k) => (k === swapAt ? undrawn : x)) };
    expect(designRefusal(loaded(edited).draw)).toBe(`its drawn items are not what seed ${body.seed} draws from its strata: the manifest was edited`);
    expect(run(labelsFor(edited), loaded(edited)).trust.trusted).toBe(false);
  });

  it("refuses strata of the manifest's own choosing: renamed, or items moved between them, each stratum's stream draws what the shopper likes (hashes and id recomputed)", () => {
    const frame = (stratum: (i: number) => string) => Array.from({ length: 400 }, (_, k) => ({ ...key(k + 1), stratum: stratum(k + 1) }));
    const drawWith = (stratum: (i: number) => string, allocation: Record<string, number>) => stratifiedDrawBody({
      rubric: "r", annotator: "asha", fingerprint: "fp", servedModels: [], scope: { variants: ["v"], splits: ["heldout"] }, frame: frame(stratum), outside: [], allocation: new Map(Object.entries(allocation)),
    });
    // Renamed: the judge's own cut, under names chosen until each stratum's stream draws the flattering items.
    const renamed = drawWith((i) => `verdict ${verdictOf(i)} (try 7)`, { "verdict no (try 7)": 40, "verdict yes (try 7)": 60 });
    expect(designRefusal(loaded(renamed).draw)).toBeNull(); // consistent with itself
    const r = run(labelsFor(renamed), loaded(renamed));
    expect(r.draws[0]).toMatchObject({ covers: false, counts: false });
    expect(r.draws[0]!.why).toMatch(/^the gate refuses this draw: its strata are not this judge's verdicts \(item v\/q\d+\/answer is in stratum "verdict (yes|no) \(try 7\)", which this judge's verdict (yes|no) does not give it\)/);
    expect(r.gate.n).toBe(0);
    // Items moved between the judge's strata: a no-verdict item filed with the yeses.
    const moved = drawWith((i) => `verdict ${i === 400 ? "yes" : verdictOf(i)}`, { "verdict no": 40, "verdict yes": 60 });
    expect(run(labelsFor(moved), loaded(moved)).draws[0]!.why).toMatch(/its strata are not this judge's verdicts \(item v\/q400\/answer is in stratum "verdict yes", which this judge's verdict no does not give it\)/);
    // A verdict that is an error today (a transient failure since the draw) fits any stratum: counted as a disagreement, not a forgery.
    const honest = honestBody();
    const erred = judgments.map((j) => (j.question === q(1) ? { ...j, verdict: "error" as const, error: "http-503" } : j));
    const withError = calibrate({ judgments: erred, judgmentsFile: { file: "j.jsonl" }, book: resolveLabels("labels", [], labelsFor(honest)), draws: { dir: "labels/draws", draws: [loaded(honest)] }, reps: 200, time: T }).rubrics[0]!;
    expect(withError.draws[0]).toMatchObject({ covers: true, counts: true });
    // An answer changed since the draw (another input hash): the draw no longer covers, for that reason alone, not as a forged cut.
    const changed = judgments.map((j) => (j.question === q(1) ? { ...j, inputHash: "f".repeat(64) } : j));
    const withChange = calibrate({ judgments: changed, judgmentsFile: { file: "j.jsonl" }, book: resolveLabels("labels", [], labelsFor(honest)), draws: { dir: "labels/draws", draws: [loaded(honest)] }, reps: 200, time: T }).rubrics[0]!;
    expect(withChange.draws[0]).toMatchObject({ covers: false, counts: false });
    expect(withChange.draws[0]!.why).toMatch(/is not among the items this judge judged/);
    expect(withChange.draws[0]!.why).not.toMatch(/strata are not this judge's/);
    // The judge's cut at a coarser level (one stratum for all) is one plan --budget makes for a small budget: counted.
    const single = drawWith(() => "all", { all: 100 });
    expect(run(labelsFor(single), loaded(single)).draws[0]).toMatchObject({ covers: true });
  });

  it("refuses a zero-probability stratum: the draw does not represent it", () => {
    const body = honestBody({ "verdict no": 0, "verdict yes": 100 });
    expect(designRefusal(loaded(body).draw)).toBe('stratum "verdict no" has inclusion probability 0 (none of its 60 items drawn): the draw does not represent it');
    const r = run(labelsFor(body), loaded(body));
    expect(r.gate.n).toBe(0);
    expect(r.trust.trusted).toBe(false);
  });

  it("refuses a uniform draw whose frame is not its scope: in-scope items moved out of the frame shift where a seed lands", () => {
    // `sample` without --split: every judged item is in the frame, dev (q001..q100) and held-out alike. The attacker moves
    // fifty dev items out of the frame (probability 0, listed last, in canonical order), so the draw takes the first 60 of
    // a smaller frame (positions further along the population's order), recomputes every probability, the drawn items
    // and every hash.
    const split = (i: number) => (i <= 100 ? "dev" : "heldout");
    const item = (i: number, p: number) => ({ variant: "v", question: q(i), unit: "answer", inputHash: H(i), split: split(i), p });
    const order = (a: { question: string }, b: { question: string }) => (drawItemKey("r", a as never) < drawItemKey("r", b as never) ? -1 : 1);
    const seedOf = (items: ReturnType<typeof item>[]) => populationSeed("r", items);
    const body = (items: ReturnType<typeof item>[]): DrawBody => ({
      schema: "ragjudge.draw/1", design: "uniform", rubric: "r", annotator: "asha", seed: seedOf(items), requested: 60, fingerprint: "fp", servedModels: [],
      scope: { variants: ["v"], splits: null }, population: { hash: "", size: items.length, items }, drawn: uniformReplay("r", seedOf(items), items, 60),
    });
    const honest = body(Array.from({ length: 400 }, (_, k) => item(k + 1, 60 / 400)).sort(order));
    expect(designRefusal(loaded(honest).draw)).toBeNull();
    const frame = Array.from({ length: 350 }, (_, k) => item(k + 51, 60 / 350)).sort(order);
    const moved = Array.from({ length: 50 }, (_, k) => item(k + 1, 0)).sort(order);
    const edited = body([...frame, ...moved]);
    expect(designRefusal(loaded(edited).draw)).toBe("its population gives item 350 (v/q001/answer, split dev) probability 0 though it is inside the draw's scope (variants v, every split): the manifest was edited");
    // Scoped to the held-out split, the same dev items are outside the frame by right; a held-out one moved out is not.
    const scoped = { ...edited, scope: { variants: ["v"], splits: ["heldout"] } };
    const heldoutFrame = Array.from({ length: 300 }, (_, k) => item(k + 101, 60 / 300)).sort(order);
    const dev = Array.from({ length: 100 }, (_, k) => item(k + 1, 0)).sort(order);
    const fair = { ...scoped, seed: seedOf([...heldoutFrame, ...dev]), population: { hash: "", size: 400, items: [...heldoutFrame, ...dev] }, drawn: uniformReplay("r", seedOf([...heldoutFrame, ...dev]), [...heldoutFrame, ...dev], 60) };
    expect(designRefusal(loaded(fair).draw)).toBeNull();
    const hidden = [...heldoutFrame.slice(1).map((i) => ({ ...i, p: 60 / 299 })), ...[heldoutFrame[0]!, ...dev].map((i) => ({ ...i, p: 0 })).sort(order)];
    expect(designRefusal(loaded({ ...fair, seed: seedOf(hidden), population: { hash: "", size: 400, items: hidden }, drawn: uniformReplay("r", seedOf(hidden), hidden, 60) }).draw)).toMatch(/^its population gives item 399 \(v\/q101\/answer, split heldout\) probability 0 though it is inside the draw's scope \(variants v, splits heldout\)/);
  });

  it("never lets an active frame feed the gate, relabelled random or recorded as uniform", () => {
    // The 40 items nearest the judge's boundary, say: the judge's no verdicts first.
    const drawn = Array.from({ length: 40 }, (_, k) => 360 + k);
    const items = Array.from({ length: 400 }, (_, k) => ({ variant: "v", question: q(k + 1), unit: "answer", inputHash: H(k + 1), split: "heldout", p: 0 }));
    const active: DrawBody = {
      schema: "ragjudge.draw/1", design: "active", rubric: "r", annotator: "asha", seed: 1, requested: 40, fingerprint: "fp", servedModels: [],
      scope: { variants: ["v"], splits: null }, population: { hash: populationHash("r", items), size: 400, items }, drawn,
    };
    const labels = labelsFor(active);
    // Its labels, relabelled random: still not drawn by a draw the gate accepts.
    const a = run(labels, loaded(active));
    expect(designRefusal(loaded(active).draw)).toMatch(/^its design is active/);
    expect(a.gate.n).toBe(0);
    expect(a.trust.trusted).toBe(false);
    expect(run(labels).gate.n).toBe(0);
    // Recorded as uniform: with probability 0 the schema refuses it; with n/N everywhere a chosen seed is refused, and
    // the frame's own seed does not draw those items.
    expect(() => loaded({ ...active, design: "uniform" })).toThrow(/inclusion probability 0/);
    const asUniform = { ...active, design: "uniform" as const, population: { ...active.population, items: items.map((it) => ({ ...it, p: 0.1 })) } };
    expect(designRefusal(loaded(asUniform).draw)).toMatch(/^its seed 1 is not the one its population fixes \(\d+\)/);
    const uniform = { ...asUniform, seed: frameSeed("r", asUniform.population.items) };
    expect(designRefusal(loaded(uniform).draw)).toBe(`its drawn items are not what seed ${uniform.seed} draws from its frame: the manifest was edited`);
    expect(run(labels, loaded(uniform)).trust.trusted).toBe(false);
  });

  it("states which estimators accept each design, and why the others refuse", () => {
    expect(DESIGNS.map((d) => d.id)).toEqual(["uniform", "stratified", "active"]);
    expect(accepts("stratified", "ppi")).toMatchObject({ ok: true });
    expect(accepts("stratified", "kappa-bootstrap")).toMatchObject({ ok: false, reason: expect.stringMatching(/fixes n_h per stratum/) });
    expect(accepts("active", "gate")).toMatchObject({ ok: false, reason: expect.stringMatching(/no item has a known inclusion probability/) });
    for (const d of DESIGNS) expect(d.probabilitiesKnown).toBe(accepts(d.id, "gate").ok);
    expect(renderDesignsMarkdown().split("\n")).toHaveLength(2 + DESIGNS.length);
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain(renderDesignsMarkdown());
  });
});
