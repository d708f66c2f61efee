import { BOUNDS, requireWithin } from "../../golden/bounds.js";

/** The judge's bounded numbers, under the names its flags, settings and config keys share. */
const JUDGE_NUMBERS = ["concurrency", "repeats", "temperature", "seed", "maxTokens", "timeoutMs", "maxRetries"] as const;

/** Some of the judge's numbers; null and false (`--no-temperature`) mean "not sent" and are not checked. */
export type JudgeNumbers = { [K in (typeof JUDGE_NUMBERS)[number]]?: number | null | false };

/**
 * Throws a RangeError ({@link requireWithin}) for a judge number outside the
 * bounds its flag and config key have (golden/bounds.ts). The library's
 * judge entry points (`resolveJudge`'s flags, `llmBackend`'s settings, the
 * `JudgeClient`, `runJudge`) take these numbers from code, past the CLI's
 * parser and the config's schema: a concurrency of 2^32 would abort V8, a
 * timeout past Node's timer limit would fire at once, and 10^6 repeats would
 * hold every verdict a million times in memory.
 */
export function requireJudgeNumbers(n: JudgeNumbers): void {
  for (const name of JUDGE_NUMBERS) {
    const v = n[name];
    if (v !== null && v !== false) requireWithin(name, v, BOUNDS[name]);
  }
}
