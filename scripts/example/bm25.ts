import MiniSearch from "minisearch";
import type { Chunk } from "../../src/golden/schema/golden.js";
import { indexedText } from "./chunker.js";
import { DEPTH, rankByScore, type Scored } from "./ranking.js";
import { indexTerms, rawTokens } from "./text.js";

/**
 * BM25 parameters, written out rather than left to the library's defaults so
 * that a minisearch upgrade cannot silently change the example. These are
 * minisearch 7's BM25+ defaults: k1 1.2, b 0.7, and the BM25+ lower bound d 0.5.
 */
export const BM25_PARAMS = { k: 1.2, b: 0.7, d: 0.5 } as const;

/** A full-text index over one variant's chunks. */
export interface Bm25Index {
  search(query: string, depth?: number): Scored[];
}

/**
 * Builds a BM25 index with minisearch over each chunk's indexed text (its
 * heading, when the variant keeps one, then its text). Tokens come from
 * {@link rawTokens} and terms from {@link indexTerms} (stop words dropped,
 * identifiers kept whole and also split), for documents and queries alike.
 * Queries are OR-combined with no prefix or fuzzy matching: plain BM25.
 *
 * @example
 * buildBm25(chunks).search("ERR-4031 missing scope", 10)
 */
export function buildBm25(chunks: readonly Chunk[]): Bm25Index {
  const ms = new MiniSearch<{ id: string; body: string }>({
    fields: ["body"],
    idField: "id",
    tokenize: (text) => rawTokens(text),
    processTerm: (term) => {
      const terms = indexTerms(term);
      return terms.length === 0 ? null : terms;
    },
    searchOptions: { combineWith: "OR", prefix: false, fuzzy: false, bm25: { ...BM25_PARAMS } },
  });
  ms.addAll(chunks.map((c) => ({ id: c.id, body: indexedText(c) })));
  return {
    search(query: string, depth = DEPTH): Scored[] {
      return rankByScore(ms.search(query).map((r) => ({ id: String(r.id), score: r.score })), depth);
    },
  };
}
