import { readCitations, rewriteMarkers, type ResolvedCitation } from "../../golden/citations.js";
import { contextOf, type GoldenSet, type VariantData } from "../../golden/dataset.js";
import { InputError, InputErrors } from "../../golden/errors.js";
import { hashJson } from "../../golden/hash.js";
import { relevantSet } from "../../golden/relevance.js";
import type { GoldenQuestion } from "../../golden/schema/golden.js";
import type { Evidence, EvidenceChunk, ItemKey } from "../../golden/schema/items.js";
import type { PipelineOutput } from "../../golden/schema/pipeline.js";
import { isRetrievalMiss, missCandidates } from "../../retrieval/diagnostics/misses.js";
import type { Rubric } from "../rubric/rubric.js";

/** The miss cut-off when none is given: `missK` of the default `k` (1, 5, 10). */
const DEFAULT_MISS_K = 10;

/** Fingerprint of verdicts decided by rule, without a call. Bump when a rule changes. */
export const RULE_FINGERPRINT = "rule:1";

/** The rules that decide an item without a judge call. */
export type RuleName = "outside-context" | "unknown-chunk" | "uncited" | "no-answer" | "no-candidates" | "no-claims";

/** A verdict decided by rule: reported apart, never calibrated. */
export interface RuleDecision {
  verdict: "yes" | "no";
  rule: RuleName;
  reason: string;
}

/**
 * One judged thing: its key, the exact evidence and that evidence's hash.
 * With `rule`, it is decided without a judge call.
 */
export interface Item {
  key: ItemKey;
  rubric: Rubric;
  evidence: Evidence;
  inputHash: string;
  rule?: RuleDecision;
  /** A claim item (unit `c<n>`, see claims.ts): its text and the answer it was taken from. */
  claim?: ClaimOf;
}

/** What a claim item remembers of its answer, so the answer's verdict can be derived. */
export interface ClaimOf {
  /** 1-based claim number (the unit is `c<n>`). */
  n: number;
  text: string;
  /** The input hash the answer-level item has (the derived verdict's). */
  answerHash: string;
  /** How many claims the answer has. */
  of: number;
}

/** An item the rubric applies to but that cannot be judged (no reference answer). */
export interface SkippedItem {
  key: ItemKey;
  reason: string;
}

/** Every item of a dataset, in a stable order (variant, question, rubric, unit). */
export interface ItemSet {
  items: Item[];
  skipped: SkippedItem[];
}

/** Options of {@link buildItems}. */
export interface BuildOptions {
  golden: GoldenSet;
  variants: readonly VariantData[];
  rubrics: readonly Rubric[];
  /** `config.requireCitations`: an answer without citations fails citation accuracy. */
  requireCitations: boolean;
  /**
   * The miss analysis's cut-off, `missK(config.k)` (src/retrieval/diagnostics):
   * anchor-ambiguity items are exactly its misses, with the top-`missK`
   * chunks without the anchor as candidates. Default 10 (the default `k`).
   */
  missK?: number;
}

/** The marker a sentence citing several sources shows for the source being judged, and for each other one. */
export const THIS_SOURCE = "this-source";
export const OTHER_SOURCE = "other-source";

function pick(rubric: Rubric, full: Evidence): Evidence {
  const e: Evidence = { question: full.question };
  for (const f of rubric.evidence) {
    if (f !== "question" && full[f] !== undefined) (e as Record<string, unknown>)[f] = full[f];
  }
  return e;
}

function item(key: ItemKey, rubric: Rubric, evidence: Evidence, rule?: RuleDecision): Item {
  return rule ? { key, rubric, evidence, inputHash: hashJson(evidence), rule } : { key, rubric, evidence, inputHash: hashJson(evidence) };
}

function hasAnswer(out: PipelineOutput | undefined): boolean {
  return out?.answer !== undefined && out.answer.trim() !== "";
}

/** Whether a rubric applies to a question of a variant (before any rule). */
function applies(rubric: Rubric, q: GoldenQuestion, out: PipelineOutput | undefined): boolean {
  switch (rubric.appliesTo) {
    case "all": return true;
    case "answerable": return q.answerable;
    case "answered": return q.answerable && hasAnswer(out);
    case "retrieval-misses": return q.answerable;
  }
}

class VariantItems {
  readonly problems: InputError[] = [];
  constructor(
    private readonly v: VariantData,
    private readonly requireCitations: boolean,
    private readonly missK: number,
    private readonly out: Item[],
    private readonly skipped: SkippedItem[],
  ) {}

