/**
 * Random means drawn by ragjudge (issue 12): the sampling manifests the gate
 * checks labels against, their coverage, the skip test, attested imports,
 * and what an honest sample still earns. Synthetic data through the library
 * (`calibrate`), the same code the CLI runs.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { calibrate } from "../../src/calibration/calibrate.js";
import { drawIdOf, drawItemKey, drawText, loadDraws, populationHash, type DrawBook, type LoadedDraw } from "../../src/calibration/draws.js";
import { designRefusal, uniformReplay } from "../../src/calibration/plan/stratified-draw.js";
import { Draw, type DrawItem } from "../../src/golden/schema/draw.js";
import { resolveLabels, type LocatedLabel } from "../../src/calibration/labels.js";
import type { Judgment, Label } from "../../src/golden/schema/items.js";
import { inputErrorMessages } from "../helpers/input-errors.js";
import { tempDir } from "../helpers/temp.js";
import { drawnItems, honestDraw, testDraw } from "./draw-helpers.js";

const H = (i: number) => i.toString(16).padStart(64, "0");
const T = "2026-01-01T00:00:00.000Z";
const q = (i: number) => `q${String(i).padStart(3, "0")}`;

/** Item i's question is q(i) and its input hash H(i); a question name stands for its item. */
const hashOf = (question: string) => H(Number(question.slice(1)));
function judgment(question: string, verdict: "yes" | "no"): Judgment {
  return { variant: "v", question, rubric: "r", unit: "answer", inputHash: hashOf(question), fingerprint: "fp", judge: "llm", model: "m", servedModel: "m-1", repeat: 0, verdict, reason: "", cached: false, time: T } as Judgment;
}
function label(question: string, value: "yes" | "no", over: Partial<Label> = {}, line = 1): LocatedLabel {
  return { value: { variant: "v", question, rubric: "r", unit: "answer", inputHash: hashOf(question), label: value, annotator: "asha", provenance: "human", frame: "random", split: "heldout", time: T, ...over } as Label, file: "labels/asha.jsonl", line };
}
const book = (labels: LocatedLabel[]) => resolveLabels("labels", [], labels);
const draws = (...ds: LoadedDraw[]): DrawBook => ({ dir: "labels/draws", draws: ds });
/** A uniform draw over items 1..n, drawing `drawn`. */
const drawOf = (n: number, drawn: number[], over: Parameters<typeof testDraw>[3] = {}) =>
  testDraw("r", Array.from({ length: n }, (_, k) => ({ question: q(k + 1), inputHash: H(k + 1) })), drawn.map((i) => i - 1), over);

/**
 * 200 judged held-out items; 100 of them drawn by seed 1 and labelled so that
 * judge x label is [[66, 4], [4, 26]] (kappa 0.81): an honest random sample.
 * `role(i)` is the question of the i-th drawn item (i = 1..100) and of the
 * undrawn ones after (101..200), in the order the cells are filled.
 */
function honest(): { judgments: Judgment[]; labels: LocatedLabel[]; draw: LoadedDraw; role: (i: number) => string; drawnQs: Set<string> } {
  const draw = honestDraw("r", Array.from({ length: 200 }, (_, k) => ({ question: q(k + 1), inputHash: H(k + 1) })), 100);
  const drawnQs = drawnItems(draw).map((it) => it.question);
  const rest = Array.from({ length: 200 }, (_, k) => q(k + 1)).filter((x) => !drawnQs.includes(x));
  const roles = [...drawnQs, ...rest];
  const role = (i: number) => roles[i - 1]!;
  const judgments: Judgment[] = [];
  const labels: LocatedLabel[] = [];
  const cells: ["yes" | "no", "yes" | "no", number][] = [["yes", "yes", 66], ["yes", "no", 4], ["no", "yes", 4], ["no", "no", 26]];
  let i = 0;
  for (const [v, l, n] of cells) {
    for (let k = 0; k < n; k++) {
      i++;
      judgments.push(judgment(role(i), v));
      labels.push(label(role(i), l, {}, i));
    }
  }
  for (let k = 101; k <= 200; k++) judgments.push(judgment(role(k), k % 3 ? "yes" : "no"));
  return { judgments, labels, draw, role, drawnQs: new Set(drawnQs) };
}

