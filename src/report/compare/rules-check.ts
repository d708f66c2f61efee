import { existsSync } from "node:fs";
import { evidenceKey } from "../../calibration/keys.js";
import type { ResolvedConfig } from "../../golden/config.js";
import { displayPath } from "../../golden/errors.js";
import { readBytes } from "../../golden/files.js";
import { sha256 } from "../../golden/hash.js";
import type { Judgment } from "../../golden/schema/items.js";
import { loadJudgeInputs } from "../../judge/items/inputs.js";
import type { ReportJson } from "../schema.js";

/**
 * Rule verdicts need no calibration, which makes them the one way round the
 * gate: verdicts relabelled `judge: "rule"` in judgments.jsonl (and in
 * report.json, to agree) would be shown as exact. A rule decides an item
 * from the data alone (no answer, no candidates, a citation outside the
 * context, ...), so `compare` rebuilds the items of the project
 * (`loadJudgeInputs`, what `ragjudge judge` judges) and takes a rule verdict
 * only when the same item, with the same evidence, is decided by a rule
 * there with the same verdict, and a rubric as decided by rule alone only
 * when the project gives none of its items to a judge.
 */

/** A file of the project that is not, byte for byte, the one the evaluation recorded, or null. */
function changedInput(path: string, recorded: { sha256: string } | null | undefined): string | null {
  if (!recorded) return null;
  if (!existsSync(path) || sha256(readBytes(path)) !== recorded.sha256) return displayPath(path);
  return null;
}

/**
 * The project's inputs that a variant's rules read (the config, the
 * variant's pipeline output and chunks file) and that changed since the
 * evaluation was run, as report.json recorded them.
 */
function changedSince(report: ReportJson, project: ResolvedConfig, variant: string): string[] {
  const out: string[] = [];
  const config = changedInput(project.file, report.inputs.config);
  if (config) out.push(config);
  const v = project.config.variants.find((x) => x.name === variant);
  const recorded = report.inputs.variants.find((x) => x.name === variant);
  if (!v || !recorded) return out;
  for (const [file, rec] of [[v.output, recorded.output], [v.chunks, recorded.chunks]] as const) {
    const changed = file === undefined ? null : changedInput(project.path(file), rec);
    if (changed) out.push(changed);
  }
  return out;
}

/** What {@link checkRules} found. */
export interface RuleCheck {
  /** The first rule verdict no rule of the project gives (in words, with why it cannot be taken), or null. */
  forged: string | null;
  /**
   * Of the rubrics with rule verdicts, those the project's data gives items
   * no rule decides (which only a judge can), with how many: a rubric whose
   * report entry is "decided by rule" must have none, or its judge verdicts
   * were left out of both files.
   */
  judgeItems: ReadonlyMap<string, number>;
}

/**
 * Checks the rule verdicts of `judgments` against the rules of the project:
 * the first one no rule gives, and the rubrics that also need a judge. When
 * the project's data the rule reads changed since the evaluation
 * (`report`'s recorded inputs), that is said instead of a forgery: the rules
 * can only be checked against the data as it is now.
 *
 * @example
 * checkRules(judgments, loadConfig(), report).forged // "judgments.jsonl says a rule decided correctness of bm25-small on fact-01 (unit answer: no), which no rule gives on the project's data: ..."
 */
export function checkRules(judgments: readonly Judgment[], project: ResolvedConfig, report: ReportJson): RuleCheck {
  const rules = judgments.filter((j) => j.judge === "rule");
  const judgeItems = new Map<string, number>();
  if (rules.length === 0) return { forged: null, judgeItems };
  const rubrics = [...new Set(rules.map((j) => j.rubric))];
  const inputs = loadJudgeInputs(project, { rubrics, variants: report.variants.map((v) => v.name) });
  const given = new Map<string, string>();
  for (const it of [...inputs.answerItemSet.items, ...inputs.itemSet.items]) {
    if (it.rule) given.set(evidenceKey(it.key, it.inputHash), it.rule.verdict);
    else judgeItems.set(it.key.rubric, (judgeItems.get(it.key.rubric) ?? 0) + 1);
  }
  for (const j of rules) {
    if (given.get(evidenceKey(j, j.inputHash)) === j.verdict) continue;
    const said = `judgments.jsonl says a rule decided ${j.rubric} of ${j.variant} on ${j.question} (unit ${j.unit}: ${j.verdict})`;
    const changed = changedSince(report, project, j.variant);
    const forged = changed.length
      ? `${said}, which cannot be checked: ${changed.join(", ")} changed since this evaluation was run, and rule verdicts are checked against the project's data as it is now (compare it before changing them, or run it again)`
      : `${said}, which no rule gives on the project's data: judgments.jsonl is not what ragjudge wrote for this data, so its figures rest on no verdicts the gate can check`;
    return { forged, judgeItems };
  }
  return { forged: null, judgeItems };
}
