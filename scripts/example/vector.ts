import type { Chunk } from "../../src/golden/schema/golden.js";
import { indexedText } from "./chunker.js";
import { DEPTH, rankByScore, type Scored } from "./ranking.js";
import { contentTokens } from "./text.js";

/** Number of hash buckets: large enough that collisions are rare for a corpus this size. */
export const BUCKETS = 1 << 20;

/** Character n-gram sizes taken from each word (with `<` and `>` marking its ends). */
export const NGRAM_SIZES = [3, 4] as const;

/** A sparse vector: bucket to weight, L2-normalised. */
export type SparseVector = Map<number, number>;

/** 32-bit FNV-1a over the UTF-16 code units of a string. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The hashed features of a text with their raw counts: every content word
 * whole (`w:leave`) and its character 3- and 4-grams over code points
 * (`<le`, `lea`, ..., `ve>`). Shared n-grams let "encash" meet
 * "encashment" and "reimburse" meet "reimbursed", and give romanised or
 * inflected words partial credit, which whole-word BM25 cannot.
 */
export function features(text: string): Map<number, number> {
  const counts = new Map<number, number>();
  const add = (f: string) => {
    const b = fnv1a(f) % BUCKETS;
    counts.set(b, (counts.get(b) ?? 0) + 1);
  };
  for (const word of contentTokens(text)) {
    add(`w:${word}`);
    const chars = Array.from(`<${word}>`);
    for (const n of NGRAM_SIZES) {
      for (let i = 0; i + n <= chars.length; i++) add(chars.slice(i, i + n).join(""));
    }
  }
  return counts;
}

/** A dense-ish retriever: cosine similarity of TF-IDF weighted, hashed character n-gram vectors. */
export interface VectorIndex {
  search(query: string, depth?: number): Scored[];
}

/**
 * Builds the n-gram vector index over one variant's chunks (heading, when
 * kept, then text). Weights are sublinear TF (1 + ln tf) times smoothed IDF
 * (ln((N + 1) / (df + 1)) + 1), vectors are L2-normalised, and the score is
 * the cosine. Dependency-free and exactly reproducible: no model, no
 * randomness. Chunks with a zero score are not listed.
 *
 * @example
 * buildVector(chunks).search("can I cash out unused holidays when I resign", 50)
 */
export function buildVector(chunks: readonly Chunk[]): VectorIndex {
  const raw = chunks.map((c) => features(indexedText(c)));
  const df = new Map<number, number>();
  for (const f of raw) for (const b of f.keys()) df.set(b, (df.get(b) ?? 0) + 1);
  const n = chunks.length;
  const idf = (b: number) => Math.log((n + 1) / ((df.get(b) ?? 0) + 1)) + 1;
  const weigh = (f: Map<number, number>): SparseVector => {
    const v: SparseVector = new Map();
    let norm = 0;
    for (const [b, tf] of f) {
      const w = (1 + Math.log(tf)) * idf(b);
      v.set(b, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (const [b, w] of v) v.set(b, w / norm);
    return v;
  };
  const vectors = raw.map(weigh);
  return {
    search(query: string, depth = DEPTH): Scored[] {
      const q = weigh(features(query));
      const scored: Scored[] = [];
      vectors.forEach((v, i) => {
        let dot = 0;
        for (const [b, w] of q) {
          const x = v.get(b);
          if (x !== undefined) dot += w * x;
        }
        if (dot > 0) scored.push({ id: chunks[i]!.id, score: dot });
      });
      return rankByScore(scored, depth);
    },
  };
}
