import { gzipSync } from "node:zlib";
import { markCitations } from "../../../review/highlight.js";
import { OUTCOME_LABELS } from "../../format.js";
import { shellWord } from "../../items/build.js";
import type { ItemRecord } from "../../items/schema.js";
import type { ReportJson } from "../../schema.js";
import { OUTCOMES, type Outcome } from "../../search-or-answer.js";
import { escapeHtml as esc } from "../escape.js";
import { sectionShell } from "../parts.js";

/**
 * The item explorer: every question of every variant one click away, with
 * the evidence for its outcome. The page stays one self-contained file:
 *
 * - a server-rendered table of the first rows (the failures first), so the
 *   page is readable with script disabled;
 * - the rows as a small JSON block (`rj-rows`), read when the page opens,
 *   which the inline script (explorer-client.ts) filters, sorts and pages;
 * - the evidence (answers, reasons, labels) in compressed shards of
 *   {@link SHARD} items (`rj-ev-0`, `rj-ev-1`, ...) and the chunk text in
 *   one compressed table (`rj-chunks`), each inflated only when a row that
 *   needs it is first opened, so a 20,000-item report opens fast and opens an
 *   item fast.
 *
 * JSON blocks are data (`type="application/json"`, never run); `<` is
 * written `\u003c` inside them, so no text can close the block. The script
 * builds every node with `textContent`.
 */

/** Rows the page shows with script disabled (and before the script has run). */
export const STATIC_ROWS = 100;

/** Items per evidence block: opening an item parses its block only. */
export const SHARD = 500;

/** Outcomes from the worst to the best: the default order of the explorer. */
export const SEVERITY: readonly Outcome[] = ["retrieval-failure", "generation-failure", "invented-answer", "unjudged", "ok-without-retrieval", "ok", "correct-not-found"];

/** JSON for a `<script type="application/json">` block: nothing in it can end the block or open a comment. */
export function jsonBlock(id: string, value: unknown): string {
  const text = JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
  return `<script type="application/json" id="${esc(id)}">${text}</script>`;
}

/**
 * Turns a block's JSON text into its gzip-compressed base64 text: at once
 * ({@link gzipBase64}), or later, off the main thread (report/html/gzip-worker.ts).
 * Both give the same bytes (level {@link GZIP_LEVEL}).
 */
export type Compress = (json: string) => string | Promise<string>;

/**
 * The evidence's gzip level. zlib's default (6) took 2.1 s for the 81 MB of
 * a 20,000-item page's blocks, level 4 0.80 s, for 5.8% more compressed
 * bytes (17.6 MB against 16.6; the page 3% larger); below 4 the size grows
 * faster than the time falls (level 2: 0.51 s, 15.6% more).
 */
export const GZIP_LEVEL = 4;

/** gzip (level {@link GZIP_LEVEL}) and base64, on this thread. */
export const gzipBase64 = (json: string): string => gzipSync(json, { level: GZIP_LEVEL }).toString("base64");

/**
 * JSON, gzip-compressed and base64-encoded, in a data block the browser
 * never runs (`type="application/gzip"`; base64 holds no `<`). The evidence
 * is mostly reasons and chunk text that compress about eightfold, and the
 * page parses less text when it opens; the script inflates a block with the
 * browser's own DecompressionStream when an item needs it. The block comes
 * in three pieces, its compressed text (maybe still being compressed) between
 * the tags.
 */
function gzipBlockPieces(id: string, json: string, compress: Compress): (string | Promise<string>)[] {
  return [`<script type="application/gzip" id="${esc(id)}">`, compress(json), "</script>"];
}

/** {@link gzipBlockPieces} joined, compressed on this thread. */
export function gzipBlock(id: string, value: unknown): string {
  return gzipBlockPieces(id, JSON.stringify(value), gzipBase64).join("");
}

const VERDICT_CODE = { yes: "y", no: "n", error: "e" } as const;

/** The explorer's data: one compact row per item (read at once) and its evidence (read when first opened). */
export interface ExplorerData {
  rows: {
    variants: string[];
    rubrics: string[];
    outcomes: string[];
    /** [variant index, question id, question text, kind, tags, outcome index, verdict per rubric (y/n/e/""), first relevant rank, miss failure ("" none), answer, split] */
    items: [number, string, string, string, string[], number, string[], number | null, string, string, string][];
  };
  evidence: {
    /** [id, doc, heading, text] of every chunk some item shows. */
    chunks: [string, string, string, string][];
    /** [judge, fingerprint, model] of every judge that gave a verdict: units refer to them by index. */
    judges: [string, string, string | null][];
    /** The review command with `{item}` where the item's shell word goes (an item whose command differs carries its own; one with none carries `false`). */
    review: string;
    items: unknown[];
  };
}

