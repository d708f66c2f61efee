import { describe, expect, it } from "vitest";
import { hashJson } from "../../src/golden/hash.js";
import type { ItemKey } from "../../src/golden/schema/items.js";
import { sampleQueue, type Candidate, type ExistingLabels } from "../../src/review/sample.js";
import { drawIdOf, frameSeed } from "../../src/calibration/draws.js";
import { designRefusal, populationSeed, stratifiedDrawBody } from "../../src/calibration/plan/stratified-draw.js";
import { Draw } from "../../src/golden/schema/draw.js";

function cand(rubric: string, q: number, verdict: Candidate["verdict"], answer = `answer ${q}`): Candidate {
  const evidence = { question: `question ${q}`, answer };
  return { key: { variant: "v", question: `q${String(q).padStart(3, "0")}`, rubric, unit: "answer" }, inputHash: hashJson(evidence), evidence, verdict, tags: [], citedIds: [] };
}

const pop = (rubric: string, n: number, verdict: (i: number) => Candidate["verdict"] = (i) => (i % 4 === 0 ? "no" : "yes")) => Array.from({ length: n }, (_, i) => cand(rubric, i, verdict(i)));
const labelled = (c: Candidate, annotator: string, label: "yes" | "no"): ExistingLabels => ({ key: c.key, inputHash: c.inputHash, labels: [{ annotator, label }] });
const ids = (es: { question: string; rubric: string }[]) => es.map((e) => `${e.rubric}/${e.question}`);

