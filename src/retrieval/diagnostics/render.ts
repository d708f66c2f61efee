import type { VariantDiagnostics } from "./diagnose.js";
import type { MissRow, StageRank } from "./misses.js";
import type { PoolRecallReport } from "./pool.js";
import type { PrecisionCapReport } from "./precision.js";
import type { MissSummary } from "./summary.js";
import { renderTable, shorten, type TextFormat } from "./table.js";
import { FAILURE_KINDS, FIX_TABLE } from "./taxonomy.js";

export type { TextFormat } from "./table.js";

/** Anchors are cut to this many characters in the misses table. */
export const ANCHOR_WIDTH = 40;

function num(x: number | null): string {
  return x === null ? "n/a" : x.toFixed(4);
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

function heading(text: string, format: TextFormat): string {
  return format === "markdown" ? `### ${text}` : `${text}\n${"=".repeat(Math.min(text.length, 78))}`;
}

/** A note under a table: `note: ...` in the terminal, a list item in Markdown (consecutive `>` lines would merge into one paragraph). */
function note(text: string, format: TextFormat): string {
  return format === "markdown" ? `- ${text}` : `note: ${text}`;
}

/**
 * A rank cell: the rank within depth, ">50" beyond the depth, "—" absent.
 *
 * @example
 * rankCell({ name: "bm25", role: "first", status: "beyond-depth", rank: 73, chunk: "a" }, 50) // ">50"
 */
export function rankCell(r: StageRank, depth: number): string {
  if (r.status === "ranked") return String(r.rank);
  if (r.status === "beyond-depth") return `>${depth}`;
  return "—";
}

/** Pool recall beside final recall, overall then by kind; one line when there is no pool. */
export function renderPoolRecall(p: PoolRecallReport, variant: string, format: TextFormat): string {
  const parts: string[] = [];
  if (!p.pool.available) {
    parts.push(`${heading(`Pool recall: ${variant}`, format)}\n\npool recall unavailable: ${p.pool.reason}.`);
    return parts.join("\n");
  }
  const title = `Pool recall: ${variant} (${p.pool.list}@${p.depth} beside final R@${p.k})`;
  const rows = [p.overall, ...p.byKind]
    .filter((r) => r !== null)
    .map((r) => [r.kind, String(r.questions), num(r.poolRecall), num(r.finalRecall), String(r.notInPool ?? "n/a"), String(r.inPoolNotInTopK ?? "n/a")]);
  const table = renderTable(
    [
      { header: "kind" },
      { header: "n", align: "right" },
      { header: `pool@${p.depth}`, align: "right" },
      { header: `R@${p.k}`, align: "right" },
      { header: "not in pool", align: "right" },
      { header: `in pool, not top ${p.k}`, align: "right" },
    ],
    rows,
    format,
  );
  const lines = [heading(title, format), "", table, ""];
  const ceiling =
    p.depth >= p.k
      ? `pool@${p.depth} is the ceiling any reranker can reach`
      : `the pool is read at depth ${p.depth}, above the cutoff ${p.k}, so pool@${p.depth} is not a ceiling for R@${p.k} (use a pool depth of at least ${p.k})`;
  lines.push(note(`${ceiling}: "not in pool" questions were never found by the first stage; "in pool, not top ${p.k}" ones were found and then ranked out.`, format));
  const ex: string[] = [];
  if (p.unanswerable) ex.push(`${p.unanswerable} unanswerable question${p.unanswerable === 1 ? "" : "s"} left out`);
  if (p.noRelevant.length) ex.push(`no chunk holds the anchor (counted as recall 0; see ragjudge validate): ${p.noRelevant.join(", ")}`);
  const missing = p.questions.filter((q) => q.missingOutput).map((q) => q.question);
  if (missing.length) ex.push(`no output line (counted as recall 0): ${missing.join(", ")}`);
  if (ex.length) lines.push(note(ex.join("; ") + ".", format));
  return lines.join("\n");
}

/**
 * The precision ceiling as a note (seed 000's pitfall: with one or two
 * relevant chunks per question P@10 cannot pass 0.1-0.2). The per-kind
 * figures stay in the JSON; a table of them would repeat P@k for nothing.
 * Empty when no cutoff is capped.
 */
export function renderPrecisionCap(p: PrecisionCapReport, format: TextFormat): string {
  return p.notes.map((n) => note(n, format)).join("\n");
}

function anchorCell(m: MissRow): string {
  return shorten(m.anchor ? m.anchor.text : m.relevant.join(", "), ANCHOR_WIDTH);
}

/** The reason, with the proposal when the kind alone does not say what to do (undecided, anchor-ambiguity). */
export function whyWithProposal(m: { failure: string; why: string; proposal: string }): string {
  return (m.failure === "undecided" || m.failure === "anchor-ambiguity") && m.proposal ? `${m.why} (proposal: ${m.proposal})` : m.why;
}

function fixCell(m: MissRow): string {
  if (m.fix) return m.fix;
  return m.failure === "anchor-ambiguity" ? "(golden set)" : "—";
}

/**
 * The `--misses` table: question, kind, anchor (shortened), the best relevant
 * chunk's rank in each declared stage and in `retrieved`, failure kind and
 * fix; then the reason for each row (a column in Markdown, a list in the
 * terminal, where a sentence per row would not fit the width).
 */
export function renderMisses(d: VariantDiagnostics, format: TextFormat): string {
  const title = `Misses: ${d.variant} (no relevant chunk in the top ${d.k}; ranks within depth ${d.poolDepth})`;
  if (d.misses.length === 0) return `${heading(title, format)}\n\nno misses.`;
  const listNames = [...d.stages.map((s) => s.name), "retrieved"];
  const columns = [
    { header: "question" },
    { header: "kind" },
    { header: "anchor" },
    ...listNames.map((n) => ({ header: n, align: "right" as const })),
    { header: "failure" },
    { header: "fix" },
    ...(format === "markdown" ? [{ header: "why" }] : []),
  ];
  const rows = d.misses.map((m) => [
    m.question,
    m.kind,
    anchorCell(m),
    ...listNames.map((n) => {
      const r = m.ranks.find((x) => x.name === n);
      return r ? rankCell(r, d.poolDepth) : "";
    }),
    m.failure,
    fixCell(m),
    ...(format === "markdown" ? [whyWithProposal(m)] : []),
  ]);
  const lines = [heading(title, format), "", renderTable(columns, rows, format)];
  if (format === "terminal") {
    lines.push("", "why:");
    for (const m of d.misses) lines.push(`  ${m.question}: ${whyWithProposal(m)}`);
  }
  return lines.join("\n");
}

/**
 * The distribution of failure kinds (rows) overall and by question kind
 * (columns), "n/a" where this variant cannot decide a kind, then which kinds
 * are undecidable and the recommendation line.
 */
export function renderMissSummary(s: MissSummary, variant: string, format: TextFormat): string {
  const groups = [s.overall, ...s.byKind];
  const undecidable = new Map(s.decidability.undecidable.map((u) => [u.failure, u.reason]));
  const columns = [{ header: "failure" }, { header: "fix" }, ...groups.map((g) => ({ header: g.kind, align: "right" as const }))];
  const rows = FAILURE_KINDS.map((failure) => [
    failure,
    FIX_TABLE[failure].fix ?? (failure === "anchor-ambiguity" ? "(golden set)" : "—"),
    ...groups.map((g) => {
      if (undecidable.has(failure)) return "n/a";
      const c = g.counts.find((x) => x.failure === failure)!;
      return c.count ? `${c.count} (${pct(c.share)})` : "0";
    }),
  ]);
  rows.push(["misses", "", ...groups.map((g) => `${g.misses} of ${g.answerable}`)]);
  const lines = [heading(`Failure kinds: ${variant} (misses at top ${s.k})`, format), "", renderTable(columns, rows, format), ""];
  if (s.decidability.undecidable.length) {
    lines.push(note(`not decidable here: ${s.decidability.undecidable.map((u) => `${u.failure} (${u.reason})`).join("; ")}.`, format));
  }
  lines.push(note(`recommendation: ${s.recommendation}`, format));
  return lines.join("\n");
}

/** What {@link renderDiagnostics} includes. */
export interface RenderOptions {
  /** Include the per-question misses table (`--misses`); the summary is always shown. */
  misses: boolean;
}

/**
 * All diagnostics of one variant for the terminal or a Markdown report:
 * pool recall with the precision-ceiling note, the failure-kind summary and, with
 * `misses`, the misses table. Ends without a trailing newline.
 */
export function renderDiagnostics(d: VariantDiagnostics, format: TextFormat, opts: RenderOptions = { misses: true }): string {
  const precision = renderPrecisionCap(d.precision, format);
  const pool = renderPoolRecall(d.pool, d.variant, format) + (precision ? `\n${precision}` : "");
  const sections = [pool, renderMissSummary(d.summary, d.variant, format)];
  if (opts.misses) sections.push(renderMisses(d, format));
  return sections.join("\n\n");
}

/**
 * The JSON form of the diagnostics (`--json`): the data itself, which holds
 * no Map, Set or undefined-only field, so it round-trips through JSON.parse.
 */
export function diagnosticsJson(d: VariantDiagnostics | VariantDiagnostics[]): string {
  return JSON.stringify(d, null, 2);
}
