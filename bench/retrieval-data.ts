import { closeSync, existsSync, mkdirSync, openSync, renameSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { unsafeUniformIntDistribution, xoroshiro128plus } from "pure-rand";

/** Size of the generated benchmark collection. */
export interface BenchShape {
  queries: number;
  docsPerQuery: number;
  /** Documents in the collection (docnos D0 .. D<n-1>). */
  collection: number;
  /** Judged documents per query (qrels lines). */
  judgedPerQuery: number;
  seed: number;
}

export const DEFAULT_SHAPE: BenchShape = { queries: 10_000, docsPerQuery: 1_000, collection: 100_000, judgedPerQuery: 60, seed: 20261130 };

/**
 * Writes a seeded synthetic TREC run and qrels into `dir` (reusing them when
 * a previous run left the same shape there): `queries` x `docsPerQuery` run
 * lines ranked by score (4 decimals, so some scores tie) and graded qrels
 * (0/1/2) mixing retrieved and unretrieved documents; about 1% of queries
 * have no relevant document. Same seed, same bytes.
 */
export function generateBenchData(dir: string, shape: BenchShape = DEFAULT_SHAPE): { run: string; qrels: string; runBytes: number; runLines: number } {
  const tag = `${shape.queries}x${shape.docsPerQuery}-c${shape.collection}-j${shape.judgedPerQuery}-s${shape.seed}`;
  const run = join(dir, `bench-${tag}.run.txt`);
  const qrels = join(dir, `bench-${tag}.qrels.txt`);
  const runLines = shape.queries * shape.docsPerQuery;
  if (existsSync(run) && existsSync(qrels)) return { run, qrels, runBytes: statSync(run).size, runLines };
  mkdirSync(dir, { recursive: true });
  const rng = xoroshiro128plus(shape.seed);
  const int = (min: number, max: number) => unsafeUniformIntDistribution(min, max, rng);
  const runFd = openSync(`${run}.tmp`, "w");
  const qrelsFd = openSync(`${qrels}.tmp`, "w");
  let runBuf: string[] = [];
  let qrelsBuf: string[] = [];
  const flush = () => {
    writeSync(runFd, runBuf.join(""));
    writeSync(qrelsFd, qrelsBuf.join(""));
    runBuf = [];
    qrelsBuf = [];
  };
  const docs = new Int32Array(shape.docsPerQuery);
  const scores = new Int32Array(shape.docsPerQuery);
  const seen = new Set<number>();
  for (let q = 1; q <= shape.queries; q++) {
    seen.clear();
    for (let i = 0; i < shape.docsPerQuery; i++) {
      let d: number;
      do d = int(0, shape.collection - 1);
      while (seen.has(d));
      seen.add(d);
      docs[i] = d;
      scores[i] = int(0, 999_999);
    }
    scores.sort().reverse();
    let block = "";
    for (let i = 0; i < shape.docsPerQuery; i++) {
      const s = scores[i]!;
      block += `${q} Q0 D${docs[i]} ${i + 1} ${(s / 10_000) | 0}.${String(s % 10_000).padStart(4, "0")} bench\n`;
    }
    runBuf.push(block);
    const noRelevant = int(0, 99) === 0;
    const judged = new Set<number>();
    let qb = "";
    for (let j = 0; j < shape.judgedPerQuery; j++) {
      // two thirds from the retrieved list (more often near the top), the rest from anywhere
      let d: number;
      if (j % 3 !== 2) d = docs[Math.min(int(0, shape.docsPerQuery - 1), int(0, shape.docsPerQuery - 1))]!;
      else d = int(0, shape.collection - 1);
      if (judged.has(d)) continue;
      judged.add(d);
      const r = int(0, 99);
      const grade = noRelevant ? 0 : r < 60 ? 0 : r < 85 ? 1 : 2;
      qb += `${q} 0 D${d} ${grade}\n`;
    }
    qrelsBuf.push(qb);
    if (q % 200 === 0) flush();
  }
  flush();
  closeSync(runFd);
  closeSync(qrelsFd);
  renameSync(`${run}.tmp`, run);
  renameSync(`${qrels}.tmp`, qrels);
  return { run, qrels, runBytes: statSync(run).size, runLines };
}
