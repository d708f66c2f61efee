import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadLabels } from "../../src/calibration/labels.js";
import { frameSeed, loadDraws } from "../../src/calibration/draws.js";
import { loadGolden, loadVariant } from "../../src/golden/dataset.js";
import { loadConfig } from "../../src/golden/config.js";
import type { Judgment } from "../../src/golden/schema/items.js";
import { candidatesFromRun } from "../../src/review/candidates.js";
import { newestJudges } from "../../src/calibration/verdicts.js";
import { loadQueue } from "../../src/review/queue.js";
import { ReviewSession } from "../../src/review/session.js";
import { runCliCaptured } from "../helpers/cli.js";
import { judge, project, writeJudgments } from "./dataset.js";

describe("candidatesFromRun", () => {
  it("leaves out rule verdicts, stale judgments and older fingerprints; settles repeats as calibration does", () => {
    const p = project();
    const model = p.items.filter((i) => !i.rule);
    const faith = model.filter((i) => i.key.rubric === "faithfulness");
    const js = p.items.map((i) => judge(i, "yes"));
    js.push({ ...judge(faith[0]!, "error"), repeat: 1 }); // yes + errored repeat: yes (a failure is not a vote)
    js.push({ ...judge(faith[1]!, "no"), repeat: 1 }); // yes + no: tie
    js.push({ ...judge(faith[2]!, "no"), repeat: 1 }, { ...judge(faith[2]!, "no"), repeat: 2 }); // majority no
    js.push({ ...judge(faith[3]!, "yes"), inputHash: "1".repeat(64) }); // stale
    js.push({ ...judge(faith[4]!, "no"), fingerprint: "fp-0", time: "2025-01-01T00:00:00.000Z" }); // older prompt
    const allFailed = js.findIndex((x) => x.inputHash === faith[5]!.inputHash && x.fingerprint === "fp-1");
    js[allFailed] = judge(faith[5]!, "error"); // every repeat failed: a candidate with verdict error
    const cfg = loadConfig(p.config);
    const golden = loadGolden(cfg.path("questions.jsonl"));
    const variants = cfg.config.variants.map((v) => loadVariant(v, golden, cfg.path));
    const { candidates, notes } = candidatesFromRun(p.items, js, golden, variants);
    const f = notes.find((n) => n.rubric === "faithfulness")!;
    expect(f).toMatchObject({ fingerprint: "fp-1", otherFingerprints: ["fp-0"], errors: 1, stale: 1, judged: faith.length });
    const byQ = new Map(candidates.filter((c) => c.key.rubric === "faithfulness").map((c) => [c.key.question, c]));
    expect(byQ.get(faith[0]!.key.question)!.verdict).toBe("yes");
    expect(byQ.get(faith[5]!.key.question)!.verdict).toBe("error");
    expect(byQ.get(faith[1]!.key.question)!.verdict).toBe("tie");
    expect(byQ.get(faith[2]!.key.question)!.verdict).toBe("no");
    expect(byQ.get(faith[4]!.key.question)!.verdict).toBe("yes");
    const c = byQ.get("q03")!;
    expect(c).toMatchObject({ split: "dev", kind: "factual", tags: ["policy"], citedIds: ["doc-q03#1", "doc-q03#0"], anchor: { doc: "doc-q03" } });
    expect(candidates.some((x) => p.items.find((i) => i.inputHash === x.inputHash)?.rule)).toBe(false);
    expect(notes.find((n) => n.rubric === "citation-accuracy")!.judged).toBeGreaterThan(0);
  });

  it("with servedModel, keeps one served model's verdicts per rubric (the latest, or the one named), as the trust gate groups them", () => {
    const p = project();
    const faith = p.items.filter((i) => !i.rule && i.key.rubric === "faithfulness");
    const late = "2026-02-01T00:00:00.000Z";
    const b = (i: (typeof p.items)[number]) => faith.indexOf(i) % 3 === 1; // a third of faithfulness served by snap-b, later
    const js: Judgment[] = p.items.map((i) => ({ ...judge(i, "yes"), servedModel: b(i) ? "snap-b" : "snap-a", ...(b(i) ? { time: late } : {}) }));
    // an item both served: snap-b's repeat decides it for snap-b
    const both = js.find((j) => j.rubric === "faithfulness" && j.servedModel === "snap-a")!;
    js.push({ ...both, repeat: 1, verdict: "no", servedModel: "snap-b", time: late });
    // a failed retry after both, whose reply named no model: it joins the most frequent served model (snap-a), as the gate
    // assigns it, and does not make snap-a "the latest"
    const { servedModel: _none, ...failed } = { ...judge(faith.find(b)!, "error"), repeat: 1, time: "2026-03-01T00:00:00.000Z" };
    js.push(failed);
    const cfg = loadConfig(p.config);
    const golden = loadGolden(cfg.path("questions.jsonl"));
    const variants = cfg.config.variants.map((v) => loadVariant(v, golden, cfg.path));
    const pooled = candidatesFromRun(p.items, js, golden, variants);
    expect(pooled.candidates.filter((c) => c.key.rubric === "faithfulness")).toHaveLength(faith.length);
    expect(pooled.notes.find((n) => n.rubric === "faithfulness")!.servedModel).toBeUndefined();

    const latest = candidatesFromRun(p.items, js, golden, variants, { servedModel: "latest" });
    const f = latest.notes.find((n) => n.rubric === "faithfulness")!;
    const bOnly = faith.filter(b).length;
    expect(bOnly).toBeGreaterThan(1);
    expect(f.servedModel).toBe("snap-b");
    expect(f.judged).toBe(bOnly + 1);
    expect(f.otherServedModels).toEqual([{ model: "snap-a", items: faith.length - bOnly - 1 }]);
    expect(f.unjudged).toBe(0);
    const c = latest.candidates.find((x) => x.inputHash === both.inputHash && x.key.rubric === "faithfulness")!;
    expect(c.verdict).toBe("no");

    const named = candidatesFromRun(p.items, js, golden, variants, { servedModel: "snap-a" });
    const a = named.notes.find((n) => n.rubric === "faithfulness")!;
    // the failed retry is snap-a's (as in the gate's groups): its item is in snap-a's frame, with an error verdict
    expect([a.servedModel, a.judged, a.otherServedModels]).toEqual(["snap-a", faith.length - bOnly + 1, [{ model: "snap-b", items: bOnly - 1 }]]);
    expect(named.candidates.find((x) => x.inputHash === failed.inputHash && x.key.rubric === "faithfulness")!.verdict).toBe("error");
    // A tie in time: the served model of more verdicts, in sample and in plan --budget (newestJudges) alike.
    const tied = js.filter((j) => j.rubric === "faithfulness" && j.verdict !== "error").map((j) => ({ ...j, time: late, servedModel: j.servedModel === "snap-a" ? "snap-z" : j.servedModel }));
    expect(candidatesFromRun(p.items, tied, golden, variants, { servedModel: "latest" }).notes.find((n) => n.rubric === "faithfulness")!.servedModel).toBe("snap-z");
    expect(newestJudges(tied).get("faithfulness")).toMatchObject({ servedModel: "snap-z" });
    const none = candidatesFromRun(p.items, js, golden, variants, { servedModel: "snap-c" }).notes.find((n) => n.rubric === "faithfulness")!;
    expect([none.judged, none.otherServedModels!.reduce((s, o) => s + o.items, 0)]).toEqual([0, faith.length]);
  });
});

