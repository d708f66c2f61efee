import type { Judgment } from "../../golden/schema/items.js";
import { isClaimUnit } from "./claims.js";
import type { ClaimOf, Item } from "./items.js";

/**
 * The answer verdicts of claim-level faithfulness, derived from the claims'.
 *
 * Why derived and not judged: the claims are what was judged (and what
 * people label and calibration measures); the answer verdict is their
 * conjunction, so every report, the search-or-answer table and `compare` read
 * it as they read an answer verdict, while sampling and calibration leave it
 * out (`derived: "claims"`), never pooling answer-level and claim-level labels.
 */

/** The quoted claim text in a reason, cut so one long claim cannot swamp it. */
function quote(text: string): string {
  const t = text.replace(/\s+/gu, " ").trim();
  return JSON.stringify(t.length > 160 ? `${t.slice(0, 157)}...` : t);
}

/**
 * The verdict of an answer from the verdicts of all its claims: "yes" iff
 * every claim is supported; "no" when any claim is not; "error" when none is
 * "no" but one is an error (never counted as a verdict). The reason names the
 * failing claims, `c2: "text": why`.
 *
 * @example
 * deriveVerdict([{ unit: "c1", verdict: "yes", ... }, { unit: "c2", verdict: "no", claim: "30 days", reason: "the sources say 45" }])
 * // { verdict: "no", reason: 'unsupported: c2: "30 days": the sources say 45' }
 */
export function deriveVerdict(claims: readonly Pick<Judgment, "unit" | "verdict" | "reason" | "claim" | "error">[]): { verdict: Judgment["verdict"]; reason: string; error?: string } {
  const no = claims.filter((c) => c.verdict === "no");
  const errors = claims.filter((c) => c.verdict === "error");
  const name = (c: (typeof claims)[number]) => `${c.unit}${c.claim === undefined ? "" : `: ${quote(c.claim)}`}`;
  if (no.length > 0) {
    const also = errors.length ? ` (and ${errors.map((c) => c.unit).join(", ")} not judged: error)` : "";
    return { verdict: "no", reason: `unsupported: ${no.map((c) => `${name(c)}${c.reason ? `: ${c.reason}` : ""}`).join("; ")}${also}` };
  }
  if (errors.length > 0) {
    return { verdict: "error", reason: "", error: `claims: ${errors.map((c) => `${c.unit}: ${c.error ?? "error"}`).join("; ")}` };
  }
  return { verdict: "yes", reason: `every claim is supported (${claims.length} claim${claims.length === 1 ? "" : "s"})` };
}

const answerOf = (k: Pick<Judgment, "variant" | "question" | "rubric">) => `${k.variant}\u0000${k.question}\u0000${k.rubric}`;

/**
 * A run's judgments with claim-level faithfulness completed: each claim
 * verdict gets its claim's text (`claim`), and each answer whose claims were
 * all judged at a repeat gets its derived verdict at unit `answer` (input
 * hash of the answer-level item, the claims' fingerprint and judge,
 * `derived: "claims"`), appended after the run's judgments. Judgments of
 * non-claim items pass through unchanged; without claim items this returns
 * the same list.
 *
 * @example
 * const judgments = withDerivedVerdicts(itemSet.items, result.judgments);
 */
export function withDerivedVerdicts(items: readonly Item[], judgments: readonly Judgment[]): Judgment[] {
  const claims = new Map<string, ClaimOf>();
  for (const it of items) if (it.claim) claims.set(`${answerOf(it.key)}\u0000${it.key.unit}\u0000${it.inputHash}`, it.claim);
  if (claims.size === 0) return [...judgments];
  const out: Judgment[] = [];
  const groups = new Map<string, { of: ClaimOf; rows: Judgment[] }>();
  for (const j of judgments) {
    const c = isClaimUnit(j.unit) ? claims.get(`${answerOf(j)}\u0000${j.unit}\u0000${j.inputHash}`) : undefined;
    if (!c) {
      out.push(j);
      continue;
    }
    const row: Judgment = { ...j, claim: c.text };
    out.push(row);
    const gk = `${answerOf(j)}\u0000${j.repeat}\u0000${j.judgeName ?? ""}`;
    const g = groups.get(gk) ?? { of: c, rows: [] };
    g.rows.push(row);
    groups.set(gk, g);
  }
  for (const { of, rows } of groups.values()) {
    // A panel's judges each judged the claims: one derived verdict per judge (judgeName), never mixing their verdicts.
    const units = new Set(rows.map((r) => r.unit));
    if (units.size < of.of) continue; // not every claim judged at this repeat: no answer verdict
    rows.sort((a, b) => Number(a.unit.slice(1)) - Number(b.unit.slice(1)));
    const first = rows[0]!;
    const d = deriveVerdict(rows);
    const time = rows.reduce((t, r) => (r.time > t ? r.time : t), first.time);
    out.push({
      variant: first.variant,
      question: first.question,
      rubric: first.rubric,
      unit: "answer",
      inputHash: of.answerHash,
      fingerprint: first.fingerprint,
      judge: first.judge,
      ...(first.model === undefined ? {} : { model: first.model }),
      ...(first.servedModel === undefined ? {} : { servedModel: first.servedModel }),
      ...(first.judgeName === undefined ? {} : { judgeName: first.judgeName }),
      repeat: first.repeat,
      verdict: d.verdict,
      reason: d.reason,
      ...(d.error === undefined ? {} : { error: d.error }),
      cached: rows.every((r) => r.cached),
      derived: "claims",
      time,
    });
  }
  return out;
}

/** The claims of one answer (its `c<n>` verdicts at repeat 0), in claim order. */
export function claimRows(judgments: readonly Judgment[], key: Pick<Judgment, "variant" | "question" | "rubric">): Judgment[] {
  return judgments
    .filter((j) => j.repeat === 0 && isClaimUnit(j.unit) && j.variant === key.variant && j.question === key.question && j.rubric === key.rubric)
    .sort((a, b) => Number(a.unit.slice(1)) - Number(b.unit.slice(1)));
}
