import type { OpenAIBackend } from "../judges/llm.js";
import { cacheKey, type JudgeCache } from "./cache.js";
import { planCalls } from "./calls.js";
import { costUsd } from "./cost.js";
import type { Item } from "../items/items.js";

/**
 * `--dry-run`: how many calls a run would make (cache hits and rule verdicts
 * cost nothing), with estimated tokens and cost. Nothing is sent.
 *
 * Prompt tokens are estimated at 4 characters per token plus a small
 * per-message overhead (good to about 20% for English with GPT-style
 * tokenisers; scripts such as Devanagari use more tokens per character).
 * Completion tokens are estimated at {@link TYPICAL_COMPLETION_TOKENS} per
 * call (a short reason and a verdict), with `maxTokens` per call as the
 * upper bound.
 */

export const TYPICAL_COMPLETION_TOKENS = 80;
const CHARS_PER_TOKEN = 4;
const MESSAGE_OVERHEAD = 4;

export interface RubricEstimate {
  rubric: string;
  /** Judged items times repeats. */
  verdicts: number;
  /** Verdicts sharing identical evidence with another item of the rubric (judged once). */
  shared: number;
  cached: number;
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

export interface DryRunEstimate {
  model: string;
  rubrics: RubricEstimate[];
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** Upper bound of completion tokens (max_tokens per call), when max_tokens is sent. */
  completionTokensMax?: number;
  /** USD, when the config's `prices` has the model. */
  cost?: number;
  costMax?: number;
  /** Rule verdicts, made without calls. */
  ruleVerdicts: number;
}

/** Estimated prompt tokens of one request body. */
export function estimatePromptTokens(messages: readonly { content?: unknown }[]): number {
  let n = 3;
  for (const m of messages) n += MESSAGE_OVERHEAD + Math.ceil((typeof m.content === "string" ? m.content.length : 0) / CHARS_PER_TOKEN);
  return n;
}

/**
 * Counts the calls a run would make and estimates their tokens and cost.
 * Calls are grouped as the run groups them ({@link planCalls}): identical
 * evidence under one rubric counts once.
 *
 * @example
 * const est = estimateRun({ items, backend, cache, repeats: 1, maxTokens: 512, prices: config.prices });
 */
export function estimateRun(o: {
  items: readonly Item[];
  backend: OpenAIBackend;
  cache?: JudgeCache;
  repeats: number;
  maxTokens: number | null;
  prices: Record<string, { input: number; output: number }>;
}): DryRunEstimate {
  const per = new Map<string, RubricEstimate>();
  const plan = planCalls(o.items, o.repeats);
  /** Prompt tokens by the item whose evidence a call sends (the same for each of its repeats). */
  const prompts = new Map<Item, number>();
  for (const call of plan.calls) {
    const r = call.item.rubric;
    const e = per.get(r.name) ?? { rubric: r.name, verdicts: 0, shared: 0, cached: 0, calls: 0, promptTokens: 0, completionTokens: 0 };
    per.set(r.name, e);
    e.verdicts += call.slots.length;
    e.shared += call.slots.length - 1;
    if (o.cache?.getDone(cacheKey(o.backend.fingerprint(r), call.item.inputHash, call.repeat))) {
      e.cached++;
      continue;
    }
    let prompt = prompts.get(call.item);
    if (prompt === undefined) prompts.set(call.item, (prompt = estimatePromptTokens(o.backend.request(r, call.item.evidence).messages)));
    e.calls++;
    e.promptTokens += prompt;
    e.completionTokens += o.maxTokens === null ? TYPICAL_COMPLETION_TOKENS : Math.min(TYPICAL_COMPLETION_TOKENS, o.maxTokens);
  }
  const rubrics = [...per.values()];
  const calls = rubrics.reduce((a, r) => a + r.calls, 0);
  const promptTokens = rubrics.reduce((a, r) => a + r.promptTokens, 0);
  const completionTokens = rubrics.reduce((a, r) => a + r.completionTokens, 0);
  const model = o.backend.model!;
  const est: DryRunEstimate = { model, rubrics, calls, promptTokens, completionTokens, ruleVerdicts: plan.rules.length };
  if (o.maxTokens !== null) est.completionTokensMax = calls * o.maxTokens;
  const price = o.prices[model];
  if (price) {
    est.cost = costUsd(promptTokens, completionTokens, price);
    if (est.completionTokensMax !== undefined) est.costMax = costUsd(promptTokens, est.completionTokensMax, price);
  }
  return est;
}

/** The estimate as text for the terminal. */
export function formatEstimate(e: DryRunEstimate): string {
  const lines = [`dry run: nothing sent. Judge model ${e.model}.`];
  for (const r of e.rubrics) {
    lines.push(`  ${r.rubric}: ${r.verdicts} verdicts (${r.shared} sharing identical evidence), ${r.cached} cached, ${r.calls} calls, ~${r.promptTokens} prompt + ~${r.completionTokens} completion tokens`);
  }
  lines.push(`  rule verdicts (no call): ${e.ruleVerdicts}`);
  lines.push(`total: ${e.calls} calls, ~${e.promptTokens} prompt tokens, ~${e.completionTokens} completion tokens${e.completionTokensMax !== undefined ? ` (at most ${e.completionTokensMax} completion tokens, if every reply used all of max_tokens)` : ""}`);
  if (e.cost !== undefined) {
    lines.push(`estimated cost: $${e.cost.toFixed(4)}${e.costMax !== undefined ? ` (at most $${e.costMax.toFixed(4)})` : ""}`);
  } else {
    lines.push(`estimated cost: unknown (add "prices": {"${e.model}": {"input": USD_PER_MILLION, "output": USD_PER_MILLION}} to the config)`);
  }
  return lines.join("\n") + "\n";
}
