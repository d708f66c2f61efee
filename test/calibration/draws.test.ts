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
import { drawIdOf, drawItemKey, drawText, frameSeed, loadDraws, populationHash, type DrawBook, type LoadedDraw } from "../../src/calibration/draws.js";
import { designRefusal, uniformReplay } from "../../src/calibration/plan/stratified-draw.js";
import { Draw, type DrawItem } from "../../src/golden/schema/draw.js";
import { GoldenQuestion } from "../../src/golden/schema/golden.js";
import { resolveLabels, type LocatedLabel } from "../../src/calibration/labels.js";
import type { Judgment, Label } from "../../src/golden/schema/items.js";
import { inputErrorMessages } from "../helpers/input-errors.js";
import { tempDir } from "../helpers/temp.js";
import { drawnItems, honestDraw } from "./draw-helpers.js";

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
/** A uniform draw of m of items 1..n. */
const drawOf = (n: number, m: number) => honestDraw("r", Array.from({ length: n }, (_, k) => ({ question: q(k + 1), inputHash: H(k + 1) })), m);

/** A manifest rewritten by someone who recomputes every hash and the id, so that it loads as if untouched. */
function forge(d: LoadedDraw, population: DrawItem[], seed: number, n: number): LoadedDraw {
  const slots = uniformReplay("r", seed, population, n);
  const body = { ...d.draw, seed, population: { hash: populationHash("r", population), size: population.length, items: population }, drawn: slots };
  const forged = Draw.parse({ ...body, id: drawIdOf(body) });
  return { file: `labels/draws/${forged.id}.json`, draw: forged, index: new Map(population.map((it, i) => [drawItemKey("r", it), i])), drawn: new Set(slots) };
}

