import type { RubricUsage } from "./run.js";

/** USD per million tokens of one model (the config's `prices`). */
export interface Price {
  input: number;
  output: number;
}

/** A run's calls, tokens and cost, and how the cost was reckoned. */
export interface CostTotals {
  calls: number;
  prompt: number;
  completion: number;
  /** USD of this run's calls (cache hits cost nothing); null when the model has no price. */
  cost: number | null;
  note: string;
}

/** USD of `prompt` and `completion` tokens at `price` per million. */
export function costUsd(prompt: number, completion: number, price: Price): number {
  return (prompt * price.input + completion * price.output) / 1e6;
}

/**
 * Calls, tokens and cost of a judge run, the same for `run` and `judge`:
 * nothing for the baseline; for an LLM, the tokens of this run's calls
 * priced by the config's `prices` for the model, or "unknown" saying how to
 * add a price.
 *
 * @example
 * costTotals({ kind: "llm", model: "gpt-4o-mini" }, usage, { "gpt-4o-mini": { input: 0.15, output: 0.6 } }).cost
 */
export function costTotals(judge: { kind: string; model?: string | undefined }, usage: Iterable<RubricUsage>, prices: Readonly<Record<string, Price>>): CostTotals {
  if (judge.kind === "baseline") return { calls: 0, prompt: 0, completion: 0, cost: 0, note: "baseline judge: no model calls, no cost" };
  let calls = 0;
  let prompt = 0;
  let completion = 0;
  for (const u of usage) {
    calls += u.calls;
    prompt += u.prompt;
    completion += u.completion;
  }
  const model = judge.model ?? "";
  const price = prices[model];
  if (!price) return { calls, prompt, completion, cost: null, note: `cost unknown: add "prices": {"${model}": {"input": USD_PER_MILLION, "output": USD_PER_MILLION}} to the config` };
  return { calls, prompt, completion, cost: costUsd(prompt, completion, price), note: `at $${price.input}/M input and $${price.output}/M output tokens (this run's calls; cache hits cost nothing)` };
}

/** The cost line `run` and `judge` print: `tokens: 12 calls, 900 prompt + 80 completion; cost: $0.0002 (at ...)`. */
export function costLine(t: CostTotals): string {
  // "cost: unknown (cost unknown: add ...)" would say it twice.
  const note = t.cost === null ? t.note.replace(/^cost unknown: /, "") : t.note;
  return `tokens: ${t.calls} calls, ${t.prompt} prompt + ${t.completion} completion; cost: ${t.cost === null ? "unknown" : `$${t.cost.toFixed(4)}`} (${note})`;
}
