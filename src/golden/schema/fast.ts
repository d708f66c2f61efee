/**
 * Shared pieces of the fast checks (golden.fast.ts, pipeline.fast.ts): plain
 * functions that accept a parsed JSON value only when its zod schema surely
 * accepts it, and then build exactly what zod would return (keys in the
 * schema's order, defaults filled in, transforms applied). Anything else
 * makes them return undefined, and the loader asks zod, which either accepts
 * it after all or words the problem (`file:line: field: message`). So a
 * fast check can only be too cautious, never more lenient than its schema:
 * test/golden/schema/fast.test.ts checks both on valid and mutated records.
 *
 * Why: zod builds its issue objects and copies of every record even when
 * nothing is wrong; at 5,000,000 ranked entries that is most of a run.
 */

/** A fast check: the value zod would return for `json`, or undefined to ask zod. */
export type FastCheck<T> = (json: unknown) => T | undefined;

/** A JSON object (not null, not an array) without an own `__proto__` key (zod drops those; left to it). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !Object.hasOwn(v, "__proto__");
}

/** `Id` in common.ts: a non-empty string without leading or trailing white space. */
export function isId(v: unknown): v is string {
  return typeof v === "string" && v.length > 0 && v.trim() === v;
}

/** A string of at least one UTF-16 unit (`z.string().min(1)`). */
export function isNonEmpty(v: unknown): v is string {
  return typeof v === "string" && v.length > 0;
}

/** A text with something besides white space (String.prototype.trim's white space, as the zod refinements use). */
export function isText(v: unknown): v is string {
  return typeof v === "string" && v.trim() !== "";
}

/** Every key of `o` is one of `keys` (a strict object's rule). */
export function onlyKeys(o: Record<string, unknown>, keys: ReadonlySet<string>): boolean {
  for (const k in o) if (!keys.has(k)) return false;
  return true;
}

/** An array whose every element passes `test`. */
export function everyOf(v: unknown, test: (x: unknown) => boolean): v is unknown[] {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!test(v[i])) return false;
  return true;
}

/** `Meta` in common.ts: absent, or a JSON object (kept as parsed). */
export function isMeta(v: unknown): boolean {
  return v === undefined || isObject(v);
}

/**
 * Whether the keys of `o` come in the order of `keys` (a subsequence of it):
 * then `o` already looks as zod would return it and need not be copied.
 */
export function inSchemaOrder(o: Record<string, unknown>, keys: readonly string[]): boolean {
  let at = 0;
  for (const k in o) {
    while (at < keys.length && keys[at] !== k) at++;
    if (at === keys.length) return false;
    at++;
  }
  return true;
}
