/**
 * `JSON.stringify(value, null, 2)` in pieces: the same text, byte for byte,
 * handed out a piece at a time so a large document (a golden-set run of
 * 50,000 questions prints 95 MB of JSON) is never one string, nor one string
 * plus its UTF-8 copy. Plain arrays and objects near the top are walked
 * here; anything below `depth`, and anything that is not a plain array or
 * object (or has `toJSON`), is left to JSON.stringify and re-indented, so
 * the rules for numbers, strings, dates and typed arrays stay V8's.
 */

const INDENT = "  ";

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== "function";
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function isOmitted(v: unknown): boolean {
  return v === undefined || typeof v === "function" || typeof v === "symbol";
}

/** One value at nesting level `level` (0 = the document): its pieces, the first on the current line. */
function* pieces(value: unknown, level: number, depth: number): Generator<string> {
  if (level >= depth || typeof value !== "object" || value === null || !(Array.isArray(value) || isPlainObject(value))) {
    const text = JSON.stringify(value, null, 2);
    yield level === 0 || !text.includes("\n") ? text : text.replaceAll("\n", `\n${INDENT.repeat(level)}`);
    return;
  }
  const inner = `\n${INDENT.repeat(level + 1)}`;
  const close = `\n${INDENT.repeat(level)}`;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      yield "[]";
      return;
    }
    yield "[";
    for (let i = 0; i < value.length; i++) {
      yield i === 0 ? inner : `,${inner}`;
      const v = value[i];
      if (isOmitted(v)) yield "null";
      else yield* pieces(v, level + 1, depth);
    }
    yield `${close}]`;
    return;
  }
  let first = true;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (isOmitted(v)) continue;
    yield `${first ? "{" : ","}${inner}${JSON.stringify(key)}: `;
    first = false;
    yield* pieces(v, level + 1, depth);
  }
  yield first ? "{}" : `${close}}`;
}

/**
 * The pieces of `JSON.stringify(value, null, 2)`, joined into strings of
 * about `size` characters (default 16,384: small enough to stay in V8's young
 * generation, where a piece that has been written costs nothing to free;
 * megabyte strings go to the large-object space and stay until a full
 * collection). `depth` is how many levels of plain arrays and
 * objects are walked here (deeper ones are stringified whole).
 *
 * @example
 * [...prettyJsonPieces({ a: [1, 2] })].join("") === JSON.stringify({ a: [1, 2] }, null, 2) // true
 */
export function* prettyJsonPieces(value: unknown, options: { depth?: number; size?: number } = {}): Generator<string> {
  const depth = options.depth ?? 4;
  const size = options.size ?? 16_384;
  let buf: string[] = [];
  let length = 0;
  for (const p of pieces(value, 0, depth)) {
    buf.push(p);
    length += p.length;
    if (length >= size) {
      yield buf.join("");
      buf = [];
      length = 0;
    }
  }
  if (buf.length) yield buf.join("");
}
