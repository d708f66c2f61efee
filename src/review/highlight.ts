import { isAscii, normalise } from "../golden/normalise.js";

/**
 * A run of display text. The page and the terminal render `text` verbatim
 * (never as markup); `mark` says how to style it:
 * - `anchor`: the golden anchor phrase inside a chunk;
 * - `cite`: a citation marker in the answer, `refs` naming the chunks it
 *   points at (an `[n]` marker counts from 1 into the context);
 * - `cite-unknown`: a marker that names no chunk of the context.
 */
export interface Segment {
  text: string;
  mark?: "anchor" | "cite" | "cite-unknown";
  refs?: string[];
}

const graphemes = new Intl.Segmenter("und", { granularity: "grapheme" });

/** A normalised text and, for each of its characters, the span [from, to) of the original text it came from. */
export interface NormalisedMap {
  norm: string;
  from: number[];
  to: number[];
}

/**
 * The text's normalised form (as {@link normalise}) with, for each of its
 * characters, the span of original text it came from. Lets a match found on
 * normalised text be marked on the original. ASCII text takes
 * {@link asciiNormalisedWithMap}: the same map without a grapheme segmenter
 * (0.12 s of building 20,000 items' records, profiled).
 */
function normalisedWithMap(text: string): NormalisedMap {
  return isAscii(text) ? asciiNormalisedWithMap(text) : graphemeNormalisedWithMap(text);
}

/** {@link normalisedWithMap} grapheme by grapheme: any text. */
export function graphemeNormalisedWithMap(text: string): NormalisedMap {
  let norm = "";
  const from: number[] = [];
  const to: number[] = [];
  for (const { segment, index } of graphemes.segment(text)) {
    const n = segment.normalize("NFKC").toLowerCase();
    if (/^\s+$/u.test(n)) {
      if (norm === "" || norm.endsWith(" ")) continue;
      norm += " ";
      from.push(index);
      to.push(index + segment.length);
      continue;
    }
    for (const ch of n.replace(/\s+/gu, " ")) {
      norm += ch;
      for (let k = 0; k < ch.length; k++) {
        from.push(index);
        to.push(index + segment.length);
      }
    }
  }
  return { norm, from, to };
}

/**
 * {@link graphemeNormalisedWithMap} for ASCII text, where every character is
 * a grapheme of its own except CR LF (one grapheme, white space), NFKC
 * changes nothing, and the white space is tab to carriage return and the
 * space. The tests hold the two to the same output.
 */
export function asciiNormalisedWithMap(text: string): NormalisedMap {
  const lower = text.toLowerCase();
  let norm = "";
  const from: number[] = [];
  const to: number[] = [];
  let spaced = true; // at the start, or after a space: white space adds nothing
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    const end = c === 13 && lower.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
    if (c === 32 || (c >= 9 && c <= 13)) {
      if (!spaced) {
        norm += " ";
        from.push(i);
        to.push(end);
        spaced = true;
      }
    } else {
      norm += lower[i];
      from.push(i);
      to.push(end);
      spaced = false;
    }
    i = end - 1;
  }
  return { norm, from, to };
}

/**
 * Splits a chunk's text so that every occurrence of the anchor phrase is its
 * own `anchor` segment. Matching is the project's one rule (case-insensitive,
 * white-space-normalised, via `normalise`), so the page marks exactly what
 * made the chunk relevant.
 *
 * @example
 * markAnchor("Leave: Unused  casual leave lapses.", "unused casual leave")
 * // [{text:"Leave: "},{text:"Unused  casual leave",mark:"anchor"},{text:" lapses."}]
 */
export function markAnchor(text: string, anchor: string | undefined): Segment[] {
  const needle = anchor === undefined ? "" : normalise(anchor);
  if (needle === "") return [{ text }];
  const { norm, from, to } = normalisedWithMap(text);
  const out: Segment[] = [];
  let done = 0;
  let at = norm.indexOf(needle);
  while (at !== -1) {
    const start = from[at]!;
    const end = to[at + needle.length - 1]!;
    if (start >= done) {
      if (start > done) out.push({ text: text.slice(done, start) });
      out.push({ text: text.slice(start, end), mark: "anchor" });
      done = end;
    }
    at = norm.indexOf(needle, at + needle.length);
  }
  if (done < text.length) out.push({ text: text.slice(done) });
  return out.length ? out : [{ text }];
}

/** Same marker shape as the citation reader: `[3]`, `[3, 5]`, `[hr-leave#1]`, `[a#1; b#2]`. */
const MARKER = /\[([^\[\]\s,;]+(?:\s*[,;]\s*[^\[\]\s,;]+)*)\]/gu;

/**
 * Splits an answer so that each citation marker is its own segment, resolved
 * against the context: `[2]` becomes the second context chunk's id. A marker
 * naming no context chunk is `cite-unknown`, so the labeller sees at once a
 * citation that points outside what the generator was given. Without a
 * context (a rubric whose evidence has none) markers are marked but left
 * unresolved: there is nothing to check them against.
 *
 * @example
 * markCitations("Leave lapses [1].", ["hr#1"]) // [{text:"Leave lapses "},{text:"[1]",mark:"cite",refs:["hr#1"]},{text:"."}]
 */
export function markCitations(text: string, context: readonly string[] | undefined): Segment[] {
  const out: Segment[] = [];
  let done = 0;
  for (const m of text.matchAll(MARKER)) {
    const start = m.index;
    if (start > done) out.push({ text: text.slice(done, start) });
    const refs: string[] = [];
    let unknown = false;
    for (const raw of m[1]!.split(/\s*[,;]\s*/u)) {
      if (!context) {
        refs.push(raw);
        continue;
      }
      const id = /^\d+$/.test(raw) ? context[Number(raw) - 1] : context.includes(raw) ? raw : undefined;
      if (id === undefined) {
        unknown = true;
        refs.push(raw);
      } else refs.push(id);
    }
    out.push({ text: m[0], mark: unknown ? "cite-unknown" : "cite", refs });
    done = start + m[0].length;
  }
  if (done < text.length) out.push({ text: text.slice(done) });
  return out.length ? out : [{ text }];
}
