import { z } from "zod";
import { Id, Meta, Sha256, Time, YesNo } from "./common.js";

/**
 * The key every judged thing is joined on: (variant, question, rubric, unit).
 * `unit` is `"answer"` for whole-answer rubrics, `"s<n>:<chunk id>"` for
 * one (sentence n, counted from 1, cited chunk) pair of citation accuracy,
 * or `"c<n>"` for claim n of an answer (faithfulness by claim).
 */
export const ItemKey = z.strictObject({
  variant: Id,
  question: Id,
  rubric: Id,
  unit: z.string().min(1),
});
export type ItemKey = z.infer<typeof ItemKey>;

/** One source passage as shown to the judge and to the labeller. */
export const EvidenceChunk = z.strictObject({
  id: Id,
  text: z.string(),
  heading: z.string().optional(),
});
export type EvidenceChunk = z.infer<typeof EvidenceChunk>;

/**
 * The exact evidence a rubric judges for one item. Its canonical JSON's
 * SHA-256 is the item's input hash: a label made on one answer text can never
 * be paired with a verdict on another. Each rubric fills only the fields it
 * gives the judge.
 */
export const Evidence = z.strictObject({
  question: z.string(),
  answer: z.string().optional(),
  reference: z.string().optional(),
  /** The chunks given to the generator, in context order. */
  context: z.array(EvidenceChunk).optional(),
  /** Citation accuracy: the sentence and the one chunk it cites. */
  sentence: z.string().optional(),
  cited: EvidenceChunk.optional(),
  /** Anchor ambiguity: the top-k chunks that do not contain the anchor. */
  candidates: z.array(EvidenceChunk).optional(),
  /** Not found: whether the golden set says the documents hold an answer. */
  answerable: z.boolean().optional(),
});
export type Evidence = z.infer<typeof Evidence>;

export const Verdict = z.enum(["yes", "no", "error"]);
export type Verdict = z.infer<typeof Verdict>;

/**
 * One verdict (one line of `judgments.jsonl`). `verdict: "error"` carries its
 * cause in `error` and is never counted as yes or no. `judge: "rule"` marks a
 * verdict decided without a model call (a citation to a chunk outside the
 * context or unknown, an uncited answer); rule verdicts are reported apart and
 * never enter calibration.
 */
export const Judgment = ItemKey.extend({
  inputHash: Sha256,
  fingerprint: z.string().min(1),
  judge: z.enum(["llm", "baseline", "rule"]),
  /** The panel judge's name (config `judges[].name`) on a panel's verdicts; absent for the single configured judge. */
  judgeName: z.string().min(1).optional(),
  model: z.string().optional(),
  servedModel: z.string().optional(),
  repeat: z.number().int().min(0).default(0),
  verdict: Verdict,
  reason: z.string(),
  /**
   * The judge's probability that the verdict is "yes" (0..1), when it has one:
   * the baseline's learned support model (faithfulness, citation accuracy);
   * an LLM judge's token log-probabilities. A confidence, not a second verdict.
   */
  pYes: z.number().min(0).max(1).optional(),
  /** Why the verdict is "error" (parse, http-429, http-500, timeout, ...), or the rule that decided it. */
  error: z.string().optional(),
  rule: z.string().optional(),
  usage: z.strictObject({ prompt: z.number().int().min(0), completion: z.number().int().min(0) }).optional(),
  cached: z.boolean().default(false),
  /** A claim's verdict (unit `c<n>`, config `faithfulnessUnit: "claim"`): the claim's text. */
  claim: z.string().optional(),
  /**
   * `claims`: an answer verdict derived from its claims' verdicts (yes iff
   * every claim is supported), not judged itself: reported like an answer
   * verdict, never sampled or calibrated (its claims are).
   */
  derived: z.literal("claims").optional(),
  time: Time,
  meta: Meta,
});
export type Judgment = z.infer<typeof Judgment>;

export const Provenance = z.enum(["human", "author", "import"]);

/** A sampling manifest's id (`labels/draws/<id>.json`): 16 lower-case hex digits. */
export const DrawId = z.string().regex(/^[0-9a-f]{16}$/, "must be a draw id (16 lower-case hex digits, as in labels/draws/<id>.json)");
/**
 * `panel-split`: items where the judges of a panel split (`sample --panel-splits`); `active`: the items the judge
 * was least sure of first (`ragjudge plan --active`). Like every non-random frame, never counted by the gate.
 */
