import type { TextFormat } from "../../retrieval/diagnostics/table.js";
import type { ComparedSide, Comparison, VerdictComparison } from "./compare.js";
import type { SideTrust } from "./trust.js";

/** A side's trust in one word: the gate's now, or "not re-checked" when it could not be decided again. */
function state(t: SideTrust): "trusted" | "untrusted" | "not re-checked" {
  return t.now === null ? "not re-checked" : t.now ? "trusted" : "untrusted";
}

/**
 * The trust column of a measure: "trusted" only when the gate, deciding
 * again, trusts both sides; "untrusted" when it trusts either not; "not
 * re-checked" when a side could not be decided again (report.json's word is
 * never shown as trusted).
 */
export function trustCell(v: VerdictComparison): string {
  if (!v.trustA || !v.trustB) return "";
  const states = [state(v.trustA), state(v.trustB)];
  return states.includes("untrusted") ? "untrusted" : states.includes("not re-checked") ? "not re-checked" : "trusted";
}

/** The sides of a comparison with their labels: one evaluation compared with itself (`--variants`) is named once, "A and B". */
function sidesOf(c: Comparison): [string, ComparedSide, "trustA" | "trustB"][] {
  return c.a.folder === c.b.folder ? [["A and B", c.a, "trustA"]] : [["A", c.a, "trustA"], ["B", c.b, "trustB"]];
}

const measureName = (v: VerdictComparison) => (v.measure === "answer" ? "answer right" : v.measure);

/**
 * The lines under the pass-rate table that say where report.json and the
 * calibration records disagree ("A: correctness: report.json says trusted;
 * the calibration records (labels/calibration) say not: stale (...)"), which
 * side could not be re-checked and why, and which figures are untrusted.
 */
export function trustNotes(c: Comparison, format: TextFormat): string[] {
  const warn = format === "markdown" ? "> warning: " : "warning: ";
  const measures = [c.answers, ...c.rubrics].filter((v) => v.trustA && v.trustB);
  const out: string[] = [];
  for (const [label, side, key] of sidesOf(c)) {
    if (!side.trust.rechecked) {
      const claimed = measures.filter((v) => v[key]!.recorded).map(measureName);
      const said = claimed.length ? `: report.json says ${claimed.join(", ")} ${claimed.length === 1 ? "is" : "are"} trusted, which the trust column does not take on its word` : "";
      out.push(`${warn}${label}: trust not re-checked (${side.trust.why})${said}`);
      continue;
    }
    for (const d of new Set(measures.flatMap((v) => v[key]!.disagreements))) out.push(`${warn}${label}: ${d}`);
  }
  const untrusted = measures.filter((v) => v.refused === null && (v.trustA!.now === false || v.trustB!.now === false)).map((v) => v.measure);
  if (untrusted.length) out.push(`${format === "markdown" ? "> " : "note: "}untrusted judge figures (${untrusted.join(", ")}): differences shown, but read them as indicative until calibrated.`);
  return out;
}

/**
 * Why `--require-trusted` fails a comparison, one line (empty when every
 * compared judge figure is trusted on both sides as the gate decides it
 * now): the measures, then each side's reasons (the gate's, or why it could
 * not be re-checked).
 *
 * @example
 * untrustedLine(c) // "hybrid-rerank against bm25-small: correctness, answer right (A and B: correctness: stale (...))"
 */
export function untrustedLine(c: Comparison): string {
  const bad = [c.answers, ...c.rubrics].filter((v) => v.refused === null && v.trustA && v.trustB && (v.trustedA === false || v.trustedB === false));
  if (bad.length === 0) return "";
  const why = sidesOf(c).flatMap(([label, side, key]) => {
    if (!bad.some((v) => v[key]!.now !== true)) return [];
    if (!side.trust.rechecked) return [`${label}: trust not re-checked (${side.trust.why})`];
    return [`${label}: ${[...new Set(bad.flatMap((v) => v[key]!.untrusted))].join("; ")}`];
  });
  return `${c.b.variant} against ${c.a.variant}: ${bad.map(measureName).join(", ")} (${why.join("; ")})`;
}
