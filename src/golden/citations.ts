import type { Citation, PipelineOutput } from "./schema/pipeline.js";

/** A citation marker as found in an answer, resolved against the context. */
export interface ResolvedCitation {
  /** 1-based sentence number within the answer. */
  sentenceIndex: number;
  sentence: string;
  /** Resolved chunk ids (an `[n]` marker becomes `context[n - 1]`). */
  chunks: string[];
  /** Markers that name no chunk: `[7]` with 5 context chunks, or an id no chunks file has. */
  unresolved: string[];
  /** The sentence as written, markers included (explicit `citations`: the sentence as given). */
  text: string;
}

/** One reference inside a citation marker, resolved: `id` is undefined when it names no chunk. */
export interface MarkerRef {
  raw: string;
  id?: string;
}

/** A marker reference resolved as {@link readCitations} does: digits count from 1 into `context`, anything else is a chunk id. */
function resolveRef(raw: string, context: readonly string[], knownChunk: (id: string) => boolean): string | undefined {
  if (/^\d+$/.test(raw)) return context[Number(raw) - 1];
  return knownChunk(raw) ? raw : undefined;
}

/** The references of each marker of a sentence, in order. */
function markerRefs(sentence: string, context: readonly string[], knownChunk: (id: string) => boolean): { match: string; refs: MarkerRef[] }[] {
  return [...sentence.matchAll(MARKER)].map((m) => ({
    match: m[0],
    refs: m[1]!.split(/\s*[,;]\s*/u).map((raw) => {
      const id = resolveRef(raw, context, knownChunk);
      return id === undefined ? { raw } : { raw, id };
    }),
  }));
}

/**
 * A sentence as written with each citation marker replaced by
 * `render(refs)`, the marker's references resolved as in
 * {@link readCitations}. Used to show a judge where a sentence citing
 * several sources cites each one.
 *
 * @example
 * rewriteMarkers("A [1] and B [2].", ["x", "y"], () => true, (refs) => `[${refs.map((r) => r.id).join(", ")}]`)
 * // "A [x] and B [y]."
 */
export function rewriteMarkers(sentence: string, context: readonly string[], knownChunk: (id: string) => boolean, render: (refs: MarkerRef[]) => string): string {
  const rendered = markerRefs(sentence, context, knownChunk).map((m) => render(m.refs));
  let i = 0;
  return sentence.replace(MARKER, () => rendered[i++]!);
}

const segmenter = new Intl.Segmenter("und", { granularity: "sentence" });

/** Marker shape: `[3]`, `[3, 5]`, `[hr-leave#1]`, `[a#1; b#2]`. No spaces inside an id. */
const MARKER = /\[([^\[\]\s,;]+(?:\s*[,;]\s*[^\[\]\s,;]+)*)\]/gu;

/**
 * A line the segmenter cannot break before its end: printable ASCII (and
 * tabs) without `.`, `!` or `?`, then only terminators, then closing quotes
 * and brackets, then spaces (a closer after a space starts a sentence).
 * Unicode sentence breaks (UAX #29) fall only after a terminator or a
 * paragraph separator such as a line feed (always a break), so a text made
 * of such lines is one sentence per non-blank line; checked against the
 * segmenter in test/golden/citations.test.ts.
 */
const ONE_SENTENCE = /^[\t\x20\x22-\x2d\x2f-\x3e\x40-\x7e]*[.!?]*["')\]]*[\t ]*$/;

/**
 * Splits an answer into sentences with Unicode sentence segmentation
 * (Intl.Segmenter: handles `.`, `?`, `!`, the Devanagari danda, abbreviations
 * better than a regex), keeping each sentence's text trimmed. A text whose
 * lines can each only be one sentence (a chunk's heading and its one
 * sentence, a short answer) is split at its line feeds instead: the
 * segmenter was a tenth of the baseline judge's time.
 */
export function splitSentences(text: string): string[] {
  const lines = text.includes("\n") ? text.split("\n") : [text];
  const pieces = lines.every((line) => ONE_SENTENCE.test(line)) ? lines : Array.from(segmenter.segment(text), (s) => s.segment);
  const out: string[] = [];
  for (const piece of pieces) {
    const s = piece.trim();
    if (s) out.push(s);
  }
  return out;
}

/**
 * Reads the citations of one pipeline output line.
 *
 * Explicit `citations` win. Otherwise inline markers are read sentence by
 * sentence: a marker made only of digits counts from 1 into `context`
 * (`[1]` is the first context chunk); any other marker is a chunk id. A
 * marker is kept as `unresolved` when it names no chunk, so a rule can flag it.
 * A marker that looks like neither (`[sic]` names no known chunk but has no
 * id shape either) is still reported: ids are free text, so we cannot tell.
 */
export function readCitations(
  line: Pick<PipelineOutput, "answer" | "citations">,
  context: readonly string[],
  knownChunk: (id: string) => boolean,
): ResolvedCitation[] {
  if (line.citations) {
    return line.citations.map((c: Citation, i) => ({
      sentenceIndex: i + 1,
      sentence: c.sentence,
      chunks: c.chunks.filter((id) => knownChunk(id)),
      unresolved: c.chunks.filter((id) => !knownChunk(id)),
      text: c.sentence,
    }));
  }
  const answer = line.answer ?? "";
  const out: ResolvedCitation[] = [];
  splitSentences(answer).forEach((sentence, i) => {
    const chunks: string[] = [];
    const unresolved: string[] = [];
    for (const m of markerRefs(sentence, context, knownChunk)) {
      for (const { raw, id } of m.refs) {
        if (id === undefined) unresolved.push(raw);
        else if (!chunks.includes(id)) chunks.push(id);
      }
    }
    if (chunks.length > 0 || unresolved.length > 0) {
      out.push({ sentenceIndex: i + 1, sentence: stripMarkers(sentence), chunks, unresolved, text: sentence });
    }
  });
  return out;
}

/** The sentence as a reader sees it, without its citation markers. */
export function stripMarkers(sentence: string): string {
  return sentence.replace(MARKER, "").replace(/\s+([.,;:!?।])/gu, "$1").replace(/\s{2,}/gu, " ").trim();
}