export const Frame = z.enum(["random", "disagreement", "balanced", "manual", "panel-split", "active"]);
export type Frame = z.infer<typeof Frame>;

/**
 * One label by a person (one line of a labels JSONL in `labels/`). Append
 * only: a later label by the same annotator for the same item supersedes the
 * earlier one, and the history stays in the file.
 *
 * - `provenance`: `human`; `author` for labels the project's authors wrote for
 *   the example (not evidence about any judge); `import` with its `source`.
 * - `frame`: the sampling frame that put the item in front of the labeller,
 *   with its `inclusionProbability` when known and its `stratum` when the
 *   frame was stratified. The frame alone never makes a label count for the
 *   gate: "random" means drawn by a recorded draw (`draw`, checked against
 *   labels/draws/) or attested (`attestation`).
 * - `adjudication`: an explicit tie-breaking label among several annotators.
 *
 * @example
 * {"variant":"bm25","question":"q07","rubric":"faithfulness","unit":"answer","inputHash":"3f...","label":"no",
 *  "annotator":"asha","provenance":"human","frame":"random","inclusionProbability":0.1,"time":"2026-11-30T10:00:00Z"}
 */
export const Label = ItemKey.extend({
  inputHash: Sha256,
  label: YesNo,
  annotator: Id,
  provenance: Provenance,
  source: z.string().min(1).optional(),
  frame: Frame,
  inclusionProbability: z.number().gt(0).lte(1).optional(),
  /**
   * The stratum of a stratified frame (copied from the queue entry). Random
   * labels are weighted by inverse inclusion probability only when they carry
   * a stratum: successive uniform rounds with different sizes still form one
   * uniform sample, and weighting them would distort every figure.
   */
  stratum: z.string().min(1).optional(),
  split: z.string().min(1).optional(),
  /**
   * The sampling manifest whose queue put the item in front of the labeller
   * (written by the review page and `review --tty`). The gate does not take
   * it on trust: it checks that the item is among that draw's drawn items.
   */
  draw: DrawId.optional(),
  /**
   * For random labels drawn outside ragjudge: who drew them and how, in the
   * importer's words (`labels import --frame random --attest "..."`). Such
   * labels count as random where the config sets `trust.attested: true`, and
   * every report then says "declared random, not drawn by ragjudge".
   */
  attestation: z.string().min(1).optional(),
  adjudication: z.boolean().optional(),
  /**
   * SHA-256 of the rubric's wording the person answered: its question and case
   * texts as the review page showed them (judge/rubric/wording.ts). The file's
   * other fields name the item and the evidence, not the question asked about
   * it: a rubric's question edited to mean something else would otherwise
   * keep its old labels, and calibration would pair them with a judge asked
   * the new question. The gate counts a label only for the wording it
   * records; a label without one (written before ragjudge recorded it, or by
   * hand) counts for whatever the rubric asks today.
   */
  wordingHash: Sha256.optional(),
  note: z.string().optional(),
  time: Time,
}).superRefine((l, ctx) => {
  if (l.provenance === "import" && !l.source) {
    ctx.addIssue({ code: "custom", path: ["source"], message: "an imported label (provenance: import) must name its source" });
  }
  if (l.attestation !== undefined && l.frame !== "random") {
    ctx.addIssue({ code: "custom", path: ["attestation"], message: `only a random-frame label can be attested as randomly drawn (frame is ${l.frame})` });
  }
});
export type Label = z.infer<typeof Label>;

/**
 * One entry of a review queue (`ragjudge sample` writes, `ragjudge review`
 * reads). It carries the exact evidence judged, so the page shows precisely
 * what the input hash covers, and its sampling frame and inclusion probability,
 * which calibration relies on.
 */
export const QueueEntry = ItemKey.extend({
  inputHash: Sha256,
  frame: Frame,
  inclusionProbability: z.number().gt(0).lte(1).optional(),
  /** Stratum of a stratified frame (for example the judge's verdict for `balanced`). */
  stratum: z.string().optional(),
  /** The sampling manifest of a random entry (labels/draws/<id>.json); copied onto its label. */
  draw: DrawId.optional(),
  split: z.string().optional(),
  kind: z.string().optional(),
  tags: z.array(z.string()).default([]),
  evidence: Evidence,
  /** For display only: the context ids the answer cites and the anchor to mark. */
  citedIds: z.array(z.string()).default([]),
  anchor: z.strictObject({ doc: z.string(), text: z.string() }).optional(),
});
export type QueueEntry = z.infer<typeof QueueEntry>;
