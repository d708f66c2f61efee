/**
 * `ragjudge review --order uncertain`: the least certain verdicts first
 * within each draw, the same items served, the queue file and the draw
 * untouched, and every label carrying its draw and inclusion probability as
 * in queue order.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadJsonl } from "../../src/golden/jsonl.js";
import { Label } from "../../src/golden/schema/items.js";
import { meanPYes, uncertainOrder } from "../../src/review/order.js";
import { ReviewSession } from "../../src/review/session.js";
import { labelsFileOf } from "../../src/review/store.js";
import { ROOT } from "../helpers/paths.js";
import { entry, judgmentOf, workspace } from "./helpers.js";

const DRAW_A = "a".repeat(16);
const DRAW_B = "b".repeat(16);
/** Eight items in two draws; P(yes) per item (undefined: the judge gave none). */
const P = [0.97, 0.52, undefined, 0.3, 0.61, 0.05, 0.45, undefined];
const entries = P.map((_, i) => entry(`q${i}`, `Answer ${i}.`, { over: { draw: i < 5 ? DRAW_A : DRAW_B, inclusionProbability: i < 5 ? 0.5 : 0.25 } }));
const judgments = entries.flatMap((e, i) => (P[i] === undefined ? [judgmentOf(e, "yes", "r")] : [judgmentOf(e, P[i]! >= 0.5 ? "yes" : "no", "r", { pYes: P[i] })]));

describe("uncertainOrder", () => {
  it("orders each draw by |P(yes) - 0.5|, items without one last, draws in their order", () => {
    expect(uncertainOrder(entries, (i) => P[i])).toEqual([1, 4, 3, 0, 2, 6, 5, 7]);
    expect(uncertainOrder(entries, () => undefined)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("takes an item's P(yes) as the mean over its verdicts that have one", () => {
    const e = entries[0]!;
    expect(meanPYes([judgmentOf(e, "yes", "r", { pYes: 0.9 }), judgmentOf(e, "no", "r", { pYes: 0.3, repeat: 1 }), judgmentOf(e, "error", "", { repeat: 2 })])).toBeCloseTo(0.6, 12);
    expect(meanPYes([judgmentOf(e, "yes", "r")])).toBeUndefined();
    expect(meanPYes(undefined)).toBeUndefined();
  });
});

describe("a review session in uncertain order", () => {
  it("serves the same items in another order, leaves the queue file as it was, and labels carry their draw", () => {
    const w = workspace(entries, judgments);
    const before = readFileSync(w.queue, "utf8");
    const plain = new ReviewSession({ queueFile: w.queue, rubricsDir: w.rubrics, judgmentsFile: w.judgments, labelsDir: w.labels, annotator: "asha" });
    const ordered = new ReviewSession({ queueFile: w.queue, rubricsDir: w.rubrics, judgmentsFile: w.judgments, labelsDir: w.labels, annotator: "asha", order: "uncertain" });
    const qs = (s: ReviewSession) => s.entries.map((e) => e.value.question);
    expect(qs(ordered)).not.toEqual(qs(plain));
    expect([...qs(ordered)].sort()).toEqual([...qs(plain)].sort());
    expect(qs(ordered)).toEqual(["q1", "q4", "q3", "q0", "q2", "q6", "q5", "q7"]);
    // The page's views follow the served order; labelling goes by that index.
    expect(ordered.view(0).index).toBe(0);
    ordered.entries.forEach((e, i) => ordered.answer(i, e.value.inputHash, "yes"));
    expect(readFileSync(w.queue, "utf8")).toBe(before);
    const labels = loadJsonl(labelsFileOf(w.labels, "asha", { create: false }), Label).map((r) => r.value);
    expect(labels.map((l) => l.question)).toEqual(qs(ordered));
    for (const l of labels) {
      const e = entries.find((x) => x.question === l.question)!;
      expect({ draw: l.draw, p: l.inclusionProbability, frame: l.frame }).toEqual({ draw: e.draw, p: e.inclusionProbability, frame: e.frame });
    }
    // After answering, the judge's P(yes) is revealed with its verdict.
    expect(ordered.reveal(0).judgments[0]!.pYes).toBe(0.52);
  });

  it("ragjudge review --order uncertain --tty says what it does; --order takes queue or uncertain only", () => {
    const w = workspace(entries, judgments);
    const run = (order: string) => spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "review", w.queue, "--tty", "--annotator", "asha", "--rubrics-dir", w.rubrics, "--labels", w.labels, "--judgments", w.judgments, "--order", order], { cwd: ROOT, input: "q\n", encoding: "utf8" });
    const ok = run("uncertain");
    expect(ok.stderr).toBe("");
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain("Serving the least certain verdicts first within each draw");
    const bad = run("random");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--order/);
  });
});
