import { z } from "zod";
import { describeBounds, type NumberBounds } from "../bounds.js";

/** A non-empty identifier without leading or trailing white space. */
export const Id = z
  .string()
  .min(1, "must not be empty")
  .refine((s) => s.trim() === s, "must not start or end with white space");

/** Free-form extra data a user wants to carry along; ragjudge ignores it. */
export const Meta = z.record(z.string(), z.unknown()).optional();

/** The yes/no of verdicts and labels. "yes" always means the answer behaved correctly. */
export const YesNo = z.enum(["yes", "no"]);
export type YesNo = z.infer<typeof YesNo>;

/** ISO 8601 date-time, as written by `new Date().toISOString()`. */
export const Time = z.string().datetime({ offset: true });

/** Lower-case hex SHA-256. */
export const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, "must be a lower-case hex SHA-256");

/**
 * A number within one of the shared bounds (golden/bounds.ts), so a config
 * key refuses exactly what its flag refuses (`judge.timeoutMs` and
 * `--timeout-ms`), saying why the largest value is the largest.
 *
 * @example
 * bounded(BOUNDS.concurrency).default(8)
 */
export function bounded(b: NumberBounds): z.ZodNumber {
  const n = b.integer ? z.number().int() : z.number();
  return n.min(b.min, `must be ${describeBounds(b)}`).max(b.max, `must be ${describeBounds(b)}: ${b.why}`);
}