/**
 * 200 judged held-out items; 100 of them drawn (by the frame's seed) and labelled so that
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
    expect(r.draws[0]!.why).toMatch(/^5 held-out items judged now are not in its population \(new items, or their evidence changed since the draw\); for example v\/q(19[6-9]|200)\/answer/);
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

  it("counts attested imports as random only where the config says so (trust.attested), and then says they are declared random, not drawn by ragjudge", () => {
    const { judgments, labels } = honest();
    const attested = labels.map((l) => ({ ...l, value: { ...l.value, provenance: "import" as const, source: "vendor-2026", attestation: "vendor drew 100 of 200 uniformly, seed 7" } }));
    // one more attested label, of a dev item: never counted, so not in the note's count either
    const devJudged = [...judgments, judgment(q(300), "yes")];
    const withDev = [...attested, { ...attested[0]!, value: { ...attested[0]!.value, question: q(300), inputHash: hashOf(q(300)), split: "dev" } }];
    // By default a declaration is not a draw: the same labels count for nothing, and the gate says why.
    const off = run(devJudged, withDev, draws());
    expect(off.trust).toMatchObject({ trusted: false, declared: 0 });
    expect(off.gate.n).toBe(0);
    expect(off.trust.notes).toContain("100 random labels imported with an attestation (declared random, not drawn by ragjudge) do not count: the config's trust.attested is off; set it to true to count declared random labels");
    const r = run(judgments, attested, draws(), { attested: true });
    expect(r.trust).toMatchObject({ trusted: true, declared: 100 });
    expect(r.trust.message).toMatch(/n = 100 imported labels \(source vendor-2026\); 100 of them declared random, not drawn by ragjudge$/);
    expect(r.trust.notes).toContain('100 counted labels are declared random, not drawn by ragjudge (attested: "vendor drew 100 of 200 uniformly, seed 7")');
  });

  it("refuses a draw whose population was reordered so that its seed lands on chosen items (hashes and id recomputed)", () => {
    const { judgments, labels, draw } = honest();
    // The forger wants the seed to draw the 100 items the judge and labels agree on most: here, any chosen 100.
    const items = draw.draw.population.items;
    const chosen = items.filter((it) => !draw.drawn.has(items.indexOf(it))).slice(0, 50).concat(items.filter((it) => draw.drawn.has(items.indexOf(it))).slice(0, 50));
    const slots = uniformReplay("r", draw.draw.seed, items, 100);
    const listed: (DrawItem | undefined)[] = new Array(items.length).fill(undefined);
    slots.forEach((slot, k) => (listed[slot] = chosen[k]));
    const rest = items.filter((it) => !chosen.includes(it));
    for (let k = 0; k < listed.length; k++) listed[k] ??= rest.shift();
    const population = listed as DrawItem[];
    const body = { ...draw.draw, population: { hash: populationHash("r", population), size: population.length, items: population }, drawn: slots };
    const forged = Draw.parse({ ...body, id: drawIdOf(body) });
    const loaded: LoadedDraw = { file: `labels/draws/${forged.id}.json`, draw: forged, index: new Map(population.map((it, i) => [drawItemKey("r", it), i])), drawn: new Set(slots) };
    // the replay orders the population itself (drawOrder), so the listed order cannot steer it: it draws the honest items
    const questions = (items: readonly DrawItem[], at: readonly number[]) => at.map((i) => items[i]!.question).sort();
    expect(questions(forged.population.items, uniformReplay("r", forged.seed, forged.population.items, 100))).toEqual(questions(draw.draw.population.items, draw.draw.drawn));
    expect(uniformReplay("r", forged.seed, forged.population.items, 100)).not.toEqual(forged.drawn);
    expect(designRefusal(forged)).toMatch(/^its population is not in canonical order at item \d+ \(v\/q\d+\/answer\): a seed draws by position in that order, so the manifest was edited$/);
    const r = run(judgments, labels, draws(loaded));
    expect(r.gate.n).toBe(0);
    expect(r.draws[0]).toMatchObject({ covers: false, counts: false });
    expect(r.draws[0]!.why).toMatch(/^the gate refuses this draw: its population is not in canonical order/);
  });

  it("refuses a draw whose seed was chosen: drawing again and again and keeping the flattering draw buys nothing (hashes and id recomputed)", () => {
    const { judgments, labels, draw, drawnQs } = honest();
    const items = draw.draw.population.items;
    // The shopper tries seed after seed and keeps the first whose 100 items hold none of the 8 the judge gets wrong.
    const wrong = new Set(labels.filter((l) => judgments.find((j) => j.question === l.value.question)!.verdict !== l.value.label).map((l) => l.value.question));
    expect(wrong.size).toBe(8);
    let seed = 1;
    while (uniformReplay("r", seed, items, 100).some((i) => wrong.has(items[i]!.question))) seed++;
    const shopped = forge(draw, items, seed, 100);
    expect(designRefusal(shopped.draw)).toBe(`its seed ${seed} is not the one its population fixes (${draw.draw.seed}): a seed of one's choosing lets a draw be picked among many, so ragjudge draws with the population's own (a draw made by a ragjudge older than that, or edited); draw again with ragjudge sample --random, 100 items: labels of the items it draws again still count`);
    // labelled truthfully where drawn, the shopped draw would agree perfectly; the gate does not count it
    const truthful = [...labels, ...judgments.filter((j) => !drawnQs.has(j.question)).map((j, k) => label(j.question, j.verdict as "yes" | "no", {}, 200 + k))];
    const r = run(judgments, truthful, draws(shopped));
    expect(r.gate.n).toBe(0);
    expect(r.trust.trusted).toBe(false);
    expect(r.draws[0]!.why).toMatch(/^the gate refuses this draw: its seed \d+ is not the one its population fixes/);
    // The frame's own seed is what sample and the honest draw use.
    expect(draw.draw.seed).toBe(frameSeed("r", items));
  });

  it("refuses a draw whose frame was padded with items nobody judged to move its seed (hashes and id recomputed)", () => {
    const { judgments, labels, draw } = honest();
    const wrong = new Set(labels.filter((l) => judgments.find((j) => j.question === l.value.question)!.verdict !== l.value.label).map((l) => l.value.question));
    // One made-up item per try: each padded frame has a seed of its own, every one consistent with its manifest.
    let k = 0;
    let padded: LoadedDraw;
    do {
      k++;
      const fake: DrawItem = { variant: "v", question: `zz${k}`, unit: "answer", inputHash: H(100_000 + k), split: "heldout", p: 100 / 201 };
      const items = [...draw.draw.population.items.map((it) => ({ ...it, p: 100 / 201 })), fake];
      padded = forge(draw, items, frameSeed("r", items), 100);
    } while (drawnItems(padded).some((it) => wrong.has(it.question) || it.question.startsWith("zz")));
    expect(designRefusal(padded.draw)).toBeNull(); // the manifest is consistent with itself
    const r = run(judgments, labels, draws(padded));
    expect(r.gate.n).toBe(0);
    expect(r.draws[0]).toMatchObject({ covers: false, counts: false });
    expect(r.draws[0]!.why).toMatch(new RegExp(`^1 item of its population is not among the items this judge judged \\(for example v/zz${k}/answer\\): its seed follows its population`));
  });

  it("refuses a draw whose frame left out judged dev items: dropping dev judgments before sampling would choose the seed again", () => {
    const { judgments, labels } = honest();
    // 60 dev items besides the 200 held-out ones, judged; the golden set says which is which.
    const dev = Array.from({ length: 60 }, (_, k) => q(201 + k));
    const all = [...judgments, ...dev.map((x) => judgment(x, "yes"))];
    const questions = new Map([...all.map((j) => j.question)].map((id) => [id, GoldenQuestion.parse({ id, question: "?", relevant: ["d#1"], split: dev.includes(id) ? "dev" : "heldout" })]));
    const item = (question: string) => ({ question, inputHash: hashOf(question), split: dev.includes(question) ? "dev" : "heldout" });
    const heldoutQs = judgments.map((j) => j.question);
    const gate = (d: LoadedDraw) => calibrate({ judgments: all, judgmentsFile: { file: "j.jsonl" }, book: book(labels), draws: draws(d), reps: 200, time: T, questions }).rubrics[0]!;
    // The shopper samples from judgments with 20 dev items dropped (a frame, and a seed, of their choosing), then puts them back.
    const shopped = honestDraw("r", [...heldoutQs, ...dev.slice(20)].map(item), 100);
    const r = gate(shopped);
    expect(r.draws[0]).toMatchObject({ covers: false, counts: false });
    expect(r.draws[0]!.why).toMatch(/^20 judged items outside the held-out split are not in its population, or in its scope but not its frame \(for example v\/q2\d\d\/answer\): its seed follows its whole population/);
    expect(r.gate.n).toBe(0);
    // The whole frame is an honest draw: it covers, whatever it drew.
    expect(gate(honestDraw("r", [...heldoutQs, ...dev].map(item), 100)).draws[0]).toMatchObject({ covers: true });
    // Scoped to the held-out split, the dev items lie outside its frame, but its seed is still its whole population's:
    // a population short of them is refused the same way, and the whole one covers.
    const scoped = (devQs: string[]) => honestDraw("r", [...heldoutQs.map(item), ...devQs.map((x) => ({ ...item(x), p: 0 }))], 100, { scope: { variants: ["v"], splits: ["heldout"] } });
    const short = gate(scoped(dev.slice(20)));
    expect(short.draws[0]).toMatchObject({ covers: false, counts: false });
    expect(short.draws[0]!.why).toMatch(/^20 judged items outside the held-out split are not in its population/);
    expect(gate(scoped(dev)).draws[0]).toMatchObject({ covers: true });
  });

  it("refuses a draw whose population left out another variant's dev items: the seed follows every judged item, whatever its variant", () => {
    const { judgments, labels } = honest();
    // Variant w answered only dev questions: no held-out item of w voids a draw limited to variant v.
    const dev = Array.from({ length: 30 }, (_, k) => q(201 + k));
    const wDev = dev.map((x) => ({ ...judgment(x, "yes"), variant: "w" }));
    const all = [...judgments, ...wDev];
    const questions = new Map([...all.map((j) => j.question)].map((id) => [id, GoldenQuestion.parse({ id, question: "?", relevant: ["d#1"], split: dev.includes(id) ? "dev" : "heldout" })]));
    const gate = (d: LoadedDraw) => calibrate({ judgments: all, judgmentsFile: { file: "j.jsonl" }, book: book(labels), draws: draws(d), reps: 200, time: T, questions }).rubrics.find((r) => r.group.rubric === "r")!;
    const heldoutItems = judgments.map((j) => ({ question: j.question, inputHash: hashOf(j.question) }));
    const wItems = dev.map((x) => ({ question: x, inputHash: hashOf(x), variant: "w", split: "dev", p: 0 }));
    const vOnly = gate(honestDraw("r", heldoutItems, 100, { scope: { variants: ["v"], splits: ["heldout"] } }));
    expect(vOnly.draws[0]).toMatchObject({ covers: false, counts: false });
    expect(vOnly.draws[0]!.why).toMatch(/^30 judged items outside the held-out split are not in its population, .*\(for example w\/q2\d\d\/answer\)/);
    // With w's items in its population (outside its frame), the same draw of v covers.
    expect(gate(honestDraw("r", [...heldoutItems, ...wItems], 100, { scope: { variants: ["v"], splits: ["heldout"] } })).draws[0]).toMatchObject({ covers: true });
  });

  it("refuses a manifest edited after it was drawn, naming the file and field", () => {
    const dir = tempDir("ragjudge-draws-");
    const d = drawOf(10, 2);
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