/** Looks up a chunk of a variant (ids are per variant: two chunkers may reuse an id for different text). */
export type ChunkLookup = (variant: string, id: string) => { doc: string; heading?: string | undefined; text: string } | undefined;

/**
 * Builds the explorer's payloads item by item. Chunk text is kept once per
 * (variant, chunk) in a table and referenced by index (`chunkOf` supplies the
 * text of retrieved chunks outside the context); answers carry their
 * citation markers resolved (src/review/highlight.ts), context chunks the
 * anchor's offsets. The chunk and judge tables are complete once every item
 * has been added; items are added in order (their evidence refers to the
 * tables by index, in order of first use).
 */
class ExplorerBuilder {
  readonly variants: string[];
  readonly rubrics: string[];
  readonly chunks: ExplorerData["evidence"]["chunks"] = [];
  readonly judges: ExplorerData["evidence"]["judges"] = [];
  readonly rows: ExplorerData["rows"]["items"] = [];
  readonly template: string;
  private readonly chunkIndex = new Map<string, Map<string, number>>();
  private readonly judgeIndex = new Map<string, number>();

  constructor(
    items: readonly ItemRecord[],
    private readonly chunkOf: ChunkLookup,
  ) {
    this.variants = [...new Set(items.map((i) => i.variant))];
    this.rubrics = [...new Set(items.flatMap((i) => i.rubrics.map((r) => r.rubric)))];
    const first = items.find((i) => i.review !== null);
    this.template = first ? first.review!.replace(shellWord(`${first.variant}/${first.question}`), "{item}") : "";
  }

  /** The chunk table's index of a variant's chunk, added on first use (`known`: its text when the item has it). */
  private chunkRef(variant: string, id: string, known?: { doc: string | null; heading: string | null; text: string | null }): number {
    // per variant, then per id: 20,000 items refer to two million chunks, and a joined key for each was a string to build and hash
    let ids = this.chunkIndex.get(variant);
    if (!ids) this.chunkIndex.set(variant, (ids = new Map()));
    let n = ids.get(id);
    if (n === undefined) {
      const c = known ?? (() => { const x = this.chunkOf(variant, id); return { doc: x?.doc ?? null, heading: x?.heading ?? null, text: x?.text ?? null }; })();
      ids.set(id, (n = this.chunks.length));
      this.chunks.push([id, c.doc ?? "", c.heading ?? "", c.text ?? ""]);
    }
    return n;
  }

  private judgeRef(judge: string, fingerprint: string, model: string | null): number {
    const key = `${judge}\u0000${fingerprint}\u0000${model ?? ""}`;
    let n = this.judgeIndex.get(key);
    if (n === undefined) {
      this.judgeIndex.set(key, (n = this.judges.length));
      this.judges.push([judge, fingerprint, model]);
    }
    return n;
  }

  /**
   * Puts an item's chunks in the table in the order {@link add} refers to them
   * (context, then retrieved): run over every item first, the table is
   * complete before any evidence is built.
   */
  indexChunks(it: ItemRecord): void {
    for (const c of it.context) this.chunkRef(it.variant, c.id, c);
    for (const r of it.retrieved) this.chunkRef(it.variant, r.id);
  }

  /** Adds an item's row; returns its evidence. */
  add(it: ItemRecord): unknown {
    const byRubric = new Map(it.rubrics.map((r) => [r.rubric, r]));
    this.rows.push([
      this.variants.indexOf(it.variant), it.question, it.text, it.kind, it.tags, OUTCOMES.indexOf(it.outcome),
      this.rubrics.map((r) => { const v = byRubric.get(r)?.verdict; return v ? VERDICT_CODE[v] : ""; }),
      it.firstRelevantRank, it.miss?.failure ?? "", it.answer ?? "", it.split ?? "",
    ]);
    const contextIds = it.context.map((c) => c.id);
    const ctx = it.context.map((c) => [this.chunkRef(it.variant, c.id, c), c.position, c.relevant ? 1 : 0, c.cited ? 1 : 0, c.anchorAt]);
    return {
      ref: it.reference,
      ans: it.answer === null ? null : markCitations(it.answer, contextIds).map((s) => (s.mark ? [s.text, s.refs ?? [], s.mark === "cite-unknown" ? 1 : 0] : [s.text])),
      anchor: it.anchor,
      because: it.because,
      ctx,
      stages: it.stages,
      ret: it.retrieved.map((r) => [r.rank, this.chunkRef(it.variant, r.id), r.relevant ? 1 : 0, r.inContext ? 1 : 0, it.stages.map((s) => r.stages[s] ?? null)]),
      miss: it.miss,
      rub: it.rubrics.map((r) => [r.rubric, r.verdict, r.units.map((u) => [u.unit, u.verdict, this.judgeRef(u.judge, u.fingerprint, u.model), u.reason, u.error, u.rule, u.claim ?? null]), r.labels.map((l) => [l.unit, l.label, l.annotator, l.provenance, l.frame, l.time, l.note])]),
      // null: the template's command; false: none (every verdict decided by rule); else the item's own command
      rev: it.review === null ? false : it.review === this.template.replace("{item}", shellWord(`${it.variant}/${it.question}`)) ? null : it.review,
    };
  }