  private chunk(id: string): EvidenceChunk | undefined {
    const c = this.v.chunks.byId.get(id);
    if (!c) return undefined;
    return c.heading === undefined ? { id: c.id, text: c.text } : { id: c.id, text: c.text, heading: c.heading };
  }

  /** The context chunks of an output line; an id the chunks file lacks is an input error. */
  private context(q: GoldenQuestion, line: PipelineOutput): { ids: string[]; chunks: EvidenceChunk[] } {
    const ids = contextOf(line, this.v.contextK);
    const chunks: EvidenceChunk[] = [];
    for (const id of ids) {
      const c = this.chunk(id);
      if (c) chunks.push(c);
      else {
        const field = line.context ? "context" : "retrieved";
        this.problems.push(new InputError(this.v.outputFile, this.v.lineOf.get(q.id), field, `chunk ${JSON.stringify(id)} given to the generator is not in ${this.v.chunksFile}`));
      }
    }
    return { ids, chunks };
  }

  add(q: GoldenQuestion, rubric: Rubric): void {
    const line = this.v.outputs.get(q.id);
    if (!applies(rubric, q, line)) return;
    const key = (unit: string): ItemKey => ({ variant: this.v.name, question: q.id, rubric: rubric.name, unit });
    const whole = rubric.unit === "question" ? "question" : "answer";
    let relevant: Set<string> | undefined;
    if (rubric.appliesTo === "retrieval-misses") {
      // The miss analysis's own definition, so its misses and these items are the same questions.
      relevant = relevantSet(q, this.v.chunks);
      if (!isRetrievalMiss(relevant, line?.retrieved ?? [], this.missK)) return;
    }
    const ctx = line ? this.context(q, line) : { ids: [], chunks: [] };
    if (rubric.evidence.includes("reference") && (q.reference === undefined || q.reference.trim() === "")) {
      this.skipped.push({ key: key(whole), reason: "no reference answer in the golden set" });
      return;
    }
    const full: Evidence = {
      question: q.question,
      answer: line?.answer,
      reference: q.reference,
      context: ctx.chunks,
      answerable: q.answerable,
    };
    if (rubric.unit === "question") return this.addMiss(q, rubric, key, full, line, relevant ?? relevantSet(q, this.v.chunks));
    if (!hasAnswer(line)) {
      const why = line ? "the pipeline output has an empty answer" : "the pipeline output has no line for this question";
      this.out.push(item(key("answer"), rubric, pick(rubric, full), { verdict: "no", rule: "no-answer", reason: why }));
      return;
    }
    if (rubric.unit === "citation") return this.addCitations(q, rubric, key, line!, ctx.ids);
    this.out.push(item(key("answer"), rubric, pick(rubric, full)));
  }

  /**
   * Anchor ambiguity for a retrieval miss: the candidates are the top-`missK`
   * chunks of `retrieved` without the anchor (`missCandidates`), in rank order.
   */
  private addMiss(q: GoldenQuestion, rubric: Rubric, key: (u: string) => ItemKey, full: Evidence, line: PipelineOutput | undefined, relevant: ReadonlySet<string>): void {
    const candidates: EvidenceChunk[] = [];
    for (const id of missCandidates(line?.retrieved ?? [], relevant, this.missK)) {
      const c = this.chunk(id);
      if (c) candidates.push(c);
      else this.problems.push(new InputError(this.v.outputFile, this.v.lineOf.get(q.id), "retrieved", `chunk ${JSON.stringify(id)} is not in ${this.v.chunksFile}`));
    }
    const e = pick(rubric, { ...full, candidates });
    const why = !line ? "the pipeline output has no line for this question" : `nothing without the anchor was retrieved into the top ${this.missK}`;
    const rule: RuleDecision | undefined = candidates.length === 0 ? { verdict: "no", rule: "no-candidates", reason: why } : undefined;
    this.out.push(item(key("question"), rubric, e, rule));
  }

