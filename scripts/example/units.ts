/**
 * Splits a section body into the smallest pieces a chunker may not cut:
 * sentences of prose, list items, and whole code blocks. Our own splitter
 * rather than Intl.Segmenter, because the chunks must be byte-for-byte
 * identical on every machine and ICU's sentence rules change between Node
 * releases.
 */

/** A piece of text a chunk boundary may fall before or after, as offsets into the document. */
export interface Unit {
  start: number;
  end: number;
  /** True when the unit opens a paragraph, list or code block. */
  blockStart: boolean;
}

/** Lower-cased abbreviations after which a full stop does not end a sentence. */
const ABBREVIATIONS = new Set(["e.g.", "i.e.", "rs.", "pvt.", "ltd.", "dr.", "mr.", "ms.", "mrs.", "vs.", "no.", "approx."]);

/** Sentence end: `.`, `?`, `!` or the danda, then closing quotes, brackets or emphasis, then white space. */
const SENTENCE_END = /[.?!।]["'”’)\]*]*\s+/gu;

/**
 * Offsets `[start, end)` of the sentences of one paragraph that starts at
 * `base` in the document. A boundary needs white space after the punctuation
 * and a next character that is not a lower-case Latin letter (so `3.9.1`,
 * `e.g. the` and `Pvt. Ltd. who` stay whole).
 *
 * @example
 * splitSentences("One. Two? तीन। चार", 0).length // 4
 */
export function splitSentences(paragraph: string, base: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = 0;
  for (const m of paragraph.matchAll(SENTENCE_END)) {
    const cut = m.index + m[0].trimEnd().length;
    const next = m.index + m[0].length;
    if (next >= paragraph.length) break;
    if (/[a-z]/.test(paragraph[next]!)) continue;
    const lastWord = paragraph.slice(start, cut).split(/\s+/).pop()!.toLowerCase().replace(/^[*"'(]+/, "");
    if (ABBREVIATIONS.has(lastWord)) continue;
    out.push([base + start, base + cut]);
    start = next;
  }
  const tail = paragraph.slice(start).trimEnd();
  if (tail !== "") out.push([base + start, base + start + tail.length]);
  return out;
}

const LIST_ITEM = /^(?:[-*] |\d+\. )/;

/**
 * The units of the text between `start` and `end` of `text`: blocks are
 * separated by blank lines; a code fence is one unit; each list item is one
 * unit; a paragraph is split into sentences.
 */
export function splitUnits(text: string, start: number, end: number): Unit[] {
  const units: Unit[] = [];
  const lines: Array<{ at: number; line: string }> = [];
  let at = start;
  for (const line of text.slice(start, end).split("\n")) {
    lines.push({ at, line });
    at += line.length + 1;
  }
  let i = 0;
  while (i < lines.length) {
    const { at: lineAt, line } = lines[i]!;
    if (line.trim() === "") {
      i++;
      continue;
    }
    if (line.startsWith("```")) {
      let j = i + 1;
      while (j < lines.length && !lines[j]!.line.startsWith("```")) j++;
      const last = lines[Math.min(j, lines.length - 1)]!;
      units.push({ start: lineAt, end: last.at + last.line.length, blockStart: true });
      i = j + 1;
      continue;
    }
    if (LIST_ITEM.test(line)) {
      let first = true;
      while (i < lines.length && LIST_ITEM.test(lines[i]!.line)) {
        const item = lines[i]!;
        units.push({ start: item.at, end: item.at + item.line.trimEnd().length, blockStart: first });
        first = false;
        i++;
      }
      continue;
    }
    // A paragraph: consecutive non-blank lines that are not a list or a fence.
    let j = i;
    while (j + 1 < lines.length && lines[j + 1]!.line.trim() !== "" && !LIST_ITEM.test(lines[j + 1]!.line) && !lines[j + 1]!.line.startsWith("```")) j++;
    const endLine = lines[j]!;
    const paragraph = text.slice(lineAt, endLine.at + endLine.line.length);
    splitSentences(paragraph, lineAt).forEach(([s, e], k) => units.push({ start: s, end: e, blockStart: k === 0 }));
    i = j + 1;
  }
  return units;
}
