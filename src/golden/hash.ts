import { createHash } from "node:crypto";

/**
 * JSON with object keys sorted at every depth and `undefined` members
 * dropped, so that equal data always hashes equally whatever the order its
 * fields were built in.
 *
 * @example
 * canonicalJson({ b: 1, a: [ { d: 2, c: 3 } ] }) // '{"a":[{"c":3,"d":2}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortDeep(value));
}

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = sortDeep(x);
    }
    return out;
  }
  return v;
}

/** Lower-case hex SHA-256 of a string (UTF-8) or bytes. */
export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** SHA-256 of the canonical JSON of a value: input hashes, fingerprints, cache keys. */
export function hashJson(value: unknown): string {
  return sha256(canonicalJson(value));
}
