import { describe, expect, it } from "vitest";
import { correctedPassRates } from "../../src/calibration/corrected.js";
import { agreementFigures, gateFigureItems } from "../../src/calibration/figures.js";
import { resolveLabels, type LocatedLabel } from "../../src/calibration/labels.js";
import { pairGroup, unpairedLabels } from "../../src/calibration/pairing.js";
import { groupJudgments } from "../../src/calibration/verdicts.js";
import { humanAgreement } from "../../src/calibration/humans.js";
import type { Judgment, Label } from "../../src/golden/schema/items.js";
import { drawByRoles, honestDraw, stratifiedTestDraw, withDraws } from "./draw-helpers.js";

const H = (i: number) => i.toString(16).padStart(64, "0");
const T = "2026-01-01T00:00:00.000Z";
function j(i: number, verdict: "yes" | "no" | "error", over: Partial<Judgment> = {}): Judgment {
  return { variant: "v", question: `q${i}`, rubric: "r", unit: "answer", inputHash: H(i), fingerprint: "fp", judge: "llm", repeat: 0, verdict, reason: "", cached: false, time: T, ...over } as Judgment;
}
function l(i: number, label: "yes" | "no", over: Partial<Label> = {}): LocatedLabel {
  return { value: { variant: "v", question: `q${i}`, rubric: "r", unit: "answer", inputHash: H(i), label, annotator: "a", provenance: "human", frame: "random", time: T, ...over } as Label, file: "labels/a.jsonl", line: i };
}
const book = (labels: LocatedLabel[]) => resolveLabels("labels", [], labels);

describe("groupJudgments", () => {
  it("leaves rule verdicts out, reduces repeats by majority, and lets a repeated line win", () => {
    const { groups, counts } = groupJudgments([
      j(1, "yes"), j(1, "no", { repeat: 1 }), j(1, "no", { repeat: 2 }),
      j(2, "yes"), j(2, "no", { repeat: 1 }),
      j(3, "error"), j(3, "error", { repeat: 1, error: "timeout" }),
      j(4, "yes"), j(4, "no"),
      j(5, "no", { judge: "rule" }),
      j(1, "yes", { fingerprint: "other" }),
    ]);
    expect(counts).toEqual({ ruleVerdicts: 1, duplicates: 1 });
    expect(groups.map((g) => g.fingerprint)).toEqual(["fp", "other"]);
    const v = Object.fromEntries(groups[0]!.items.map((i) => [i.key.question, i.verdict]));
    expect(v).toEqual({ q1: "no", q2: "yes", q3: "error", q4: "no" });
    expect(groups[0]!.items.find((i) => i.key.question === "q3")!.errors).toEqual(["error", "timeout"]);
  });

  it("builds items judged once as the repeats rule does: their score kept, none for an error; repeats out of order sorted first", () => {
    const { groups } = groupJudgments([
      j(1, "yes", { pYes: 0.8, reason: "r1" }), j(2, "error", { pYes: 0.4, error: "timeout" }), j(3, "no"),
      // repeat 1 read before repeat 0: a tie takes repeat 0's verdict, and the mean of both scores
      j(4, "no", { repeat: 1, pYes: 0.2 }), j(4, "yes", { pYes: 0.6, reason: "first" }),
    ]);
    const by = Object.fromEntries(groups[0]!.items.map((i) => [i.key.question, i]));
    expect(by.q1).toEqual({ pYes: 0.8, key: { variant: "v", question: "q1", rubric: "r", unit: "answer" }, inputHash: H(1), fingerprint: "fp", judge: "llm", verdict: "yes", errors: [], repeats: 1, reason: "r1" });
    expect(Object.keys(by.q1!)[0]).toBe("pYes");
    expect(by.q2).toMatchObject({ verdict: "error", errors: ["timeout"], repeats: 1 });
    expect(by.q2).not.toHaveProperty("pYes");
    expect(by.q3).not.toHaveProperty("pYes");
    expect(by.q4).toMatchObject({ verdict: "yes", reason: "first", repeats: 2, pYes: 0.4 });
  });
});

