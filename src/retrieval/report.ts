import { prettyJson } from "../golden/pretty-json.js";
import type { VariantDiagnostics } from "./diagnostics/diagnose.js";
import type { FloorMiss } from "./floors.js";
import type { Measure } from "./measures/types.js";
import type { RetrievalScore } from "./score.js";
import type { TrecEvaluation } from "./trec/evaluate.js";
import { renderTable as textTable, type Column, type TextFormat } from "./diagnostics/table.js";
import { formatFixed4 } from "./trec/numbers.js";

/** One block of a report: a variant on a golden set, or a TREC run on qrels. */
export interface RetrievalView {
  mode: "golden" | "trec";
  /** Variant name or run file. */
  name: string;
  measures: Measure[];
  /** Overall first, then groups ("kind=factual", "tag=policy"). */
  summary: { by: string; key: string; n: number; values: Float64Array }[];
  /** Per-query rows, in golden-set order (golden mode) or trec_eval's order. */
  queries: { id: string; missing: boolean; info: Record<string, string | number | string[] | null>; values: Float64Array }[];
  /** Plain-language notes: left-out and zero-scored questions, ignored lines. */
  notes: string[];
  /** Machine-readable lists behind the notes, for JSON. */
  lists: Record<string, string[] | number>;
}

/** "1 question has" / "3 questions have": `what` is [singular, plural]. */
function listNote(what: [string, string], ids: readonly string[], tail: string): string {
  const shown = ids.slice(0, 10).join(", ");
  return `${ids.length} ${ids.length === 1 ? what[0] : what[1]}${ids.length > 10 ? ` (first 10: ${shown})` : `: ${shown}`}${tail}`;
}

/** The report view of a golden-set score. */
export function goldenView(s: RetrievalScore): RetrievalView {
  const notes: string[] = [];
  notes.push(`${s.questions.length} answerable question${s.questions.length === 1 ? "" : "s"} scored; ${s.unanswerable.length} unanswerable left out of every mean`);
  if (s.missing.length) notes.push(listNote(["answerable question has no pipeline output line", "answerable questions have no pipeline output line"], s.missing, "; scored 0 and counted in every mean"));
  if (s.unknownRelevant.length) notes.push(listNote(["answerable question lists relevant ids this chunks file lacks", "answerable questions list relevant ids this chunks file lacks"], s.unknownRelevant, "; they count in R, so recall cannot reach 1 (ragjudge validate names them)"));
  if (s.noRelevant.length) notes.push(listNote(["answerable question has no relevant chunk in this chunks file (anchor in no chunk?)", "answerable questions have no relevant chunk in this chunks file (anchor in no chunk?)"], s.noRelevant, "; scored 0 (check with ragjudge validate)"));
  return {
    mode: "golden",
    name: s.variant,
    measures: s.measures,
    summary: [s.overall, ...s.groups].map((g) => ({ by: g.by, key: g.key, n: g.n, values: g.values })),
    queries: s.questions.map((q) => ({
      id: q.id,
      missing: q.missing,
      info: { kind: q.kind ?? null, tags: q.tags, R: q.numRel, firstRelevant: q.firstRelevantRank },
      values: q.values,
    })),
    notes,
    lists: { unanswerable: s.unanswerable, missing: s.missing, noRelevant: s.noRelevant, unknownRelevant: s.unknownRelevant },
  };
}

