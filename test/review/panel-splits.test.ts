import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { calibrate } from "../../src/calibration/calibrate.js";
import { loadDraws } from "../../src/calibration/draws.js";
import { loadLabels } from "../../src/calibration/labels.js";
import { loadJsonl } from "../../src/golden/jsonl.js";
import { Judgment, QueueEntry } from "../../src/golden/schema/items.js";
import { runEvaluation } from "../../src/report/evaluation.js";
import { ReviewSession } from "../../src/review/session.js";
import { runCliCaptured } from "../helpers/cli.js";
import { exampleCopy } from "../report/helpers.js";

/** `ragjudge sample --panel-splits`: the items a panel split on, a frame whose labels the gate never counts. */
describe("the panel-split review frame", () => {
  it("queues exactly the split items, and its labels stay out of the gate even on items a counting draw drew", async () => {
    const copy = exampleCopy((c) => {
      delete c.judge;
      c.rubrics = ["not-found"];
      c.judges = [{ name: "lexical", kind: "baseline" }, { name: "always-yes", kind: "constant", verdict: "yes" }];
      c.trust = { minLabels: 5, minPerClass: 1, kappaLower: 0.1, minCoverage: 0.01 };
    });
    const cacheDir = join(copy.dir, "cache");
    const first = await runEvaluation({ config: copy.config, cacheDir });
    const splits = first.report.panel!.rubrics[0]!.splits;
    expect(splits).toBeGreaterThan(0);

    // A random draw of every held-out item first, so the split items are drawn by a draw the gate would count.
    const drawQueue = join(copy.dir, "draw.jsonl");
    const d = await runCliCaptured(["sample", "--config", copy.config, "--judgments", join(cacheDir, "judgments.jsonl"), "--annotator", "asha", "--random", "1000", "--split", "heldout", "--out", drawQueue]);
    expect(d.code, d.err).toBe(0);

    const queue = join(copy.dir, "splits.jsonl");
    const s = await runCliCaptured(["sample", "--config", copy.config, "--panel-splits", "--annotator", "asha", "--out", queue, "--judgments", join(cacheDir, "panel-judgments.jsonl")]);
    expect(s.code, s.err).toBe(0);
    expect(s.out).toMatch(new RegExp(`not-found: ${splits} of \\d+ judged items split → ${splits} queued`));
    const entries = loadJsonl(queue, QueueEntry).map((r) => r.value);
    expect(entries).toHaveLength(splits);
    expect(entries.every((e) => e.frame === "panel-split")).toBe(true);
    expect((await runCliCaptured(["sample", "--config", copy.config, "--panel-splits", "--random", "3", "--annotator", "asha"])).code).toBe(2);

    // Label every split item (agreeing with the lexical judge) through the review session.
    const judgments = join(cacheDir, "judgments.jsonl");
    const lexical = new Map(loadJsonl(judgments, Judgment).map((r) => [`${r.value.variant}/${r.value.question}/${r.value.inputHash}`, r.value.verdict]));
    const session = new ReviewSession({ queueFile: queue, rubricsDir: join(copy.dir, "rubrics"), judgmentsFile: judgments, labelsDir: copy.labels, annotator: "asha", provenance: "author" });
    session.entries.forEach((e, i) => session.answer(i, e.value.inputHash, lexical.get(`${e.value.variant}/${e.value.question}/${e.value.inputHash}`) === "no" ? "no" : "yes"));
    const book = loadLabels(copy.labels);
    expect([...book.items.values()].every((i) => i.frames.join() === "panel-split")).toBe(true);

    const cal = calibrate({ judgments: loadJsonl(judgments, Judgment).map((r) => r.value), judgmentsFile: { file: judgments }, book, draws: loadDraws(copy.labels), trust: { minLabels: 5, minPerClass: 1, kappaLower: 0.1, minCoverage: 0.01, heldout: "heldout", perRubric: {} } });
    const r = cal.rubrics.find((x) => x.group.rubric === "not-found")!;
    expect(r.gate.n).toBe(0);
    expect(r.trust.trusted).toBe(false);
    expect(r.errorAnalysis.map((e) => e.excluded)).toContain("frame panel-split");
    // The draw's coverage ignores them too: labelling the split items does not make the draw count.
    expect(r.draws.every((x) => x.labelled === 0 && !x.counts)).toBe(true);
    // So the draw is finished by labelling them again from the draw: sample --draw queues them despite their split labels.
    const drawId = loadDraws(copy.labels).draws[0]!.draw.id;
    const rest = join(copy.dir, "rest.jsonl");
    const again = await runCliCaptured(["sample", "--config", copy.config, "--judgments", judgments, "--draw", drawId, "--annotator", "asha", "--out", rest]);
    expect(again.code, again.err).toBe(0);
    const restEntries = loadJsonl(rest, QueueEntry).map((x) => x.value);
    const split = new Set(entries.map((e) => `${e.variant}/${e.question}/${e.inputHash}`));
    expect(restEntries.every((e) => e.frame === "random" && e.draw === drawId)).toBe(true);
    expect(restEntries.some((e) => split.has(`${e.variant}/${e.question}/${e.inputHash}`))).toBe(true);
  }, 120_000);
});
