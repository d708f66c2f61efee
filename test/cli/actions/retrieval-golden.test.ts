import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../../helpers/cli.js";
import { filesIn, overInput } from "../../helpers/over-input.js";
import { judgeCacheFiles, project } from "../../review/dataset.js";

describe("ragjudge retrieval --export-trec-run / --export-qrels", () => {
  it("refuses a file the config names (exit 2, one line naming it) before anything is loaded or written", async () => {
    const p = project();
    const cache = judgeCacheFiles(p.dir);
    const before = filesIn(p.dir);
    const cases: [string, string][] = [
      [p.config, "is the config file, which this command reads"],
      [join(p.dir, "questions.jsonl"), "is the golden set, which this command reads"],
      [join(p.dir, "chunks.jsonl"), "is the chunks file of variant v1, which this command reads"],
      [join(p.dir, "output.jsonl"), "is the pipeline output of variant v1, which this command reads"],
      [cache, "is the judge cache, which ragjudge reads"],
      [`${cache}-wal`, "is the judge cache's write-ahead log, which ragjudge reads"],
      [join(p.labels, "asha.jsonl"), `lies in the labels folder (${p.labels}), which ragjudge reads`],
      [join(p.dir, "rubrics", "x.txt"), `lies in the rubrics folder (${join(p.dir, "rubrics")}), which ragjudge reads`],
    ];
    for (const [out, is] of cases) {
      for (const flag of ["--export-trec-run", "--export-qrels"]) {
        // the other export is a good file: it must not be written either
        const other = flag === "--export-qrels" ? "--export-trec-run" : "--export-qrels";
        const r = await runCliCaptured(["retrieval", "--config", p.config, flag, out, other, join(p.dir, "fine.txt")]);
        expect(r.code, `${flag} ${out}`).toBe(2);
        expect(r.err, `${flag} ${out}`).toBe(overInput(out, is));
        expect(r.out).toBe("");
      }
    }
    expect(filesIn(p.dir)).toEqual(before);
  });

  it("with --golden/--chunks/--output, refuses those files; two exports to one file are refused", async () => {
    const p = project();
    const before = filesIn(p.dir);
    const explicit = ["--golden", join(p.dir, "questions.jsonl"), "--chunks", join(p.dir, "chunks.jsonl"), "--output", join(p.dir, "output.jsonl")];
    for (const [file, what] of [["questions.jsonl", "the golden set"], ["chunks.jsonl", "the chunks file"], ["output.jsonl", "the pipeline output"]] as const) {
      const r = await runCliCaptured(["retrieval", ...explicit, "--export-qrels", join(p.dir, file)]);
      expect(r.code).toBe(2);
      expect(r.err).toBe(overInput(join(p.dir, file), `is ${what}, which this command reads`));
    }
    const same = join(p.dir, "both.txt");
    const r = await runCliCaptured(["retrieval", ...explicit, "--export-qrels", same, "--export-trec-run", same]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`ragjudge: error: --export-trec-run and --export-qrels name the same file (${same}): give each its own\n`);
    expect(filesIn(p.dir)).toEqual(before);
    const ok = await runCliCaptured(["retrieval", ...explicit, "--export-qrels", same]);
    expect(ok.code, ok.err).toBe(0);
    expect(readFileSync(same, "utf8")).toMatch(/^q01 0 doc-q01#1 1\n/);
  });
});