  rowsJson(): ExplorerData["rows"] {
    return { variants: this.variants, rubrics: this.rubrics, outcomes: [...OUTCOMES], items: this.rows };
  }
}

/** The explorer's two JSON payloads from the items (see {@link ExplorerBuilder}). */
export function explorerData(items: readonly ItemRecord[], chunkOf: ChunkLookup = () => undefined): ExplorerData {
  const b = new ExplorerBuilder(items, chunkOf);
  const evidence = items.map((it) => b.add(it));
  return { rows: b.rowsJson(), evidence: { chunks: b.chunks, judges: b.judges, review: b.template, items: evidence } };
}

function option(value: string, label: string): string {
  return `<option value="${esc(value)}">${esc(label)}</option>`;
}

function select(name: string, label: string, options: string[]): string {
  return `<label>${esc(label)} <select name="${esc(name)}" data-filter="${esc(name)}">${option("", "any")}${options.join("")}</select></label>`;
}

/** The filter form: shown by the script (hidden without it: its controls would do nothing). */
function filters(variants: readonly string[], rubrics: readonly string[], items: readonly ItemRecord[]): string {
  const kinds = [...new Set(items.map((i) => i.kind))].sort();
  const tags = [...new Set(items.flatMap((i) => i.tags))].sort();
  const used = OUTCOMES.filter((o) => items.some((i) => i.outcome === o));
  const verdicts = [option("yes", "yes"), option("no", "no"), option("error", "error"), option("none", "not judged")];
  return `<form id="rj-filters" class="filters" hidden role="search">`
    + `<label class="grow">Search <input type="search" name="q" data-filter="q" placeholder="id, question, answer, tag… ( / )" autocomplete="off"></label>`
    + select("variant", "Variant", variants.map((v) => option(v, v)))
    + select("outcome", "Outcome", used.map((o) => option(o, OUTCOME_LABELS[o])))
    + select("kind", "Kind", kinds.map((k) => option(k, k)))
    + select("tag", "Tag", tags.map((t) => option(t, t)))
    + rubrics.map((r) => select(`r.${r}`, r, verdicts)).join("")
    + `<button type="button" id="rj-reset">Clear</button></form>`;
}

function headRow(rubrics: readonly string[]): string {
  const cols: [string, string, string][] = [["variant", "variant", ""], ["question", "question", ""], ["kind", "kind", ""], ["tags", "tags", ""], ["outcome", "outcome", ""],
    ...rubrics.map((r): [string, string, string] => [`r.${r}`, r, "v"]), ["rank", "first relevant", "n"], ["miss", "miss", ""]];
  return `<tr>${cols.map(([key, label, cls]) => `<th data-sort="${esc(key)}"${cls ? ` class="${cls}"` : ""} scope="col">${esc(label)}</th>`).join("")}</tr>`;
}

function verdictCell(v: "yes" | "no" | "error" | null): string {
  return v === null ? `<td class="v">—</td>` : `<td class="v ${v}">${v}</td>`;
}

/** One static row: what the script renders too, so the page reads the same before and without it. */
function staticRow(it: ItemRecord, rubrics: readonly string[]): string {
  const byRubric = new Map(it.rubrics.map((r) => [r.rubric, r.verdict]));
  return `<tr><td>${esc(it.variant)}</td><td><span class="qid">${esc(it.question)}</span> <span class="qtext">${esc(it.text)}</span></td><td>${esc(it.kind)}</td>`
    + `<td>${esc(it.tags.join(", "))}</td><td class="outcome ${esc(it.outcome)}">${esc(OUTCOME_LABELS[it.outcome])}</td>`
    + rubrics.map((r) => verdictCell(byRubric.get(r) ?? null)).join("")
    + `<td class="n">${it.firstRelevantRank ?? "—"}</td><td>${esc(it.miss?.failure ?? "")}</td></tr>`;
}

/** The items in the explorer's default order: worst outcome first, then variant and golden-set order. */
export function defaultOrder(items: readonly ItemRecord[]): ItemRecord[] {
  return items.map((it, i) => ({ it, i })).sort((a, b) => SEVERITY.indexOf(a.it.outcome) - SEVERITY.indexOf(b.it.outcome) || a.i - b.i).map(({ it }) => it);
}

