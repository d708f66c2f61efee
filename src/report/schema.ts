import { UnsupportedClaimJson } from "./claims-schema.js";
import { z } from "zod";
import { PanelJson } from "./panel/schema.js";
import { ConfidenceJson } from "./schema-confidence.js";
import { OUTCOMES } from "./search-or-answer.js";

/**
 * `report.json`: everything an evaluation found, as one validated document.
 * Every human report (terminal, Markdown, HTML, JUnit) is rendered from this
 * object alone, and `ragjudge compare` reads it back from two evaluation
 * folders, so the renderers and the comparison can never disagree with the
 * numbers a machine reads. Bump {@link REPORT_SCHEMA} on an incompatible change.
 */

/** The schema tag of report.json. */
export const REPORT_SCHEMA = "ragjudge.report/1";

const Num = z.number().finite();
const NumOrNull = Num.nullable();
const Interval = z.object({ lo: Num, hi: Num }).nullable();
const Count = z.number().int().min(0);
const Values = z.record(z.string(), Num);
const FileHash = z.object({ path: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

/** The outcomes of the search-or-answering join (src/report/search-or-answer.ts). */
export const OutcomeName = z.enum(OUTCOMES);

/** Outcome counts of one group of questions. */
export const TabJson = z.object({ n: Count, counts: z.record(OutcomeName, Count) });
export type TabJson = z.infer<typeof TabJson>;

const KeyedTab = z.object({ key: z.string(), tab: TabJson });

/** One question's search-or-answering outcome for one variant. */
export const QuestionOutcomeJson = z.object({
  id: z.string(),
  kind: z.string(),
  tags: z.array(z.string()),
  answerable: z.boolean(),
  relevantInContext: z.boolean().nullable(),
  answerPassed: z.boolean().nullable(),
  outcome: OutcomeName,
  because: z.string(),
});
export type QuestionOutcomeJson = z.infer<typeof QuestionOutcomeJson>;

/** One variant's search-or-answering join: the cross-tab overall, by kind and by tag, the diagnosis and every question. */
export const SearchOrAnswerJson = z.object({
  /** The answer rubrics whose joint pass means "the answer is right" (those judged in this run). */
  answerRubrics: z.array(z.string()),
  overall: TabJson,
  byKind: z.array(KeyedTab),
  byTag: z.array(KeyedTab),
  diagnosis: z.string(),
  questions: z.array(QuestionOutcomeJson),
});
export type SearchOrAnswerJson = z.infer<typeof SearchOrAnswerJson>;

const GroupValues = z.object({ key: z.string(), n: Count, values: Values });

/** One variant's retrieval scores: means overall, by kind and by tag, and each question's values (what compare pairs on). */
export const RetrievalJson = z.object({
  /** Labels of every mean measure computed ("AP", "RR", "R@10", ...). */
  measures: z.array(z.string()),
  /** The measures the summaries show: Hit@K, R@K, RR, nDCG@K at the largest configured k. */
  main: z.array(z.string()),
  overall: z.object({ n: Count, values: Values }),
  byKind: z.array(GroupValues),
  byTag: z.array(GroupValues),
  /** Answerable questions in golden-set order, every measure at full precision. */
  perQuery: z.array(z.object({ id: z.string(), missing: z.boolean(), numRel: Count, firstRelevantRank: z.number().int().nullable(), values: Values })),
  unanswerable: Count,
  missing: z.array(z.string()),
  noRelevant: z.array(z.string()),
});
export type RetrievalJson = z.infer<typeof RetrievalJson>;

const PoolRow = z.object({ kind: z.string(), questions: Count, poolRecall: NumOrNull, finalRecall: Num, notInPool: Count.nullable(), inPoolNotInTopK: Count.nullable() });

/** Pool recall beside final recall: the ceiling any reranker can reach. */
export const PoolJson = z.object({
  available: z.boolean(),
  list: z.string().nullable(),
  reason: z.string().nullable(),
  depth: Count,
  k: Count,
  overall: PoolRow.nullable(),
  byKind: z.array(PoolRow),
});
export type PoolJson = z.infer<typeof PoolJson>;

const FailureCount = z.object({ failure: z.string(), count: Count, share: Num });

/** The failure-kind distribution of the misses (seed 000's taxonomy) and the recommendation. */
export const FailuresJson = z.object({
  k: Count,
  overall: z.object({ kind: z.string(), answerable: Count, misses: Count, counts: z.array(FailureCount) }),
  byKind: z.array(z.object({ kind: z.string(), answerable: Count, misses: Count, counts: z.array(FailureCount) })),
  undecidable: z.array(z.object({ failure: z.string(), reason: z.string() })),
  recommendation: z.string(),
  /** Whether anchor-ambiguity verdicts of the optional rubric fed the analysis. */
  ambiguityJudged: z.boolean(),
});
export type FailuresJson = z.infer<typeof FailuresJson>;

/** One retrieval miss: where its relevant chunk went, its failure kind, fix and reason. */
export const MissJson = z.object({
  question: z.string(),
  kind: z.string(),
  anchor: z.string().nullable(),
  /** Best relevant chunk's place per list (declared stages, then `retrieved`): "3", ">50", "—". */
  ranks: z.array(z.object({ name: z.string(), cell: z.string() })),
  failure: z.string(),
  fix: z.string().nullable(),
  /** What to do, always said (the fix, or what to correct or declare first); empty in reports written before it existed. */
  proposal: z.string().default(""),
  why: z.string(),
  /** What the chunks' text says: the question's words and where they are, a cut anchor (src/retrieval/diagnostics/text.ts). */
  evidence: z.string().default(""),
});
export type MissJson = z.infer<typeof MissJson>;

/** One retrieval floor checked on one variant. */
export const FloorJson = z.object({ variant: z.string(), measure: z.string(), min: Num, value: NumOrNull, passed: z.boolean() });
export type FloorJson = z.infer<typeof FloorJson>;

/** Everything about one variant. */
export const VariantJson = z.object({
  name: z.string(),
  contextK: Count,
  searchOrAnswer: SearchOrAnswerJson,
  retrieval: RetrievalJson,
  pool: PoolJson,
  failures: FailuresJson,
  misses: z.array(MissJson),
});
export type VariantJson = z.infer<typeof VariantJson>;

/** Gate items by the provenance of their labels (src/calibration/basis.ts). */
export const BasisJson = z.object({ human: Count, author: Count, import: Count, mixed: Count, sources: z.array(z.string()) });

/** One recorded draw as the gate saw it: its coverage of the judge's held-out items and whether its labels counted. */
export const DrawJson = z.object({
  id: z.string(),
  annotator: z.string(),
  covers: z.boolean(),
  why: z.string().nullable(),
  drawn: Count,
  labelled: Count,
  coverage: NumOrNull,
  counts: z.boolean(),
  /** Fisher's exact p of the skip test (unlabelled against labelled drawn items, by the judge's verdict), null when not computable. */
  skipP: NumOrNull,
  skipsLean: z.boolean(),
});
export type DrawJson = z.infer<typeof DrawJson>;

/** A rubric's trust state from this run's calibration, and what it rests on. */
export const TrustJson = z.object({
  trusted: z.boolean(),
  reason: z.string().nullable(),
  /** One line: "trusted: kappa 0.78, 95% CI [0.66, 0.90], n = 80" or why not. */
  message: z.string(),
  kappa: NumOrNull,
  ci: Interval,
  n: Count,
  thresholds: z.object({ minLabels: Count, minPerClass: Count, kappaLower: Num, minCoverage: Num.optional() }),
  /** What the calibration was based on, in words: "62 author labels (the project's own labels, not human evidence)", "no labels". */
  basis: z.string(),
  labels: BasisJson,
  /** The held-out split the gate used (labels with no split are dev). */
  heldout: z.string(),
  /** Files of author labels among the counted ones, which the gate refuses (absent in older reports and when there are none). */
  authorFiles: z.array(z.string()).optional(),
  /** Judged items of this judge in the held-out split (absent: splits unknown, or an older report). */
  heldoutItems: Count.optional(),
  /** Counted labels declared random by an attested import: "declared random, not drawn by ragjudge". */
  declared: Count,
  /** Today's labels pass the gate, but no current calibration record exists for this judge: `ragjudge calibrate` records it (absent otherwise). */
  labelsPass: z.literal(true).optional(),
  draws: z.array(DrawJson),
  notes: z.array(z.string()),
});
export type TrustJson = z.infer<typeof TrustJson>;

/** The gate's agreement figures of one rubric's judge against the labels (null in the report when there are none). */
export const CalibrationJson = z.object({
  n: Count,
  labelYes: Count,
  labelNo: Count,
  judgeErrors: Count,
  /** Drawn held-out items with no counting label, counted as disagreements in the confusion and kappa (absent in older reports). */
  skipped: Count.optional(),
  confusion: z.object({ tp: Num, fn: Num, fp: Num, tn: Num }),
  agreement: NumOrNull,
  tpr: NumOrNull,
  tnr: NumOrNull,
  kappa: NumOrNull,
  /** The gate's 95% interval: the union of the asymptotic one and Donner & Eliasziw's goodness-of-fit one. */
  kappaCi: Interval,
  /** The asymptotic (Fleiss, Cohen & Everitt) 95% interval alone: zero width when nothing disagrees. */
  asymptoticCi: Interval,
  bootstrapCi: Interval,
  /** ROC AUC, reliability diagram and dev-chosen threshold of the judge's P(yes) (null: no P(yes); absent in older reports). */
  confidence: ConfidenceJson.nullable().optional(),
  /** The record written into the evaluation folder (relative path). */
  record: z.string(),
});
export type CalibrationJson = z.infer<typeof CalibrationJson>;

/** A corrected rate: its estimate and interval, why it is n/a, and why its interval is not informative (too few labels, zero width). */
const Estimate = z.object({ estimate: NumOrNull, ci: Interval, reason: z.string().nullable(), uninformative: z.string().nullable() });

/**
 * A rate with its counts, its Wilson interval and both corrections. `pass`,
 * `fail`: units with a yes/no verdict (judge and rule); `errors` in neither;
 * `rulePass`, `ruleFail`: of pass + fail, those decided by rule (exact,
 * never corrected).
 */
const RateFigures = z.object({
  pass: Count,
  fail: Count,
  errors: Count,
  rulePass: Count,
  ruleFail: Count,
  raw: z.object({ value: NumOrNull, ci: Interval }),
  roganGladen: Estimate,
  ppi: Estimate.extend({ labelled: Count }),
});

/** One rubric's pass rate on one variant (its rate unit, see `RubricJson.rateUnit`): raw with its Wilson interval, and the two corrections. */
export const RubricVariantJson = RateFigures.extend({
  variant: z.string(),
  /**
   * Citation accuracy only: the sentence-citation pairs (the unit its labels,
   * kappa and corrections are on), under their own name; the pass rate above
   * counts answers whose every pair is supported.
   */
  pairs: RateFigures.nullable(),
  /** Answers without citations (citation accuracy only); failing only when citations are required. */
  uncited: Count.nullable(),
  /** Not found only: its two figures. */
  notFound: z.object({ correct: Count, unanswerable: Count, refused: Count, answerable: Count }).nullable(),
});
export type RubricVariantJson = z.infer<typeof RubricVariantJson>;

/** One rubric under one judge fingerprint. */
export const RubricJson = z.object({
  rubric: z.string(),
  /** answer, citation (one item per sentence-citation pair) or question. */
  unit: z.string(),
  /** What the pass rate counts: answers (citation accuracy: answers whose every citation is supported) or questions. */
  rateUnit: z.enum(["answers", "questions"]),
  fingerprint: z.string(),
  /** The model the server said it served (verdicts of two served models are two entries), or null. */
  servedModel: z.string().nullable(),
  judge: z.enum(["llm", "baseline", "rule"]),
  model: z.string().nullable(),
  trust: TrustJson,
  calibration: CalibrationJson.nullable(),
  variants: z.array(RubricVariantJson),
  /** Per question (repeat 0) outcome by variant: yes, no, error, or null when not scored. */
  verdicts: z.array(z.object({ variant: z.string(), question: z.string(), verdict: z.enum(["yes", "no", "error"]).nullable() })),
});
export type RubricJson = z.infer<typeof RubricJson>;

/** report.json: the whole evaluation (see the module comment). */
export const ReportJson = z.object({
  schema: z.literal(REPORT_SCHEMA),
  name: z.string(),
  /** The evaluation folder's name (`<UTC time>-<name>`). */
  folder: z.string(),
  time: z.string(),
  ragjudgeVersion: z.string(),
  durationMs: Num,
  config: z.object({
    file: z.string(),
    shippedExample: z.boolean(),
    k: z.array(Count),
    mainK: Count,
    poolDepth: Count,
    requireCitations: z.boolean(),
  }),
  inputs: z.object({
    config: FileHash,
    golden: FileHash,
    /** `chunks` is null for a variant that gives every passage as text. */
    variants: z.array(z.object({ name: z.string(), output: FileHash, chunks: FileHash.nullable() })),
    rubrics: z.array(z.object({ name: z.string(), file: FileHash })),
    /** The rubrics folder read, and whether it holds the packaged defaults (absent in reports before it was recorded). */
    rubricsSource: z.object({ dir: z.string(), packaged: z.boolean() }).optional(),
    labels: z.object({ dir: z.string(), hash: z.string(), files: z.array(z.object({ name: z.string(), sha256: z.string(), labels: Count })) }),
  }),
  judge: z.object({ kind: z.enum(["baseline", "openai"]), label: z.string(), model: z.string().nullable(), baseUrl: z.string().nullable() }),
  questions: z.array(z.object({ id: z.string(), kind: z.string(), tags: z.array(z.string()), answerable: z.boolean(), split: z.string().nullable() })),
  warnings: z.array(z.string()),
  variants: z.array(VariantJson),
  rubrics: z.array(RubricJson),
  /** Claim-level faithfulness only: every claim not supported (or not judged), with its context (src/report/claims.ts). */
  unsupportedClaims: z.array(UnsupportedClaimJson).optional(),
  judgeTotals: z.object({
    judgments: Count,
    errors: Count,
    cached: Count,
    rule: Count,
    calls: Count,
    promptTokens: Count,
    completionTokens: Count,
    /** USD of this run's calls (cache hits cost nothing); null when the model has no price in the config. */
    cost: NumOrNull,
    costNote: z.string(),
    errorCauses: z.array(z.tuple([z.string(), Count])),
  }),
  gate: z.object({
    requireTrusted: z.boolean(),
    floors: z.array(FloorJson),
    untrusted: z.array(z.string()),
    /** Why the run fails (exit 1), one line each; empty when it passes. */
    failures: z.array(z.string()),
    /** What the gate checked, in words: "floors and trust", or "floors only; trust not required". */
    checked: z.string(),
    /**
     * The badge: `fail`; `pass` only when every rubric is trusted or trust was
     * checked and held; `partial` when floors passed but trust was not
     * required and some rubric is untrusted (never shown as a green pass).
     */
    badge: z.enum(["pass", "partial", "fail"]),
  }),
  /** The files of the evaluation folder, relative to it. */
  files: z.array(z.string()),
  /** A judge panel's side-by-side calibration (config `judges`), when there is one. */
  panel: PanelJson.optional(),
});
export type ReportJson = z.infer<typeof ReportJson>;
