import { countedLabels, type LabelBook } from "../../calibration/labels.js";
import { evidenceKey } from "../../calibration/keys.js";
import { readCitations } from "../../golden/citations.js";
import { contextOf, relevantSets, type GoldenSet, type VariantData } from "../../golden/dataset.js";
import type { Judgment } from "../../golden/schema/items.js";
import { declaredLists } from "../../golden/stages.js";
import { markAnchor } from "../../review/highlight.js";
import type { VariantDiagnostics } from "../../retrieval/diagnostics/diagnose.js";
import type { ReportJson } from "../schema.js";
import { isClaimUnit } from "../../judge/items/claims.js";
import { ITEMS_SCHEMA, type ContextChunkJson, type ItemRecord, type ItemRubricJson, type RetrievedChunkJson } from "./schema.js";

/** What {@link buildItems} reads: the assembled report and the run's inputs and findings. */
export interface ItemsInput {
  report: ReportJson;
  golden: GoldenSet;
  variants: readonly VariantData[];
  judgments: readonly Judgment[];
  diagnostics: readonly VariantDiagnostics[];
  book: LabelBook;
  /** What an item's review command names: the config, the run's judgments (as the user would type them), and who labels (the same name as the run's Next lines). */
  review: { config: string; judgments: string; annotator: string };
}

/**
 * A word for a POSIX shell: bare when it holds only safe characters, else
 * single-quoted (an inner `'` as `'\''`), so a command copied from a report
 * runs as shown whatever the ids hold.
 *
 * @example
 * shellWord("hybrid-rerank/fact-01") // "hybrid-rerank/fact-01"
 * shellWord("it's")                  // "'it'\\''s'"
 */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,#-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

/** The command that reviews one item (variant, question): `ragjudge review --item ...`. */
export function reviewCommand(variant: string, question: string, review: ItemsInput["review"]): string {
  return `ragjudge review --item ${shellWord(`${variant}/${question}`)} --annotator ${shellWord(review.annotator)} --judgments ${shellWord(review.judgments)} --config ${shellWord(review.config)}`;
}

/** [start, end) of each anchor occurrence in `text`, by the project's one matching rule (src/review/highlight.ts). */
export function anchorSpans(text: string, anchor: string): [number, number][] {
  const out: [number, number][] = [];
  let at = 0;
  for (const s of markAnchor(text, anchor)) {
    if (s.mark === "anchor") out.push([at, at + s.text.length]);
    at += s.text.length;
  }
  return out;
}

/** The item's verdict over its units: every unit yes is yes, any no is no, anything else is error; no unit: null. */
function itemVerdict(units: readonly { verdict: "yes" | "no" | "error" }[]): "yes" | "no" | "error" | null {
  if (units.length === 0) return null;
  if (units.some((u) => u.verdict === "no")) return "no";
  return units.every((u) => u.verdict === "yes") ? "yes" : "error";
}

/** Repeat-0 judgments by variant and question (the verdicts every figure of the report counts). */
function judgmentsByItem(judgments: readonly Judgment[]): Map<string, Judgment[]> {
  const out = new Map<string, Judgment[]>();
  for (const j of judgments) {
    if (j.repeat !== 0) continue;
    const key = `${j.variant}\u0000${j.question}`;
    let list = out.get(key);
    if (!list) out.set(key, (list = []));
    list.push(j);
  }
  return out;
}

/** c2 before c10 (claims in answer order); 0 for any other pair. */
function claimOrder(a: string, b: string): number {
  return isClaimUnit(a) && isClaimUnit(b) ? Number(a.slice(1)) - Number(b.slice(1)) : 0;
}

function rubricsOf(names: readonly string[], js: readonly Judgment[], book: LabelBook): ItemRubricJson[] {
  return names.map((rubric) => {
    const units = js.filter((j) => j.rubric === rubric).sort((a, b) => claimOrder(a.unit, b.unit) || (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0));
    const labels = units.flatMap((j) => {
      const item = book.items.get(evidenceKey(j, j.inputHash));
      return item ? countedLabels(item).map((l) => ({
        unit: j.unit, label: l.value.label, annotator: l.value.annotator, provenance: l.value.provenance,
        frame: l.value.frame, time: l.value.time, note: l.value.note ?? null,
      })) : [];
    });
    return {
      rubric,
      verdict: itemVerdict(units),
      units: units.map((j) => ({
        unit: j.unit, verdict: j.verdict, reason: j.reason, judge: j.judge, fingerprint: j.fingerprint,
        model: j.model ?? null, error: j.error ?? null, rule: j.rule ?? null, inputHash: j.inputHash,
        ...(j.claim === undefined ? {} : { claim: j.claim }),
      })),
      labels,
    };
  });
}

