import { existsSync } from "node:fs";
import type { ResolvedConfig } from "../golden/config.js";
import { InputError } from "../golden/errors.js";
import { loadJsonl } from "../golden/jsonl.js";
import { Judgment, type ItemKey, type QueueEntry } from "../golden/schema/items.js";
import { loadJudgeInputs } from "../judge/items/inputs.js";
import { cachedClaimsFrom } from "../judge/claims/prepare.js";
import { candidatesFromRun } from "./candidates.js";
import { toEntry } from "./sample.js";
import { judgeFirst } from "../golden/project-args.js";

/**
 * Whether an item key matches an `--item` spec: `variant/question`,
 * `variant/question/rubric` or `variant/question/rubric/unit`. Compared as
 * joined strings, so ids that themselves hold `/` still match.
 *
 * @example
 * itemMatches({ variant: "bm25", question: "q1", rubric: "correctness", unit: "answer" }, "bm25/q1") // true
 */
export function itemMatches(key: ItemKey, spec: string): boolean {
  const vq = `${key.variant}/${key.question}`;
  return spec === vq || spec === `${vq}/${key.rubric}` || spec === `${vq}/${key.rubric}/${key.unit}`;
}

/**
 * The review queue for `ragjudge review --item SPEC`: every judged item the
 * spec names (one question of one variant: each rubric and unit; or one
 * rubric; or one unit), drawn as `ragjudge sample` draws (the same items, the
 * same evidence and input hash, the same verdict over repeats), in the
 * `manual` frame: a label made this way is kept and shown, but never counts
 * in the trust gate, which reads random frames only. Items decided by rule
 * are not reviewed (rule verdicts are never calibrated).
 *
 * @example
 * writeOutputFile(queue, itemQueue(cfg, { item: "hybrid-rerank/fact-01", judgmentsFile }).map((e) => JSON.stringify(e) + "\n").join(""));
 */
export function itemQueue(cfg: ResolvedConfig, opts: { item: string; judgmentsFile: string }): QueueEntry[] {
  if (!existsSync(opts.judgmentsFile)) {
    throw new InputError(opts.judgmentsFile, undefined, undefined, `judgments file not found: ${judgeFirst(cfg)}, or pass --judgments FILE`);
  }
  const { golden, variants, itemSet } = loadJudgeInputs(cfg, { claimsFrom: cachedClaimsFrom(cfg.outPath(cfg.config.cacheDir)) });
  const judgments = loadJsonl(opts.judgmentsFile, Judgment).map((r) => r.value);
  const wanted = itemSet.items.filter((i) => itemMatches(i.key, opts.item));
  const { candidates } = candidatesFromRun(wanted, judgments, golden, variants);
  if (candidates.length === 0) {
    const why = wanted.length === 0
      ? "no item of this config has that variant, question, rubric and unit"
      : wanted.every((i) => i.rule) ? "its verdicts were decided by rule (exact, never calibrated): nothing to review" : `the judgments file has no verdict for it on the current evidence`;
    throw new InputError(wanted.length === 0 ? cfg.file : opts.judgmentsFile, undefined, "--item", `${JSON.stringify(opts.item)} (variant/question[/rubric[/unit]]): ${why}`);
  }
  return candidates.map((c) => toEntry(c, "manual"));
}
