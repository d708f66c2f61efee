import { csvLine } from "../../golden/csv.js";
import { neutraliseCsvCell } from "../../golden/escape.js";
import type { ItemRecord, ItemRubricJson } from "./schema.js";

/**
 * `items.csv`: items.jsonl flattened for a spreadsheet, one row per question
 * of each variant, a verdict and a reason column per rubric. Every text cell
 * is neutralised against formula injection (a question or a judge's reason
 * starting with `=` stays text), and the file starts with a byte-order mark
 * so spreadsheets read its UTF-8 (Devanagari, accents) as such.
 */

/** A rubric's reason cell: the one unit's reason, or each unit's as `unit: reason`, joined by " | ". */
function reasonCell(r: ItemRubricJson): string {
  if (r.units.length === 1) return r.units[0]!.reason;
  return r.units.map((u) => `${u.unit}: ${u.reason}`).join(" | ");
}

/** The fixed columns before the per-rubric ones, and after them. */
const HEAD = [
  "variant", "question", "text", "kind", "tags", "split", "answerable", "outcome", "because", "relevant_in_context",
  "first_relevant_rank", "failure", "fix", "proposal", "miss_evidence", "miss_why",
] as const;
const TAIL = ["reference", "answer", "context", "retrieved", "anchor", "labels", "review"] as const;

/** The header row for a set of rubrics. */
export function itemsCsvColumns(rubrics: readonly string[]): string[] {
  return [...HEAD, ...rubrics.flatMap((r) => [r, `${r} reason`]), ...TAIL];
}

function csvRow(it: ItemRecord, rubrics: readonly string[]): string[] {
  const byRubric = new Map(it.rubrics.map((r) => [r.rubric, r]));
  const cells: (string | number | boolean | null)[] = [
    it.variant, it.question, it.text, it.kind, it.tags.join("; "), it.split, it.answerable, it.outcome, it.because,
    it.relevantInContext, it.firstRelevantRank, it.miss?.failure ?? null, it.miss?.fix ?? null, it.miss?.proposal ?? null,
    it.miss?.evidence ?? null, it.miss?.why ?? null,
    ...rubrics.flatMap((name) => {
      const r = byRubric.get(name);
      return r && r.verdict !== null ? [r.verdict, reasonCell(r)] : ["", ""];
    }),
    it.reference, it.answer, it.context.map((c) => c.id).join(" "), it.retrieved.map((c) => c.id).join(" "),
    it.anchor ? `${it.anchor.doc}: ${it.anchor.text}` : null,
    it.rubrics.flatMap((r) => r.labels.map((l) => `${r.rubric}/${l.unit} ${l.annotator} (${l.provenance}): ${l.label}`)).join("; "),
    it.review,
  ];
  return cells.map((c) => (c === null ? "" : typeof c === "string" ? neutraliseCsvCell(c) : String(c)));
}

/**
 * items.csv in pieces, for a file sink (src/report/text-sink.ts): the
 * byte-order mark, the header row, then one piece per row (each written and
 * dropped before the next is built).
 */
export function* itemsCsvPieces(items: readonly ItemRecord[], rubrics: readonly string[]): Generator<string> {
  yield "\uFEFF";
  yield csvLine(itemsCsvColumns(rubrics).map(neutraliseCsvCell));
  for (const it of items) yield csvLine(csvRow(it, rubrics));
}

/**
 * Renders items.csv. `rubrics` fixes the per-rubric columns (every record
 * carries every rubric of the run, judged or not).
 *
 * @example
 * writeFileSync("items.csv", itemsToCsv(items, ["correctness", "faithfulness"]));
 */
export function itemsToCsv(items: readonly ItemRecord[], rubrics: readonly string[]): string {
  return [...itemsCsvPieces(items, rubrics)].join("");
}
