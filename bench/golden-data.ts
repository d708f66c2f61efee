/**
 * Data for `npm run bench:golden` (and bench:run): a seeded synthetic golden
 * set, chunks file and pipeline output, shaped like a real evaluation:
 *
 * - chunks: `docs` documents of `chunksPerDoc` chunks each, 20 to 40 words of
 *   text from a 4,000-word vocabulary (some accented, some Devanagari, so
 *   normalisation has work to do), most with a heading, a few with meta;
 * - golden set: `questions` questions, about 8% unanswerable; answerable ones
 *   carry an anchor (8 verbatim words of one chunk), relevant chunk ids, or
 *   both; kinds, tags, splits and references;
 * - pipeline output: one line per question except about 3% (missing lines),
 *   `retrieved` lists of `retrieved` chunk ids (bare ids or {id, score}),
 *   the relevant chunk at a random rank in about 75% of them; some lines with
 *   an explicit context, a bm25 stage list, citations.
 *
 * The same shape and seed give the same bytes. Files are written atomically
 * under names keyed by the shape and GENERATOR_VERSION and reused when
 * present (a manifest is written last, so an interrupted write is redone).
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from "pure-rand";

export interface GoldenShape {
  docs: number;
  chunksPerDoc: number;
  questions: number;
  retrieved: number;
  seed: number;
  /** Which pipeline variant's output to write (0, 1, ...): same questions and chunks, other rankings. Default 0. */
  variant?: number;
}

/** Bumped whenever the generator's output for a shape changes. */
export const GENERATOR_VERSION = 2;

export interface GoldenBenchFiles {
  golden: string;
  chunks: string;
  output: string;
  /** Bytes of the three files. */
  bytes: { golden: number; chunks: number; output: number };
  generated: boolean;
}

const KINDS = ["factual", "procedural", "comparison", "definition", "numeric"];
const TAGS = ["policy", "hr", "it", "finance", "legal", "travel"];
const SYLLABLES = ["ka", "lo", "mi", "ren", "ta", "vo", "shi", "pa", "du", "ne", "ri", "sol", "am", "be", "cor", "fi"];
const SPECIAL = ["café", "naïve", "résumé", "Straße", "ﬁnance", "हिन्दी", "नीति", "मानक", "ＡＢＣ"];

function vocabulary(rng: () => number, n: number): string[] {
  const out = new Set<string>();
  while (out.size < n) {
    const parts = 2 + (rng() % 3);
    let w = "";
    for (let i = 0; i < parts; i++) w += SYLLABLES[rng() % SYLLABLES.length];
    out.add(w);
  }
  return [...out, ...SPECIAL];
}

/** Where the files of `shape` live in `dir`. */
function names(dir: string, shape: GoldenShape): { golden: string; chunks: string; output: string; manifest: string } {
  const c = `golden-v${GENERATOR_VERSION}-d${shape.docs}x${shape.chunksPerDoc}-s${shape.seed}`;
  const q = `${c}-q${shape.questions}`;
  const o = `${q}x${shape.retrieved}${shape.variant ? `-v${shape.variant}` : ""}`;
  return { chunks: join(dir, `${c}.chunks.jsonl`), golden: join(dir, `${q}.golden.jsonl`), output: join(dir, `${o}.output.jsonl`), manifest: join(dir, `${o}.manifest.json`) };
}

/** A buffered line writer to a temporary file, renamed into place by `done`. */
function writer(file: string): { line: (s: string) => void; done: () => number } {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w");
  let parts: string[] = [];
  let size = 0;
  let bytes = 0;
  const flush = () => {
    const b = Buffer.from(parts.join(""));
    writeSync(fd, b);
    bytes += b.length;
    parts = [];
    size = 0;
  };
  return {
    line: (s) => {
      parts.push(s, "\n");
      size += s.length;
      if (size > 4 << 20) flush();
    },
    done: () => {
      flush();
      closeSync(fd);
      renameSync(tmp, file);
      return bytes;
    },
  };
}

/**
 * The files for `shape` in `dir`, generated unless a manifest says they are
 * complete. The chunks file depends only on the documents and the seed, so
 * golden sets of several sizes share one.
 */
