/**
 * Data for `npm run bench:retrieval`: a seeded synthetic TREC run and qrels,
 * kept between invocations in one folder (by default os.tmpdir()/ragjudge-bench)
 * under names keyed by the shape and seed, with a manifest written after
 * generation (sizes, line counts, sha256). A later invocation reuses the
 * files only when the manifest matches the shape and generator version and
 * the files still have the recorded sizes and hashes; otherwise it writes
 * them again. `cleanBenchData` deletes them.
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmdirSync, rmSync, statfsSync, statSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { unsafeUniformIntDistribution, xoroshiro128plus } from "pure-rand";

/** Size of the generated benchmark collection. */
export interface BenchShape {
  queries: number;
  docsPerQuery: number;
  /** Documents in the collection (docnos D0 .. D<n-1>). */
  collection: number;
  /** Judged documents per query (qrels lines, before duplicates are dropped). */
  judgedPerQuery: number;
  seed: number;
}

/** The shape issue 2 asks for: 10,000 queries x 1,000 documents (10M run lines). */
export const DEFAULT_SHAPE: BenchShape = { queries: 10_000, docsPerQuery: 1_000, collection: 100_000, judgedPerQuery: 60, seed: 20261130 };

/** Bumped whenever the generator's output for a given shape changes, so kept data from an older generator is not reused. */
export const GENERATOR_VERSION = 2;

/** One generated file as the manifest records it. */
export interface BenchFile {
  path: string;
  bytes: number;
  lines: number;
  sha256: string;
}

/** The prepared data and how it was obtained (printed by the benchmark). */
export interface BenchData {
  dir: string;
  run: BenchFile;
  qrels: BenchFile;
  manifest: string;
  /** "reused" (manifest and hashes verified) or "generated" (with the reason). */
  status: "reused" | "generated";
  reason: string;
  seconds: number;
}

interface Manifest {
  generatorVersion: number;
  shape: BenchShape;
  run: Omit<BenchFile, "path">;
  qrels: Omit<BenchFile, "path">;
  createdAt: string;
}

const tagOf = (s: BenchShape) => `${s.queries}x${s.docsPerQuery}-c${s.collection}-j${s.judgedPerQuery}-s${s.seed}`;
const sameShape = (a: BenchShape, b: BenchShape) =>
  a.queries === b.queries && a.docsPerQuery === b.docsPerQuery && a.collection === b.collection && a.judgedPerQuery === b.judgedPerQuery && a.seed === b.seed;
/** Files this module may create in a bench folder (the only ones `cleanBenchData` deletes). */
const OWN_FILE = /^bench-[0-9x]+-c\d+-j\d+-s\d+\.(run\.txt|qrels\.txt|manifest\.json)(\.\d+\.tmp)?$/;

/** sha256 of a file, read in 4 MiB blocks (this also brings it into the page cache for both scorers alike). */
export function hashFile(path: string): string {
  const hash = createHash("sha256");
  const buf = Buffer.allocUnsafe(4 << 20);
  const fd = openSync(path, "r");
  try {
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0; ) hash.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}

/** Why the kept files cannot be reused, or null when they can (sizes and sha256 match the manifest). */
function staleReason(manifestPath: string, run: string, qrels: string, shape: BenchShape): string | null {
  if (!existsSync(manifestPath)) return existsSync(run) || existsSync(qrels) ? "files without a manifest: interrupted, or written by an older script" : "no kept data";
  let m: Manifest;
  try {
    m = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
  } catch {
    return "unreadable manifest";
  }
  if (m.generatorVersion !== GENERATOR_VERSION) return `manifest from generator version ${m.generatorVersion}, now ${GENERATOR_VERSION}`;
  if (!m.shape || !sameShape(m.shape, shape)) return "manifest for another shape";
  for (const [name, path, want] of [["run", run, m.run], ["qrels", qrels, m.qrels]] as const) {
    if (!existsSync(path)) return `${name} file missing`;
    const size = statSync(path).size;
    if (size !== want.bytes) return `${name} file is ${size} bytes, manifest says ${want.bytes}`;
    if (hashFile(path) !== want.sha256) return `${name} file's sha256 differs from the manifest`;
  }
  return null;
}

/** Deletes leftover temporary files of this shape whose writer process is gone. */
function dropDeadTemps(dir: string, tag: string): void {
  for (const name of readdirSync(dir)) {
    const m = /\.(\d+)\.tmp$/.exec(name);
    if (!m || !name.startsWith(`bench-${tag}.`)) continue;
    try {
      process.kill(Number(m[1]), 0);
    } catch {
      rmSync(join(dir, name), { force: true });
    }
  }
}

/**
 * Returns the benchmark data for `shape` in `dir`, reusing the kept files when
 * they are complete and unchanged, else writing them (atomically, then the
 * manifest). Same shape and seed, same bytes.
 * @example prepareBenchData(join(tmpdir(), "ragjudge-bench"), DEFAULT_SHAPE).run.path
 */