describe("sampleQueue --random", () => {
  const cands = [...pop("faithfulness", 40), ...pop("correctness", 10)];

  it("draws n per rubric with inclusion probability n/population, grouped by rubric", () => {
    const { entries, rubrics } = sampleQueue(cands, [], { annotator: "asha", seed: 7, random: 8 });
    expect(entries.map((e) => e.rubric)).toEqual([...Array(8).fill("correctness"), ...Array(8).fill("faithfulness")]);
    expect(entries.filter((e) => e.rubric === "faithfulness").every((e) => e.frame === "random" && e.inclusionProbability === 8 / 40)).toBe(true);
    expect(entries.filter((e) => e.rubric === "correctness").every((e) => e.inclusionProbability === 8 / 10)).toBe(true);
    expect(new Set(ids(entries)).size).toBe(16);
    expect(rubrics.find((r) => r.rubric === "faithfulness")).toMatchObject({ population: 40, eligible: 40, random: { drawn: 8, inclusionProbability: 0.2 }, queued: 8 });
  });

  it("is deterministic for a seed, whatever the input order, and changes with the seed", () => {
    const a = sampleQueue(cands, [], { annotator: "asha", seed: 7, random: 8 }).entries;
    const b = sampleQueue(cands.slice().reverse(), [], { annotator: "asha", seed: 7, random: 8 }).entries;
    const c = sampleQueue(cands, [], { annotator: "asha", seed: 8, random: 8 }).entries;
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(ids(c)).not.toEqual(ids(a));
  });

  it("keeps giving the same queue for a seed and frame across versions (canonical order, frame seed and streams are pinned)", () => {
    // Names chosen so that another key encoding (a separator other than \u0000) would reorder them.
    const pinned: Candidate[] = Array.from({ length: 30 }, (_, q) => {
      const evidence = { question: `question ${q}`, answer: `answer ${q}` };
      return { key: { variant: q % 2 ? "bm25 small" : "bm25", question: `q-${q}`, rubric: "faithfulness", unit: "answer" }, inputHash: hashJson(evidence), evidence, verdict: q % 3 ? "yes" : "no", tags: [], citedIds: [] };
    });
    const got = sampleQueue(pinned, [], { annotator: "asha", seed: 42, random: 5, balanced: 4 }).entries.map((e) => `${e.frame}:${e.variant}/${e.question}`);
    expect(got).toEqual([
      "random:bm25/q-16", "random:bm25/q-12", "balanced:bm25 small/q-15", "balanced:bm25 small/q-25", "random:bm25/q-8",
      "random:bm25 small/q-17", "balanced:bm25/q-0", "random:bm25/q-4",
    ]);
  });

  it("gives each rubric its own stream: adding a rubric leaves another's sample unchanged", () => {
    const only = sampleQueue(pop("faithfulness", 40), [], { annotator: "asha", seed: 3, random: 5 }).entries;
    const both = sampleQueue(cands, [], { annotator: "asha", seed: 3, random: 5 }).entries.filter((e) => e.rubric === "faithfulness");
    expect(ids(both)).toEqual(ids(only));
  });

  it("draws with the frame's own seed: the same items whatever the seed given, other items for another frame", () => {
    const ten = pop("faithfulness", 10);
    const drawnBy = (c: Candidate[], seed: number) => sampleQueue(c, [], { annotator: "asha", seed, random: 3 }).draws[0]!;
    const a = drawnBy(ten, 1);
    expect(a.seed).toBe(frameSeed("faithfulness", a.population.items));
    expect(drawnBy(ten, 2).drawn).toEqual(a.drawn);
    expect(drawnBy(ten, 77).seed).toBe(a.seed);
    // an answer changed (a space added, say): the same seed, for the input hashes are not in it; another question: another
    const changed = ten.map((c, i) => (i === 4 ? cand("faithfulness", 4, c.verdict, "answer 4 ") : c));
    expect(drawnBy(changed, 1).seed).toBe(a.seed);
    expect(drawnBy([...ten, cand("faithfulness", 10, "yes")], 1).seed).not.toBe(a.seed);
  });

  it("is uniform: over many frames every item is drawn about n/N of the time", () => {
    const hits = new Map<string, number>();
    const runs = 3000;
    for (let run = 0; run < runs; run++) {
      // ten questions and one more that changes with the run: a frame, and so a seed, of its own
      const ten = [...Array.from({ length: 10 }, (_, i) => cand("faithfulness", i, "yes")), { ...cand("faithfulness", 1000 + run, "yes") }];
      for (const e of sampleQueue(ten, [], { annotator: "asha", seed: 1, random: 3 }).entries) hits.set(e.question, (hits.get(e.question) ?? 0) + 1);
    }
    // Binomial(3000, 3/11) for each of the ten in every frame (the eleventh is another question each run): sd ≈ 24; allow ±4.5 sd.
    for (let i = 0; i < 10; i++) expect(Math.abs(hits.get(`q${String(i).padStart(3, "0")}`)! - (3000 * 3) / 11)).toBeLessThan(110);
  });

  it("never resamples an item the annotator labelled with the same input hash; π over what is left", () => {
    const f = pop("faithfulness", 10);
    const existing = [labelled(f[0]!, "asha", "yes"), labelled(f[1]!, "asha", "no"), labelled(f[2]!, "ravi", "yes")];
    // A label on another text of the same item does not count.
    const other = { ...f[3]!, inputHash: hashJson({ question: "old text" }) };
    existing.push(labelled(other, "asha", "yes"));
    for (let seed = 0; seed < 50; seed++) {
      const { entries, rubrics } = sampleQueue(f, existing, { annotator: "asha", seed, random: 8 });
      expect(ids(entries)).not.toContain("faithfulness/q000");
      expect(ids(entries)).not.toContain("faithfulness/q001");
      // π is the round's marginal probability: 8 drawn from a population of 10.
      expect(entries.every((e) => e.inclusionProbability === 8 / 10)).toBe(true);
      expect(rubrics[0]).toMatchObject({ population: 10, labelledByAnnotator: 2, eligible: 8 });
    }
    const earlier: { key: ItemKey; inputHash: string }[] = [{ key: f[5]!.key, inputHash: f[5]!.inputHash }];
    const { entries } = sampleQueue(f, [], { annotator: "asha", seed: 1, random: 10 }, earlier);
    expect(ids(entries)).not.toContain("faithfulness/q005");
    expect(entries).toHaveLength(9);
  });

  it("draws every round from the whole population: a larger round holds the smaller one, its labelled items counted, and is an equal-probability sample", () => {
    const hits = new Map<string, number>();
    const runs = 2000;
    for (let run = 0; run < runs; run++) {
      // the same ten questions in another variant each run: a frame, and so a seed, of its own
      const ten = Array.from({ length: 10 }, (_, i) => { const c = cand("faithfulness", i, i % 4 ? "yes" : "no"); return { ...c, key: { ...c.key, variant: `v${run}` } }; });
      const r1 = sampleQueue(ten, [], { annotator: "asha", seed: 1, random: 3 });
      const done = r1.entries.map((e) => ({ key: { variant: e.variant, question: e.question, rubric: e.rubric, unit: e.unit }, inputHash: e.inputHash }));
      // The same round again draws the same three, all labelled now: nothing to queue.
      expect(sampleQueue(ten, [], { annotator: "asha", seed: 2, random: 3 }, done).entries).toEqual([]);
      const r2 = sampleQueue(ten, [], { annotator: "asha", seed: 2, random: 5 }, done);
      // The second round drew 5 of all 10, the first round's 3 among them: counted, not queued again.
      expect(r2.rubrics[0]!.random).toMatchObject({ drawn: 5, inclusionProbability: 0.5, alreadyLabelled: 3 });
      expect(r2.entries).toHaveLength(2);
      expect(r2.entries.some((e) => done.some((d) => d.key.question === e.question))).toBe(false);
      for (const i of r2.draws[0]!.drawn) hits.set(r2.draws[0]!.population.items[i]!.question, (hits.get(r2.draws[0]!.population.items[i]!.question) ?? 0) + 1);
    }
    // Each item is in the larger round with probability 0.5: Binomial(2000, 0.5), sd ≈ 22; allow ±4.5 sd.
    expect(hits.size).toBe(10);
    for (const n of hits.values()) expect(Math.abs(n - 1000)).toBeLessThan(100);
  });

  it("records each random draw: the population with its input hashes and probabilities, items outside the scope at 0, the drawn ones by index", () => {
    const f = pop("faithfulness", 10);
    const outside = pop("faithfulness", 12).slice(10).map((c) => ({ ...c, split: "dev" }));
    const { entries, draws } = sampleQueue(f, [], { annotator: "asha", seed: 9, random: 4, scope: { variants: ["v"], splits: ["heldout"] }, outOfScope: outside, judges: new Map([["faithfulness", { fingerprint: "fp1", servedModels: ["m-2026"] }]]) });
    expect(draws).toHaveLength(1);
    const d = draws[0]!;
    expect(d).toMatchObject({ rubric: "faithfulness", annotator: "asha", seed: populationSeed("faithfulness", d.population.items), requested: 4, design: "uniform", fingerprint: "fp1", servedModels: ["m-2026"], scope: { variants: ["v"], splits: ["heldout"] } });
    expect(d.population.size).toBe(12);
    expect(d.population.items.filter((i) => i.p === 0.4)).toHaveLength(10);
    expect(d.population.items.filter((i) => i.p === 0).map((i) => i.question)).toEqual(["q010", "q011"]);
    expect(d.drawn.map((i) => d.population.items[i]!.question).sort()).toEqual(entries.map((e) => e.question).sort());
    expect(new Set(entries.map((e) => e.draw))).toEqual(new Set([drawIdOf(d)]));
    // The id is the content's hash: the same draw again is the same id, whatever seed is given; another frame another.
    const again = (c: Candidate[], seed: number) => sampleQueue(c, [], { annotator: "asha", seed, random: 4, scope: { variants: ["v"], splits: ["heldout"] }, outOfScope: outside, judges: new Map([["faithfulness", { fingerprint: "fp1", servedModels: ["m-2026"] }]]) }).draws[0]!;
    expect(drawIdOf(again(f, 10))).toBe(drawIdOf(d));
    expect(drawIdOf(again(f.slice(1), 9))).not.toBe(drawIdOf(d));
  });

  it("draws the held-out items of every scope in the population's one order: another scope or size stops elsewhere, never reorders", () => {
    const heldout = pop("faithfulness", 10).map((c) => ({ ...c, split: "heldout" }));
    const dev = pop("faithfulness", 30).slice(10).map((c) => ({ ...c, split: "dev" }));
    const all = sampleQueue([...heldout, ...dev], [], { annotator: "asha", seed: 1, random: 30 }).draws[0]!;
    const order = all.drawn.map((i) => all.population.items[i]!).filter((it) => it.split === "heldout").map((it) => it.question);
    expect(order).toHaveLength(10);
    for (const n of [1, 4, 10]) {
      // scoped to the held-out split (the dev items recorded outside the frame): the same seed, the first n of that order
      const scoped = sampleQueue(heldout, [], { annotator: "asha", seed: 7, random: n, scope: { variants: ["v"], splits: ["heldout"] }, outOfScope: dev }).draws[0]!;
      expect(scoped.seed).toBe(all.seed);
      expect(scoped.drawn.map((i) => scoped.population.items[i]!.question)).toEqual(order.slice(0, n));
      // the gate draws it again from its population alone, and gets the same items
      expect(designRefusal(Draw.parse({ ...scoped, id: drawIdOf(scoped), time: "2026-12-01T00:00:00.000Z" }))).toBeNull();
      // unscoped, a draw of any size holds a prefix of it too
      const some = sampleQueue([...heldout, ...dev], [], { annotator: "asha", seed: 3, random: 3 * n }).draws[0]!;
      const held = some.drawn.map((i) => some.population.items[i]!).filter((it) => it.split === "heldout").map((it) => it.question);
      expect(held).toEqual(order.slice(0, held.length));
    }
    // a stratified draw (plan --budget) takes the first n_h of each stratum in the same order
    const stratum = (question: string) => (Number(question.slice(1)) % 2 ? "odd" : "even");
    const strat = stratifiedDrawBody({
      rubric: "faithfulness", annotator: "asha", fingerprint: "fp", servedModels: [], scope: { variants: ["v"], splits: ["heldout"] },
      frame: heldout.map((c) => ({ key: c.key, inputHash: c.inputHash, split: "heldout", stratum: stratum(c.key.question) })),
      outside: dev.map((c) => ({ key: c.key, inputHash: c.inputHash, split: "dev" })), allocation: new Map([["even", 2], ["odd", 3]]),
    });
    expect(strat.seed).toBe(all.seed);
    expect(strat.drawn.map((i) => strat.population.items[i]!.question)).toEqual([...order.filter((x) => stratum(x) === "even").slice(0, 2), ...order.filter((x) => stratum(x) === "odd").slice(0, 3)]);
  });

  it("copies the evidence and display fields into each entry", () => {
    const c: Candidate = { ...cand("faithfulness", 1, "yes"), split: "dev", kind: "factual", tags: ["t"], citedIds: ["d#1"], anchor: { doc: "d", text: "a phrase" } };
    const [e] = sampleQueue([c], [], { annotator: "asha", seed: 1, random: 1 }).entries;
    expect(e).toEqual({ ...c.key, inputHash: c.inputHash, frame: "random", inclusionProbability: 1, draw: expect.stringMatching(/^[0-9a-f]{16}$/), split: "dev", kind: "factual", tags: ["t"], evidence: c.evidence, citedIds: ["d#1"], anchor: c.anchor });
  });
});