export function prepareGoldenData(dir: string, shape: GoldenShape): GoldenBenchFiles {
  const f = names(dir, shape);
  if (existsSync(f.manifest) && existsSync(f.chunks) && existsSync(f.golden) && existsSync(f.output)) {
    const m = JSON.parse(readFileSync(f.manifest, "utf8")) as { bytes: GoldenBenchFiles["bytes"] };
    return { golden: f.golden, chunks: f.chunks, output: f.output, bytes: m.bytes, generated: false };
  }
  mkdirSync(dir, { recursive: true });
  // separate generators for the vocabulary, the chunks and the questions: a reused chunks file leaves the questions unchanged
  const stream = (seed: number) => {
    const gen: RandomGenerator = xoroshiro128plus(seed);
    return () => unsafeUniformIntDistribution(0, 0x7fffffff, gen);
  };
  const words = vocabulary(stream(shape.seed), 4000);
  let rng = stream(shape.seed + 1);
  const pick = <T>(xs: readonly T[]): T => xs[rng() % xs.length]!;
  const chance = (p: number) => rng() % 10_000 < p * 10_000;
  const nChunks = shape.docs * shape.chunksPerDoc;
  const chunkId = (d: number, c: number) => `doc-${d}#${c}`;
  // chunk texts are regenerated from a per-chunk seed, so questions can quote them without keeping 500k texts
  const textOf = (d: number, c: number): string[] => {
    const g = xoroshiro128plus((shape.seed ^ (d * 131 + c * 7919 + 17)) >>> 0);
    const n = 20 + unsafeUniformIntDistribution(0, 20, g);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(words[unsafeUniformIntDistribution(0, words.length - 1, g)]!);
    return out;
  };
  const bytes = { golden: 0, chunks: 0, output: 0 };
  if (!existsSync(f.chunks)) {
    const w = writer(f.chunks);
    for (let d = 0; d < shape.docs; d++) {
      for (let c = 0; c < shape.chunksPerDoc; c++) {
        const rec: Record<string, unknown> = { id: chunkId(d, c), doc: `doc-${d}` };
        if (chance(0.7)) rec.heading = `Section ${c + 1}: ${pick(words)} ${pick(words)}`;
        rec.text = textOf(d, c).join(" ") + ".";
        if (chance(0.02)) rec.meta = { page: c + 1, source: `file-${d}.pdf` };
        w.line(JSON.stringify(rec));
      }
    }
    bytes.chunks = w.done();
  } else bytes.chunks = statSync(f.chunks).size;
  rng = stream(shape.seed + 2);

  // questions first (their own generator), then the variant's outputs (another), so variants share the questions
  const golden = writer(f.golden);
  const asked: { d: number; c: number; answerable: boolean }[] = [];
  for (let n = 0; n < shape.questions; n++) {
    const d = rng() % shape.docs;
    const c = rng() % shape.chunksPerDoc;
    const q: Record<string, unknown> = { id: `q${n}`, question: `What does section ${c + 1} of document ${d} say about ${pick(words)}?` };
    const answerable = !chance(0.08);
    if (!answerable) q.answerable = false;
    else {
      const how = rng() % 10;
      if (how < 7 || how === 9) {
        const t = textOf(d, c);
        const at = rng() % (t.length - 8);
        q.anchor = { doc: `doc-${d}`, text: t.slice(at, at + 8).join(" ") };
      }
      if (how >= 7) {
        const relevant = [chunkId(d, c)];
        if (chance(0.3)) relevant.push(chunkId(d, (c + 1) % shape.chunksPerDoc));
        q.relevant = relevant;
      }
      q.reference = `Section ${c + 1} says ${pick(words)} ${pick(words)}.`;
    }
    q.kind = pick(KINDS);
    const tags = TAGS.filter(() => chance(0.25));
    if (tags.length) q.tags = tags;
    if (chance(0.9)) q.split = chance(0.3) ? "heldout" : "dev";
    golden.line(JSON.stringify(q));
    asked.push({ d, c, answerable });
  }
  const output = writer(f.output);
  rng = stream(shape.seed + 3 + (shape.variant ?? 0));
  for (let n = 0; n < shape.questions; n++) {
    const { d, c, answerable } = asked[n]!;
    if (chance(0.03)) continue; // a question the pipeline has no line for
    const seen = new Set<number>();
    const ids: string[] = [];
    const hitRank = answerable && chance(0.75) ? rng() % shape.retrieved : -1;
    for (let r = 0; r < shape.retrieved; r++) {
      let x: number;
      if (r === hitRank) x = d * shape.chunksPerDoc + c;
      else {
        do x = chance(0.3) ? d * shape.chunksPerDoc + (rng() % shape.chunksPerDoc) : rng() % nChunks;
        while (seen.has(x) || x === d * shape.chunksPerDoc + c);
      }
      seen.add(x);
      ids.push(chunkId(Math.floor(x / shape.chunksPerDoc), x % shape.chunksPerDoc));
    }
    const scored = chance(0.5);
    let score = 40 + (rng() % 1000) / 100;
    const out: Record<string, unknown> = {
      id: `q${n}`,
      retrieved: ids.map((x) => {
        if (!scored) return x;
        score -= (rng() % 100) / 1000;
        return { id: x, score: Math.round(score * 1000) / 1000 };
      }),
    };
    if (chance(0.3)) out.context = ids.slice(0, 5);
    if (chance(0.2)) out.stages = { bm25: ids.slice(0, 20).reverse() };
    out.answer = answerable ? `According to the policy, ${pick(words)} ${pick(words)} applies [1].` : "I could not find this in the documents.";
    if (chance(0.1)) out.citations = [{ sentence: `${pick(words)} applies.`, chunks: [ids[0]!] }];
    output.line(JSON.stringify(out));
  }
  bytes.golden = golden.done();
  bytes.output = output.done();
  writeFileSync(f.manifest, JSON.stringify({ generatorVersion: GENERATOR_VERSION, shape, bytes }, null, 2) + "\n");
  return { golden: f.golden, chunks: f.chunks, output: f.output, bytes, generated: true };
}
