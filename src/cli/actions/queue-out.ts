import { existsSync } from "node:fs";
import { writeOutputFile } from "../../calibration/output.js";
import { displayPath } from "../../golden/errors.js";
import type { QueueEntry } from "../../golden/schema/items.js";

/**
 * Writes a review queue that holds entries, and nothing otherwise: `sample`
 * finding nothing to draw wrote an empty file over the queue being reviewed,
 * so `review` then said "nothing to review" about work still queued.
 * Returns whether it wrote.
 */
export function writeQueue(out: string, entries: readonly QueueEntry[]): boolean {
  if (entries.length === 0) return false;
  writeOutputFile(out, entries.map((e) => JSON.stringify(e) + "\n").join(""));
  return true;
}

/**
 * The line for a queue {@link writeQueue} did not write: why there was
 * nothing to queue, and that a queue file already there is kept.
 *
 * @example
 * nothingToReview(".ragjudge/review-queue.jsonl", "every judged item is already labelled by you")
 * // "Nothing to review: every judged item is already labelled by you. No queue written (.ragjudge/review-queue.jsonl is left as it was)."
 */
export function nothingToReview(out: string, why: string): string {
  return `Nothing to review: ${why}. No queue written${existsSync(out) ? ` (${displayPath(out)} is left as it was)` : ""}.`;
}
