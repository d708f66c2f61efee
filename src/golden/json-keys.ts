/**
 * A key given twice at the top of one JSON object: JSON.parse keeps the last
 * and drops the first without a word, so a golden line with `"split":
 * "heldout"` and, further on, `"split": "dev"` changed what the trust gate
 * counts with no message. JSON.parse cannot tell (its object has the key
 * once), so the line's text is scanned: a count of its top-level keys first
 * (one pass over the characters, strings skipped), and their names only when
 * the count is more than the parsed object holds.
 *
 * @example
 * repeatedTopLevelKey('{"id":"q1","split":"heldout","split":"dev"}', { id: "q1", split: "dev" }) // "split"
 */
export function repeatedTopLevelKey(line: string, parsed: object): string | undefined {
  const keys = topLevelKeys(line, false);
  if (keys === undefined || keys.length <= Object.keys(parsed).length) return undefined;
  const named = topLevelKeys(line, true)!;
  const seen = new Set<string>();
  for (const k of named) {
    if (seen.has(k)) return k;
    seen.add(k);
  }
  return undefined;
}

/**
 * The top-level keys of an object's JSON text, in order: their names when
 * `names`, else as many empty strings (a count without decoding). Undefined
 * when the text is not an object.
 */
function topLevelKeys(line: string, names: boolean): string[] | undefined {
  const out: string[] = [];
  let depth = 0;
  let expectKey = false;
  let sawObject = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 34) {
      const start = i;
      // to the string's closing quote in jumps (most of a line is inside strings): the next quote not escaped
      let end = line.indexOf('"', i + 1);
      while (end > 0 && escaped(line, end)) end = line.indexOf('"', end + 1);
      if (end < 0) return undefined;
      i = end;
      if (depth === 1 && expectKey) {
        out.push(names ? (JSON.parse(line.slice(start, i + 1)) as string) : "");
        expectKey = false;
      }
    } else if (c === 123 || c === 91) {
      depth++;
      if (depth === 1) {
        if (c !== 123) return undefined;
        sawObject = true;
        expectKey = true;
      }
    } else if (c === 125 || c === 93) depth--;
    else if (c === 44 && depth === 1) expectKey = true;
  }
  return sawObject ? out : undefined;
}

/** Whether the quote at `at` is escaped: an odd run of backslashes before it. */
function escaped(line: string, at: number): boolean {
  let n = 0;
  while (at - 1 - n >= 0 && line.charCodeAt(at - 1 - n) === 92) n++;
  return n % 2 === 1;
}