/** The report view of a qrels + run evaluation. */
export function trecView(ev: TrecEvaluation, name: string): RetrievalView {
  const notes: string[] = [];
  notes.push(`${ev.queries.length} quer${ev.queries.length === 1 ? "y" : "ies"} evaluated at relevance level ${ev.level}${ev.complete ? " (complete: qrels queries missing from the run score 0, as trec_eval -c)" : " (queries missing from the run skipped, as trec_eval without -c)"}`);
  if (ev.missing.length) notes.push(listNote(["qrels query has no run line", "qrels queries have no run line"], ev.missing, ev.complete ? "; scored 0" : "; skipped"));
  if (ev.runOnly.length) notes.push(listNote(["run query is not in the qrels", "run queries are not in the qrels"], ev.runOnly, "; ignored, as trec_eval ignores them"));
  if (ev.extraFieldLines) notes.push(`warning: ${ev.extraFieldLines} run line${ev.extraFieldLines === 1 ? " has" : "s have"} fields after the run tag; ignored, as trec_eval ignores them`);
  return {
    mode: "trec",
    name,
    measures: ev.measures,
    summary: [{ by: "overall", key: "all", n: ev.queries.length, values: ev.summary }],
    queries: ev.queries.map((q) => ({ id: q.id, missing: q.missing, info: {}, values: q.values })),
    notes,
    lists: { missing: ev.missing, runOnly: ev.runOnly, extraFieldLines: ev.extraFieldLines },
  };
}

function fmt(v: number, full: boolean): string {
  return full ? String(v) : formatFixed4(v).trim();
}

const meanMeasures = (v: RetrievalView) => v.measures.map((m, i) => ({ m, i })).filter(({ m }) => m.def.aggregation === "mean");
const groupLabel = (g: RetrievalView["summary"][number]) => (g.by === "overall" ? "overall" : `${g.by === "tags" ? "tag" : g.by}=${g.key}`);

function infoCell(v: string | number | string[] | null | undefined): string {
  if (v === null || v === undefined) return "-";
  return Array.isArray(v) ? v.join(",") || "-" : String(v);
}

/** Per-query info columns as headed in the tables (JSON keeps the keys). */
const INFO_HEADER: Record<string, string> = { firstRelevant: "first rel" };

/** The summary table (overall, then groups) and, when asked, the per-query table of one view. */
function viewTables(v: RetrievalView, options: { perQuery?: boolean; fullPrecision?: boolean }, format: TextFormat): { summary: string; perQuery?: string } {
  const full = options.fullPrecision ?? false;
  const cols = meanMeasures(v);
  const values = (vals: Float64Array) => cols.map(({ i }) => fmt(vals[i]!, full));
  const measureColumns: Column[] = cols.map(({ m }) => ({ header: m.label, align: "right" }));
  const summary = textTable(
    [{ header: v.mode === "golden" ? "group" : "run" }, { header: "n", align: "right" }, ...measureColumns],
    v.summary.map((g) => [groupLabel(g), String(g.n), ...values(g.values)]),
    format,
  );
  if (!options.perQuery) return { summary };
  const infoKeys = Object.keys(v.queries[0]?.info ?? {});
  const numeric = (k: string) => v.queries.every((q) => q.info[k] === null || typeof q.info[k] === "number");
  const perQuery = textTable(
    [{ header: "query" }, ...infoKeys.map((k): Column => ({ header: INFO_HEADER[k] ?? k, align: numeric(k) ? "right" : "left" })), ...measureColumns],
    v.queries.map((q) => [q.id + (q.missing ? " (no output)" : ""), ...infoKeys.map((k) => infoCell(q.info[k])), ...values(q.values)]),
    format,
  );
  return { summary, perQuery };
}

/** A plain-text table per view: summary rows, notes, and per-query rows when asked. */
export function renderTable(views: readonly RetrievalView[], options: { perQuery?: boolean; fullPrecision?: boolean } = {}): string {
  const blocks: string[] = [];
  for (const v of views) {
    const t = viewTables(v, options, "terminal");
    let block = `${v.mode === "golden" ? "variant" : "run"} ${v.name}\n${t.summary}\n${v.notes.map((n) => `  ${n}`).join("\n")}\n`;
    if (t.perQuery) block += `\nper query (${v.name})\n${t.perQuery}\n`;
    blocks.push(block);
  }
  return blocks.join("\n");
}

