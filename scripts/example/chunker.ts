import type { Chunk } from "../../src/golden/schema/golden.js";
import type { Doc } from "./corpus.js";
import { splitUnits } from "./units.js";

/** How a variant cuts documents into chunks. */
export interface ChunkOptions {
  /** Upper bound on a chunk's text length in characters (a single longer unit is kept whole). */
  maxChars: number;
  /**
   * Keep `"<title> > <section>"` as the chunk's `heading` (the pipeline
   * prepends it to the indexed text: contextual chunk headers). When false,
   * the section name goes to `meta.section` for people reading misses, and
   * nothing of it is indexed.
   */
  headings: boolean;
}

/**
 * Cuts one document into chunks. Chunks never cross a `##` section; inside
 * a section, whole units (sentences, list items, code blocks) are packed
 * greedily while the slice from the first unit's start to the last unit's end
 * stays within `maxChars`. A chunk's text is that exact slice of the document,
 * so an anchor inside one sentence always lies whole inside some chunk.
 * Ids are `<doc>#<n>`, n counting from 0 through the document.
 *
 * @example
 * chunkDocument(doc, { maxChars: 350, headings: false })[0].id // "hr-leave-policy#0"
 */
export function chunkDocument(doc: Doc, opts: ChunkOptions): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of doc.sections) {
    const units = splitUnits(doc.text, section.start, section.end);
    let first = 0;
    for (let i = 1; i <= units.length; i++) {
      const fits = i < units.length && units[i]!.end - units[first]!.start <= opts.maxChars;
      if (fits) continue;
      const text = doc.text.slice(units[first]!.start, units[i - 1]!.end);
      const id = `${doc.id}#${chunks.length}`;
      if (opts.headings) {
        const heading = section.heading === undefined ? doc.title : `${doc.title} > ${section.heading}`;
        chunks.push({ id, doc: doc.id, heading, text });
      } else {
        chunks.push({ id, doc: doc.id, text, meta: { section: section.heading ?? doc.title } });
      }
      first = i;
    }
  }
  return chunks;
}

/** Chunks of every document, in document order. */
export function chunkCorpus(docs: readonly Doc[], opts: ChunkOptions): Chunk[] {
  return docs.flatMap((d) => chunkDocument(d, opts));
}

/** The text a retriever indexes for a chunk: its heading (when kept) on the line before its text. */
export function indexedText(chunk: Chunk): string {
  return chunk.heading === undefined ? chunk.text : `${chunk.heading}\n${chunk.text}`;
}