/** A uniform draw of m of rubric "r"'s q1..qn (input hash H(i), held-out), its question numbers in roles: the m drawn first. */
const drawOver = (n: number, m: number) => drawByRoles("r", n, m, H);
const q = (i: number) => `q${i}`;
const SURE = "verdict yes · sure";
const UNSURE = "verdict yes · unsure";
/** q1..q24, all judged yes, the judge sure of q1..q4 (P(yes) 0.9) and unsure of the rest (0.5): its strata, as plan --budget cuts them. */
const bands = () => ({
  items: Array.from({ length: 24 }, (_, k) => ({ question: `q${k + 1}`, inputHash: H(k + 1), stratum: k < 4 ? SURE : UNSURE })),
  judgments: Array.from({ length: 24 }, (_, k) => j(k + 1, "yes", { pYes: k < 4 ? 0.9 : 0.5 })),
});

describe("pairGroup", () => {
  it("pairs on item and input hash, and sends non-random frames to error analysis", () => {
    // a is the drawn one of the three
    const { draw, roles: [a, b, c] } = drawOver(3, 1);
    const { groups } = groupJudgments([j(a!, "yes"), j(b!, "no"), j(c!, "yes")]);
    const ctx = withDraws([draw]);
    const p = pairGroup(groups[0]!, book([l(a!, "yes"), l(b!, "yes", { frame: "disagreement" }), l(c!, "no", { inputHash: H(99) })]), ctx);
    expect(p.gate.map((x) => [x.judged.key.question, x.source])).toEqual([[q(a!), "drawn"]]);
    expect(p.other.map((x) => [x.judged.key.question, x.excluded])).toEqual([[q(b!), "frame disagreement"]]);
    expect(unpairedLabels(groups, book([l(c!, "no", { inputHash: H(99) }), l(7, "no"), l(a!, "no", { rubric: "zz" })]))).toMatchObject({
      stale: [{ key: { question: q(c!) } }], unknownItem: [{ key: { question: "q7" } }], unknownRubric: [{ key: { rubric: "zz" } }],
    });
  });

  it("calls a label on earlier evidence relabelled, not stale, once the item has a label on the evidence judged now", () => {
    const { groups } = groupJudgments([j(1, "yes"), j(2, "no")]);
    // q1: labelled on H(99), then again on its current evidence H(1); q2: only on old evidence H(98)
    const u = unpairedLabels(groups, book([l(1, "no", { inputHash: H(99) }), l(1, "yes"), l(2, "no", { inputHash: H(98) })]));
    expect(u.stale.map((i) => i.key.question)).toEqual(["q2"]);
    expect(u.relabelled.map((i) => [i.key.question, i.inputHash])).toEqual([["q1", H(99)]]);
  });

  it("counts a label as random only when a recorded draw drew its item: a label's own frame is not enough", () => {
    const { groups } = groupJudgments([j(1, "yes"), j(2, "no"), j(3, "yes")]);
    const labels = book([l(1, "yes"), l(2, "no"), l(3, "yes")]);
    // No draw at all: every "random" label is not drawn.
    expect(pairGroup(groups[0]!, labels).other.map((x) => x.excluded)).toEqual(["not drawn", "not drawn", "not drawn"]);
    // A draw of two of the three: the third stays out, whatever its label says.
    const { draw, roles: [a, b, c] } = drawOver(3, 2);
    const p = pairGroup(groups[0]!, labels, withDraws([draw]));
    expect(p.gate.map((x) => x.judged.key.question)).toEqual([q(a!), q(b!)]);
    expect(p.other.map((x) => [x.judged.key.question, x.excluded])).toEqual([[q(c!), "not drawn"]]);
    // A drawn item counts whatever frame its label names (it was drawn at random).
    const one = drawOver(3, 1);
    const manual = pairGroup(groups[0]!, book([l(one.roles[0]!, "yes", { frame: "manual" })]), withDraws([one.draw]));
    expect(manual.gate.map((x) => x.judged.key.question)).toEqual([q(one.roles[0]!)]);
  });

  it("keeps only the held-out split in the gate, from the golden set when it knows the question; no split is dev", () => {
    const { groups } = groupJudgments([j(1, "yes"), j(2, "no"), j(3, "yes")]);
    const labels = book([l(1, "yes", { split: "heldout" }), l(2, "no", { split: "dev" }), l(3, "yes")]);
    const draw = honestDraw("r", [1, 2, 3].map((i) => ({ question: `q${i}`, inputHash: H(i), split: i === 1 ? "heldout" : i === 2 ? "dev" : undefined })), 3);
    const p = pairGroup(groups[0]!, labels, withDraws([draw]));
    expect(p.heldoutOnly).toBe(true);
    expect(p.gate.map((x) => x.judged.key.question)).toEqual(["q1"]);
    expect(p.other.map((x) => x.excluded).sort()).toEqual(["split (none)", "split dev"]);
    // The golden set's split wins over what the label recorded; the split's name is the config's.
    const golden = new Map<string, string | null>([["q1", "test"], ["q2", "test"], ["q3", null]]);
    const onTest = honestDraw("r", [1, 2, 3].map((i) => ({ question: `q${i}`, inputHash: H(i), split: i === 3 ? undefined : "test" })), 3);
    const renamed = pairGroup(groups[0]!, labels, withDraws([onTest], { heldout: "test", splits: golden }));
    expect(renamed.gate.map((x) => x.judged.key.question)).toEqual(["q1", "q2"]);
    expect(renamed.other.map((x) => x.excluded)).toEqual(["split (none)"]);
    // A draw made on other splits than today's does not count: moving a labelled question out of the held-out
    // split after the draw would hide its label from the gate (and moving one in would add one it never framed).
    const moved = pairGroup(groups[0]!, labels, withDraws([draw], { heldout: "test", splits: golden }));
    expect(moved.gate).toEqual([]);
    expect(moved.draws[0]).toMatchObject({ covers: false, counts: false });
    expect(moved.draws[0]!.why).toMatch(/^the split of 2 of its items changed in the golden set since the draw, in or out of "test" \(for example v\/q[12]: (heldout|dev) then, test now\): draw again on today's splits/);
    const out = pairGroup(groups[0]!, labels, withDraws([draw], { splits: new Map<string, string | null>([["q1", "dev"], ["q2", "dev"], ["q3", null]]) }));
    expect(out.gate).toEqual([]);
    expect(out.draws[0]!.why).toMatch(/^the split of 1 of its item changed/);
  });

  it("weights by inverse inclusion probability only when the draws give items different probabilities, with Kish's effective n", () => {
    // The judge said no to q1..q4 and yes to q5..q24, its strata: 2 of the noes (p 0.5), 2 of the yeses (p 0.1), drawn from the frame's seed.
    const items = Array.from({ length: 24 }, (_, k) => ({ question: `q${k + 1}`, inputHash: H(k + 1), stratum: k < 4 ? "verdict no" : "verdict yes" }));
    const stratified = stratifiedTestDraw("r", items, { "verdict no": 2, "verdict yes": 2 });
    // strata in name order: the two noes are drawn first
    const drawnQ = stratified.draw.drawn.map((i) => Number(stratified.draw.population.items[i]!.question.slice(1)));
    const { groups } = groupJudgments(items.map((_, k) => j(k + 1, k < 4 ? "no" : "yes")));
    const labelsOf = ["no", "no", "yes", "no"] as const;
    const p = pairGroup(groups[0]!, book(drawnQ.map((q, k) => l(q, labelsOf[k]!))), withDraws([stratified]));
    expect(p.weighted).toBe(true);
    expect(p.gate.map((x) => x.weight).sort((a, b) => a - b)).toEqual([2, 2, 10, 10]);
    const f = agreementFigures(p.gate);
    expect(f.confusion).toMatchObject({ tp: 10, tn: 4, fp: 10, fn: 0, count: 4 });
    expect(f.nEffective).toBeCloseTo(24 ** 2 / 208, 12);
    expect(f.labelNo).toBe(3); // counts, not weights, for the per-class minimum
    // A uniform draw gives one probability to all: never weighted, whatever the labels claim.
    const { groups: four } = groupJudgments([j(1, "yes"), j(2, "no"), j(3, "yes"), j(4, "no")]);
    const half = drawOver(4, 2);
    const [x, y] = half.roles;
    const uniform = pairGroup(four[0]!, book([l(x!, "yes", { inclusionProbability: 0.9, stratum: "x" }), l(y!, "no", { inclusionProbability: 0.05, stratum: "y" })]), withDraws([half.draw]));
    expect(uniform.weighted).toBe(false);
    // Two uniform draws of the same population (2 and 3 of 4, nested: the frame fixes the seed): still one probability for all.
    const three = drawOver(4, 3);
    expect(three.roles.slice(0, 3)).toEqual(expect.arrayContaining([x, y]));
    const two = pairGroup(four[0]!, book(three.roles.slice(0, 3).map((i, k) => l(i, k % 2 ? "no" : "yes"))), withDraws([half.draw, three.draw]));
    expect(two.gate).toHaveLength(3);
    expect(two.weighted).toBe(false);
  });

  it("takes the largest probability over nested draws of one frame (a larger draw holds a smaller one), not 1 - Π(1 - p)", () => {
    // The judge is sure of q1..q4 and unsure of q5..q24 (its strata). Budgets of 1+1 and then 2+2 from one frame: the second holds the first.
    const { items, judgments } = bands();
    const small = stratifiedTestDraw("r", items, { [SURE]: 1, [UNSURE]: 1 });
    const large = stratifiedTestDraw("r", items, { [SURE]: 2, [UNSURE]: 2 });
    const drawnQ = (d: typeof small) => d.draw.drawn.map((i) => Number(d.draw.population.items[i]!.question.slice(1)));
    expect(drawnQ(large)).toEqual(expect.arrayContaining(drawnQ(small)));
    const { groups } = groupJudgments(judgments);
    const p = pairGroup(groups[0]!, book(drawnQ(large).map((q) => l(q, "yes"))), withDraws([small, large]));
    // a: 2 of 4 (p 0.5, weight 2), b: 2 of 20 (p 0.1, weight 10), whichever draw also drew the item
    expect(p.gate.map((x) => [x.judged.key.question, x.weight]).sort()).toEqual(drawnQ(large).map((q) => [`q${q}`, q <= 4 ? 2 : 10]).sort());
  });

  it("counts a stratified draw only over the held-out split, the scope plan --budget writes: each other scope is one more seed to choose from", () => {
    const { items, judgments } = bands();
    const { groups } = groupJudgments(judgments);
    const budget = stratifiedTestDraw("r", items, { [SURE]: 2, [UNSURE]: 2 });
    const labelsOf = (d: typeof budget) => book(d.draw.drawn.map((i) => l(Number(d.draw.population.items[i]!.question.slice(1)), "yes")));
    expect(pairGroup(groups[0]!, labelsOf(budget), withDraws([budget])).draws[0]).toMatchObject({ covers: true });
    // The same strata over every split: consistent with itself (the same items here, where every item is held out;
    // with dev items in its frame, another seed and other held-out items).
    const everySplit = stratifiedTestDraw("r", items, { [SURE]: 2, [UNSURE]: 2 }, { scope: { variants: ["v"], splits: null } });
    const p = pairGroup(groups[0]!, labelsOf(everySplit), withDraws([everySplit]));
    expect(p.draws[0]).toMatchObject({ covers: false, counts: false });
    expect(p.draws[0]!.why).toBe('the gate refuses this draw: it is a stratified draw over every split, and plan --budget draws over the held-out split "heldout" only: each scope is a seed of its own, so another would be one more draw to choose from');
  });

  it("counts no draw of a rubric while its labels name a draw whose manifest is missing (a deleted draw could leave only a flattering one)", () => {
    const { draw: kept, roles: [a, b, c, d] } = drawOver(4, 2);
    const { groups } = groupJudgments([j(a!, "yes"), j(b!, "no"), j(c!, "yes"), j(d!, "no")]);
    const labels = [l(a!, "yes", { draw: kept.draw.id }), l(b!, "no", { draw: kept.draw.id })];
    expect(pairGroup(groups[0]!, book(labels), withDraws([kept])).gate).toHaveLength(2);
    // The other two were labelled (against the judge) in a draw whose manifest was then deleted.
    const deleted = "0123456789abcdef";
    const p = pairGroup(groups[0]!, book([...labels, l(c!, "no", { draw: deleted }), l(d!, "yes", { draw: deleted })]), withDraws([kept]));
    expect(p.gate).toEqual([]);
    expect(p.draws[0]).toMatchObject({ covers: false, counts: false });
    expect(p.draws[0]!.why).toMatch(/^labels of r name a draw whose manifest is missing from labels\/draws \(0123456789abcdef\): no draw of the rubric counts until it is back/);
    // Another rubric's missing draw is no concern of this one.
    expect(pairGroup(groups[0]!, book([...labels, l(c!, "no", { draw: deleted, rubric: "other" })]), withDraws([kept])).gate).toHaveLength(2);
  });

  it("counts no draw while labels of an earlier wording of the question name a draw whose manifest is missing (reworded, then deleted)", () => {
    const { draw: kept, roles: [a, b, c, d] } = drawOver(4, 2);
    const { groups } = groupJudgments([j(a!, "yes"), j(b!, "no"), j(c!, "yes"), j(d!, "no")]);
    const [earlier, today] = [H(100), H(101)];
    const labels = [l(a!, "yes", { draw: kept.draw.id, wordingHash: today }), l(b!, "no", { draw: kept.draw.id, wordingHash: today })];
    const wordings = new Map([["r", today]]);
    // A draw labelled against the judge; the question reworded (its labels now count for nothing), then its manifest deleted
    // and another drawn: the deleted draw's labels still say a draw was there, whatever question they answered.
    const deleted = "0123456789abcdef";
    const p = pairGroup(groups[0]!, book([...labels, l(c!, "no", { draw: deleted, wordingHash: earlier }), l(d!, "yes", { draw: deleted, wordingHash: earlier })]), { ...withDraws([kept]), wordings });
    expect(p.gate).toEqual([]);
    expect(p.draws[0]).toMatchObject({ covers: false, counts: false });
    expect(p.draws[0]!.why).toMatch(/^labels of r name a draw whose manifest is missing from labels\/draws \(0123456789abcdef\)/);
  });

  it("counts a counting draw's drawn items without a counting label as disagreements, in kappa but not in the label counts", () => {
    // a..e drawn of six. a, b labelled as the judge said; c skipped; d split between two annotators; e labelled
    // from a frame the gate never counts. f was not drawn: its absence of a label is nobody's choice.
    const { draw, roles: [a, b, c, d, e, f6] } = drawOver(6, 5);
    const { groups } = groupJudgments([j(a!, "yes"), j(b!, "no"), j(c!, "yes"), j(d!, "no"), j(e!, "error"), j(f6!, "yes")]);
    const labels = [l(a!, "yes"), l(b!, "no"), l(d!, "yes"), l(d!, "no", { annotator: "b" }), l(e!, "yes", { frame: "panel-split" })];
    const p = pairGroup(groups[0]!, book(labels), withDraws([draw], { minCoverage: 0.4 }));
    // The split item is labelled (so a second annotator cannot void a finished draw), decided by the answer
    // against the judge; the panel-split label does not label its item.
    expect(p.draws[0]).toMatchObject({ counts: true, drawn: 5, labelled: 3 });
    expect(p.gate.map((x) => [x.judged.key.question, x.label])).toEqual([[q(a!), "yes"], [q(b!), "no"], [q(d!), "yes"]]);
    expect(p.ties).toEqual([]);
    expect(p.skipped.map((x) => [x.judged.key.question, x.label])).toEqual([[q(c!), "no"], [q(e!), "no"]]);
    const f = agreementFigures(gateFigureItems(p));
    expect({ n: f.n, skipped: f.skipped, labelYes: f.labelYes, labelNo: f.labelNo, judgeErrors: f.judgeErrors }).toEqual({ n: 3, skipped: 2, labelYes: 2, labelNo: 1, judgeErrors: 0 });
    // c (judge yes, imputed no) is a false positive, d (judge no, a "yes" among its answers) a false negative, and
    // e (error, imputed no: judge taken as yes) a false positive.
    expect(f.confusion).toMatchObject({ tp: 1, tn: 1, fp: 2, fn: 1 });
    // The pass-rate corrections assume a random sample of labels: with skipped items they say so instead of trusting it.
    const rates = correctedPassRates(p, { seed: 1, reps: 50 });
    expect(rates.ppiUninformative).toMatch(/2 drawn held-out items have no counting label, and their labels could move it either way \(label them\)$/);
    expect(rates.roganGladenUninformative ?? "").toMatch(/2 drawn held-out items have no counting label/);
    // A draw that does not count (coverage below the floor) imputes nothing: its labels are out of the gate already
    // (and the gate refuses trust while it is unfinished).
    const below = pairGroup(groups[0]!, book(labels.slice(0, 2)), withDraws([draw]));
    expect(below.gate).toEqual([]);
    expect(below.skipped).toEqual([]);
    // The whole draw labelled: nothing imputed.
    const whole = pairGroup(groups[0]!, book([a!, b!, c!, d!, e!].map((i) => l(i, "yes"))), withDraws([draw]));
    expect(whole.skipped).toEqual([]);
    expect(agreementFigures(gateFigureItems(whole)).skipped).toBe(0);
  });

  it("weights a skipped item of a stratified draw by its inverse inclusion probability, like a labelled one", () => {
    // 2 of the judge's sure q1..q4 (p 0.5); 2 of its unsure q5..q24 (p 0.1). One drawn item of each stratum is left unlabelled.
    const { items, judgments } = bands();
    const stratified = stratifiedTestDraw("r", items, { [SURE]: 2, [UNSURE]: 2 });
    const drawnQ = stratified.draw.drawn.map((i) => Number(stratified.draw.population.items[i]!.question.slice(1)));
    const { groups } = groupJudgments(judgments);
    const firstOf = (lo: number, hi: number) => drawnQ.filter((q) => q >= lo && q <= hi);
    const labelled = [firstOf(1, 4)[0]!, firstOf(5, 24)[0]!];
    const p = pairGroup(groups[0]!, book(labelled.map((q) => l(q, "yes"))), withDraws([stratified], { minCoverage: 0.5 }));
    expect(p.weighted).toBe(true);
    expect(p.gate.map((x) => x.weight).sort((a, b) => a - b)).toEqual([2, 10]);
    expect(p.skipped.map((x) => [x.weight, x.label, x.stratum]).sort()).toEqual([[10, "no", UNSURE], [2, "no", SURE]]);
    // The two imputed disagreements weigh 2 and 10 in the table: judge yes, label no.
    expect(agreementFigures(gateFigureItems(p)).confusion).toMatchObject({ tp: 12, fp: 12, fn: 0, tn: 0 });
  });

  it("decides a drawn item two annotators split on by the answer against the judge, whatever adjudication says, and counts judge errors as disagreements", () => {
    const { groups } = groupJudgments([j(1, "yes"), j(2, "error")]);
    const split = [l(1, "yes"), l(1, "no", { annotator: "b" }), l(1, "yes", { annotator: "lead", frame: "manual", adjudication: true }), l(2, "yes")];
    const p = pairGroup(groups[0]!, book(split), withDraws([drawOver(2, 2).draw]));
    expect(p.ties).toEqual([]);
    expect(p.gate.map((x) => x.label)).toEqual(["no", "yes"]);
    const f = agreementFigures(p.gate);
    expect(f.judgeErrors).toBe(1);
    expect(f.confusion).toMatchObject({ fp: 1, fn: 1, tp: 0 });
    // a tie on an item no draw drew is still left out until adjudicated (error analysis)
    const undrawn = pairGroup(groups[0]!, book([l(1, "yes"), l(1, "no", { annotator: "b" })]));
    expect(undrawn.ties).toHaveLength(1);
  });
});

describe("humanAgreement", () => {
  it("uses Cohen for two annotators and Fleiss for more, with Krippendorff for both", () => {
    const two = book([l(1, "yes"), l(1, "yes", { annotator: "b" }), l(2, "no"), l(2, "no", { annotator: "b" }), l(3, "yes"), l(3, "no", { annotator: "b" })]);
    const h2 = humanAgreement([...two.items.values()])!;
    expect(h2.annotators).toEqual(["a", "b"]);
    expect(h2.cohen!.kappa).toBeCloseTo(0.4, 12); // [[1,1],[0,1]]: po 2/3, pe 4/9
    expect(h2.fleiss).toBeUndefined();
    const three = book([l(1, "yes"), l(1, "yes", { annotator: "b" }), l(1, "no", { annotator: "c" }), l(2, "no"), l(2, "no", { annotator: "c" })]);
    const h3 = humanAgreement([...three.items.values()])!;
    expect(h3.fleiss!.subjects).toBe(2);
    expect(h3.krippendorff.nPairable).toBe(5);
    expect(humanAgreement([...book([l(1, "yes")]).items.values()])).toBeNull();
  });
});
