/**
 * Claim labels from end to end on the shipped example with
 * `faithfulnessUnit: "claim"`: `run`, `sample` draws claims (units c<n>,
 * never the derived answer verdicts), `review --tty` labels them one by one,
 * and `calibrate` measures the judge at claim level, leaving an answer-level
 * label unpaired instead of pooling it.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { calibrate } from "../../src/calibration/calibrate.js";
import { loadDraws } from "../../src/calibration/draws.js";
import { loadLabels } from "../../src/calibration/labels.js";
import { loadJsonl } from "../../src/golden/jsonl.js";
import { Judgment, Label, QueueEntry } from "../../src/golden/schema/items.js";
import { ReviewSession } from "../../src/review/session.js";
import { runTtyReview } from "../../src/review/tty.js";
import { runCliCaptured } from "../helpers/cli.js";
import { exampleCopy } from "../report/helpers.js";

describe("claim labels: sample, review --tty, calibrate", () => {
  it("labels claims one by one and calibrates at claim level, never pooling answer-level labels", async () => {
    const copy = exampleCopy((c) => {
      c.faithfulnessUnit = "claim";
    });
    const cacheDir = join(copy.dir, ".ragjudge");
    const run = await runCliCaptured(["run", "--config", copy.config]);
    expect(run.code).toBe(0);
    const sample = await runCliCaptured(["sample", "--config", copy.config, "--random", "12", "--rubrics", "faithfulness", "--annotator", "asha"]);
    expect(sample.code).toBe(0);
    const queue = loadJsonl(join(cacheDir, "review-queue.jsonl"), QueueEntry).map((r) => r.value);
    expect(queue.length).toBeGreaterThan(10);
    expect(queue.every((e) => /^c\d+$/.test(e.unit))).toBe(true);
    const judgments = loadJsonl(join(cacheDir, "judgments.jsonl"), Judgment).map((r) => r.value);
    // Each queued claim carries exactly the evidence its verdict judged: the claim as the answer.
    for (const e of queue) {
      const j = judgments.find((x) => x.variant === e.variant && x.question === e.question && x.rubric === e.rubric && x.unit === e.unit)!;
      expect(j.inputHash).toBe(e.inputHash);
      expect(e.evidence.answer).toBe(j.claim);
    }

    // The terminal review: each claim on its own, labelled by unit.
    const session = new ReviewSession({ queueFile: join(cacheDir, "review-queue.jsonl"), rubricsDir: join(copy.dir, "rubrics"), judgmentsFile: join(cacheDir, "judgments.jsonl"), labelsDir: copy.labels, annotator: "asha" });
    const output = new PassThrough();
    let text = "";
    output.on("data", (c: Buffer) => (text += c.toString("utf8")));
    const typed = queue.map((e) => (judgments.find((x) => x.inputHash === e.inputHash && x.unit === e.unit)!.verdict === "yes" ? "y" : "n")).join("\n") + "\n";
    await runTtyReview(session, { input: Readable.from([typed]), output, color: false });
    expect(text).toMatch(/CLAIM c\d+ OF THE ANSWER \(label this claim alone\):/);
    // The rubric's question speaks of "the answer": it says which claim stands in for it.
    expect(text).toMatch(/→ Is every claim in the answer supported by the numbered sources\? \(for claim c\d+ alone\)/);
    const labels = loadJsonl(join(copy.labels, "asha.jsonl"), Label).map((r) => r.value);
    expect(labels.map((l) => [l.question, l.unit, l.inputHash])).toEqual(queue.map((e) => [e.question, e.unit, e.inputHash]));

    // An answer-level label on a derived verdict's item: it must not be paired with anything.
    const derived = judgments.find((j) => j.rubric === "faithfulness" && j.derived === "claims")!;
    appendFileSync(join(copy.labels, "asha.jsonl"), JSON.stringify({ ...labels[0]!, question: derived.question, variant: derived.variant, unit: "answer", inputHash: derived.inputHash }) + "\n");

    const report = calibrate({ judgments, judgmentsFile: { file: "judgments.jsonl" }, book: loadLabels(copy.labels), draws: loadDraws(copy.labels) });
    const faith = report.rubrics.find((r) => r.group.rubric === "faithfulness")!;
    const claimsJudged = judgments.filter((j) => j.rubric === "faithfulness" && /^c\d+$/.test(j.unit)).length;
    expect(faith.group.items).toBe(claimsJudged);
    // Every claim label pairs with its claim verdict (the gate counts the held-out ones; the labels agree with the judge).
    expect(faith.hasLabels).toBe(true);
    expect(faith.disagreements).toEqual([]);
    expect(faith.errorAnalysis.length + faith.gate.n).toBeGreaterThan(0);
    expect(report.unpaired.unknownItem.map((i) => [i.key.question, i.key.unit])).toEqual([[derived.question, "answer"]]);
    expect(readFileSync(join(copy.labels, "asha.jsonl"), "utf8")).toContain('"unit":"c');
  });
});
