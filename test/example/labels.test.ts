/**
 * The example's labels and the draws they label (golden/LABELS.md): the
 * committed manifests are exactly what `ragjudge sample` draws again (a
 * draw's seed is its frame's, whatever --seed says), and every author label
 * is on a drawn item, so the trust gate counts them as drawn by ragjudge.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { drawItemKey, loadDraws } from "../../src/calibration/draws.js";
import { evidenceKey } from "../../src/calibration/keys.js";
import { loadLabels } from "../../src/calibration/labels.js";
import { runCliCaptured } from "../helpers/cli.js";
import { ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

describe("the example's labels", () => {
  it("are the drawn items of the committed draws, which sample draws again byte for byte from the frame's own seed", async () => {
    const labels = join(ROOT, "labels");
    const draws = loadDraws(labels).draws;
    expect(draws.map((d) => d.draw.rubric).sort()).toEqual(["citation-accuracy", "correctness", "faithfulness", "not-found"]);
    const drawn = new Set(draws.flatMap((d) => [...d.drawn].map((i) => drawItemKey(d.draw.rubric, d.draw.population.items[i]!))));
    const labelled = new Set(loadLabels(labels).history.map((l) => evidenceKey(l.value, l.value.inputHash)));
    expect(labelled.size).toBe(160);
    expect([...labelled].filter((k) => !drawn.has(k))).toEqual([]);
    expect(drawn.size).toBe(160);

    const dir = tempDir("ragjudge-example-draws-");
    const judgments = join(dir, "judgments.jsonl");
    const config = join(ROOT, "ragjudge.config.json");
    expect((await runCliCaptured(["judge", "--config", config, "--out", judgments, "--no-progress"])).code).toBe(0);
    const again = await runCliCaptured(["sample", "--config", config, "--judgments", judgments, "--labels", join(dir, "labels"), "--out", join(dir, "q.jsonl"),
      "--random", "40", "--seed", "2026", "--annotator", "ragjudge-authors", "--rubrics", "faithfulness,correctness,citation-accuracy,not-found"]);
    expect(again.code, again.err).toBe(0);
    expect(readdirSync(join(dir, "labels", "draws")).sort()).toEqual(readdirSync(join(labels, "draws")).sort());
  });
});