export function prepareBenchData(dir: string, shape: BenchShape = DEFAULT_SHAPE): BenchData {
  const t0 = performance.now();
  const tag = tagOf(shape);
  const run = join(dir, `bench-${tag}.run.txt`);
  const qrels = join(dir, `bench-${tag}.qrels.txt`);
  const manifest = join(dir, `bench-${tag}.manifest.json`);
  const reason = staleReason(manifest, run, qrels, shape);
  const seconds = () => (performance.now() - t0) / 1000;
  if (reason === null) {
    const m = JSON.parse(readFileSync(manifest, "utf8")) as Manifest;
    return { dir, run: { path: run, ...m.run }, qrels: { path: qrels, ...m.qrels }, manifest, status: "reused", reason: "manifest, sizes and sha256 verified", seconds: seconds() };
  }
  mkdirSync(dir, { recursive: true });
  dropDeadTemps(dir, tag);
  rmSync(manifest, { force: true });
  const need = shape.queries * shape.docsPerQuery * 40 + shape.queries * shape.judgedPerQuery * 20;
  const fs = statfsSync(dir);
  const free = fs.bavail * fs.bsize;
  if (free < need * 1.1) throw new Error(`${dir}: about ${(need / 1e6).toFixed(0)} MB needed for the benchmark data, ${(free / 1e6).toFixed(0)} MB free; set BENCH_DIR to a roomier folder`);
  const written = writeData(run, qrels, shape);
  const m: Manifest = { generatorVersion: GENERATOR_VERSION, shape, run: written.run, qrels: written.qrels, createdAt: new Date().toISOString() };
  writeFileSync(`${manifest}.${process.pid}.tmp`, JSON.stringify(m, null, 2) + "\n");
  renameSync(`${manifest}.${process.pid}.tmp`, manifest);
  return { dir, run: { path: run, ...m.run }, qrels: { path: qrels, ...m.qrels }, manifest, status: "generated", reason, seconds: seconds() };
}

/**
 * Writes the run (`queries` x `docsPerQuery` lines ranked by score, 4 decimals
 * so some scores tie) and graded qrels (0/1/2, mixing retrieved and
 * unretrieved documents; about 1% of queries have no relevant document),
 * hashing and counting as it writes.
 */
function writeData(run: string, qrels: string, shape: BenchShape): { run: Omit<BenchFile, "path">; qrels: Omit<BenchFile, "path"> } {
  const rng = xoroshiro128plus(shape.seed);
  const int = (min: number, max: number) => unsafeUniformIntDistribution(min, max, rng);
  const runTmp = `${run}.${process.pid}.tmp`;
  const qrelsTmp = `${qrels}.${process.pid}.tmp`;
  const runFd = openSync(runTmp, "w");
  const qrelsFd = openSync(qrelsTmp, "w");
  const out = { run: { bytes: 0, lines: 0, hash: createHash("sha256") }, qrels: { bytes: 0, lines: 0, hash: createHash("sha256") } };
  let runBuf: string[] = [];
  let qrelsBuf: string[] = [];
  const write = (fd: number, parts: string[], o: typeof out.run) => {
    const b = Buffer.from(parts.join(""));
    writeSync(fd, b);
    o.hash.update(b);
    o.bytes += b.length;
  };
  const flush = () => {
    write(runFd, runBuf, out.run);
    write(qrelsFd, qrelsBuf, out.qrels);
    runBuf = [];
    qrelsBuf = [];
  };
  const docs = new Int32Array(shape.docsPerQuery);
  const scores = new Int32Array(shape.docsPerQuery);
  const seen = new Set<number>();
  try {
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
      out.run.lines += shape.docsPerQuery;
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
        out.qrels.lines++;
      }
      qrelsBuf.push(qb);
      if (q % 200 === 0) flush();
    }
    flush();
  } catch (e) {
    closeSync(runFd);
    closeSync(qrelsFd);
    rmSync(runTmp, { force: true });
    rmSync(qrelsTmp, { force: true });
    throw e;
  }
  fsyncSync(runFd); // written back now, not during the first timed run
  fsyncSync(qrelsFd);
  closeSync(runFd);
  closeSync(qrelsFd);
  renameSync(runTmp, run);
  renameSync(qrelsTmp, qrels);
  const done = (o: typeof out.run) => ({ bytes: o.bytes, lines: o.lines, sha256: o.hash.digest("hex") });
  return { run: done(out.run), qrels: done(out.qrels) };
}

/**
 * Deletes the benchmark files this module wrote in `dir` (every shape,
 * manifests and leftover temporaries; nothing else), then the folder if it
 * is left empty. Returns what was removed.
 * @example cleanBenchData(join(tmpdir(), "ragjudge-bench")) // { files: 3, bytes: 347_000_000 }
 */
export function cleanBenchData(dir: string): { files: number; bytes: number } {
  if (!existsSync(dir)) return { files: 0, bytes: 0 };
  let files = 0;
  let bytes = 0;
  for (const name of readdirSync(dir)) {
    if (!OWN_FILE.test(name)) continue;
    const path = join(dir, name);
    bytes += statSync(path).size;
    rmSync(path, { force: true });
    files++;
  }
  try {
    rmdirSync(dir);
  } catch {
    // not empty (someone else's files) or already gone: leave it
  }
  return { files, bytes };
}

/** Bytes of all benchmark files kept in `dir` (every shape), for the "kept" line. */
export function keptBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir)
    .filter((n) => OWN_FILE.test(n))
    .reduce((sum, n) => sum + statSync(join(dir, n)).size, 0);
}