/** The explorer section built a shard at a time (see {@link explorerSectionLazy}). */
export interface LazySection {
  /** Builds the next evidence shard and hands it to `compress`; false when every shard was built already. */
  step(): boolean;
  /** Builds what is left; the section's pieces (compressed blocks may still be promises). */
  finish(): (string | Promise<string>)[];
}

/**
 * The explorer section: filters, the table (its first rows server-rendered),
 * paging, the detail panel, and the JSON blocks, in pieces: each evidence
 * shard's JSON is built, handed to `compress` and dropped before the next
 * (so the evidence of every item is never held at once), and a compressed
 * block may still be on its way (a promise). The shards are built when the
 * caller asks (`step`), so it can hand them to another thread as fast as that
 * thread compresses them, between its own work.
 */
export function explorerSectionLazy(report: ReportJson, items: readonly ItemRecord[], chunkOf: ChunkLookup = () => undefined, compress: Compress = gzipBase64): LazySection {
  const b = new ExplorerBuilder(items, chunkOf);
  // the chunk table first and whole (the largest block): compressing while the shards are built
  for (const it of items) b.indexChunks(it);
  const chunksBlock = gzipBlockPieces("rj-chunks", JSON.stringify(b.chunks), compress);
  const shardBlocks: (string | Promise<string>)[] = [];
  let at = 0;
  const step = (): boolean => {
    if (at >= items.length) return false;
    const evidence: unknown[] = [];
    for (let j = at; j < Math.min(items.length, at + SHARD); j++) evidence.push(b.add(items[j]!));
    shardBlocks.push(...gzipBlockPieces(`rj-ev-${at / SHARD}`, JSON.stringify(evidence), compress));
    at += SHARD;
    return true;
  };
  return { step, finish: () => {
    while (step());
    return sectionPieces(report, items, b, chunksBlock, shardBlocks);
  } };
}

/** The explorer section in pieces, every shard built at once. */
export function explorerSectionPieces(report: ReportJson, items: readonly ItemRecord[], chunkOf?: ChunkLookup, compress?: Compress): (string | Promise<string>)[] {
  return explorerSectionLazy(report, items, chunkOf, compress).finish();
}

function sectionPieces(report: ReportJson, items: readonly ItemRecord[], b: ExplorerBuilder, chunksBlock: (string | Promise<string>)[], shardBlocks: (string | Promise<string>)[]): (string | Promise<string>)[] {
  const rows = b.rowsJson();
  const rubrics = rows.rubrics;
  const first = defaultOrder(items).slice(0, STATIC_ROWS);
  const failing = items.filter((i) => i.outcome === "retrieval-failure" || i.outcome === "generation-failure" || i.outcome === "invented-answer").length;
  const body = filters(rows.variants, rubrics, items)
    + `<p id="rj-status" class="muted" role="status">${esc(`${items.length} items (${failing} failed); the first ${first.length}, worst outcome first.`)}</p>`
    + `<noscript><p class="note">With script disabled the explorer shows its first ${first.length} rows only: every item, with its evidence, is in items.csv and items.jsonl beside this file.</p></noscript>`
    + `<div class="xwrap"><table id="rj-table" class="explorer"><thead>${headRow(rubrics)}</thead><tbody>${first.map((it) => staticRow(it, rubrics)).join("")}</tbody></table></div>`
    + `<nav id="rj-pages" class="pages" hidden><button type="button" id="rj-prev">← previous</button> <span id="rj-page"></span> <button type="button" id="rj-next">next →</button>`
    + ` <span class="muted">keys: <kbd>/</kbd> search, <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>Enter</kbd> open, <kbd>Esc</kbd> close</span></nav>`
    + `<div id="rj-detail" class="detail" hidden tabindex="-1"></div>`
    + jsonBlock("rj-rows", { ...rows, shard: SHARD, judges: b.judges, review: b.template });
  const [open, close] = sectionShell(
    "explorer",
    "Items: why each one failed",
    `Every question of every variant (${report.variants.map((v) => v.name).join(", ")}): filter, sort, open a row for its question, answer, context with the anchor marked, retrieved chunks by stage, the judge's reasons and the labels. The filters live in the address, so a link reopens the same view.`,
  );
  return [open + body, ...chunksBlock, ...shardBlocks, close];
}

/** The explorer section as one string, compressed on this thread. */
export function explorerSection(report: ReportJson, items: readonly ItemRecord[], chunkOf?: ChunkLookup): string {
  return (explorerSectionPieces(report, items, chunkOf) as string[]).join("");
}
