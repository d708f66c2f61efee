import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../helpers/cli.js";
import { filesIn, overInput } from "../helpers/over-input.js";
import { judge, judgeCacheFiles, project, writeJudgments } from "./dataset.js";

describe("a review queue over the judge cache", () => {
  it("is refused by every command that writes a queue (exit 2, one line naming the file), and nothing is written", async () => {
    const p = project();
    writeJudgments(p.judgments, p.items.map((i, k) => judge(i, k % 2 ? "yes" : "no")));
    const cache = judgeCacheFiles(p.dir);
    const before = filesIn(p.dir);
    const writers: string[][] = [
      ["sample", "--random", "4", "--annotator", "asha"],
      ["sample", "--draw", "0123456789abcdef", "--annotator", "asha"],
      ["sample", "--panel-splits", "--annotator", "asha"],
      ["plan", "--active", "2", "--annotator", "asha"],
      ["plan", "--budget", "4", "--reps", "0", "--annotator", "asha"],
      ["review", "--item", "v1/q01", "--annotator", "asha", "--tty"],
    ];
    const cases: [string, string][] = [
      [cache, "is the judge cache, which ragjudge reads"],
      [`${cache}-wal`, "is the judge cache's write-ahead log, which ragjudge reads"],
      [`${cache}-shm`, "is the judge cache's shared-memory index, which ragjudge reads"],
    ];
    for (const [file, is] of cases) {
      for (const args of writers) {
        const out = args[0] === "review" ? [file] : ["--out", file];
        const r = await runCliCaptured([...args, ...out, "--config", p.config]);
        expect(r.code, `${args.join(" ")} ${file}`).toBe(2);
        expect(r.err, `${args.join(" ")} ${file}`).toBe(overInput(file, is));
      }
    }
    expect(filesIn(p.dir)).toEqual(before);
  });
});
