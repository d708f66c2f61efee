import type { z } from "zod";

/**
 * The field names an object schema allows at `path` inside `schema`, or
 * undefined where the path leads through something that is not plainly an
 * object (a union, a record of any keys). Used to answer an unknown field
 * with the name that was meant: zod's issue carries only the bad keys.
 *
 * @example
 * knownFields(z.strictObject({ a: z.strictObject({ bc: z.string() }) }), ["a"]) // ["bc"]
 */
export function knownFields(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] | undefined {
  let s: unknown = schema;
  let i = 0;
  for (let guard = 0; guard < 64; guard++) {
    const def = (s as { def?: Record<string, unknown> & { type?: string } }).def;
    if (!def) return undefined;
    switch (def.type) {
      case "optional":
      case "nullable":
      case "default":
      case "prefault":
      case "catch":
      case "readonly":
        s = def.innerType;
        continue;
      case "pipe":
        s = def.in;
        continue;
      case "object": {
        const shape = def.shape as Record<string, z.ZodType>;
        if (i === path.length) return Object.keys(shape);
        const key = path[i++];
        if (typeof key !== "string" || !(key in shape)) return undefined;
        s = shape[key];
        continue;
      }
      case "array":
        if (i === path.length || typeof path[i] !== "number") return undefined;
        i++;
        s = def.element;
        continue;
      case "record":
        if (i === path.length) return undefined;
        i++;
        s = def.valueType;
        continue;
      default:
        return undefined;
    }
  }
  return undefined;
}

/** Edit distance (insertions, deletions, substitutions, swaps of neighbours), small words only. */
function distance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d.push([i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known name a mistyped one most likely meant: equal but for case, `-`,
 * `_` and a number's leading zeros (ids are padded one way in a golden set
 * and typed another in a spreadsheet: `q1` for `q01`), or within a third of
 * its length in edits (at most 3); undefined when none is that close.
 *
 * @example
 * closestName("goldn", ["golden", "variants"]) // "golden"
 * closestName("context_k", ["contextK"]) // "contextK"
 * closestName("q1", ["q01", "q10"]) // "q01"
 */
export function closestName(word: string, names: readonly string[]): string | undefined {
  const bare = (s: string) => s.toLowerCase().replace(/[-_]/g, "").replace(/\d+/g, (n) => n.replace(/^0+(?=\d)/, ""));
  const w = bare(word);
  const exact = names.find((n) => bare(n) === w);
  if (exact) return exact;
  if (word.length > 64) return undefined;
  const limit = Math.min(3, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestD = limit + 1;
  for (const n of names) {
    const dist = distance(w, bare(n));
    if (dist < bestD) {
      best = n;
      bestD = dist;
    }
  }
  return best;
}
