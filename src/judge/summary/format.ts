import type { Rate, RubricFigures, Summary, VariantFigures } from "./summary.js";

/**
 * Renders a {@link Summary} as plain-text tables for the terminal: one table
 * per rubric and judge fingerprint, variants as columns, rows for the overall
 * rate, rubric-specific counts, and (optionally) each kind and tag; then
 * token usage.
 */

function pct(x: number | null): string {
  return x === null ? "n/a" : `${(100 * x).toFixed(1)}%`;
}

function rateCell(r: Rate | undefined): string {
  if (!r) return "";
  const base = r.pass + r.fail === 0 ? "n/a" : `${pct(r.rate)} ${r.pass}/${r.pass + r.fail}`;
  return r.errors ? `${base} +${r.errors} err` : base;
}

function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((row) => "  " + row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]!))).join("   ").trimEnd()).join("\n");
}

function judgeLine(f: RubricFigures): string {
  const fp = f.fingerprint.slice(0, 12);
  if (f.judge === "rule") return `decided by rule only (${f.fingerprint})`;
  if (f.judge === "baseline") return `baseline judge (offline, no LLM), fingerprint ${fp}`;
  const served = f.servedModel ? `; served ${f.servedModel}` : "";
  return `LLM judge ${f.model ?? "?"}${served}, fingerprint ${fp}`;
}

/** A rubric's trust state as the summary shows it (see src/calibration/gate.ts `TrustState`). */
export interface TrustLine {
  trusted: boolean;
  /** "trusted: kappa 0.78, 95% CI [0.66, 0.90], n = 80 human labels" or why not. */
  message: string;
}

/** The key of {@link FormatOptions.trust}: rubric, judge fingerprint and served model ("" when none). */
export function trustKey(rubric: string, fingerprint: string, servedModel = ""): string {
  return `${rubric}\u0000${fingerprint}\u0000${servedModel}`;
}

/** Which breakdowns to print: by `kind`, by `tags` (both by default); and each rubric's trust state. */
export interface FormatOptions {
  by?: readonly ("kind" | "tags")[];
  /**
   * Trust states by {@link trustKey}. When given, every rubric judged by a
   * judge (not only by rule) shows its state under its heading and before
   * its pass rate; a rubric without an entry shows as untrusted.
   */
  trust?: ReadonlyMap<string, TrustLine>;
}

function rubricRows(f: RubricFigures, s: Summary, by: readonly string[], trust?: TrustLine): string[][] {
  const vs = f.variants;
  const rows: string[][] = [["", ...vs.map((v) => v.variant)]];
  const row = (label: string, cell: (v: VariantFigures) => string) => rows.push([label, ...vs.map(cell)]);
  const state = trust ? ` (${trust.trusted ? "trusted" : "untrusted"})` : "";
  const label = (f.unit === "citation" ? "answers, all citations supported" : "pass rate") + state;
  row(label, (v) => rateCell(v.overall));
  if (vs.some((v) => v.notFound)) {
    row('correct "not found" (unanswerable)', (v) => rateCell(v.notFound?.correctNotFound));
    row("false refusals (answerable)", (v) => {
      const fr = v.notFound?.falseRefusals;
      if (!fr) return "";
      return `${fr.scored ? pct(fr.rate) : "n/a"} ${fr.refused}/${fr.scored}${fr.errors ? ` +${fr.errors} err` : ""}`;
    });
  }
  if (vs.some((v) => v.citations)) {
    row("citation pairs supported", (v) => (v.citations ? `${v.citations.supported}/${v.citations.supported + v.citations.unsupported}${v.citations.errors ? ` +${v.citations.errors} err` : ""}` : ""));
    row("mean share supported", (v) => (v.citations ? pct(v.citations.meanShare) : ""));
    row("  rule: cited chunk outside context", (v) => String(v.citations?.outsideContext ?? ""));
    row("  rule: cited chunk unknown", (v) => String(v.citations?.unknownChunk ?? ""));
    row(s.requireCitations ? "uncited answers (failing: citations required)" : "uncited answers (not counted: citations not required)", (v) => String(v.citations?.uncited ?? ""));
    if (vs.some((v) => v.citations?.splitAnswers)) row("answers judged under two fingerprints (not scored: rerun)", (v) => String(v.citations?.splitAnswers ?? 0));
  }
  const kinds = [...new Set(vs.flatMap((v) => Object.keys(v.byKind)))].sort();
  if (by.includes("kind") && (kinds.length > 1 || (kinds.length === 1 && kinds[0] !== "(no kind)"))) for (const k of kinds) row(`kind ${k}`, (v) => rateCell(v.byKind[k]));
  const tags = [...new Set(vs.flatMap((v) => Object.keys(v.byTag)))].sort();
  if (by.includes("tags")) for (const t of tags) row(`tag ${t}`, (v) => rateCell(v.byTag[t]));
  const otherRules = [...new Set(vs.flatMap((v) => Object.keys(v.rules)))].filter((r) => !["outside-context", "unknown-chunk", "uncited"].includes(r)).sort();
  for (const r of otherRules) row(`rule: ${r}`, (v) => String(v.rules[r] ?? 0));
  if (vs.some((v) => v.overall.errors)) row("errors (not counted)", (v) => String(v.overall.errors));
  if (vs.some((v) => v.skipped)) row("skipped (no reference)", (v) => String(v.skipped));
  return rows;
}

/**
 * The summary as text: per rubric, its judge and fingerprint, a table of
 * rates by variant (overall, by kind, by tag) with rubric-specific rows,
 * self-disagreement, the main error causes; then tokens per rubric.
 */
export function formatSummary(s: Summary, opts: FormatOptions = {}): string {
  const by = opts.by ?? ["kind", "tags"];
  const out: string[] = [];
  for (const f of s.figures) {
    out.push(`${f.rubric}  [${judgeLine(f)}]`);
    let trust: TrustLine | undefined;
    if (opts.trust && f.judge !== "rule") {
      trust = opts.trust.get(trustKey(f.rubric, f.fingerprint, f.servedModel)) ?? { trusted: false, message: "untrusted: trust state unknown" };
      out.push(`  ${trust.trusted ? "TRUSTED" : "UNTRUSTED"}: ${trust.message.replace(/^(un)?trusted: /, "")}`);
    }
    const twins = s.figures.filter((o) => o !== f && o.rubric === f.rubric && o.fingerprint === f.fingerprint && o.servedModel !== f.servedModel);
    if (twins.length) out.push(`  warning: this fingerprint's verdicts also came from ${twins.map((o) => o.servedModel || "an unnamed model").join(", ")}: counted apart, never pooled (an alias moved to a new snapshot?)`);
    out.push(f.variants.length ? table(rubricRows(f, s, by, trust)) : "  (no items)");
    if (f.selfDisagreement) {
      const d = f.selfDisagreement;
      out.push(`  self-disagreement across repeats: ${d.disagreeing}/${d.items} items (${pct(d.rate)})`);
    }
    for (const [cause, n] of f.errorCauses) out.push(`  error x${n}: ${cause}`);
    out.push("");
  }
  const usage = Object.entries(s.usage);
  if (usage.length) {
    const rows = [["tokens this run", "calls", "prompt", "completion"]];
    for (const [r, u] of usage) rows.push([r, String(u.calls), String(u.prompt), String(u.completion)]);
    out.push(table(rows), "");
  }
  const t = s.totals;
  out.push(`${t.judgments} verdicts: ${t.cached} from cache, ${t.rule} by rule, ${t.errors} errors${t.errors ? " (errors are not verdicts: rerun to retry them)" : ""}`);
  return out.join("\n") + "\n";
}
