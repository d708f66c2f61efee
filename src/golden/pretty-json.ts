/**
 * `JSON.stringify(value, null, 2)` written in pieces: the same bytes, without
 * the one string of tens of megabytes that report.json, diagnostics.json,
 * retrieval.json or `ragjudge retrieval --format json` would otherwise be
 * (the report's files go through report/text-sink.ts, retrieval's output
 * to stdout). The outer levels and long arrays are walked here; everything
 * below is one native `JSON.stringify` call per value (per run of up to 32
 * such values in a long array), made at its depth by nesting it in as many
 * one-member objects and cut out of them: no pass over the text to re-indent
 * it (that pass, a regular expression, was a third of this module's time on
 * a 47 MB report.json), and the cut-out text is a slice, not a copy.
 */

/** Levels walked whatever their size; below them, only arrays this long are. */
const OUTER_DEPTH = 3;
const LONG_ARRAY = 32;

const PAD = "  ";

function isPlainObject(v: object): v is Record<string, unknown> {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Writes `JSON.stringify(value, null, 2)` to `write` in pieces. Values are
 * treated as JSON.stringify treats them (toJSON, undefined and functions
 * dropped from objects and written null in arrays).
 *
 * @example
 * let s = ""; prettyJson({ a: [1, 2] }, (p) => (s += p)); // s === JSON.stringify({ a: [1, 2] }, null, 2)
 */
export function prettyJson(value: unknown, write: (piece: string) => void): void {
  if (hasToJson(value)) {
    const text = JSON.stringify(value, null, 2) as string | undefined;
    if (text !== undefined) write(text);
    return;
  }
  const text = walk(value, 0, write);
  if (text !== undefined) write(text);
}

function hasToJson(v: unknown): boolean {
  return v !== null && typeof v === "object" && typeof (v as { toJSON?: unknown }).toJSON === "function";
}

/**
 * Writes `value` (which has no toJSON of its own) at `depth`, or returns its
 * text for the caller to write: "" when it was written, undefined when
 * JSON.stringify gives nothing for it (undefined, a function, a symbol).
 */
function walk(v: unknown, depth: number, write: (piece: string) => void): string | undefined {
  if (v !== null && typeof v === "object" && (Array.isArray(v) ? depth < OUTER_DEPTH || v.length >= LONG_ARRAY : depth < OUTER_DEPTH && isPlainObject(v))) {
    if (Array.isArray(v)) writeArray(v, depth, write);
    else writeObject(v as Record<string, unknown>, depth, write);
    return "";
  }
  return atDepth(v, depth);
}

/** The wrappers' text before a value nested at each depth (`{\n  "": {\n    "": `...) and after it. */
const HEADS: string[] = [""];
const TAILS: string[] = [""];

function wrapperAt(depth: number): { head: string; tail: string } {
  for (let d = HEADS.length; d <= depth; d++) {
    HEADS[d] = `${HEADS[d - 1]}{\n${PAD.repeat(d)}"": `;
    TAILS[d] = `\n${PAD.repeat(d - 1)}}${TAILS[d - 1]}`;
  }
  return { head: HEADS[depth]!, tail: TAILS[depth]! };
}

/**
 * `JSON.stringify(v, null, 2)` as it reads at `depth` (every line after the
 * first indented by `depth` levels), undefined when it gives nothing: `v`
 * nested in `depth` one-member objects (key "", which no toJSON of `v` sees:
 * callers pass no value with toJSON) and cut out of their text.
 */
function atDepth(v: unknown, depth: number): string | undefined {
  // a value that is not an object or array has no line break to indent
  if (depth === 0 || v === null || typeof v !== "object") return JSON.stringify(v, null, 2) as string | undefined;
  let wrapped: unknown = v;
  for (let d = 0; d < depth; d++) wrapped = { "": wrapped };
  const text = JSON.stringify(wrapped, null, 2);
  const { head, tail } = wrapperAt(depth);
  return text.slice(head.length, text.length - tail.length);
}

/**
 * A member with a toJSON method, exactly as JSON.stringify writes it (toJSON
 * called with its key): through a one-member object, whose text is cut out.
 * Undefined when the member is left out.
 */
function viaWrapper(key: string, v: unknown, depth: number): string | undefined {
  let wrapped: unknown = { [key]: v };
  for (let d = 1; d < depth; d++) wrapped = { "": wrapped };
  const whole = JSON.stringify(wrapped, null, 2);
  const { tail } = wrapperAt(depth);
  const head = `${HEADS[depth - 1]}{\n${PAD.repeat(depth)}${JSON.stringify(key)}: `;
  // a member its toJSON leaves out empties its wrapper: `{}` at depth 1, `{\n  "": {}\n}` below
  if (!whole.startsWith(head)) return undefined;
  return whole.slice(head.length, whole.length - tail.length);
}

/** Elements a long array's run of leaves is stringified in at once (see {@link writeArray}). */
const RUN = 32;

/** Whether {@link walk} would hand `v` (at `depth`) to JSON.stringify whole, and its key does not matter (no toJSON). */
function isLeaf(v: unknown, depth: number): boolean {
  if (v === null || typeof v !== "object") return true;
  if (hasToJson(v)) return false;
  return Array.isArray(v) ? depth >= OUTER_DEPTH && v.length < LONG_ARRAY : depth >= OUTER_DEPTH || !isPlainObject(v);
}

/**
 * An array, element by element; a run of elements that would each be one
 * native JSON.stringify call is one call for up to {@link RUN} of them, cut
 * out of its brackets at its depth: the same text (JSON.stringify writes
 * an array's elements exactly as it writes each alone, undefined as null),
 * for a thirtieth of the calls, wrappers and pieces. An element with toJSON is
 * never in a run (its key, the index, would differ).
 */
function writeArray(xs: readonly unknown[], depth: number, write: (piece: string) => void): void {
  if (xs.length === 0) {
    write("[]");
    return;
  }
  const inner = PAD.repeat(depth + 1);
  for (let i = 0; i < xs.length; ) {
    write(i === 0 ? `[\n${inner}` : `,\n${inner}`);
    let end = i;
    while (end < xs.length && end - i < RUN && isLeaf(xs[end], depth + 1)) end++;
    if (end - i > 1) {
      // "[\n<inner>a,\n<inner>b\n<pad>]" at `depth`, cut to "a,\n<inner>b"
      const text = atDepth(xs.slice(i, end), depth)!;
      write(text.slice(2 + inner.length, text.length - 2 - PAD.length * depth));
      i = end;
      continue;
    }
    const x = xs[i];
    const text = hasToJson(x) ? viaWrapper(String(i), x, depth + 1) : walk(x, depth + 1, write);
    write(text ?? "null");
    i++;
  }
  write(`\n${PAD.repeat(depth)}]`);
}

function writeObject(o: Record<string, unknown>, depth: number, write: (piece: string) => void): void {
  const inner = PAD.repeat(depth + 1);
  let first = true;
  for (const k of Object.keys(o)) {
    const v = o[k];
    let text: string | undefined;
    if (hasToJson(v)) {
      text = viaWrapper(k, v, depth + 1);
      if (text === undefined) continue;
    } else if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
    write(`${first ? "{" : ","}\n${inner}${JSON.stringify(k)}: `);
    first = false;
    write(text ?? walk(v, depth + 1, write) ?? "null");
  }
  write(first ? "{}" : `\n${PAD.repeat(depth)}}`);
}