const run = (judgments: Judgment[], labels: LocatedLabel[], d: DrawBook, trust?: Parameters<typeof calibrate>[0]["trust"]) =>
  calibrate({ judgments, judgmentsFile: { file: "j.jsonl" }, book: book(labels), draws: d, reps: 200, time: T, ...(trust ? { trust } : {}) }).rubrics[0]!;

describe("the gate and recorded draws", () => {
  it("still trusts an honest random held-out sample of 100 labels with kappa 0.8", () => {
    const { judgments, labels, draw } = honest();
    const r = run(judgments, labels, draws(draw));
    expect(r.gate.n).toBe(100);
    expect(r.gate.kappa.kappa).toBeCloseTo(0.8095, 3);
    expect(r.trust).toMatchObject({ trusted: true, declared: 0 });
    expect(r.trust.message).toMatch(/^trusted: kappa 0\.81, 95% CI \[0\.6\d, 0\.9\d\], n = 100 human labels$/);
    expect(r.draws).toEqual([expect.objectContaining({ covers: true, drawn: 100, labelled: 100, coverage: 1, counts: true })]);
    expect(r.record.draws!.ids).toEqual([draw.draw.id]);
  });

  it("does not count a draw whose frame misses items judged now (new evidence since the draw)", () => {
    const { judgments, labels } = honest();
    // The draw saw 195 of today's 200 items: five answers changed since.
    const stale = honestDraw("r", Array.from({ length: 195 }, (_, k) => ({ question: q(k + 1), inputHash: H(k + 1) })), 100);
    const r = run(judgments, labels, draws(stale));
    expect(r.gate.n).toBe(0);
    expect(r.draws[0]).toMatchObject({ covers: false, counts: false });
    expect(r.draws[0]!.why).toMatch(/^5 held-out items judged now are not in its population \(new items, or their evidence changed since the draw\); for example v\/q196\/answer/);
    expect(r.trust.message).toMatch(/^untrusted: no label counts \(not counted: (\d+ random-frame labels outside any recorded draw [^;]*; )?\d+ labels drawn by draws that do not cover the judged items/);
    // A draw limited to another split does not cover the held-out items either.
    const devOnly = honestDraw("r", Array.from({ length: 200 }, (_, k) => ({ question: q(k + 1), inputHash: H(k + 1), p: k < 100 ? 0.5 : 0 })), 50, { scope: { variants: ["v"], splits: ["dev"] } });
    expect(run(judgments, labels, draws(devOnly)).draws[0]!.why).toMatch(/100 held-out items judged now were outside its frame \(it was limited to variants v and splits dev\)/);
  });

  it("counts a draw's labels only once minCoverage of it is labelled, so skipping cannot choose the sample", () => {
    const { judgments, labels, draw } = honest();
    const r = run(judgments, labels.slice(0, 70), draws(draw));
    expect(r.gate.n).toBe(0);
    expect(r.draws[0]).toMatchObject({ drawn: 100, labelled: 70, coverage: 0.7, counts: false });
    // Said once, in the draw's own line of every report (not again as a note).
    expect(r.trust.notes.join("\n")).not.toContain("drawn held-out items labelled");
    expect(r.trust.message).toMatch(/not counted: 70 labels of draws labelled below 80% \(label the rest of the draw\)/);
    expect(run(judgments, labels.slice(0, 70), draws(draw), { minCoverage: 0.7 }).gate.n).toBe(70);
  });

  it("warns when the skips lean to one verdict (Fisher's exact test), without changing the state", () => {
    const { judgments, labels, draw, role, drawnQs } = honest();
    // Skip 15 of the 30 items the judge said no to, none it said yes to.
    const skipped = new Set(judgments.filter((j) => j.verdict === "no" && drawnQs.has(j.question)).slice(0, 15).map((j) => j.question));
    const r = run(judgments, labels.filter((l) => !skipped.has(l.value.question)), draws(draw));
    expect(r.draws[0]!.skipTest).toMatchObject({ unlabelled: { yes: 0, no: 15 }, leaning: true, leansTo: "no" });
    expect(r.draws[0]!.skipTest!.p).toBeLessThan(1e-6);
    expect(r.trust.notes.find((n) => n.includes("skips are not at random"))).toMatch(new RegExp(`^draw ${draw.draw.id}: skips are not at random: the judge said no to 100% of the 15 unlabelled drawn items but to 18% of the 85 labelled ones \\(Fisher's exact test p = `));
    // Skips spread over both verdicts: no warning.
    const even = new Set(Array.from({ length: 15 }, (_, k) => role(1 + 6 * k)));
    expect(run(judgments, labels.filter((l) => !even.has(l.value.question)), draws(draw)).trust.notes.some((n) => n.includes("skips"))).toBe(false);
  });

  it("counts attested imports as random, and says they are declared random, not drawn by ragjudge", () => {
    const { judgments, labels } = honest();
    const attested = labels.map((l) => ({ ...l, value: { ...l.value, provenance: "import" as const, source: "vendor-2026", attestation: "vendor drew 100 of 200 uniformly, seed 7" } }));
    const r = run(judgments, attested, draws());
    expect(r.trust).toMatchObject({ trusted: true, declared: 100 });
    expect(r.trust.message).toMatch(/n = 100 imported labels \(source vendor-2026\); 100 of them declared random, not drawn by ragjudge$/);
    expect(r.trust.notes).toContain('100 counted labels are declared random, not drawn by ragjudge (attested: "vendor drew 100 of 200 uniformly, seed 7")');
  });

  it("refuses a draw whose population was reordered so that its seed lands on chosen items (hashes and id recomputed)", () => {
    const { judgments, labels, draw } = honest();
    // The forger wants the seed to draw the 100 items the judge and labels agree on most: here, any chosen 100.
    const items = draw.draw.population.items;
    const chosen = items.filter((it) => !draw.drawn.has(items.indexOf(it))).slice(0, 50).concat(items.filter((it) => draw.drawn.has(items.indexOf(it))).slice(0, 50));
    const slots = uniformReplay("r", 1, items, 100);
    const listed: (DrawItem | undefined)[] = new Array(items.length).fill(undefined);
    slots.forEach((slot, k) => (listed[slot] = chosen[k]));
    const rest = items.filter((it) => !chosen.includes(it));
    for (let k = 0; k < listed.length; k++) listed[k] ??= rest.shift();
    const population = listed as DrawItem[];
    const body = { ...draw.draw, population: { hash: populationHash("r", population), size: population.length, items: population }, drawn: slots };
    const forged = Draw.parse({ ...body, id: drawIdOf(body) });
    const loaded: LoadedDraw = { file: `labels/draws/${forged.id}.json`, draw: forged, index: new Map(population.map((it, i) => [drawItemKey("r", it), i])), drawn: new Set(slots) };
    expect(uniformReplay("r", 1, forged.population.items, 100)).toEqual(forged.drawn); // the replay alone is fooled
    expect(designRefusal(forged)).toMatch(/^its population is not in canonical order at item \d+ \(v\/q\d+\/answer\): a seed draws by position in that order, so the manifest was edited$/);
    const r = run(judgments, labels, draws(loaded));
    expect(r.gate.n).toBe(0);
    expect(r.draws[0]).toMatchObject({ covers: false, counts: false });
    expect(r.draws[0]!.why).toMatch(/^the gate refuses this draw: its population is not in canonical order/);
  });

  it("refuses a manifest edited after it was drawn, naming the file and field", () => {
    const dir = tempDir("ragjudge-draws-");
    const d = drawOf(10, [1, 2]);
    mkdirSync(join(dir, "draws"));
    const file = join(dir, "draws", `${d.draw.id}.json`);
    writeFileSync(file, drawText(d.draw));
    expect(loadDraws(dir).draws.map((x) => x.draw.id)).toEqual([d.draw.id]);
    // Someone adds an item to the drawn list by hand.
    const extra = [...Array(10).keys()].find((i) => !d.draw.drawn.includes(i))!;
    writeFileSync(file, readFileSync(file, "utf8").replace(/"drawn": \[/, `"drawn": [${extra},`));
    expect(inputErrorMessages(() => loadDraws(dir))[0]).toMatch(new RegExp(`${d.draw.id}\\.json: id: the manifest's content hashes to [0-9a-f]{16}, not ${d.draw.id}: it was edited after it was drawn`));
  });
});