describe("ragjudge sample", () => {
  it("records the draw, writes a queue the review reads; labelled items are never queued again; calibration reads the labels", async () => {
    const p = project();
    writeJudgments(p.judgments, p.items.map((i, k) => judge(i, k % 3 ? "yes" : "no")));
    const out = join(p.dir, "queue.jsonl");
    const r = await runCliCaptured(["sample", "--config", p.config, "--random", "4", "--rubrics", "faithfulness", "--annotator", "asha", "--out", out, "--seed", "11"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/faithfulness: 11 judged items \(left out: 1 decided by rule\); 0 already labelled by you; random 4 of 11 \(inclusion probability 0\.364; draw [0-9a-f]{16}\) → 4 queued/);
    const drawId = /draw ([0-9a-f]{16}):/.exec(r.out)![1]!;
    expect(r.out).toMatch(new RegExp(`draw ${drawId}: recorded in .*draws/${drawId}\\.json`));
    const manifest = loadDraws(p.labels).draws;
    expect(manifest.map((d) => [d.draw.id, d.draw.rubric, d.draw.seed, d.draw.population.size, d.draw.drawn.length])).toEqual([[drawId, "faithfulness", frameSeed("faithfulness", manifest[0]!.draw.population.items.filter((i) => i.p > 0)), 11, 4]]);
    const first = readFileSync(out, "utf8");
    const queue = loadQueue(out).map((l) => l.value);
    expect(queue).toHaveLength(4);
    expect(queue.every((e) => e.frame === "random" && e.inclusionProbability === 4 / 11 && e.rubric === "faithfulness" && e.draw === drawId)).toBe(true);

    // Same seed, same queue (byte for byte), and the same draw, recorded once.
    const same = await runCliCaptured(["sample", "--config", p.config, "--random", "4", "--rubrics", "faithfulness", "--annotator", "asha", "--out", out, "--seed", "11"]);
    expect(readFileSync(out, "utf8")).toBe(first);
    expect(same.out).toContain(`draw ${drawId}: already recorded (the same draw)`);
    expect(loadDraws(p.labels).draws).toHaveLength(1);

    // Label two, then draw again: those two never come back to asha's queue; drawn again, their labels count.
    const s = new ReviewSession({ queueFile: out, rubricsDir: join(p.dir, "rubrics"), labelsDir: p.labels, annotator: "asha" });
    s.answer(0, queue[0]!.inputHash, "yes");
    s.answer(1, queue[1]!.inputHash, "no");
    const r2 = await runCliCaptured(["sample", "--config", p.config, "--random", "10", "--rubrics", "faithfulness", "--annotator", "asha", "--out", out]);
    expect(r2.out).toMatch(/2 already labelled by you; random 10 of 11 \(inclusion probability 0\.909, [12] of them already labelled by you \(counted, not queued again\); draw [0-9a-f]{16}\)/);
    const again = loadQueue(out).map((l) => l.value.question);
    expect(again).not.toContain(queue[0]!.question);
    expect(again).not.toContain(queue[1]!.question);

    // What calibration reads: the labels with their frame and inclusion probability.
    const book = loadLabels(p.labels);
    expect([...book.items.values()].map((i) => [i.label, i.random?.value.frame, i.random?.value.inclusionProbability, i.random?.value.draw])).toEqual([
      ["yes", "random", 4 / 11, drawId],
      ["no", "random", 4 / 11, drawId],
    ]);

    // Disagreements for another annotator: the "no" label differs wherever the judge said yes.
    const r3 = await runCliCaptured(["sample", "--config", p.config, "--disagreements", "--annotator", "ravi", "--out", out]);
    expect(r3.code).toBe(0);
    const dis = loadQueue(out).map((l) => l.value);
    const judged = new Map(p.items.map((i, k) => [i.inputHash, k % 3 ? "yes" : "no"]));
    const expected = [queue[0]!, queue[1]!].filter((e, n) => judged.get(e.inputHash) !== (n === 0 ? "yes" : "no")).length;
    expect(dis).toHaveLength(expected);
    expect(dis.every((e) => e.frame === "disagreement" && e.inclusionProbability === 1)).toBe(true);
  });

  it("--split samples only the named split, π over that split's items", async () => {
    const p = project();
    writeJudgments(p.judgments, p.items.map((i) => judge(i, "yes")));
    const out = join(p.dir, "queue.jsonl");
    const r = await runCliCaptured(["sample", "--config", p.config, "--random", "2", "--rubrics", "faithfulness", "--split", "test", "--annotator", "asha", "--out", out]);
    expect(r.code).toBe(0);
    // Split "test" holds q09..q12; q12 has an empty answer (rule): 3 judged.
    expect(r.out).toMatch(/split test\):\n {2}faithfulness: 3 judged items/);
    const q = loadQueue(out).map((l) => l.value);
    expect(q.every((e) => e.split === "test" && e.inclusionProbability === 2 / 3)).toBe(true);
    const bad = await runCliCaptured(["sample", "--config", p.config, "--random", "2", "--split", "nope", "--annotator", "asha", "--out", out]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/no question has split "nope" \(have: dev, test\)/);
  });

  it("keeps error verdicts in the random frame and says so; rejects bad flags with exit 2 and one line", async () => {
    const p = project();
    const first = p.items.find((i) => !i.rule && i.key.rubric === "faithfulness")!;
    writeJudgments(p.judgments, p.items.map((i) => judge(i, i === first ? "error" : "yes")));
    const ok = await runCliCaptured(["sample", "--config", p.config, "--random", "20", "--rubrics", "faithfulness", "--annotator", "asha"]);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/faithfulness: 11 judged items, 1 with an error verdict \(random frame only\)/);
    expect(ok.out).toMatch(/the trust gate counts a judge error as a disagreement/);
    const drawn = loadQueue(join(p.dir, "cache", "review-queue.jsonl")).map((l) => l.value.inputHash);
    expect(drawn).toContain(first.inputHash);
    expect(ok.out).toMatch(/decided by rule/);
    expect(existsSync(join(p.dir, "cache", "review-queue.jsonl"))).toBe(true);

    const cases: [string[], RegExp][] = [
      [["--annotator", "asha"], /choose what to sample/],
      [["--random", "0", "--annotator", "asha"], /--random: expected a positive whole number, got "0"/],
      [["--random", "2", "--annotator", "../x"], /cannot name a labels file/],
      [["--random", "2", "--annotator", "asha", "--variant", "nope"], /no variant named "nope"/],
      [["--random", "2", "--annotator", "asha", "--rubrics", "nope"], /no rubric named "nope"/],
      [["--random", "2", "--annotator", "asha", "--judgments", join(p.dir, "missing.jsonl")], /judgments file not found/],
      [["--random", "2", "--annotator", "asha", "--seed", "-1"], /--seed/],
      [["--random", "2", "--annotator", "asha", "--out", p.dir], /is a folder: give a file name to write/],
      // a list naming nothing meant every rubric, variant or split
      [["--random", "2", "--annotator", "asha", "--rubrics", ","], /--rubrics "," names no rubric: give one or more, comma separated, or leave --rubrics out for the default/],
      [["--random", "2", "--annotator", "asha", "--variant", " "], /--variant " " names no variant/],
      [["--random", "2", "--annotator", "asha", "--split", ",,"], /--split ",," names no split/],
      [["--panel-splits", "--annotator", "asha", "--rubrics", ","], /--rubrics "," names no rubric/],
    ];
    for (const [args, re] of cases) {
      const r = await runCliCaptured(["sample", "--config", p.config, ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(r.err, args.join(" ")).toMatch(re);
    }
  });

  it("checks --out before recording any draw: a folder, the config or a file it reads is refused and nothing is written", async () => {
    const p = project();
    writeJudgments(p.judgments, p.items.map((i, k) => judge(i, k % 2 ? "yes" : "no")));
    const drawsDir = join(p.labels, "draws");
    const draws = () => (existsSync(drawsDir) ? readdirSync(drawsDir).sort() : []);
    const before = draws();
    const config = readFileSync(p.config, "utf8");
    const cases: [string, RegExp][] = [
      // the draws were recorded, then the folder refused: unfinished draws that held the trust gate back
      [p.dir, /is a folder: give a file name to write/],
      // the config was replaced by a review queue without a word
      [p.config, /ragjudge\.config\.json: is the config file, which this command reads: give another file to write/],
      [join(p.dir, "questions.jsonl"), /questions\.jsonl: is the golden set, which this command reads/],
      [join(p.dir, "output.jsonl"), /output\.jsonl: is the pipeline output of variant v1, which this command reads/],
      [join(p.dir, "chunks.jsonl"), /chunks\.jsonl: is the chunks file of variant v1, which this command reads/],
      [p.judgments, /judgments\.jsonl: is the judgments file, which this command reads/],
      [join(p.labels, "asha.jsonl"), /asha\.jsonl: lies in the labels folder \(.*labels\), which this command reads/],
    ];
    for (const [out, re] of cases) {
      for (const how of [["--random", "4", "--split", "test"], ["--balanced", "2"]]) {
        const r = await runCliCaptured(["sample", "--config", p.config, ...how, "--rubrics", "faithfulness", "--annotator", "asha", "--out", out]);
        expect(r.code, `${out} ${how.join(" ")}`).toBe(2);
        expect(r.err.trim().split("\n"), out).toHaveLength(1);
        expect(r.err, out).toMatch(re);
        expect(r.out, out).toBe("");
      }
    }
    expect(draws()).toEqual(before);
    expect(readFileSync(p.config, "utf8")).toBe(config);
    expect(existsSync(join(p.labels, "asha.jsonl"))).toBe(false);
    const ok = await runCliCaptured(["sample", "--config", p.config, "--random", "4", "--split", "test", "--rubrics", "faithfulness", "--annotator", "asha", "--out", join(p.dir, "q.jsonl")]);
    expect(ok.code, ok.err).toBe(0);
    expect(draws()).toHaveLength(before.length + 1);
  });

  it("says a draw of more than there are took every item, fewer than asked", async () => {
    const p = project();
    writeJudgments(p.judgments, p.items.map((i, k) => judge(i, k % 3 ? "yes" : "no")));
    const r = await runCliCaptured(["sample", "--config", p.config, "--random", "20", "--rubrics", "faithfulness", "--annotator", "asha", "--out", join(p.dir, "q.jsonl")]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/random 11 of 11 \(inclusion probability 1\.00, all of them: fewer than the 20 asked; draw [0-9a-f]{16}\) → 11 queued/);
  });

  it("draws items the annotator labelled in other frames like any other, counting their labels instead of queueing them", async () => {
    const p = project();
    writeJudgments(p.judgments, p.items.map((i, k) => judge(i, k % 2 ? "yes" : "no")));
    const out = join(p.dir, "q.jsonl");
    await runCliCaptured(["sample", "--config", p.config, "--balanced", "4", "--rubrics", "faithfulness", "--annotator", "asha", "--out", out]);
    const s = new ReviewSession({ queueFile: out, rubricsDir: join(p.dir, "rubrics"), labelsDir: p.labels, annotator: "asha" });
    for (let i = 0; i < s.total; i++) s.answer(i, s.entries[i]!.value.inputHash, "yes");
    expect(s.total).toBeGreaterThan(0);
    const r = await runCliCaptured(["sample", "--config", p.config, "--random", "11", "--rubrics", "faithfulness", "--annotator", "asha", "--out", out]);
    expect(r.out).toContain(`random 11 of 11 (inclusion probability 1.00, ${s.total} of them already labelled by you (counted, not queued again)`);
    expect(loadQueue(out)).toHaveLength(11 - s.total);
    expect(r.out).not.toMatch(/outside your random draws/);
  });

  it("notes drawn items outside the held-out split, whose labels the gate does not count", async () => {
    const p = project();
    writeJudgments(p.judgments, p.items.map((i) => judge(i, "yes")));
    const r = await runCliCaptured(["sample", "--config", p.config, "--random", "11", "--rubrics", "faithfulness", "--annotator", "asha", "--out", join(p.dir, "q.jsonl")]);
    expect(r.out).toMatch(/note: 11 drawn item\(s\) are not in the held-out split "heldout" \(or have no split, which counts as dev\): the trust gate does not count their labels; use --split heldout/);
  });

  it("review on an empty queue says so and exits 0", async () => {
    const p = project();
    const out = join(p.dir, "q.jsonl");
    writeFileSync(out, "");
    const rv = await runCliCaptured(["review", out, "--config", p.config, "--annotator", "asha", "--tty"]);
    expect(rv.code).toBe(0);
    expect(rv.out).toMatch(/is empty: nothing to review/);
  });

  it("with no judged item to draw from, says why in one line (exit 2) and writes no queue nor draw, keeping the queue there", async () => {
    const p = project();
    writeJudgments(p.judgments, p.items.filter((i) => i.rule).map((i) => judge(i, "yes")));
    const out = join(p.dir, "q.jsonl");
    writeFileSync(out, "earlier queue\n");
    const r = await runCliCaptured(["sample", "--config", p.config, "--random", "3", "--annotator", "asha", "--out", out]);
    expect(r.code, r.err).toBe(2);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(/judgments\.jsonl: nothing to draw: no item of [a-z, -]+ has a verdict of the judge here \(\d+ decided by rule, which is never sampled; \d+ not judged\): run `ragjudge run --config \S+` \(or `ragjudge judge --config \S+`\) first$/m);
    expect(readFileSync(out, "utf8")).toBe("earlier queue\n");
    expect(existsSync(join(p.labels, "draws"))).toBe(false);
    // a split none of whose items is judged yet is named, with the command that judges them
    writeJudgments(p.judgments, p.items.filter((i) => !i.rule && !["q09", "q10", "q11", "q12"].includes(i.key.question)).map((i) => judge(i, "yes")));
    const split = await runCliCaptured(["sample", "--config", p.config, "--random", "3", "--rubrics", "faithfulness", "--split", "test", "--annotator", "asha", "--out", out]);
    expect(split.code, split.err).toBe(2);
    expect(split.err).toMatch(/nothing to draw: no item of faithfulness in split test has a verdict of the judge here: run `ragjudge run --config \S+` \(or `ragjudge judge --config \S+`\) first$/m);
  });

  it("with every drawn item labelled, says so (exit 0) and leaves the queue being reviewed as it was", async () => {
    const p = project();
    writeJudgments(p.judgments, p.items.map((i, k) => judge(i, k % 2 ? "yes" : "no")));
    const out = join(p.dir, "q.jsonl");
    const args = ["sample", "--config", p.config, "--random", "11", "--rubrics", "faithfulness", "--annotator", "asha", "--out", out];
    expect((await runCliCaptured(args)).code).toBe(0);
    const s = new ReviewSession({ queueFile: out, rubricsDir: join(p.dir, "rubrics"), labelsDir: p.labels, annotator: "asha" });
    for (let i = 0; i < s.total; i++) s.answer(i, s.entries[i]!.value.inputHash, "yes");
    const queue = readFileSync(out, "utf8");
    const again = await runCliCaptured(args);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain("Nothing to review: every judged item is already labelled by you. No queue written (");
    expect(again.out).toMatch(/q\.jsonl is left as it was\)\.\n$/);
    expect(readFileSync(out, "utf8")).toBe(queue);
    // the draw queued again: nothing left of it, said the same way
    const id = loadDraws(p.labels).draws[0]!.draw.id;
    const draw = await runCliCaptured(["sample", "--config", p.config, "--draw", id, "--annotator", "asha", "--out", out]);
    expect(draw.code, draw.err).toBe(0);
    expect(draw.out).toMatch(/Nothing to review: every drawn item that is judged today is labelled\. No queue written \(\S*q\.jsonl is left as it was\)\.\n$/);
    expect(readFileSync(out, "utf8")).toBe(queue);
    const dis = await runCliCaptured(["sample", "--config", p.config, "--disagreements", "--rubrics", "faithfulness", "--annotator", "asha", "--out", join(p.dir, "d.jsonl")]);
    expect(dis.code, dis.err).toBe(0);
    expect(dis.out).toMatch(/Nothing to review: the labels that disagree with the judge are your own: someone else should look\. No queue written\.\n$/);
    expect(existsSync(join(p.dir, "d.jsonl"))).toBe(false);
  });
});
