import type { Evidence } from "../golden/schema/items.js";
import { BASELINE_JUDGE, BASELINE_VERSION, BaselineEvidenceError, baselineFingerprint, baselineJudge, isBaselineRubric } from "./baseline/index.js";
import type { JudgeCache } from "./cache.js";
import type { JudgeClient, Usage } from "./client.js";
import { buildRequestBody, requestFingerprint, requestTemplate, type RequestBody, type RequestSettings, type ResponseMode } from "./request.js";
import type { Rubric } from "./rubric.js";

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

/** Every call would fail the same way (bad key, unknown model, a request the server always rejects). */
export class FatalJudgeError extends Error {
  override name = "FatalJudgeError";
}

/**
 * The offline lexical baseline (src/judge/baseline) as a backend: no model,
 * no cache, deterministic, with its own fingerprint per rubric.
 */
export function baselineBackend(): JudgeBackend {
  return {
    kind: "baseline",
    label: `baseline (${BASELINE_JUDGE} v${BASELINE_VERSION}: lexical, no model; a floor to beat, not a judge to trust)`,
    cached: false,
    fingerprint: (rubric) => baselineFingerprint(rubric.name),
    template: (rubric) => ({ judge: BASELINE_JUDGE, version: BASELINE_VERSION, rubric: rubric.name }),
    async judge(rubric, evidence) {
      const fingerprint = baselineFingerprint(rubric.name);
      try {
        const v = baselineJudge(rubric.name, evidence);
        return { verdict: v.verdict, reason: v.reason, fingerprint };
      } catch (e) {
        if (e instanceof BaselineEvidenceError) return { verdict: "error", reason: "", error: `baseline: ${e.message}`, fingerprint };
        throw e;
      }
    },
  };
}

/** Rubrics the baseline has no rule for (checked before a run, to fail early). */
export function baselineUnsupported(rubrics: readonly Rubric[]): string[] {
  return rubrics.filter((r) => !isBaselineRubric(r.name)).map((r) => r.name);
}

/** Options of {@link openAIBackend}. */
export interface OpenAIBackendOptions {
  client: JudgeClient;
  baseURL: string;
  settings: RequestSettings;
  /** Remembers a server found without structured outputs, so the next run starts in text mode. */
  cache?: JudgeCache;
  /** Told once when the run falls back to text mode. */
  onModeChange?: (mode: ResponseMode, cause: string) => void;
  /** Failed calls before any success that stop the run (an unreachable or misconfigured endpoint); default 10. */
  breakerLimit?: number;
}

/** The LLM judge backend, with its request builder exposed for dry runs. */
export interface OpenAIBackend extends JudgeBackend {
  readonly mode: ResponseMode;
  request(rubric: Rubric, evidence: Evidence): RequestBody;
}

/**
 * The LLM judge over an OpenAI-compatible endpoint. Starts in the configured
 * response mode (or the one remembered for this endpoint and model); on a
 * 400 that rejects `response_format` it switches the whole run to
 * JSON-in-text, remembers that in the cache, and resends the item. Stops the
 * run (FatalJudgeError) on a refused key or unknown model, and when the
 * first `breakerLimit` calls all fail (an unreachable or misconfigured
 * endpoint would otherwise turn every item into an error, slowly).
 */
export function openAIBackend(o: OpenAIBackendOptions): OpenAIBackend {
  let mode: ResponseMode = o.settings.responseMode;
  const fps = new Map<string, string>();
  let successes = 0;
  let failures = 0;
  const limit = o.breakerLimit ?? 10;
  const settings = () => ({ ...o.settings, responseMode: mode });
  const fingerprintIn = (rubric: Rubric, m: ResponseMode) => {
    const k = `${m}\0${rubric.name}`;
    let fp = fps.get(k);
    if (fp === undefined) fps.set(k, (fp = requestFingerprint(rubric, { ...o.settings, responseMode: m })));
    return fp;
  };
  const fingerprint = (rubric: Rubric) => fingerprintIn(rubric, mode);
  return {
    kind: "llm",
    model: o.settings.model,
    get label() {
      return `LLM judge ${o.settings.model} at ${o.baseURL} (${mode === "json_schema" ? "structured outputs" : "JSON in text"})`;
    },
    cached: true,
    get mode() {
      return mode;
    },
    fingerprint,
    template: (rubric) => requestTemplate(rubric, settings()),
    request: (rubric, evidence) => buildRequestBody(rubric, evidence, settings()),
    async judge(rubric, evidence) {
      for (;;) {
        const usedMode = mode;
        const r = await o.client.complete(buildRequestBody(rubric, evidence, { ...o.settings, responseMode: usedMode }));
        if (!r.ok && r.textMode && usedMode === "json_schema") {
          if (mode === "json_schema") {
            mode = "text";
            o.cache?.rememberResponseMode(o.baseURL, o.settings.model, "text", r.cause);
            o.onModeChange?.("text", r.cause);
          }
          continue;
        }
        const fp = fingerprintIn(rubric, usedMode);
        if (r.ok) {
          successes++;
          return { verdict: r.reply.verdict, reason: r.reply.reason, fingerprint: fp, servedModel: r.servedModel, usage: r.usage, raw: r.raw, attempts: r.attempts };
        }
        if (r.fatal) throw new FatalJudgeError(r.cause);
        if (successes === 0 && ++failures >= limit) {
          const hint = usedMode === "json_schema" && /^(http-4|parse)/.test(r.cause) ? "; if the server lacks structured outputs, pass --response-format text" : "";
          throw new FatalJudgeError(`${r.cause} (the first ${limit} calls all failed; stopping: check --base-url, --model and the server${hint})`);
        }
        return { verdict: "error", reason: "", error: r.cause, fingerprint: fp, servedModel: r.servedModel, usage: r.usage, raw: r.raw, attempts: r.attempts };
      }
    },
  };
}