describe("sampleQueue --balanced and --disagreements", () => {
  it("balances between the judge's yes and no, stratum = verdict, π per stratum; ties in neither", () => {
    const f = pop("faithfulness", 40, (i) => (i < 30 ? "yes" : i < 36 ? "no" : "tie"));
    const { entries, rubrics } = sampleQueue(f, [], { annotator: "asha", seed: 2, balanced: 10 });
    const yes = entries.filter((e) => e.stratum === "yes");
    const no = entries.filter((e) => e.stratum === "no");
    expect(yes).toHaveLength(5);
    expect(no).toHaveLength(5);
    expect(yes.every((e) => e.frame === "balanced" && e.inclusionProbability === 5 / 30)).toBe(true);
    expect(no.every((e) => e.inclusionProbability === 5 / 6)).toBe(true);
    expect(rubrics[0]!.balanced).toEqual({ yes: { drawn: 5, of: 30 }, no: { drawn: 5, of: 6 } });
    const small = sampleQueue(f, [], { annotator: "asha", seed: 2, balanced: 20 });
    expect(small.rubrics[0]!.balanced).toEqual({ yes: { drawn: 10, of: 30 }, no: { drawn: 6, of: 6 } });
    expect(small.entries.filter((e) => e.stratum === "no").every((e) => e.inclusionProbability === 1)).toBe(true);
  });

  it("mixes frames and strata in the queue order (no positional hint of the verdict)", () => {
    const f = pop("faithfulness", 60, (i) => (i < 30 ? "yes" : "no"));
    const strata = sampleQueue(f, [], { annotator: "asha", seed: 4, balanced: 20 }).entries.map((e) => e.stratum);
    expect(strata.slice(0, 10)).not.toEqual(Array(10).fill("yes"));
    expect(strata).toContain("no");
  });

  it("queues every item where another person's label differs from the judge, π = 1, own labels left out", () => {
    const f = pop("faithfulness", 8, (i) => (i < 4 ? "yes" : "no"));
    const existing = [
      labelled(f[0]!, "ravi", "no"), // differs
      labelled(f[1]!, "ravi", "yes"), // agrees
      labelled(f[4]!, "ravi", "yes"), // differs
      labelled(f[5]!, "asha", "yes"), // differs, but asha's own
      { key: f[6]!.key, inputHash: f[6]!.inputHash, labels: [{ annotator: "ravi", label: "no" as const }, { annotator: "mia", label: "yes" as const }] }, // one differs
    ];
    const { entries, rubrics } = sampleQueue(f, existing, { annotator: "asha", seed: 1, disagreements: true });
    expect(ids(entries).sort()).toEqual(["faithfulness/q000", "faithfulness/q004", "faithfulness/q006"]);
    expect(entries.every((e) => e.frame === "disagreement" && e.inclusionProbability === 1)).toBe(true);
    expect(entries.find((e) => e.question === "q000")!.stratum).toBe("yes");
    expect(rubrics[0]!.disagreements).toEqual({ found: 4, queued: 3, labelledByAnnotator: 1 });
  });

  it("draws error verdicts into the random frame only (the gate counts them as disagreements)", () => {
    const f = pop("faithfulness", 12, (i) => (i < 4 ? "error" : i < 8 ? "yes" : "no"));
    const all = sampleQueue(f, [], { annotator: "asha", seed: 3, random: 12 });
    expect(all.entries).toHaveLength(12);
    expect(all.rubrics[0]).toMatchObject({ population: 12, random: { drawn: 12, inclusionProbability: 1 } });
    const existing = f.map((c) => labelled(c, "ravi", "yes"));
    const balanced = sampleQueue(f, existing, { annotator: "asha", seed: 3, balanced: 12 }).entries;
    expect(balanced).toHaveLength(8);
    expect(balanced.some((e) => Number(e.question.slice(1)) < 4)).toBe(false);
    const dis = sampleQueue(f, existing, { annotator: "asha", seed: 3, disagreements: true }).entries;
    expect(dis.map((e) => e.question).sort()).toEqual(["q008", "q009", "q010", "q011"]); // the judge's "no" items only
  });

  it("keeps an item drawn by two frames once, under the first (random)", () => {
    const f = pop("faithfulness", 6, (i) => (i < 3 ? "yes" : "no"));
    const { entries, rubrics } = sampleQueue(f, [], { annotator: "asha", seed: 5, random: 6, balanced: 6 });
    expect(entries).toHaveLength(6);
    expect(entries.every((e) => e.frame === "random")).toBe(true);
    expect(rubrics[0]!.duplicates).toBe(6);
  });
});
