import { splitSentences, stripMarkers } from "../../golden/citations.js";
import { hashJson } from "../../golden/hash.js";
import type { Evidence } from "../../golden/schema/items.js";
import type { Item, ItemSet } from "./items.js";

/**
 * Claim-level faithfulness (config `faithfulnessUnit: "claim"`).
 *
 * Why: "no" on a whole answer leaves the team asking which sentence the
 * context did not support. With claims, each faithfulness item of an answer
 * becomes one item per claim, unit `c1`, `c2`, ..., judged, labelled and
 * calibrated like any unit; the answer's verdict is derived from its claims
 * (derive-claims.ts) and names the claims that failed.
 *
 * A claim item's evidence is the answer item's with the claim in place of
 * the answer: the same rubric, prompt and fingerprint judge it ("is every
 * claim in the answer supported" asked of a one-claim answer), so an answer
 * of one sentence has the same input hash at both units and its verdict is
 * the same verdict (the reason the claim path reproduces the answer path on
 * single-claim data, scripts/attribution/claims.ts).
 */

/** The rubric whose unit `faithfulnessUnit` chooses. */
export const CLAIM_RUBRIC = "faithfulness";

/** `c<n>`: the unit of claim n (counted from 1). */
export function claimUnit(n: number): string {
  return `c${n}`;
}

/** Whether a unit is a claim's (`c1`, `c2`, ...). */
export function isClaimUnit(unit: string): boolean {
  return /^c[1-9]\d*$/.test(unit);
}

/** A list item's bullet or number at the start of a line: `- `, `* `, `• `, `1. `, `2) `. */
const BULLET = /^(?:[-*•‣◦▪–]|\d{1,3}[.)])\s+/u;

/** Has a letter or a digit in any script (a claim must say something). */
const SAYS_SOMETHING = /[\p{L}\p{N}]/u;

/**
 * The claims of an answer by the sentence splitter that citation accuracy
 * uses (`splitSentences`: Unicode sentence segmentation, so `.`, `?`, `!`,
 * the Devanagari danda and line breaks end a claim, and each list item is
 * one), with citation markers and list bullets stripped; pieces with no
 * letter or digit (a lone marker) are no claims.
 *
 * @example
 * splitClaims("Leave lapses [1]. Carry over 45 days [2].") // ["Leave lapses.", "Carry over 45 days."]
 */
export function splitClaims(answer: string): string[] {
  const out: string[] = [];
  for (const sentence of splitSentences(answer)) {
    const text = stripMarkers(sentence.replace(BULLET, ""));
    if (SAYS_SOMETHING.test(text)) out.push(text);
  }
  return out;
}

/** Options of {@link expandClaims}. */
export interface ClaimOptions {
  /** `config.faithfulnessUnit`; `answer` leaves the items as they are. */
  unit: "answer" | "claim";
  /**
   * The claims of an answer when they come from elsewhere (the `claims`
   * extraction rubric, claims-extract.ts); undefined: the sentence splitter.
   */
  claimsOf?: (answerItem: Item) => readonly string[] | undefined;
}

/**
 * Replaces each judged faithfulness answer item by its claim items (unit
 * `c<n>`, evidence with the claim as the answer, its own input hash). Rule
 * items stay (an empty answer fails by rule at unit `answer`); an answer with
 * no claim at all passes by rule ("no-claims"): the rubric says an answer
 * making no factual claim is faithful. With `unit: "answer"` nothing changes.
 *
 * @example
 * expandClaims(itemSet, { unit: "claim" }).items.map((i) => i.key.unit) // ["c1", "c2", ...]
 */
export function expandClaims(set: ItemSet, opts: ClaimOptions): ItemSet {
  if (opts.unit !== "claim") return set;
  const items: Item[] = [];
  for (const it of set.items) {
    if (it.key.rubric !== CLAIM_RUBRIC || it.key.unit !== "answer" || it.rule || it.evidence.answer === undefined) {
      items.push(it);
      continue;
    }
    const claims = opts.claimsOf?.(it) ?? splitClaims(it.evidence.answer);
    if (claims.length === 0) {
      items.push({ ...it, rule: { verdict: "yes", rule: "no-claims", reason: "the answer makes no claim to check against the sources" } });
      continue;
    }
    claims.forEach((text, i) => {
      const evidence: Evidence = { ...it.evidence, answer: text };
      items.push({
        key: { ...it.key, unit: claimUnit(i + 1) },
        rubric: it.rubric,
        evidence,
        inputHash: hashJson(evidence),
        claim: { n: i + 1, text, answerHash: it.inputHash, of: claims.length },
      });
    });
  }
  return { items, skipped: set.skipped };
}
