import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { displayPath } from "../../../src/golden/errors.js";
import { runCliCaptured } from "../../helpers/cli.js";
import { filesIn, overInput } from "../../helpers/over-input.js";
import { judgeCacheFiles, project } from "../../review/dataset.js";

const label = (annotator: string) => JSON.stringify({ variant: "v1", question: "q01", rubric: "faithfulness", unit: "answer", inputHash: "a".repeat(64), label: "yes", annotator, provenance: "human", frame: "manual", time: "2026-12-01T00:00:00Z" }) + "\n";

/** A project whose labels folder has a label and a calibration record, and whose cache folder has a judge cache. */
function labelled() {
  const p = project();
  mkdirSync(join(p.labels, "calibration"), { recursive: true });
  writeFileSync(join(p.labels, "asha.jsonl"), label("asha"));
  writeFileSync(join(p.labels, "calibration", "record.json"), "{}\n");
  return { ...p, cache: judgeCacheFiles(p.dir) };
}

describe("ragjudge labels export --out", () => {
  it("refuses a file the config names or the labels folder holds (exit 2, one line naming it), and writes nothing", async () => {
    const p = labelled();
    const before = filesIn(p.dir);
    const labels = `lies in the labels folder (${displayPath(p.labels)}), which this command reads`;
    const cases: [string, string][] = [
      [p.config, "is the config file, which this command reads"],
      [join(p.dir, "questions.jsonl"), "is the golden set, which ragjudge reads"],
      [join(p.dir, "chunks.jsonl"), "is the chunks file of variant v1, which ragjudge reads"],
      [join(p.dir, "output.jsonl"), "is the pipeline output of variant v1, which ragjudge reads"],
      [join(p.labels, "asha.jsonl"), labels],
      [join(p.labels, "calibration", "record.json"), labels],
      [join(p.labels, "bob.jsonl"), labels],
      [p.cache, "is the judge cache, which ragjudge reads"],
      [`${p.cache}-wal`, "is the judge cache's write-ahead log, which ragjudge reads"],
      [`${p.cache}-shm`, "is the judge cache's shared-memory index, which ragjudge reads"],
    ];
    for (const [out, is] of cases) {
      const r = await runCliCaptured(["labels", "export", "--out", out, "--config", p.config]);
      expect(r.code, out).toBe(2);
      expect(r.err, out).toBe(overInput(out, is));
      expect(r.out, out).toBe("");
    }
    expect(filesIn(p.dir)).toEqual(before);
    const ok = await runCliCaptured(["labels", "export", "--out", join(p.dir, "labels.csv"), "--config", p.config]);
    expect(ok.code, ok.err).toBe(0);
  });

  it("with --labels: refuses that folder, and still what the config names", async () => {
    const p = labelled();
    const other = join(p.dir, "other-labels");
    mkdirSync(other);
    writeFileSync(join(other, "bob.jsonl"), label("bob"));
    const before = filesIn(p.dir);
    const inOther = join(other, "x.csv");
    const alone = await runCliCaptured(["labels", "export", "--labels", other, "--out", inOther]);
    expect(alone.err).toBe(overInput(inOther, `lies in the labels folder (${displayPath(other)}), which this command reads`));
    const withConfig = await runCliCaptured(["labels", "export", "--labels", other, "--config", p.config, "--out", join(p.labels, "asha.jsonl")]);
    expect(withConfig.code).toBe(2);
    // the config's labels folder is not the one exported, but ragjudge's all the same
    expect(withConfig.err).toBe(overInput(join(p.labels, "asha.jsonl"), `lies in the labels folder (${displayPath(p.labels)}), which ragjudge reads`));
    expect(filesIn(p.dir)).toEqual(before);
  });
});
