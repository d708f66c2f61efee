/**
 * `ragjudge plan` on the shipped example: what each rubric needs, and a
 * budgeted stratified draw that review serves and the gate counts once
 * labelled, weighted back by its inclusion probabilities.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDraws } from "../../../src/calibration/draws.js";
import { designRefusal } from "../../../src/calibration/plan/stratified-draw.js";
import { loadQueue } from "../../../src/review/queue.js";
import { ReviewSession } from "../../../src/review/session.js";
import { appendLabel } from "../../../src/calibration/labels.js";
import { runCliCaptured } from "../../helpers/cli.js";
import { ROOT } from "../../helpers/paths.js";
import { tempDir } from "../../helpers/temp.js";
import { exampleCopy } from "../../report/helpers.js";

/** The example's baseline verdicts and a copy of its labels in a temporary folder. */
async function example(prefix: string): Promise<{ dir: string; config: string; judgments: string; labels: string }> {
  const dir = tempDir(prefix);
  const config = join(ROOT, "ragjudge.config.json");
  const judgments = join(dir, "judgments.jsonl");
  expect((await runCliCaptured(["judge", "--config", config, "--out", judgments, "--no-progress"])).code).toBe(0);
  const labels = join(dir, "labels");
  cpSync(join(ROOT, "labels"), labels, { recursive: true });
  return { dir, config, judgments, labels };
}

