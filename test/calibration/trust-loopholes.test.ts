/**
 * The trust gate, tried adversarially (issue 12): every way it used to be
 * talked into "trusted" gets a test that failed on the code before the fix.
 * They run as a user does, through the CLI on a copy of the shipped example
 * with the offline baseline judge: `judge`, `sample`, labels (written by
 * hand where the adversary writes them, through the review session where a
 * person labels), `calibrate`, and `judge` again, whose summary prints the
 * trust state it recomputes. Thresholds are lowered where the example's
 * held-out split is too small for the defaults, so that the old gate would
 * have trusted each case and the new one has to say why not.
 */
import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Label } from "../../src/golden/schema/items.js";
import type { Draw } from "../../src/golden/schema/draw.js";
import { drawIdOf, drawText } from "../../src/calibration/draws.js";
import { uniformReplay } from "../../src/calibration/plan/stratified-draw.js";
import { runCliCaptured } from "../helpers/cli.js";
import { labelRandomDraw } from "../helpers/labelling.js";
import { calibrate, calibration, honest, judgeAgain, judged, splitOf, trustLine, verdictsOf, writeRandomLabels } from "../helpers/gate-project.js";

describe("the trust gate cannot be talked into trust", () => {
  it("cherry-picked labels that merely claim frame 'random' do not make a rubric trusted", async () => {
    const p = await judged();
    const split = splitOf(p);
    // Every held-out correctness item, labelled exactly as the judge said: kappa 1.00 if the frame were believed.
    writeRandomLabels(p, verdictsOf(p).filter((j) => j.rubric === "correctness" && j.judge !== "rule" && split.get(j.question) === "heldout"));
    const c = await calibration(p, "correctness");
    expect(c.gate.n).toBe(0);
    expect(c.trust).toMatchObject({ trusted: false, reason: "labels-not-random" });
    expect(c.trust.message).toMatch(/^untrusted: no label counts \(not counted: 36 random-frame labels outside any recorded draw/);
    expect((await calibrate(p)).code).toBe(0);
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^UNTRUSTED: no label counts/);
  });

  it("counts only the labels a recorded draw drew: labels added outside the draw stay out", async () => {
    const p = await judged();
    const { entries } = await labelRandomDraw({ config: p.config, dir: p.dir, judgments: p.judgments, labels: p.labels, rubrics: "correctness", split: "heldout", random: 10 });
    const key = (x: { variant: string; question: string; unit: string }) => `${x.variant}/${x.question}/${x.unit}`;
    const drawn = new Set(entries.map(key));
    const split = splitOf(p);
    writeRandomLabels(p, verdictsOf(p).filter((j) => j.rubric === "correctness" && j.judge !== "rule" && split.get(j.question) === "heldout" && !drawn.has(key(j))));
    const c = await calibration(p, "correctness");
    expect(c.gate.n).toBe(10);
    expect(c.errorAnalysis.find((e) => e.excluded === "not drawn")!.figures.n).toBe(26);
    expect(c.trust.reason).toBe("too-few-labels");
  });

  it("never trusts a record the evidence has left behind: every answer changed, the old record is stale", async () => {
    const p = await judged();
    await honest(p, "correctness");
    expect((await calibrate(p)).code).toBe(0);
    // Trusted only under this test's lowered thresholds, and the line says so.
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^TRUSTED: kappa 1\.00.*; thresholds below the defaults: minLabels 20 \(default 50\), minPerClass 3 \(default 10\)$/);
    // Every answer of both variants changes: every input hash is new, and calibrate pairs nothing and writes no record.
    for (const v of ["bm25-small", "hybrid-rerank"]) {
      const file = join(p.dir, "golden", "variants", v, "output.jsonl");
      writeFileSync(file, readFileSync(file, "utf8").trim().split("\n").map((l) => {
        const o = JSON.parse(l) as { answer?: string };
        if (o.answer) o.answer = `In short: ${o.answer}`;
        return JSON.stringify(o);
      }).join("\n") + "\n");
    }
    const line = trustLine((await judgeAgain(p)).out, "correctness");
    expect(line).toMatch(/^UNTRUSTED: stale: run ragjudge calibrate --config \S+ --judgments \S+ \(the verdicts changed/);
    expect((await calibrate(p)).code).toBe(0);
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^UNTRUSTED/);
  });

  it("never trusts a record after labels were flipped: stale until calibrated again, then the new figures decide", async () => {
    const p = await judged();
    await honest(p, "correctness");
    expect((await calibrate(p)).code).toBe(0);
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^TRUSTED/);
    // The same annotator answers 30 of the 36 items again, the other way (later labels supersede).
    const mine = readFileSync(join(p.labels, "test-author.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Label).slice(0, 30);
    appendFileSync(join(p.labels, "test-author.jsonl"), mine.map((l) => JSON.stringify({ ...l, label: l.label === "yes" ? "no" : "yes", time: new Date(Date.now() + 60_000).toISOString() })).join("\n") + "\n");
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^UNTRUSTED: stale: run ragjudge calibrate --config \S+ --judgments \S+ \(the labels of this rubric changed/);
    expect((await calibrate(p)).code).toBe(0);
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^UNTRUSTED: kappa too low/);
  });

  it("never trusts labels whose questions were moved out of the held-out split after the draw", async () => {
    const p = await judged();
    await honest(p, "correctness");
    expect((await calibrate(p)).code).toBe(0);
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^TRUSTED/);
    // The adversary moves three labelled held-out questions to dev (say, those where people disagreed with the
    // judge): the input hashes stay the same, so only the splits tell. The draw no longer counts.
    const golden = join(p.dir, "golden", "questions.jsonl");
    const moved = [...splitOf(p)].filter(([, s]) => s === "heldout").slice(0, 3).map(([q]) => q);
    writeFileSync(golden, readFileSync(golden, "utf8").trim().split("\n").map((l) => {
      const q = JSON.parse(l) as { id: string; split?: string };
      return JSON.stringify(moved.includes(q.id) ? { ...q, split: "dev" } : q);
    }).join("\n") + "\n");
    expect((await judgeAgain(p)).code).toBe(0);
    const c = await calibration(p, "correctness");
    expect(c.gate.n).toBe(0);
    expect(c.trust.message).toMatch(/^untrusted: no label counts/);
    expect((await calibrate(p)).code).toBe(0);
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^UNTRUSTED: no label counts/);
  });

  it("counts a draw's skipped items as disagreements: skipping where the judge is wrong cannot buy trust", async () => {
    const p = await judged();
    // The adversary labels the whole draw as the judge decided, except six items where people would disagree with
    // it (here, six the judge said yes to): those are skipped, under the draw's 20% that may go unlabelled.
    let yes = 0;
    const { entries, answered } = await labelRandomDraw({
      config: p.config, dir: p.dir, judgments: p.judgments, labels: p.labels, rubrics: "correctness", split: "heldout",
      answer: (_e, verdict) => (verdict === "yes" && yes++ < 6 ? "skip" : verdict === "no" ? "no" : "yes"),
    });
    expect(entries.length - answered).toBe(6);
    expect(answered / entries.length).toBeGreaterThanOrEqual(0.8);
    const c = await calibration(p, "correctness");
    expect(c.gate.n).toBe(answered);
    expect(c.trust).toMatchObject({ trusted: false, reason: "kappa-too-low" });
    expect(c.trust.message).toContain("6 drawn held-out items with no counting label are counted as disagreements (label them to count their labels instead)");
    const cal = await calibrate(p);
    expect(cal.code).toBe(0);
    expect(cal.out).toContain('confusion matrix (its "label" cells include the 6 skipped drawn items, each as a disagreement)');
    const out = (await judgeAgain(p)).out;
    expect(trustLine(out, "correctness")).toMatch(/^UNTRUSTED: kappa too low/);
    // plan reads the same figures and says to label the skipped items first.
    const plan = await runCliCaptured(["plan", "--config", p.config, "--judgments", p.judgments, "--reps", "0"]);
    expect(plan.out).toContain("  first: label the 6 drawn held-out items left without a counting label: until then the gate counts them as disagreements");
    // Labelled as the judge decided after all (the honest outcome when it was right), the same draw is trusted.
    await labelRandomDraw({ config: p.config, dir: p.dir, judgments: p.judgments, labels: p.labels, rubrics: "correctness", split: "heldout" });
    const after = await calibration(p, "correctness");
    expect(after.gate.n).toBe(entries.length);
    expect(after.trust).toMatchObject({ trusted: true });
    expect(after.trust.message).not.toContain("counted as disagreements");
  });

  it("refuses look-alike annotators who would outvote the real one, and labels dated in the future", async () => {
    const p = await judged();
    await honest(p, "correctness");
    const mine = readFileSync(join(p.labels, "test-author.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Label);
    const flipped = (l: Label, over: Partial<Label>) => JSON.stringify({ ...l, label: l.label === "yes" ? "no" : "yes", ...over });
    // Two more "annotators" whose names print as the real one's (a Cyrillic е; a zero-width joiner) vote the other way.
    writeFileSync(join(p.labels, "t\u0435st-author.jsonl"), mine.map((l) => flipped(l, { annotator: "t\u0435st-author" })).join("\n") + "\n");
    writeFileSync(join(p.labels, "test-au\u200dthor.jsonl"), mine.map((l) => flipped(l, { annotator: "test-au\u200dthor" })).join("\n") + "\n");
    const r = await calibrate(p);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/t\u0435st-author\.jsonl:1: annotator: "t\u0435st-author" reads like "test-author" \(.*test-author\.jsonl:1\) but is another name/);
    expect(r.err).toMatch(/annotator: "test-au\u200dthor" holds an invisible character \(U\+200D\)/);
    // The real annotator's labels, re-dated to 2099, would supersede any later relabelling.
    writeFileSync(join(p.labels, "t\u0435st-author.jsonl"), "");
    writeFileSync(join(p.labels, "test-au\u200dthor.jsonl"), "");
    appendFileSync(join(p.labels, "test-author.jsonl"), JSON.stringify({ ...mine[0]!, time: "2099-01-01T00:00:00.000Z" }) + "\n");
    const future = await runCliCaptured(["run", "--config", p.config, "--quiet"]);
    expect(future.code).toBe(2);
    expect(future.err).toMatch(/test-author\.jsonl:\d+: time: 2099-01-01T00:00:00\.000Z is in the future/);
  });

  it("counts labels with no split as dev: a golden set without a held-out split is never trusted", async () => {
    const p = await judged();
    const golden = join(p.dir, "golden", "questions.jsonl");
    writeFileSync(golden, readFileSync(golden, "utf8").trim().split("\n").map((l) => {
      const { split: _s, ...q } = JSON.parse(l) as { split?: string };
      return JSON.stringify(q);
    }).join("\n") + "\n");
    expect((await judgeAgain(p)).code).toBe(0);
    const { answered } = await labelRandomDraw({ config: p.config, dir: p.dir, judgments: p.judgments, labels: p.labels, rubrics: "correctness", random: 60 });
    expect(answered).toBe(60);
    const c = await calibration(p, "correctness");
    expect(c.gate.n).toBe(0);
    expect(c.trust.message).toBe('untrusted: no label counts (not counted: 60 random labels outside the held-out split "heldout" (labels with no split count as dev; prompts are tuned on dev)); label a random sample of the "heldout" split (ragjudge run prints the sample, review and calibrate commands for this project under Next)');
  });

  it("draws the same items however often a draw is deleted and drawn again with another seed: the seed is the frame's, not the user's", async () => {
    const p = await judged();
    const sample = (seed: string, out: string) => runCliCaptured(["sample", "--config", p.config, "--judgments", p.judgments, "--labels", p.labels, "--annotator", "mallory", "--random", "16", "--rubrics", "correctness", "--split", "heldout", "--seed", seed, "--out", join(p.dir, out)]);
    const first = await sample("1", "q1.jsonl");
    expect(first.code, first.err).toBe(0);
    const [id] = readdirSync(join(p.labels, "draws"));
    const items = (f: string) => readFileSync(join(p.dir, f), "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { question: string }).question).sort();
    // The adversary looks at the queue, deletes the manifest (no label names it yet) and draws again with seed after seed.
    for (const seed of ["2", "3", "4"]) {
      rmSync(join(p.labels, "draws", id!));
      const again = await sample(seed, `q${seed}.jsonl`);
      expect(again.code, again.err).toBe(0);
      expect(readdirSync(join(p.labels, "draws"))).toEqual([id]);
      expect(items(`q${seed}.jsonl`)).toEqual(items("q1.jsonl"));
    }
  });

  it("draws the held-out items in one order whatever the scope: another split filter or size only stops elsewhere, never puts other items first", async () => {
    const p = await judged();
    const sample = async (out: string, ...extra: string[]): Promise<Draw> => {
      const r = await runCliCaptured(["sample", "--config", p.config, "--judgments", p.judgments, "--labels", p.labels, "--annotator", "mallory", "--rubrics", "correctness", ...extra, "--out", join(p.dir, out)]);
      expect(r.code, r.err).toBe(0);
      return JSON.parse(readFileSync(join(p.labels, "draws", `${/draw ([0-9a-f]{16}):/.exec(r.out)![1]}.json`), "utf8")) as Draw;
    };
    const heldout = (d: Draw) => d.drawn.map((i) => d.population.items[i]!).filter((it) => it.split === "heldout").map((it) => `${it.variant}/${it.question}`);
    // The shopper records every kind of draw before labelling any, to keep the one whose first items flatter the judge.
    const order = heldout(await sample("all.jsonl", "--random", "1000"));
    expect(order.length).toBeGreaterThan(20);
    for (const [out, extra] of [["h12.jsonl", ["--random", "12", "--split", "heldout"]], ["h5.jsonl", ["--random", "5", "--split", "heldout,dev"]], ["u30.jsonl", ["--random", "30"]]] as const) {
      const got = heldout(await sample(out, ...extra));
      expect(got.length).toBeGreaterThan(0);
      expect(got, out).toEqual(order.slice(0, got.length));
    }
  });

  it("will not queue a draw the gate refuses: its labels would be spent for nothing (a draw from before seeds were fixed)", async () => {
    const p = await judged();
    const first = await runCliCaptured(["sample", "--config", p.config, "--judgments", p.judgments, "--labels", p.labels, "--annotator", "ivy", "--random", "16", "--rubrics", "correctness", "--split", "heldout", "--out", join(p.dir, "q.jsonl")]);
    expect(first.code, first.err).toBe(0);
    // The same draw as an older ragjudge recorded it: seed 1, chosen (its id recomputed, as it was then).
    const [name] = readdirSync(join(p.labels, "draws"));
    const old = JSON.parse(readFileSync(join(p.labels, "draws", name!), "utf8")) as Draw;
    const drawn = uniformReplay(old.rubric, 1, old.population.items, old.drawn.length);
    const body = { ...old, seed: 1, drawn };
    const id = drawIdOf(body);
    rmSync(join(p.labels, "draws", name!));
    writeFileSync(join(p.labels, "draws", `${id}.json`), drawText({ ...body, id }));
    const again = await runCliCaptured(["sample", "--config", p.config, "--judgments", p.judgments, "--labels", p.labels, "--draw", id, "--annotator", "ivy", "--out", join(p.dir, "q2.jsonl")]);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(new RegExp(`${id}\\.json: the trust gate does not count draw ${id}: its seed 1 is not the one its population fixes \\(\\d+\\): .*; draw again with ragjudge sample --random, 16 items of split heldout: labels of the items it draws again still count`));
  });

  it("never trusts while a draw is part-labelled: abandoning a larger draw once it showed a disagreement does not buy trust", async () => {
    const p = await judged({ minLabels: 14, minPerClass: 3, kappaLower: 0.5 });
    const loop = { config: p.config, dir: p.dir, judgments: p.judgments, labels: p.labels, rubrics: "correctness", split: "heldout", annotator: "mallory" };
    // Draw B (16 items), labelled whole as the judge decided: the draw the adversary would keep.
    const b = await labelRandomDraw({ ...loop, random: 16 });
    expect(b.answered).toBe(16);
    // Draw A (24 items, B's 16 among them: a draw's seed is its frame's): the first of its 8 new items shows a
    // disagreement, two more agree, and the adversary walks away from it.
    const a = await labelRandomDraw({ ...loop, random: 24, answer: (_e, verdict, i) => (i === 0 ? (verdict === "yes" ? "no" : "yes") : i < 3 ? (verdict === "no" ? "no" : "yes") : "skip") });
    expect(a.answered).toBe(3);
    const c = await calibration(p, "correctness");
    // Before, A simply did not count, B did, and the rubric was TRUSTED at kappa 1.00.
    expect(c.trust).toMatchObject({ trusted: false, reason: "incomplete-draw" });
    const drawA = c.trust.message.match(/draw ([0-9a-f]{16}) for mallory: (\d+) of 24 drawn held-out items labelled/);
    expect(drawA, c.trust.message).not.toBeNull();
    expect(Number(drawA![2])).toBe(19);
    expect(c.trust.message).toMatch(/^untrusted: a draw is not finished \(draw [0-9a-f]{16} for mallory: 19 of 24 drawn held-out items labelled; each must be labelled to 80% before any label counts toward trust/);
    expect((await calibrate(p)).code).toBe(0);
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^UNTRUSTED: a draw is not finished/);
    // ragjudge run's Next names the draw and the command that queues its unlabelled items again, which works as printed.
    const run = await runCliCaptured(["run", "--config", p.config]);
    expect(run.out).toMatch(/^Next: a draw is not finished \(correctness: draw [0-9a-f]{16} for mallory, 19 of 24 labelled\); a draw below the share that must be labelled blocks trust/m);
    const again = /^ {2}ragjudge (sample --draw ([0-9a-f]{16}) --annotator mallory --config \S+)$/m.exec(run.out);
    expect(again, run.out).not.toBeNull();
    expect(again![2]).toBe(drawA![1]);
    const queue = join(p.dir, "finish.jsonl");
    const sampled = await runCliCaptured([...again![1]!.split(" "), "--out", queue]);
    expect(sampled.code, sampled.err).toBe(0);
    const unlabelled = 24 - Number(drawA![2]);
    expect(readFileSync(queue, "utf8").trim().split("\n")).toHaveLength(unlabelled);
    expect(sampled.out).toContain(`Draw ${drawA![1]} (correctness, uniform, drawn for mallory): 24 drawn items, ${unlabelled} of them still unlabelled → ${unlabelled} queued for mallory`);
    // plan says the same: label what is drawn before drawing more.
    const plan = await runCliCaptured(["plan", "--config", p.config, "--judgments", p.judgments, "--reps", "0"]);
    expect(plan.out).toContain(`Next: label what is drawn before drawing more: correctness: draw ${drawA![1]} for mallory, ${drawA![2]} of 24 drawn held-out items labelled:`);
    expect(plan.out).not.toContain("--budget");
    // Finished honestly (the rest as the judge decided), both draws count and the disagreement with them.
    await labelRandomDraw({ ...loop, random: 24 });
    const done = await calibration(p, "correctness");
    expect(done.trust.reason).not.toBe("incomplete-draw");
    expect(done.gate.n).toBe(24);
    expect(done.trust.message).toMatch(/kappa 0\.\d\d/);
  });

  it("cannot void a finished draw by tying its disagreements with a second annotator", async () => {
    const p = await judged();
    let flips = 0;
    const { entries } = await labelRandomDraw({
      config: p.config, dir: p.dir, judgments: p.judgments, labels: p.labels, rubrics: "correctness", split: "heldout",
      answer: (_e, verdict) => (flips++ < 6 ? (verdict === "yes" ? "no" : "yes") : verdict === "no" ? "no" : "yes"),
    });
    const before = await calibration(p, "correctness");
    expect(before.trust).toMatchObject({ trusted: false, reason: "kappa-too-low" });
    // "bob" labels eight of the drawn items the other way round. Those ties used to drop the draw below 80% labelled,
    // so no label counted, the disagreements with them; now every item stays labelled, decided by an answer against
    // the judge when either gave one: bob's on the two the first annotator agreed on, the first's on the other six.
    const verdicts = new Map(verdictsOf(p).map((j) => [`${j.variant}/${j.question}/${j.unit}/${j.inputHash}`, j] as const));
    const tied = entries.slice(0, 8).map((e) => verdicts.get(`${e.variant}/${e.question}/${e.unit}/${e.inputHash}`)!);
    const firstLabels = new Map(readFileSync(join(p.labels, "test-author.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Label).map((l) => [`${l.variant}/${l.question}/${l.unit}`, l.label]));
    writeRandomLabels(p, tied, (j) => ({ annotator: "bob", label: firstLabels.get(`${j.variant}/${j.question}/${j.unit}`) === "yes" ? "no" : "yes" }));
    const after = await calibration(p, "correctness");
    expect(after.gate.n).toBe(entries.length);
    expect(after.trust).toMatchObject({ trusted: false, reason: "kappa-too-low" });
    expect(after.trust.ci!.hi).toBeLessThan(before.trust.ci!.hi);
  });

  it("never trusts the project's own author labels, however well they agree with the judge", async () => {
    const p = await judged();
    await labelRandomDraw({ config: p.config, dir: p.dir, judgments: p.judgments, labels: p.labels, rubrics: "correctness", split: "heldout", provenance: "author" });
    const c = await calibration(p, "correctness");
    expect(c.gate.n).toBe(36);
    expect(c.trust).toMatchObject({ trusted: false, reason: "author-labels" });
    expect(c.trust.message).toMatch(/^untrusted: author labels are not evidence \(n = 36 author labels \(the project's own labels, not human evidence\); author labels are example labels, the project's own, and say nothing about a judge: move them out of the labels folder \(\S*test-author\.jsonl\)/);
    expect((await calibrate(p)).code).toBe(0);
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^UNTRUSTED: author labels are not evidence/);
    // One author label among human ones is enough to refuse, and says how many.
    const human = join(p.labels, "test-author.jsonl");
    const lines = readFileSync(human, "utf8").trim().split("\n");
    writeFileSync(human, lines.map((l, i) => (i === 0 ? l : l.replace('"provenance":"author"', '"provenance":"human"'))).join("\n") + "\n");
    const mixed = await calibration(p, "correctness");
    expect(mixed.trust.reason).toBe("author-labels");
    expect(mixed.trust.message).toMatch(/\(n = 36 labels: 35 human, 1 author \(the project's own labels, not human evidence\); 1 of them with author labels; /);
    // run's Next names the file to move, and once it is moved the rest of the loop runs as printed.
    const run = await runCliCaptured(["run", "--config", p.config]);
    expect(run.out).toMatch(/^Next: correctness rests on author labels \(example labels, the project's own: never evidence about a judge\)\. Move \S*test-author\.jsonl out of the labels folder, then label what is left unlabelled as yourself and run again:$/m);
  });

  it("never believes a record edited by hand: its verdict, figures and thresholds raised, its hashes kept", async () => {
    const p = await judged();
    let flips = 0;
    await labelRandomDraw({ config: p.config, dir: p.dir, judgments: p.judgments, labels: p.labels, rubrics: "correctness", split: "heldout", answer: (_e, verdict) => (flips++ < 8 ? (verdict === "yes" ? "no" : "yes") : verdict === "no" ? "no" : "yes") });
    expect((await calibrate(p)).code).toBe(0);
    const [name] = readdirSync(join(p.labels, "calibration"));
    const file = join(p.labels, "calibration", name!);
    const record = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown> & { figures: Record<string, unknown> };
    expect(record.gate).toMatchObject({ trusted: false, reason: "kappa-too-low" });
    // The adversary keeps the hashes (so the record is current) and rewrites what the record says it measured.
    writeFileSync(file, JSON.stringify({
      ...record,
      gate: { trusted: true, message: "trusted: kappa 1.00, 95% CI [0.90, 1.00], n = 36 human labels" },
      thresholds: { minLabels: 1, minPerClass: 0, kappaLower: 0, minCoverage: 0.1 },
      figures: { ...record.figures, kappa: 1, kappaSe: 0.01, kappaCi: { lo: 0.9, hi: 1 }, kappaGofCi: { lo: 0.9, hi: 1 }, agreement: 1, confusion: { tp: 17, fn: 0, fp: 0, tn: 19 } },
    }, null, 2) + "\n");
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^UNTRUSTED: kappa too low \(0\.\d\d, 95% CI \[0\.\d\d, 0\.\d\d\]; lower bound must be >= 0\.60/);
    const run = await runCliCaptured(["run", "--config", p.config, "--require-trusted", "--quiet"]);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/untrusted rubrics under --require-trusted: .*correctness/);
    // Rewritten as an older record (whose served model is not checked), it is stale, never trusted.
    writeFileSync(file, JSON.stringify({ ...record, schema: "ragjudge.calibration/1" }, null, 2) + "\n");
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^UNTRUSTED: stale: run ragjudge calibrate .*the record was written by an older ragjudge/);
  });

  it("never trusts verdicts rewritten to agree with the labels: calibrate measures the file it is given, run and judge judge again", async () => {
    const p = await judged();
    let flips = 0;
    await labelRandomDraw({ config: p.config, dir: p.dir, judgments: p.judgments, labels: p.labels, rubrics: "correctness", split: "heldout", answer: (_e, verdict) => (flips++ < 8 ? (verdict === "yes" ? "no" : "yes") : verdict === "no" ? "no" : "yes") });
    // The adversary rewrites the judgments file: every labelled verdict now says what the label says (input hashes kept).
    const labels = new Map(readFileSync(join(p.labels, "test-author.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Label).map((l) => [`${l.variant}/${l.question}/${l.rubric}/${l.unit}/${l.inputHash}`, l.label]));
    const forged = verdictsOf(p).map((j) => ({ ...j, verdict: labels.get(`${j.variant}/${j.question}/${j.rubric}/${j.unit}/${j.inputHash}`) ?? j.verdict }));
    expect(forged.filter((j, i) => j.verdict !== verdictsOf(p)[i]!.verdict)).toHaveLength(8);
    writeFileSync(p.judgments, forged.map((j) => JSON.stringify(j)).join("\n") + "\n");
    const cal = await calibrate(p);
    expect(cal.code).toBe(0);
    expect(cal.out).toMatch(/correctness .*\n {2}TRUSTED kappa 1\.00/);
    // The record is for the forged verdicts: the judge's own verdicts, judged again, are measured instead.
    expect(trustLine((await judgeAgain(p)).out, "correctness")).toMatch(/^UNTRUSTED: (kappa too low|stale)/);
    const run = await runCliCaptured(["run", "--config", p.config, "--require-trusted", "--quiet"]);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/untrusted rubrics under --require-trusted: .*correctness/);
  });

  it("counts an item once however many annotator names label it: copies under other names do not reach minLabels", async () => {
    const p = await judged();
    const { answered } = await labelRandomDraw({ config: p.config, dir: p.dir, judgments: p.judgments, labels: p.labels, rubrics: "correctness", split: "heldout", random: 12 });
    expect(answered).toBe(12);
    // The same 12 labels again under two more names (36 label lines, over minLabels 20 if each counted).
    const mine = readFileSync(join(p.labels, "test-author.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Label);
    for (const who of ["bob", "carol"]) writeFileSync(join(p.labels, `${who}.jsonl`), mine.map((l) => JSON.stringify({ ...l, annotator: who })).join("\n") + "\n");
    const c = await calibration(p, "correctness");
    expect(c.gate.n).toBe(12);
    expect(c.trust).toMatchObject({ trusted: false, reason: "too-few-labels" });
    expect(c.trust.message).toMatch(/^untrusted: too few labels \(12 human labels, /);
  });

  it("gives perfect agreement on 46 labels an interval that does not collapse to [1.00, 1.00]", async () => {
    const p = await judged({ minLabels: 40, minPerClass: 5 });
    const { answered } = await honest(p, "not-found");
    expect(answered).toBe(46);
    const c = await calibration(p, "not-found");
    expect(c.gate.n).toBe(46);
    // 36 yes / 10 no, all agreeing: Donner & Eliasziw's goodness-of-fit bound (see stats/kappa-gof.test.ts).
    expect(c.trust.ci!.hi).toBe(1);
    expect(c.trust.ci!.lo).toBeGreaterThan(0.7);
    expect(c.trust.ci!.lo).toBeLessThan(0.85);
    expect(c.trust.message).toMatch(/^trusted: kappa 1\.00, 95% CI \[0\.\d\d, 1\.00\], n = 46 human labels/);
    expect((await calibrate(p)).out).not.toMatch(/not-found[\s\S]*95% CI \[1\.00, 1\.00\]/);
  });
});
