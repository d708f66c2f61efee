import type { Evidence, Judgment } from "../../golden/schema/items.js";
import type { Usage } from "../transport/completion.js";
import type { RetryCounts } from "../transport/client.js";
import type { Rubric } from "../rubric/rubric.js";

/** The result of judging one item once. `verdict: "error"` carries its cause and is never yes or no. */
export interface JudgeOutcome {
  verdict: "yes" | "no" | "error";
  reason: string;
  /** The judge's probability that the verdict is "yes" (0..1), when it has one (see Judgment.pYes). */
  pYes?: number;
  error?: string;
  /** The fingerprint the verdict was made under (an LLM judge's may change mid-run on a mode switch). */
  fingerprint: string;
  servedModel?: string;
  usage?: Usage;
  raw?: string;
  attempts?: number;
}

/**
 * A judge, as a record the scheduler runs without knowing which judge it is
 * (the way a retrieval measure is a `MeasureDef`): its identity, what its
 * fingerprint covers, how it judges one item, and the properties that decide
 * how a run schedules it. The scheduler (schedule/run.ts) reads only these,
 * never `kind`, so a judge panel or a cascade is one more record composing
 * member records, with no new branch in the scheduler.
 *
 * Records: {@link openAIBackend} / {@link llmBackend} (judges/llm.ts), the
 * LLM judge over an OpenAI-compatible endpoint; {@link baselineBackend}
 * (judges/baseline.ts), the offline lexical baseline.
 */
export interface Judge {
  /** The judge's identity, as its fingerprint template names it ("openai-chat", "ragjudge-lexical-baseline"). */
  readonly name: string;
  /** What its verdicts' `judge` field says (a file format: judgments and the cache store it). */
  readonly kind: Exclude<Judgment["judge"], "rule">;
  /** The model name asked for (an LLM judge only). */
  readonly model?: string;
  /** One line naming the judge for summaries (the baseline says it is one). */
  readonly label: string;
  /**
   * What the fingerprint covers, one phrase each, for documentation and
   * help: a change to any of them gives the verdicts a new fingerprint, so
   * they never mix with (or reuse) the old ones.
   */
  readonly covers: readonly string[];
  /**
   * Whether verdicts go through the SQLite cache, and so whether a run holds
   * the cache folder's lease (calls cost money and time; the baseline is
   * instant and needs neither).
   */
  readonly cached: boolean;
  /** Whether judging an item again may give another verdict, so `--repeats` mean something; otherwise each item is judged once. */
  readonly repeatable: boolean;
  /** The most calls it wants in flight: `Infinity` takes the run's `--concurrency`; 1 judges one item at a time. */
  readonly maxConcurrency: number;
  /** Live retry counters of a judge that calls an endpoint (the progress display shows them); absent for one that makes no calls. */
  readonly retries?: Readonly<RetryCounts>;
  /** The fingerprint verdicts get now. */
  fingerprint(rubric: Rubric): string;
  /** What the fingerprint stands for, stored in the cache (and fingerprints.json) for audits. */
  template(rubric: Rubric): unknown;
  /** Judges one item once; a failure that is not a verdict is `verdict: "error"`, a run-stopping one a thrown {@link FatalJudgeError}. */
  judge(rubric: Rubric, evidence: Evidence): Promise<JudgeOutcome>;
  /**
   * Told how many of the run's calls already have a committed verdict of
   * this judge (cache hits), before any call: its setup has worked, so when
   * the calls left (a rerun of the items that failed) fail too, the items
   * are at fault, not the key, model or endpoint.
   */
  committed?(calls: number): void;
}

/** @deprecated Renamed {@link Judge} (a judge is a record now, not only a backend). */
export type JudgeBackend = Judge;

/**
 * The run must stop. `setup`: every call would fail the same way until the
 * user changes something (bad key, unknown model, a parameter the model
 * rejects): a usage error. `endpoint`: the server cannot serve the run now
 * (rate limited, down, too slow): rerun later; committed verdicts are kept.
 */
export class FatalJudgeError extends Error {
  override name = "FatalJudgeError";
  constructor(
    message: string,
    readonly kind: "setup" | "endpoint" = "setup",
  ) {
    super(message);
  }
}