describe("ragjudge plan", () => {
  it("says per rubric what the gate counts and how many labels it needs, then splits a budget into stratified draws the gate counts", async () => {
    const { dir, config, judgments, labels } = await example("ragjudge-plan-");

    const plan = await runCliCaptured(["plan", "--config", config, "--judgments", judgments, "--labels", labels, "--reps", "100"]);
    expect(plan.code, plan.err).toBe(0);
    expect(plan.out).toMatch(/^citation-accuracy · fingerprint [0-9a-f]{12} · 32 held-out items judged$/m);
    expect(plan.out).toMatch(/labels the gate counts: 12 \(11 yes \/ 1 no; random, held-out, drawn by a recorded draw\); 28 other labels not counted/);
    expect(plan.out).toMatch(/cannot at kappa 0\.\d\d: more labels narrow the interval around 0\.\d\d, never above 0\.60 \(needs >= 0\.\d\d with all 36 held-out items labelled\)/);
    expect(plan.out).toMatch(/cannot: the gate needs 50 labels \(minLabels 50\) but only 46 held-out items exist/);
    expect(plan.out).toMatch(/^Method: n = z²·V\/\(kappa - threshold\)²/m);
    const json = JSON.parse((await runCliCaptured(["plan", "--config", config, "--judgments", judgments, "--labels", labels, "--reps", "0", "--format", "json", "--width", "0.05"])).out);
    expect(json.map((p: { rubric: string }) => p.rubric)).toEqual(["citation-accuracy", "correctness", "faithfulness", "not-found"]);
    expect(json[0].passRate.target).toBe(0.05);

    const missing = await runCliCaptured(["plan", "--config", config, "--judgments", join(dir, "none.jsonl"), "--labels", labels]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/none\.jsonl: judgments file not found/);
    expect((await runCliCaptured(["plan", "--config", config, "--judgments", judgments, "--budget", "10"])).err).toMatch(/--budget needs --annotator/);

    const queue = join(dir, "q.jsonl");
    const budget = await runCliCaptured(["plan", "--config", config, "--judgments", judgments, "--labels", labels, "--reps", "0", "--budget", "40", "--annotator", "asha", "--out", queue]);
    expect(budget.code, budget.err).toBe(0);
    expect(budget.out).toMatch(/^Budget of 40 labels:$/m);
    const draws = loadDraws(labels).draws.filter((d) => d.draw.design === "stratified");
    expect(draws.length).toBeGreaterThan(0);
    for (const d of draws) {
      expect(designRefusal(d.draw)).toBeNull();
      // Every held-out item has a positive probability; the rest are recorded with 0.
      expect(d.draw.population.items.every((it) => (it.split === "heldout") === it.p > 0)).toBe(true);
    }
    const entries = loadQueue(queue).map((r) => r.value);
    expect(entries.length).toBeGreaterThanOrEqual(40);
    // When the draws queue other than the budget, the output says so and why.
    if (entries.length !== 40) expect(budget.out).toContain(`  ${entries.length} queued in all, not 40: each draw is grown until the items it draws that are not yet labelled reach its share`);
    expect(entries.every((e) => e.frame === "random" && e.draw !== undefined && e.stratum !== undefined && e.inclusionProbability! > 0)).toBe(true);
    // Another budget before these are labelled would record a second draw to finish: refused, naming the command that finishes the first.
    const again = await runCliCaptured(["plan", "--config", config, "--judgments", judgments, "--labels", labels, "--reps", "0", "--budget", "10", "--annotator", "asha", "--out", join(dir, "q2.jsonl")]);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/--budget: label what is drawn before drawing more \(\S+: draw [0-9a-f]{16} for asha, \d+ of \d+ drawn held-out items labelled/);
    const finish = /queue their unlabelled items with (ragjudge sample --draw [0-9a-f]{16} --annotator asha --config \S+ --labels \S+ --judgments [^\s,]+)/.exec(again.err);
    expect(finish, again.err).not.toBeNull();
    const finished = await runCliCaptured([...finish![1]!.split(" ").slice(1), "--out", join(dir, "q3.jsonl")]);
    expect(finished.code, finished.err).toBe(0);
    expect(loadDraws(labels).draws.filter((d) => d.draw.design === "stratified")).toHaveLength(draws.length);

    // Label the queue as review would (agreeing with the judge), then the gate counts the draws, weighted.
    const verdicts = new Map(readFileSync(judgments, "utf8").trim().split("\n").map((l) => JSON.parse(l)).map((j) => [`${j.variant}/${j.question}/${j.rubric}/${j.unit}`, j.verdict]));
    for (const e of entries) {
      const v = verdicts.get(`${e.variant}/${e.question}/${e.rubric}/${e.unit}`);
      appendLabel(labels, { variant: e.variant, question: e.question, rubric: e.rubric, unit: e.unit, inputHash: e.inputHash, label: v === "no" ? "no" : "yes", annotator: "asha", provenance: "author", frame: "random", inclusionProbability: e.inclusionProbability, stratum: e.stratum, split: e.split, time: "2026-12-02T00:00:00.000Z" });
    }
    const cal = await runCliCaptured(["calibrate", "--config", config, "--judgments", judgments, "--labels", labels, "--no-write", "--format", "json", "--reps", "100"]);
    expect(cal.code, cal.err).toBe(0);
    const report = JSON.parse(cal.out);
    for (const d of draws) {
      const r = report.rubrics.find((x: { group: { rubric: string } }) => x.group.rubric === d.draw.rubric);
      expect(r.draws.find((s: { id: string }) => s.id === d.draw.id)).toMatchObject({ covers: true, counts: true });
      // Weighted unless the draw took every held-out item (probability 1 for all).
      expect(r.weighted).toBe(d.draw.population.items.some((it) => it.p > 0 && it.p < 1));
    }
  });

  it("checks a budget's --out before recording its draws: a folder or a file the command reads is refused and no draw is written", async () => {
    const { dir, config, judgments, labels } = await example("ragjudge-plan-out-");
    const draws = () => readdirSync(join(labels, "draws")).sort();
    const before = draws();
    const cases: [string, RegExp][] = [
      // the draws were recorded, then the folder refused: unfinished draws that held the trust gate back
      [dir, /is a folder: give a file name to write/],
      [judgments, /judgments\.jsonl: is the judgments file, which this command reads/],
      [join(labels, "zed.jsonl"), /zed\.jsonl: lies in the labels folder \(.*labels\), which this command reads/],
    ];
    for (const [out, re] of cases) {
      for (const how of [["--budget", "10"], ["--active", "2"]]) {
        const r = await runCliCaptured(["plan", "--config", config, "--judgments", judgments, "--labels", labels, "--reps", "0", ...how, "--annotator", "zed", "--out", out]);
        expect(r.code, `${out} ${how.join(" ")}`).toBe(2);
        expect(r.err.trim().split("\n"), out).toHaveLength(1);
        expect(r.err, out).toMatch(re);
        expect(r.out, out).toBe("");
      }
    }
    expect(draws()).toEqual(before);
  });

  it("draws another budget beside a counting draw whose rest its annotator skipped in review, never beside one with an item nobody looked at", async () => {
    const { dir, config, judgments, labels } = await example("ragjudge-plan-skipped-");
    const queue = join(dir, "q.jsonl");
    const first = await runCliCaptured(["plan", "--config", config, "--judgments", judgments, "--labels", labels, "--reps", "0", "--budget", "40", "--annotator", "asha", "--out", queue]);
    expect(first.code, first.err).toBe(0);
    const entries = loadQueue(queue).map((r) => r.value);
    const byDraw = new Map<string, number[]>();
    entries.forEach((e, i) => byDraw.set(e.draw!, [...(byDraw.get(e.draw!) ?? []), i]));
    // the largest draw: one item skipped, one left open, the rest labelled (coverage above 0.8)
    const [drawId, mine] = [...byDraw].sort((a, b) => b[1].length - a[1].length)[0]!;
    expect(mine.length).toBeGreaterThanOrEqual(10);
    const [skipped, open] = [mine[0]!, mine[1]!];
    const session = new ReviewSession({ queueFile: queue, rubricsDir: join(ROOT, "rubrics"), judgmentsFile: judgments, labelsDir: labels, annotator: "asha", provenance: "human" });
    entries.forEach((e, i) => {
      if (i === skipped) session.skip(i, e.inputHash);
      else if (i !== open) session.answer(i, e.inputHash, "yes");
    });
    const budget = (out: string) => runCliCaptured(["plan", "--config", config, "--judgments", judgments, "--labels", labels, "--reps", "0", "--budget", "10", "--annotator", "asha", "--out", join(dir, out)]);
    const refused = await budget("q2.jsonl");
    expect(refused.code).toBe(2);
    const state = new RegExp(`draw ${drawId} for asha, (\\d+) of (\\d+) drawn held-out items labelled`).exec(refused.err);
    expect(state, refused.err).not.toBeNull();
    expect(Number(state![2]) - Number(state![1])).toBe(2);

    // Skipped too (and a third item answered the other way by a second annotator: still labelled for the draw, and
    // decided by the answer against the judge): the draw counts, its rest counts against the judge, and more can be drawn.
    session.skip(open, entries[open]!.inputHash);
    const tied = entries[mine[2]!]!;
    appendLabel(labels, { variant: tied.variant, question: tied.question, rubric: tied.rubric, unit: tied.unit, inputHash: tied.inputHash, label: "no", annotator: "bo", provenance: "human", frame: "random", draw: drawId, inclusionProbability: tied.inclusionProbability, stratum: tied.stratum, split: tied.split, time: "2026-12-02T00:00:00.000Z" });
    const drawn = await budget("q3.jsonl");
    expect(drawn.code, drawn.err).toBe(0);
    expect(drawn.out).toMatch(/^Budget of 10 labels:$/m);
    const note = new RegExp(`^note: ${tied.rubric}: draw ${drawId} counts with 2 drawn items asha skipped; until labelled they count as disagreements with the judge\\. To queue them again: ragjudge (sample --draw ${drawId} --annotator asha .*)$`, "m").exec(drawn.out);
    expect(note, drawn.out).not.toBeNull();
    // the printed command runs as printed, and queues the two skipped items (not the one two people answered)
    const again = await runCliCaptured([...note![1]!.split(" "), "--out", join(dir, "q4.jsonl")]);
    expect(again.code, again.err).toBe(0);
    expect(loadQueue(join(dir, "q4.jsonl")).map((r) => r.value.inputHash).sort()).toEqual([entries[skipped]!.inputHash, entries[open]!.inputHash].sort());
  });

  it("sizes each draw by the new labels it queues: a budget over a frame whose earlier draw is labelled (nested in the new one) queues the whole share", async () => {
    const { dir, config, judgments, labels } = await example("ragjudge-plan-nested-");
    const budget = async (n: number, out: string) => {
      const r = await runCliCaptured(["plan", "--config", config, "--judgments", judgments, "--labels", labels, "--reps", "0", "--budget", String(n), "--annotator", "asha", "--out", join(dir, out), "--format", "json"]);
      expect(r.code, r.err).toBe(0);
      return { shares: JSON.parse(r.out).shares as { rubric: string; labels: number; allocation: Record<string, number>; draw: { id: string; queued: number } }[], entries: loadQueue(join(dir, out)).map((x) => x.value) };
    };
    for (const [round, n] of [[1, 24], [2, 16], [3, 12]] as const) {
      const { shares, entries } = await budget(n, `q${round}.jsonl`);
      expect(shares.length).toBeGreaterThan(0);
      // every share is queued in full: no draw delivers fewer new labels than its rubric was given, nor many more (a
      // stratum takes at least 2, and the smallest draw that reaches the share may pass it by a few)
      for (const s of shares) {
        expect(s.draw.queued, `round ${round}, ${s.rubric}`).toBeGreaterThanOrEqual(s.labels);
        expect(s.draw.queued, `round ${round}, ${s.rubric}`).toBeLessThanOrEqual(s.labels + 2 * Object.keys(s.allocation).length);
      }
      const session = new ReviewSession({ queueFile: join(dir, `q${round}.jsonl`), rubricsDir: join(ROOT, "rubrics"), judgmentsFile: judgments, labelsDir: labels, annotator: "asha", provenance: "human" });
      entries.forEach((e, i) => session.answer(i, e.inputHash, "yes"));
    }
  });

  it("offers an active frame for error analysis whose labels never feed the gate, even relabelled random", async () => {
    const { dir, config, judgments, labels } = await example("ragjudge-plan-active-");
    const queue = join(dir, "active.jsonl");
    const r = await runCliCaptured(["plan", "--config", config, "--judgments", judgments, "--labels", labels, "--active", "5", "--annotator", "asha", "--out", queue]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/no P\(yes\) from the judge for correctness, not-found/);
    // The next command is printed, and serves that queue as printed.
    const next = /Next: ragjudge (review .*)$/m.exec(r.out)?.[1];
    expect(next).toBe(`review ${queue} --annotator asha --config ${config} --labels ${labels} --judgments ${judgments}`);
    const entries = loadQueue(queue).map((x) => x.value);
    expect(entries).toHaveLength(10);
    expect(entries.every((e) => e.frame === "active" && e.inclusionProbability === undefined && e.draw === undefined)).toBe(true);
    const gateBefore = async () => JSON.parse((await runCliCaptured(["calibrate", "--config", config, "--judgments", judgments, "--labels", labels, "--no-write", "--format", "json", "--reps", "100"])).out);
    const before = await gateBefore();
    for (const [k, e] of entries.entries()) {
      // Half keep their frame; half are relabelled random by hand.
      appendLabel(labels, { variant: e.variant, question: e.question, rubric: e.rubric, unit: e.unit, inputHash: e.inputHash, label: "no", annotator: "asha", provenance: "author", frame: k % 2 ? "active" : "random", split: e.split, time: "2026-12-02T00:00:00.000Z" });
    }
    const after = await gateBefore();
    for (const rubric of ["citation-accuracy", "faithfulness"]) {
      const b = before.rubrics.find((x: { group: { rubric: string } }) => x.group.rubric === rubric);
      const a = after.rubrics.find((x: { group: { rubric: string } }) => x.group.rubric === rubric);
      expect(a.gate.n).toBe(b.gate.n);
      expect(a.trust.trusted).toBe(false);
      const why = a.errorAnalysis.map((e: { excluded: string }) => e.excluded);
      expect(why).toContain("frame active");
      expect(why).toContain("not drawn");
    }
    // Verdicts with no P(yes) at all leave nothing to rank: said so, and the queue being reviewed is kept as it was.
    const noPYes = join(dir, "no-pyes.jsonl");
    writeFileSync(noPYes, readFileSync(judgments, "utf8").split("\n").filter((l) => /"rubric":"(correctness|not-found)"/.test(l)).join("\n") + "\n");
    const kept = readFileSync(queue, "utf8");
    const none = await runCliCaptured(["plan", "--config", config, "--judgments", noPYes, "--labels", labels, "--active", "5", "--annotator", "asha", "--out", queue]);
    expect(none.code, none.err).toBe(0);
    expect(none.out).toContain(`Nothing to review: no unlabelled item has a P(yes) from the judge to rank. No queue written (${queue} is left as it was).`);
    expect(readFileSync(queue, "utf8")).toBe(kept);
  });
  it("plans only on verdicts of the items the config builds today: claim verdicts under an answer-level config are left out, said so, and every draw queues", async () => {
    const { dir, config, labels } = await example("ragjudge-plan-stale-");
    // The same data with claim-level faithfulness, judged into its own file (as a second config sharing the cache would).
    const claimConfig = join(dir, "claim.config.json");
    const base = JSON.parse(readFileSync(config, "utf8"));
    const abs = (p: string) => join(ROOT, p);
    writeFileSync(claimConfig, JSON.stringify({ ...base, faithfulnessUnit: "claim", golden: abs(base.golden), rubricsDir: abs(base.rubricsDir), labels, variants: base.variants.map((v: { output: string; chunks: string }) => ({ ...v, output: abs(v.output), chunks: abs(v.chunks) })) }));
    const claimJudgments = join(dir, "claim-judgments.jsonl");
    expect((await runCliCaptured(["judge", "--config", claimConfig, "--out", claimJudgments, "--no-progress"])).code).toBe(0);

    const queue = join(dir, "q.jsonl");
    // the claim config's own budget below draws into a labels folder of its own: this one's draws stay open
    const claimLabels = join(dir, "claim-labels");
    cpSync(labels, claimLabels, { recursive: true });
    const r = await runCliCaptured(["plan", "--config", config, "--judgments", claimJudgments, "--labels", labels, "--reps", "0", "--budget", "30", "--annotator", "asha", "--out", queue]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/^plan: left out \d+ verdicts of .*claim-judgments\.jsonl that match no item the config builds today/m);
    expect(r.out).not.toMatch(/^faithfulness ·/m);
    expect(r.out).not.toMatch(/; 0 queued$/m);

    // Under the claim config itself nothing is left out, and the faithfulness draw queues claims.
    const ok = await runCliCaptured(["plan", "--config", claimConfig, "--judgments", claimJudgments, "--labels", claimLabels, "--reps", "0", "--budget", "30", "--annotator", "ravi", "--out", queue]);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.err).not.toMatch(/left out/);

    // A file none of whose verdicts is of a current item (every input hash changed) is one line, exit 2.
    const changed = join(dir, "changed.jsonl");
    writeFileSync(changed, readFileSync(claimJudgments, "utf8").trim().split("\n").map((l) => JSON.stringify({ ...JSON.parse(l), inputHash: "0".repeat(64) })).join("\n") + "\n");
    const none = await runCliCaptured(["plan", "--config", claimConfig, "--judgments", changed, "--labels", labels]);
    expect(none.code).toBe(2);
    expect(none.err.trim().split("\n")).toHaveLength(1);
    expect(none.err).toMatch(/changed\.jsonl: none of its \d+ verdicts is of an item the config builds today/);
  });
  it("cuts a budget's strata with the P(yes) the gate reads: repeats filed out of order, their mean a rounding either side of a band's edge", async () => {
    const { dir, config, judgments, labels } = await example("ragjudge-plan-pyes-");
    // Three repeats per correctness item with P(yes) 0.5, 0.91 and 0.99, filed as repeats 1, 2, 0: their mean in file order
    // is 0.7999999999999999 (unsure), in repeat order 0.8000000000000002 (sure).
    const lines = readFileSync(judgments, "utf8").trim().split("\n").flatMap((l) => {
      const j = JSON.parse(l) as { rubric: string; judge: string };
      if (j.rubric !== "correctness" || j.judge === "rule") return [l];
      return [[1, 0.91], [2, 0.99], [0, 0.5]].map(([repeat, pYes]) => JSON.stringify({ ...j, repeat, pYes }));
    });
    const repeated = join(dir, "repeated.jsonl");
    writeFileSync(repeated, lines.join("\n") + "\n");
    const queue = join(dir, "q.jsonl");
    const budget = await runCliCaptured(["plan", "--config", config, "--judgments", repeated, "--labels", labels, "--reps", "0", "--budget", "20", "--annotator", "asha", "--out", queue]);
    expect(budget.code, budget.err).toBe(0);
    const draw = loadDraws(labels).draws.find((d) => d.draw.rubric === "correctness" && d.draw.design === "stratified")!;
    expect(draw.draw.strata!.map((x) => x.name).join()).toMatch(/sure/);
    const cal = await runCliCaptured(["calibrate", "--config", config, "--judgments", repeated, "--labels", labels, "--no-write", "--format", "json", "--reps", "100"]);
    expect(cal.code, cal.err).toBe(0);
    const c = JSON.parse(cal.out).rubrics.find((x: { group: { rubric: string } }) => x.group.rubric === "correctness");
    const status = c.draws.find((x: { id: string }) => x.id === draw.draw.id);
    expect(status.why ?? "").not.toMatch(/strata are not this judge's/);
    expect(status.covers).toBe(true);
  });

  it("reads right on a fresh init project (one held-out item per rubric, no labels)", async () => {
    const dir = join(tempDir("ragjudge-plan-init-"), "my-eval");
    expect((await runCliCaptured(["init", dir])).code).toBe(0);
    const config = join(dir, "ragjudge.config.json");
    const r = await runCliCaptured(["plan", "--config", config, "--reps", "0"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^correctness · fingerprint [0-9a-f]{12} · 1 held-out item judged$/m);
    expect(r.out).toMatch(/^ {4}cannot: the gate needs 50 labels \(minLabels\) but only 1 held-out item exists: put more questions in the held-out split$/m);
    expect(r.out).not.toMatch(/pilot/);
    expect(r.out).toMatch(/^ {2}corrected pass rate \(PPI\) n\/a \(target width 0\.100\)$/m);
    expect(r.out).not.toMatch(/n\/a n\/a/);
    // Labelling cannot reach the gate here: the plan says so, as run does, instead of offering a budget.
    expect(r.out).toMatch(/^Next: labelling cannot make citation-accuracy, correctness, faithfulness, not-found trusted: citation-accuracy has 1 held-out judged item and the gate needs 50 labels; .*Put more questions in the held-out split, then run and plan again\.$/m);
    expect(r.out).not.toContain("--budget");
  });

  it("ends in the command that draws what its next lines ask for, and that command runs as printed", async () => {
    const { config } = exampleCopy((c) => (c.trust = { minLabels: 20, minPerClass: 3 }));
    expect((await runCliCaptured(["run", "--config", config, "--quiet"])).code).toBe(0);
    const r = await runCliCaptured(["plan", "--config", config, "--reps", "0"]);
    expect(r.code, r.err).toBe(0);
    const next = /^Next: draw the (\d+) labels these lines ask for .*\n {2}(ragjudge plan --budget \d+ --annotator \S+ --config \S+)$/m.exec(r.out);
    expect(next, r.out).not.toBeNull();
    const args = next![2]!.split(" ").slice(1).map((a) => a.replace(/^'|'$/g, ""));
    const budget = await runCliCaptured([...args, "--reps", "0"]);
    expect(budget.code, budget.err).toBe(0);
    expect(budget.out).toContain(`Budget of ${next![1]} labels:`);
    expect(budget.out).toMatch(/Wrote \d+ entries to .*\. Next: ragjudge review --annotator \S+ --config /);
    // A stratified draw is finished with sample --draw: its own items, its id, no new draw recorded.
    const labelsDir = join(dirname(config), "labels");
    const before = loadDraws(labelsDir).draws;
    const stratified = before.find((d) => d.draw.design === "stratified")!;
    const queue = join(dirname(config), "rest.jsonl");
    const rest = await runCliCaptured(["sample", "--draw", stratified.draw.id, "--annotator", "asha", "--config", config, "--out", queue]);
    expect(rest.code, rest.err).toBe(0);
    expect(rest.out).toMatch(new RegExp(`^Draw ${stratified.draw.id} \\(\\S+, stratified, drawn for \\S+\\): ${stratified.draw.drawn.length} drawn items`));
    const entries = loadQueue(queue);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.value.draw === stratified.draw.id && e.value.frame === "random" && e.value.stratum !== undefined)).toBe(true);
    expect(loadDraws(labelsDir).draws.map((d) => d.draw.id)).toEqual(before.map((d) => d.draw.id));
    const unknown = await runCliCaptured(["sample", "--draw", "0000000000000000", "--annotator", "asha", "--config", config]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/no draw 0000000000000000 is recorded here \(draws: [0-9a-f]{16}/);
    expect((await runCliCaptured(["sample", "--draw", stratified.draw.id, "--random", "3", "--annotator", "asha", "--config", config])).code).toBe(2);
  });
});
