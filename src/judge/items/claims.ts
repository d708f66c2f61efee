import { splitSentences, stripMarkers } from "../../golden/citations.js";
import { hashJson } from "../../golden/hash.js";
import type { VariantData } from "../../golden/dataset.js";
import { normalise } from "../../golden/normalise.js";
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

/** The optional extraction rubric (rubrics/claims.yaml, src/judge/claims/extract.ts): not judged, it makes the claims. */
export const EXTRACT_RUBRIC = "claims";

/** `c<n>`: the unit of claim n (counted from 1). */
export function claimUnit(n: number): string {
  return `c${n}`;
}

/** Whether a unit is a claim's (`c1`, `c2`, ...). */
export function isClaimUnit(unit: string): boolean {
  return /^c[1-9]\d*$/.test(unit);
}

/** A list item's bullet or number at the start of a line: `- `, `* `, `• `, `1. `, `2) `. */
const BULLET = /^(?:[-*•‣◦▪–]|\d{1,3}[.)])(?:\s+|$)/u;

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
  let carry = "";
  const sentences = splitSentences(answer);
  for (const [i, sentence] of sentences.entries()) {
    const piece = carry ? `${carry} ${sentence}` : sentence;
    const next = sentences[i + 1];
    // The segmenter ends a sentence after "B.J.", "Dr.", "v." or a list's "5.": such a piece is no claim of its own.
    const cut = CUT_SHORT.test(piece) || (NUMBER_ABBR.test(piece) && next !== undefined && /^\d/u.test(next));
    if (cut && !/\n\s*$/u.test(sentence)) {
      carry = piece;
      continue;
    }
    carry = "";
    const text = stripMarkers(piece.replace(BULLET, ""));
    if (SAYS_SOMETHING.test(text)) out.push(text);
  }
  if (carry) {
    const text = stripMarkers(carry.replace(BULLET, ""));
    if (SAYS_SOMETHING.test(text)) out.push(text);
  }
  return out;
}

/**
 * A piece the segmenter cut too early: it ends in an initial or a run of
 * them ("B.J.", "John C.", "the U.S."), a common abbreviation ("Dr.", "No.",
 * "v.", "e.g."), or is only a list number ("5."). Merged with the next piece
 * (claims only: citation accuracy keeps its sentence numbers). "No." only
 * before a number ("No. 2"), since "No." also answers a question.
 */
const NUMBER_ABBR = /\bNos?\.\s*$/u;
const CUT_SHORT = /(?:(?:^|[\s(])(?:\p{L}\.)+|\b(?:Mr|Mrs|Ms|Dr|Prof|St|Sr|Jr|vs|Inc|Ltd|Co|Corp|approx|etc|cf|Fig|Vol|Art|Sec)\.|^\s*\d{1,3}[.)])\s*$/u;

/**
 * The claims a pipeline output states itself: its `claims` when it gives
 * them; else, when its explicit `citations`
 * give sentences that together make up the whole answer (normalised, citation
 * markers stripped, nothing left over), those sentences are its claims, as
 * they are citation accuracy's sentences. Otherwise undefined (the splitter
 * decides), so a sentence the citations leave out is never dropped.
 *
 * @example
 * // {"answer":"A, b. C.","citations":[{"sentence":"A, b.","chunks":["x"]},{"sentence":"C.","chunks":["y"]}]} -> ["A, b.", "C."]
 */
export function citedClaims(variants: readonly Pick<VariantData, "name" | "outputs">[]): (answerItem: Item) => string[] | undefined {
  const byName = new Map(variants.map((v) => [v.name, v]));
  const squash = (t: string) => normalise(stripMarkers(t)).replace(/\s+/gu, "");
  return (it) => {
    const line = byName.get(it.key.variant)?.outputs.get(it.key.question);
    // The pipeline's own `claims` win: it says what it claimed.
    if (line?.claims) return line.claims.map((c) => stripMarkers(c)).filter((t) => SAYS_SOMETHING.test(t));
    if (!line?.citations?.length || line.answer === undefined) return undefined;
    const sentences = line.citations.map((c) => stripMarkers(c.sentence)).filter((t) => SAYS_SOMETHING.test(t));
    return sentences.length && squash(sentences.join("")) === squash(line.answer) ? sentences : undefined;
  };
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