  /** Citation accuracy: one item per (sentence, cited chunk) pair; rule verdicts for bad citations. */
  private addCitations(q: GoldenQuestion, rubric: Rubric, key: (u: string) => ItemKey, line: PipelineOutput, context: string[]): void {
    const cites = readCitations(line, context, (id) => this.v.chunks.byId.has(id));
    const inContext = new Set(context);
    const base: Evidence = { question: q.question };
    if (cites.every((c) => c.chunks.length === 0 && c.unresolved.length === 0)) {
      // A rule judges the answer itself, so that is the evidence hashed.
      const e: Evidence = { ...base, answer: line.answer };
      const rule: RuleDecision = this.requireCitations
        ? { verdict: "no", rule: "uncited", reason: "the answer cites no source and the config requires citations" }
        : { verdict: "yes", rule: "uncited", reason: "the answer cites no source; citations are not required (requireCitations: false)" };
      this.out.push(item(key("answer"), rubric, e, rule));
      return;
    }
    const place = { explicit: line.citations !== undefined, context, knownChunk: (x: string) => this.v.chunks.byId.has(x) };
    for (const c of cites) {
      const sentence = { ...base, sentence: c.sentence };
      const several = new Set([...c.chunks, ...c.unresolved]).size > 1;
      for (const id of new Set(c.chunks)) {
        const cited = this.chunk(id)!;
        const shown = several ? { ...base, sentence: markSources(c, id, place) } : sentence;
        const e = pick(rubric, { ...shown, cited });
        if (inContext.has(id)) this.out.push(item(key(`s${c.sentenceIndex}:${id}`), rubric, e));
        else this.out.push(item(key(`s${c.sentenceIndex}:${id}`), rubric, e, { verdict: "no", rule: "outside-context", reason: `cites chunk ${JSON.stringify(id)}, which was not among the ${context.length} context chunks given to the generator` }));
      }
      for (const raw of new Set(c.unresolved)) {
        const why = /^\d+$/.test(raw) ? `cites [${raw}], but the context has ${context.length} chunk${context.length === 1 ? "" : "s"}` : `cites ${JSON.stringify(raw)}, which is no chunk of ${this.v.chunksFile}`;
        this.out.push(item(key(`s${c.sentenceIndex}:${raw}`), rubric, sentence, { verdict: "no", rule: "unknown-chunk", reason: why }));
      }
    }
  }
}

/**
 * The sentence of a (sentence, cited chunk) pair when the sentence cites
 * several sources: its markers kept in place, each reference shown as
 * `this-source` (the chunk being judged) or `other-source`, so the judge can
 * tell which part of the sentence this citation answers for. A sentence
 * given with explicit `citations` has no marker positions: the marker goes
 * at its end. Stripping the markers gives back the plain sentence, so a
 * sentence citing one source keeps its evidence (and input hash) as before.
 *
 * @example
 * // "Leave lapses [1] unless approved [2]." judging context[0]:
 * // "Leave lapses [this-source] unless approved [other-source]."
 */
export function markSources(c: ResolvedCitation, id: string, place: { explicit: boolean; context: readonly string[]; knownChunk: (id: string) => boolean }): string {
  const render = (refs: readonly { id?: string }[]) => `[${refs.map((r) => (r.id === id ? THIS_SOURCE : OTHER_SOURCE)).join(", ")}]`;
  if (place.explicit) return `${c.sentence} ${render([...c.chunks.map((x) => ({ id: x })), ...c.unresolved.map(() => ({}))])}`;
  return rewriteMarkers(c.text, place.context, place.knownChunk, render);
}

/**
 * Builds every item of a dataset: for each variant, golden question and
 * rubric the rubric applies to, the item key, the exact evidence the rubric
 * declares, and its input hash (`hashJson(evidence)`). Decided by rule
 * without a call: a citation to a chunk outside the context or unknown, an
 * answer without citations ("uncited", failing when citations are required),
 * a missing or empty answer, a miss with nothing but the anchor's chunks
 * (or nothing) retrieved. Anchor-ambiguity items are exactly the miss
 * analysis's misses at `missK` (`isRetrievalMiss`, `missCandidates`). Items needing a
 * reference answer the golden question lacks are listed in `skipped`.
 * A context chunk missing from the chunks file is an input error.
 *
 * @example
 * const { items } = buildItems({ golden, variants: [loadVariant(v, golden, path)], rubrics, requireCitations: false });
 */
export function buildItems(opts: BuildOptions): ItemSet {
  const items: Item[] = [];
  const skipped: SkippedItem[] = [];
  const problems: InputError[] = [];
  for (const v of opts.variants) {
    const vi = new VariantItems(v, opts.requireCitations, opts.missK ?? DEFAULT_MISS_K, items, skipped);
    for (const q of opts.golden.questions) for (const r of opts.rubrics) vi.add(q, r);
    problems.push(...dedupe(vi.problems));
  }
  if (problems.length) throw new InputErrors(problems);
  return { items, skipped };
}

function dedupe(problems: InputError[]): InputError[] {
  const seen = new Set<string>();
  return problems.filter((p) => (seen.has(p.message) ? false : (seen.add(p.message), true)));
}
