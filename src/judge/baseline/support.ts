import { type SourceIndex, analyse } from "./tokens.js";

/**
 * How well the sources back one claim (a sentence of an answer, or the
 * sentence of a citation pair), by overlap:
 * - `coverage`: the share of the claim's distinct content words found in the
 *   sources (1 when it has none);
 * - `missingNumbers`, `missingCodes`: numbers and codes of the claim that no
 *   source states; one is enough to reject the claim, since "15 days" is not
 *   supported by a source that says "18 days" however many words they share.
 */
export interface SupportScore {
  /** Whether the sentence makes a checkable claim (see `minClaimWords`). */
  isClaim: boolean;
  coverage: number;
  /** Distinct content words of the claim. */
  words: number;
  missingWords: string[];
  missingNumbers: string[];
  missingCodes: string[];
  supported: boolean;
}

/**
 * Scores one claim against indexed sources.
 *
 * @param minCoverage the share of content words that must be found (see `DEFAULT_THRESHOLDS.supportCoverage`)
 * @param minClaimWords below this many content words, and with no number or code, a sentence makes no checkable claim
 *
 * @example
 * scoreSupport("You accrue 1.5 days a month.", indexSources(["You accrue 1.5 days of earned leave every month."]), 0.6, 2)
 * // { supported: true, coverage: 1, missingNumbers: [], ... }
 */
export function scoreSupport(claim: string, sources: SourceIndex, minCoverage: number, minClaimWords: number): SupportScore {
  const a = analyse(claim);
  const missingWords = a.words.filter((w) => !sources.words.has(w));
  const missingNumbers = a.numbers.filter((n) => !sources.numbers.has(n));
  const missingCodes = a.codes.filter((c) => !sources.codes.has(c));
  const coverage = a.words.length === 0 ? 1 : (a.words.length - missingWords.length) / a.words.length;
  const isClaim = a.words.length >= minClaimWords || a.numbers.length > 0 || a.codes.length > 0;
  const supported = coverage >= minCoverage && missingNumbers.length === 0 && missingCodes.length === 0;
  return { isClaim, coverage, words: a.words.length, missingWords, missingNumbers, missingCodes, supported };
}

/** One line saying why a claim is unsupported, for a verdict's reason. */
export function describeGap(s: SupportScore, minCoverage: number): string {
  const parts: string[] = [];
  if (s.coverage < minCoverage) {
    const shown = s.missingWords.slice(0, 8).join(", ") + (s.missingWords.length > 8 ? ", ..." : "");
    parts.push(`${pct(s.coverage)} of its content words found, below ${pct(minCoverage)} (missing: ${shown})`);
  }
  if (s.missingNumbers.length > 0) parts.push(`number${s.missingNumbers.length > 1 ? "s" : ""} ${s.missingNumbers.join(", ")} not found`);
  if (s.missingCodes.length > 0) parts.push(`code${s.missingCodes.length > 1 ? "s" : ""} ${s.missingCodes.join(", ")} not found`);
  return parts.join("; ");
}

/** A share as a whole percentage, for reasons. */
export function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** Shortens a quoted sentence for a reason line. */
export function quote(text: string, max = 100): string {
  const t = text.replace(/\s+/gu, " ").trim();
  return JSON.stringify(t.length > max ? t.slice(0, max - 1) + "…" : t);
}
