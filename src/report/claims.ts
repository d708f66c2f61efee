import { escapeMarkdown } from "../golden/escape.js";
import { contextOf, type VariantData } from "../golden/dataset.js";
import type { Judgment } from "../golden/schema/items.js";
import { isClaimUnit } from "../judge/items/claims.js";
import type { TextFormat } from "../retrieval/diagnostics/table.js";
import type { UnsupportedClaimJson } from "./claims-schema.js";
import type { ReportJson } from "./schema.js";

/**
 * Unsupported claims in the reports (claim-level faithfulness): report.json's
 * `unsupportedClaims`, and the section of the terminal summary and report.md
 * that lists them with the context each was checked against. Why a section of
 * its own: the answer's verdict says "no", the team's next question is which
 * claim and against what.
 */

/** Claims listed per variant in the terminal summary and report.md (report.json and items.jsonl hold all). */
export const CLAIMS_SHOWN = 10;

/**
 * Every claim verdict of repeat 0 that is not "yes", in variant and golden
 * order, with the context chunks it was judged against (the variant's
 * `context`, as the items were built).
 *
 * @example
 * unsupportedClaims(judgments, variants)[0] // { variant: "bm25", question: "q1", unit: "c2", claim: "...", reason: "...", context: [...] }
 */
export function unsupportedClaims(judgments: readonly Judgment[], variants: readonly Pick<VariantData, "name" | "outputs" | "chunks" | "contextK">[], order: readonly string[] = []): UnsupportedClaimJson[] {
  const rank = new Map(order.map((q, i) => [q, i]));
  const out: UnsupportedClaimJson[] = [];
  variants.forEach((v) => {
    const mine = judgments.filter((j) => j.variant === v.name && j.repeat === 0 && isClaimUnit(j.unit) && j.verdict !== "yes" && j.judge !== "rule");
    mine.sort((a, b) => (rank.get(a.question) ?? 0) - (rank.get(b.question) ?? 0) || (a.question < b.question ? -1 : a.question > b.question ? 1 : 0) || Number(a.unit.slice(1)) - Number(b.unit.slice(1)));
    for (const j of mine) {
      const line = v.outputs.get(j.question);
      const ids = line ? contextOf(line, v.contextK) : [];
      out.push({
        variant: v.name,
        question: j.question,
        unit: j.unit,
        claim: j.claim ?? "",
        verdict: j.verdict as "no" | "error",
        reason: j.verdict === "error" ? j.error ?? "error" : j.reason,
        judge: j.judge as "llm" | "baseline",
        inputHash: j.inputHash,
        context: ids.map((id, i) => {
          const c = v.chunks.byId.get(id);
          return { position: i + 1, id, heading: c?.heading ?? null, text: c?.text ?? null };
        }),
      });
    }
  });
  return out;
}

const oneLine = (t: string, max: number) => {
  const s = t.replace(/\s+/gu, " ").trim();
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
};

/**
 * The "Unsupported claims" section of the terminal summary and report.md:
 * per variant, how many claims the sources did not support, and the first
 * {@link CLAIMS_SHOWN} with the judge's reason and the chunks each was
 * checked against (position, id, heading and the start of the text). Empty
 * when the run judged no claims.
 */
export function claimsSection(report: Pick<ReportJson, "unsupportedClaims" | "variants">, format: TextFormat, shown = CLAIMS_SHOWN): string {
  const claims = report.unsupportedClaims;
  if (!claims) return "";
  const md = format === "markdown";
  const esc = (t: string) => (md ? escapeMarkdown(t) : t);
  const out: string[] = [md ? "## Unsupported claims" : "Unsupported claims\n==================", ""];
  for (const v of report.variants) {
    const mine = claims.filter((c) => c.variant === v.name);
    const no = mine.filter((c) => c.verdict === "no");
    const answers = new Set(no.map((c) => c.question)).size;
    const errors = mine.length - no.length;
    const count = no.length === 0 ? "no unsupported claim" : `${no.length} unsupported claim${no.length === 1 ? "" : "s"} in ${answers} answer${answers === 1 ? "" : "s"}`;
    out.push(esc(`${v.name}: ${count}${errors ? `, ${errors} not judged (error)` : ""}${mine.length > shown ? (shown > 0 ? `; the first ${shown}` : "; listed in report.json") : ""}`));
    for (const c of mine.slice(0, shown)) {
      out.push(`${md ? "- " : "  - "}${esc(`${c.question} ${c.unit}: ${JSON.stringify(oneLine(c.claim, 160))} (${c.verdict === "no" ? "unsupported" : "error"}): ${oneLine(c.reason, 200)}`)}`);
      const against = c.context.length
        ? c.context.map((x) => `[${x.position}] ${x.id}${x.heading ? ` (${x.heading})` : ""}${x.text ? `: ${JSON.stringify(oneLine(x.text, 70))}` : ""}`).join("; ")
        : "no context was given to the generator";
      out.push(`${md ? "  - " : "      "}${esc(`checked against: ${against}`)}`);
    }
    out.push("");
  }
  out.push(esc("Every claim, with the full context, is in items.jsonl and the HTML report's item explorer; report.json lists every unsupported claim."), "");
  return out.join("\n");
}
