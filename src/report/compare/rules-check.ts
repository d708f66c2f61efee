import { evidenceKey } from "../../calibration/keys.js";
import type { ResolvedConfig } from "../../golden/config.js";
import type { Judgment } from "../../golden/schema/items.js";
import { loadJudgeInputs } from "../../judge/items/inputs.js";

/**
 * Rule verdicts need no calibration, which makes them the one way round the
 * gate: verdicts relabelled `judge: "rule"` in judgments.jsonl (and in
 * report.json, to agree) would be shown as exact. A rule decides an item
 * from the data alone (no answer, no candidates, a citation outside the
 * context, ...), so `compare` rebuilds the items of the project
 * (`loadJudgeInputs`, what `ragjudge judge` judges) and takes a rule verdict
 * only when the same item, with the same evidence, is decided by a rule
 * there with the same verdict.
 */

/**
 * The first rule verdict of `judgments` that no rule of the project gives
 * (in words), or null when every one is (or there is none).
 *
 * @example
 * forgedRule(judgments, loadConfig(), ["bm25-small"]) // "judgments.jsonl says a rule decided correctness of bm25-small on fact-01 (no), which no rule gives on the project's data"
 */
export function forgedRule(judgments: readonly Judgment[], project: ResolvedConfig, variants: readonly string[]): string | null {
  const rules = judgments.filter((j) => j.judge === "rule");
  if (rules.length === 0) return null;
  const rubrics = [...new Set(rules.map((j) => j.rubric))];
  const inputs = loadJudgeInputs(project, { rubrics, variants: [...variants] });
  const given = new Map<string, string>();
  for (const it of [...inputs.answerItemSet.items, ...inputs.itemSet.items]) if (it.rule) given.set(evidenceKey(it.key, it.inputHash), it.rule.verdict);
  for (const j of rules) {
    if (given.get(evidenceKey(j, j.inputHash)) !== j.verdict) {
      return `judgments.jsonl says a rule decided ${j.rubric} of ${j.variant} on ${j.question} (unit ${j.unit}: ${j.verdict}), which no rule gives on the project's data`;
    }
  }
  return null;
}
