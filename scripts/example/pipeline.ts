import type { Chunk } from "../../src/golden/schema/golden.js";
import { buildBm25 } from "./bm25.js";
import { chunkCorpus, type ChunkOptions } from "./chunker.js";
import type { Doc } from "./corpus.js";
import { fuseRrf } from "./fusion.js";
import { DEPTH, type Scored } from "./ranking.js";
import { buildReranker } from "./rerank.js";
import { buildVector } from "./vector.js";

/** Number of retrieved chunks given to the generator (the config's `contextK`). */
export const CONTEXT_K = 5;

/** One example pipeline variant: how it chunks and how it ranks. */
export interface VariantSpec {
  name: string;
  chunking: ChunkOptions;
  /** `bm25`: one BM25 list. `hybrid`: BM25 and n-gram vectors, RRF, lexical rerank. */
  retrieval: "bm25" | "hybrid";
}

/**
 * The two shipped variants. `bm25-small`: ~350-character chunks without
 * headings, BM25 only. `hybrid-rerank`: ~800-character chunks with
 * contextual headers, BM25 + n-gram vectors fused by RRF (k = 60), then the
 * lexical reranker over the fused top 20.
 */
export const VARIANTS: readonly VariantSpec[] = [
  { name: "bm25-small", chunking: { maxChars: 350, headings: false }, retrieval: "bm25" },
  { name: "hybrid-rerank", chunking: { maxChars: 800, headings: true }, retrieval: "hybrid" },
];

/** What a variant returns for one query. */
export interface Retrieval {
  retrieved: Scored[];
  stages: Record<string, Scored[]>;
}

/** A variant ready to answer queries: its chunks and its search function. */
export interface Pipeline {
  spec: VariantSpec;
  chunks: Chunk[];
  retrieve(query: string): Retrieval;
}

/** Chunks the corpus and builds the variant's indexes. */
export function buildPipeline(spec: VariantSpec, docs: readonly Doc[]): Pipeline {
  const chunks = chunkCorpus(docs, spec.chunking);
  const bm25 = buildBm25(chunks);
  if (spec.retrieval === "bm25") {
    return {
      spec,
      chunks,
      retrieve(query) {
        const list = bm25.search(query, DEPTH);
        return { retrieved: list, stages: { bm25: list } };
      },
    };
  }
  const vector = buildVector(chunks);
  const reranker = buildReranker(chunks);
  return {
    spec,
    chunks,
    retrieve(query) {
      const b = bm25.search(query, DEPTH);
      const v = vector.search(query, DEPTH);
      const fused = fuseRrf([b, v], undefined, DEPTH);
      const reranked = reranker.rerank(query, fused, DEPTH);
      return { retrieved: reranked, stages: { bm25: b, vector: v, fused, reranked } };
    },
  };
}
