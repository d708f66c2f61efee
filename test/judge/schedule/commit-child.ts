/**
 * A child process for commits.crash.test.ts: `width` workers hand verdicts
 * to a CommitBatcher over the cache in `dir`, each waiting for its commit
 * before the next (as a judge run's call slots do), appending `N` to
 * `<dir>/puts.txt` before handing verdict N over and printing `ack N` once its
 * commit resolved, until killed. The puts go to a file with a synchronous
 * write: a pipe to a busy parent fills, and then Node queues stdout writes in
 * memory, so a line printed "before" could still be lost by the kill. For
 * the same reason each ack is appended to `<dir>/acks.txt` before it is
 * printed: the file is what the test counts, the printed line only tells it
 * when to kill.
 *
 *   node --import tsx test/judge/schedule/commit-child.ts <dir> <width>
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { JudgeCache, cacheKey } from "../../../src/judge/schedule/cache.js";
import { CommitBatcher } from "../../../src/judge/schedule/commits.js";

const [dir, width] = process.argv.slice(2);
const cache = JudgeCache.open(dir!);
const commits = new CommitBatcher(cache);
let next = 0;
const worker = async () => {
  for (;;) {
    const i = next++;
    appendFileSync(join(dir!, "puts.txt"), `${i}\n`);
    await commits.put(cacheKey("f".repeat(64), i.toString(16).padStart(64, "0"), 0), { status: "done", verdict: i % 2 ? "yes" : "no", reason: `reason ${i}`, judge: "llm", rubric: "faithfulness", time: "2026-01-01T00:00:00.000Z" });
    appendFileSync(join(dir!, "acks.txt"), `${i}\n`);
    process.stdout.write(`ack ${i}\n`);
    // A reply's worth of other work between commits, so batches stay small and kills land anywhere.
    if (i % 3 === 0) await new Promise((r) => setTimeout(r, 1));
  }
};
await Promise.all(Array.from({ length: Number(width) }, worker));
