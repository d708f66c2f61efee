/**
 * `sample`, `review` and `plan` check `--annotator` against the labels
 * folder (annotator.ts), then sample, review or plan against it: each reads
 * it once and passes it on, so the names checked are those of the labels
 * used (a file changed between two reads could pass the check and be used
 * unchecked).
 */
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadDraws } from "../../../src/calibration/draws.js";
import { loadLabels } from "../../../src/calibration/labels.js";
import { runTtyReview } from "../../../src/review/tty.js";
import { runCliCaptured } from "../../helpers/cli.js";
import { judge, project, writeJudgments } from "../../review/dataset.js";

// The readers of the labels folder, spied on (they still read) to count the reads of one run; the terminal review
// itself does nothing (what is counted is what the command read before it).
vi.mock("../../../src/calibration/labels.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../../src/calibration/labels.js")>();
  return { ...real, loadLabels: vi.fn(real.loadLabels) };
});
vi.mock("../../../src/calibration/draws.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../../src/calibration/draws.js")>();
  return { ...real, loadDraws: vi.fn(real.loadDraws) };
});
vi.mock("../../../src/review/tty.js", () => ({ runTtyReview: vi.fn(async () => {}) }));

/** Runs `ragjudge <args>` (exit 0 expected) and counts how often it read the labels and the draws of `labels`. */
async function reads(args: string[], labels: string): Promise<{ labels: number; draws: number }> {
  vi.mocked(loadLabels).mockClear();
  vi.mocked(loadDraws).mockClear();
  const r = await runCliCaptured(args);
  expect(r.code, `${args.join(" ")}: ${r.err}`).toBe(0);
  return { labels: vi.mocked(loadLabels).mock.calls.filter(([d]) => d === labels).length, draws: vi.mocked(loadDraws).mock.calls.filter(([d]) => d === labels).length };
}

describe("the labels folder is read once", () => {
  it("by sample (--random, --draw, --panel-splits), review (a queue, --item) and plan", async () => {
    const p = project();
    writeJudgments(p.judgments, p.items.map((i, k) => judge(i, k % 2 ? "yes" : "no")));
    writeJudgments(join(p.dir, "cache", "panel-judgments.jsonl"), p.items.flatMap((i) => [judge(i, "yes", { judgeName: "a" }), judge(i, "no", { judgeName: "b" })]));
    const queue = join(p.dir, "queue.jsonl");
    const sample = (...args: string[]) => reads(["sample", ...args, "--annotator", "asha", "--out", queue, "--config", p.config], p.labels);
    const once = { labels: 1, draws: 1 };
    expect(await sample("--random", "4", "--rubrics", "faithfulness")).toEqual(once);
    const id = loadDraws(p.labels).draws[0]!.draw.id;
    expect(await sample("--draw", id)).toEqual(once);
    expect(await sample("--panel-splits")).toEqual(once);

    const review = (...args: string[]) => reads(["review", ...args, "--annotator", "asha", "--tty", "--config", p.config], p.labels);
    expect(await review(queue)).toEqual(once);
    expect(await review("--item", "v1/q01", join(p.dir, "item.jsonl"))).toEqual(once);
    expect(runTtyReview).toHaveBeenCalledTimes(2);
    // plan passed its labels on before; its draws too now
    expect(await reads(["plan", "--active", "2", "--annotator", "asha", "--out", queue, "--config", p.config], p.labels)).toEqual(once);
  });
});
