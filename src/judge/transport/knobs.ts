/**
 * Where a user changes a setting of an LLM judge, in the words the messages
 * that stop or slow a run print. The run's main judge takes flags (the
 * config's `judge` block is their default); a judge of a panel takes none:
 * the panel (judges/panel.ts) resolves it from its entry in the config's
 * `judges` alone. So a panel judge that timed out and was told to "raise
 * --timeout-ms" was told of a flag that never reaches it; its hints name its
 * entry and field.
 */
export interface JudgeKnobs {
  /** Raising the per-attempt deadline, e.g. "raise --timeout-ms (config: judge.timeoutMs)". */
  timeout: string;
  /** Checking the endpoint and model, e.g. "check --base-url, --model and the server". */
  endpoint: string;
  /** Leaving a request parameter out, e.g. "pass --no-seed". */
  omit(param: RequestParam): string;
  /** Switching to JSON in the reply text, e.g. "pass --response-format text". */
  textMode: string;
  /** Fewer calls at once, e.g. "lower --concurrency". */
  concurrency: string;
}

/** The request parameters a model may reject, by their config field. */
export type RequestParam = "temperature" | "seed" | "maxTokens";

const FLAG_OF: Record<RequestParam, string> = { temperature: "--no-temperature", seed: "--no-seed", maxTokens: "--no-max-tokens" };

/** The main judge's knobs: flags of `ragjudge judge` and `ragjudge run` (both accept each one; a test holds them to it). */
export const MAIN_JUDGE_KNOBS: JudgeKnobs = {
  timeout: "raise --timeout-ms (config: judge.timeoutMs)",
  endpoint: "check --base-url, --model and the server",
  omit: (param) => `pass ${FLAG_OF[param]}`,
  textMode: "pass --response-format text",
  concurrency: "lower --concurrency",
};

/**
 * A panel judge's knobs: fields of its entry in the config's `judges` list,
 * named by index and name, and the config file when known.
 *
 * @example
 * panelJudgeKnobs(1, "down", "ragjudge.config.json").timeout
 * // 'raise "timeoutMs" in judges[1] ("down") of ragjudge.config.json'
 */
export function panelJudgeKnobs(index: number, name: string, configFile?: string): JudgeKnobs {
  const entry = `judges[${index}] (${JSON.stringify(name)}) of ${configFile ?? "the config"}`;
  return {
    timeout: `raise "timeoutMs" in ${entry}`,
    endpoint: `check "baseUrl" and "model" in ${entry}, and the server`,
    omit: (param) => `set "${param}": null in ${entry}`,
    textMode: `set "responseFormat": "text" in ${entry}`,
    concurrency: `lower "concurrency" in ${entry}`,
  };
}

/** What to do when the endpoint seems down, in the message that stops the run. */
export const outageHint = (knobs: JudgeKnobs) => `Check the server, or ${knobs.timeout} if it is only slow`;
