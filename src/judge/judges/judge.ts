import type { Evidence } from "../../golden/schema/items.js";
import type { Usage } from "../transport/completion.js";
import type { Rubric } from "../rubric/rubric.js";

/** The result of judging one item once. `verdict: "error"` carries its cause and is never yes or no. */
export interface JudgeOutcome {
  verdict: "yes" | "no" | "error";
  reason: string;
  error?: string;
  /** The fingerprint the verdict was made under (an LLM judge's may change mid-run on a mode switch). */
  fingerprint: string;
  servedModel?: string;
  usage?: Usage;
  raw?: string;
  attempts?: number;
}

/** A judge the scheduler can run: the LLM judge or the offline baseline. */
export interface JudgeBackend {
  readonly kind: "llm" | "baseline";
  /** The model name asked for (LLM judge only). */
  readonly model?: string;
  /** One line naming the judge for summaries (the baseline says it is one). */
  readonly label: string;
  /** Whether verdicts go through the SQLite cache (calls cost money; the baseline is instant). */
  readonly cached: boolean;
  /** The fingerprint verdicts get now. */
  fingerprint(rubric: Rubric): string;
  /** What the fingerprint stands for, stored in the cache for audits. */
  template(rubric: Rubric): unknown;
  judge(rubric: Rubric, evidence: Evidence): Promise<JudgeOutcome>;
}

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