/**
 * One {@link ItemRecord} per question of each variant, variants in config
 * order and questions in golden-set order: everything the explorer, items.csv
 * and the worst-items lists of report.md show. Reads only what the run
 * already computed (outcomes, ranks, misses, verdicts, labels) and the
 * variants' chunks and outputs, so every figure agrees with report.json.
 *
 * @example
 * // public as buildItemRecords
 * const items = buildItemRecords({ report, golden, variants, judgments, diagnostics, book, review: { config: "ragjudge.config.json", judgments: "evaluations/x/judgments.jsonl", annotator: "asha" } });
 * items.length     // 120 on the shipped example: its 60 questions for each of its 2 variants
 * items[0].outcome // "retrieval-failure" (bm25-small, fact-01)
 */
export function buildItems(input: ItemsInput): ItemRecord[] {
  const { report, golden, book } = input;
  const rubricNames = [...new Set(report.rubrics.map((r) => r.rubric))];
  const byItem = judgmentsByItem(input.judgments);
  const k = report.config.mainK;
  const out: ItemRecord[] = [];
  input.variants.forEach((variant, vi) => {
    const v = report.variants[vi]!;
    const outcomes = new Map(v.searchOrAnswer.questions.map((q) => [q.id, q]));
    const firstRanks = new Map(v.retrieval.perQuery.map((q) => [q.id, q.firstRelevantRank]));
    const misses = new Map(input.diagnostics[vi]!.misses.map((m) => [m.question, m]));
    const relevant = relevantSets(golden, variant.chunks);
    const stages = declaredLists(variant.stages).map((l) => l.name);
    for (const q of golden.questions) {
      const o = outcomes.get(q.id)!;
      const line = variant.outputs.get(q.id);
      const rel = relevant.get(q.id) ?? new Set<string>();
      const context = line ? contextOf(line, variant.contextK) : [];
      const citations = line && (line.answer !== undefined || line.citations) ? readCitations(line, context, (id) => variant.chunks.byId.has(id)) : [];
      const cited = new Set(citations.flatMap((c) => c.chunks));
      const contextChunks: ContextChunkJson[] = context.map((id, i) => {
        const c = variant.chunks.byId.get(id);
        const isRelevant = rel.has(id);
        return {
          position: i + 1, id, doc: c?.doc ?? null, heading: c?.heading ?? null, text: c?.text ?? null, relevant: isRelevant,
          anchorAt: c && isRelevant && q.anchor ? anchorSpans(c.text, q.anchor.text) : [], cited: cited.has(id),
        };
      });
      const stageRanks = stages.map((name) => new Map((line?.stages?.[name] ?? []).map((id, i) => [id, i + 1])));
      const inContext = new Set(context);
      const retrieved: RetrievedChunkJson[] = (line?.retrieved ?? []).slice(0, k).map((id, i) => ({
        rank: i + 1, id, relevant: rel.has(id), inContext: inContext.has(id),
        stages: Object.fromEntries(stages.map((name, si) => [name, stageRanks[si]!.get(id) ?? null])),
      }));
      const m = misses.get(q.id);
      const js = byItem.get(`${variant.name}\u0000${q.id}`) ?? [];
      out.push({
        schema: ITEMS_SCHEMA,
        variant: variant.name,
        question: q.id,
        text: q.question,
        kind: o.kind,
        tags: [...q.tags],
        split: q.split ?? null,
        answerable: q.answerable,
        outcome: o.outcome,
        because: o.because,
        relevantInContext: o.relevantInContext,
        firstRelevantRank: firstRanks.get(q.id) ?? null,
        miss: m ? { failure: m.failure, fix: m.fix, proposal: m.proposal, why: m.why, evidence: m.evidence } : null,
        reference: q.reference ?? null,
        answer: line?.answer ?? null,
        citations: citations.map((c) => ({ sentence: c.sentenceIndex, text: c.text, chunks: [...c.chunks], unresolved: [...c.unresolved] })),
        anchor: q.anchor ? { doc: q.anchor.doc, text: q.anchor.text } : null,
        relevant: [...rel],
        context: contextChunks,
        retrieved,
        stages,
        rubrics: rubricsOf(rubricNames, js, book),
        // `review --item` queues judge verdicts only: an item decided wholly by rule gets no command, not one that fails.
        review: js.some((j) => j.judge !== "rule") ? reviewCommand(variant.name, q.id, input.review) : null,
      });
    }
  });
  return out;
}
