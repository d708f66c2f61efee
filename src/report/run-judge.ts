import { baselineBackend, baselineUnsupported } from "../judge/judges/baseline.js";
import type { Judge } from "../judge/judges/judge.js";
import { llmBackend } from "../judge/judges/llm.js";
import { JudgeCache } from "../judge/schedule/cache.js";
import type { Item } from "../judge/items/items.js";
import { withDerivedVerdicts } from "../judge/items/derive-claims.js";
import { redact } from "../judge/transport/redact.js";
import type { Rubric } from "../judge/rubric/rubric.js";
import { runJudge, type ProgressState, type RunResult } from "../judge/schedule/run.js";
import type { Price } from "../judge/schedule/cost.js";
import type { JudgeSettings } from "../judge/judges/settings.js";
import { JudgeSetupError } from "../judge/transport/endpoint.js";

/** What one judge step of a run needs. */
export interface JudgeStepOptions {
  settings: JudgeSettings;
  items: readonly Item[];
  rubrics: readonly Rubric[];
  /** The cache folder `ragjudge judge` uses (config `cacheDir`): the LLM judge's verdicts are shared with it. */
  cacheDir: string;
  log: (line: string) => void;
  onProgress?: (p: Readonly<ProgressState>) => void;
  /** The config's `prices`, for the running cost in the progress display. */
  prices?: Readonly<Record<string, Price>>;
  /** Who holds the cache while judging, as a second run is told (default "ragjudge run"). */
  holder?: string;
}

/** A run's verdicts and the judge that gave them. */
export interface JudgeStep {
  result: RunResult;
  backend: Judge;
  /** Every rubric's fingerprint and what it stands for (written to fingerprints.json). */
  fingerprints: { rubric: string; fingerprint: string; template: unknown }[];
}

/**
 * Checks that the judge can judge these rubrics before anything runs: the
 * offline baseline has rules for the shipped rubrics only.
 */
export function checkJudgeSetup(settings: JudgeSettings, rubrics: readonly Rubric[]): void {
  if (settings.kind !== "baseline") return;
  const unsupported = baselineUnsupported(rubrics);
  if (unsupported.length) throw new JudgeSetupError(`the baseline judge has no rule for rubric ${unsupported.join(", ")} (use an LLM judge, or leave the rubric out of the config's "rubrics")`);
}

/**
 * Judges every item as `ragjudge judge` does: the offline baseline in
 * process, or the LLM judge through the same SQLite cache (committed
 * verdicts are reused, a killed run resumes, structured outputs fall back to
 * JSON in text). Throws FatalJudgeError when the endpoint refuses every call.
 *
 * @example
 * const { result } = await judgeItems({ settings, items: itemSet.items, rubrics, cacheDir, log: console.error });
 */
export async function judgeItems(o: JudgeStepOptions): Promise<JudgeStep> {
  checkJudgeSetup(o.settings, o.rubrics);
  const s = o.settings;
  let cache: JudgeCache | undefined;
  let backend: Judge;
  if (s.kind === "openai") {
    cache = JudgeCache.open(o.cacheDir);
    backend = llmBackend(s, {
      cache,
      onModeChange: (_m, cause) => o.log(`judge: the server rejects structured outputs (${redact(cause, [s.apiKey])}); asking for JSON in the text from now on\n`),
      onLogprobsOff: (cause) => o.log(`judge: the server gives no token log-probabilities (${redact(cause, [s.apiKey])}); judging without them (no P(yes)) from now on, remembered for ${s.baseURL}, model ${s.model}\n`),
    });
  } else backend = baselineBackend();
  o.log(`judge: ${backend.label}; ${o.items.length} items${s.kind === "openai" && s.repeats > 1 ? ` x ${s.repeats} repeats` : ""}${cache ? `; cache ${cache.file}` : ""}\n`);
  try {
    const price = s.kind === "openai" ? o.prices?.[s.model] : undefined;
    const judged = await runJudge({ items: o.items, backend, cache, repeats: s.repeats, concurrency: s.concurrency, onProgress: o.onProgress, holder: o.holder ?? "ragjudge run", ...(price ? { price } : {}) });
    // Claim-level faithfulness: each answer's verdict derived from its claims' (derive-claims.ts).
    const result = { ...judged, judgments: withDerivedVerdicts(o.items, judged.judgments) };
    const fingerprints = o.rubrics.map((r) => ({ rubric: r.name, fingerprint: backend.fingerprint(r), template: backend.template(r) }));
    return { result, backend, fingerprints };
  } finally {
    cache?.close();
  }
}