/** GitHub-flavoured Markdown tables, for a pull-request comment or a CI summary. */
export function renderMarkdown(views: readonly RetrievalView[], options: { perQuery?: boolean; fullPrecision?: boolean } = {}): string {
  const out: string[] = [];
  for (const v of views) {
    const t = viewTables(v, options, "markdown");
    out.push(`### Retrieval: ${v.mode === "golden" ? "variant" : "run"} \`${v.name}\``, "", t.summary, "", ...v.notes.map((n) => `- ${n}`), "");
    if (t.perQuery) out.push(t.perQuery, "");
  }
  return out.join("\n");
}

function valuesObject(measures: readonly Measure[], values: Float64Array): Record<string, number> {
  const o: Record<string, number> = {};
  measures.forEach((m, i) => (o[m.label] = values[i]!));
  return o;
}

/** The JSON shape of one view (numbers are full precision: JSON round-trips doubles). */
export function viewJson(v: RetrievalView, options: { perQuery?: boolean } = {}): Record<string, unknown> {
  return {
    mode: v.mode,
    name: v.name,
    measures: v.measures.map((m) => ({ name: m.label, trec: m.trecLabel ?? null, aggregation: m.def.aggregation })),
    overall: { n: v.summary[0]!.n, values: valuesObject(v.measures, v.summary[0]!.values) },
    groups: v.summary.slice(1).map((g) => ({ by: g.by, key: g.key, n: g.n, values: valuesObject(v.measures, g.values) })),
    ...v.lists,
    notes: v.notes,
    ...(options.perQuery ? { perQuery: v.queries.map((q) => ({ id: q.id, missing: q.missing, ...q.info, values: valuesObject(v.measures, q.values) })) } : {}),
  };
}

/**
 * The `ragjudge retrieval --format json` document, one shape whatever the number of variants
 * (so a CI script does not break when a variant is added):
 * `{ results: [one entry per variant or run], floorsMissed: [...], diagnostics: [...] }`.
 * `diagnostics` is always present: one entry per variant in golden-set mode,
 * empty for a TREC run (no stage lists to diagnose).
 *
 * @example
 * JSON.parse(retrievalResultsJson([goldenView(score)], [], [])).results[0].overall.values["R@10"]
 */
export function retrievalResultsJson(
  views: readonly RetrievalView[],
  misses: readonly { name: string; miss: FloorMiss }[],
  diagnostics: readonly VariantDiagnostics[],
  opts: { perQuery?: boolean } = {},
): string {
  return `${JSON.stringify(resultsDocument(views, misses, diagnostics, opts), null, 2)}\n`;
}

/**
 * {@link retrievalResultsJson}'s text in pieces of 16,384 characters or so,
 * for printing: 50,000 questions make 95 MB of it, which as one string (and
 * its UTF-8 copy) would be the largest thing the command holds. Pieces that
 * small die in V8's young generation once written, where freeing them costs
 * nothing (megabyte strings sit in the large-object space until a full
 * collection).
 */
export function writeRetrievalResults(
  views: readonly RetrievalView[],
  misses: readonly { name: string; miss: FloorMiss }[],
  diagnostics: readonly VariantDiagnostics[],
  opts: { perQuery?: boolean },
  write: (piece: string) => void,
): void {
  let held: string[] = [];
  let length = 0;
  const flush = () => {
    write(held.join(""));
    held = [];
    length = 0;
  };
  prettyJson(resultsDocument(views, misses, diagnostics, opts), (p) => {
    held.push(p);
    length += p.length;
    if (length >= 16_384) flush();
  });
  held.push("\n");
  flush();
}

function resultsDocument(views: readonly RetrievalView[], misses: readonly { name: string; miss: FloorMiss }[], diagnostics: readonly VariantDiagnostics[], opts: { perQuery?: boolean }) {
  return {
    results: views.map((v) => viewJson(v, opts)),
    floorsMissed: misses.map((m) => ({ name: m.name, ...m.miss })),
    diagnostics,
  };
}
