import { sha256 } from "./hash.js";
import { normalise } from "./normalise.js";

/**
 * Passages given as text instead of chunk ids (the shape most pipelines and
 * Ragas datasets have). Each gets an id derived from its normalised text, so
 * the same text has the same id in every line, file and run, and everything
 * downstream (relevance, `[n]` citations, the judge's evidence, reports)
 * works on ids as it does for a chunks file.
 */

/** Prefix of derived passage ids: `p-` and 12 hex digits of the normalised text's SHA-256. */
export const PASSAGE_ID_PREFIX = "p-";

/**
 * The id of a passage given as text: `p-` and the first 12 hex digits of the
 * SHA-256 of its normalised text (48 bits: a collision among a million
 * passages has a chance of about 2 in a million). Stable across runs and
 * machines; white space and case do not change it.
 *
 * @example
 * passageId("Unused leave  lapses.") === passageId("unused leave lapses.") // true
 */
export function passageId(text: string): string {
  return PASSAGE_ID_PREFIX + sha256(normalise(text)).slice(0, 12);
}

/** Document of a passage given without `doc`: none known (the anchor rule then matches on text alone). */
export const NO_DOC = "";
