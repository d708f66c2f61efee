import { groupJudgments } from "../../calibration/verdicts.js";
import type { GoldenQuestion } from "../../golden/schema/golden.js";
import type { Judgment } from "../../golden/schema/items.js";
import { servedKeys } from "../../judge/summary/served.js";
import { entryVerdicts } from "../build/rubrics.js";
import { answerVerdicts } from "../join.js";
import { ANSWER_RUBRICS, answerScore, classify } from "../search-or-answer.js";
import type { ReportJson, RubricJson } from "../schema.js";

/**
 * `compare` pairs the verdicts and answer outcomes of report.json, while the
 * gate re-decides trust from the evaluation's judgments.jsonl: unless the two
 * say the same, a trusted judge's state would vouch for figures it never
 * gave (report.json's verdicts edited, an entry left out so the answer
 * outcome rests on nothing, verdicts relabelled as rule verdicts in the
 * report, or a judgments.jsonl copied in from another run). This module
 * rebuilds what report.json says of the verdicts from judgments.jsonl, by
 * the code `ragjudge run` wrote it with (`entryVerdicts`, `classify`), and
 * names the first difference.
 */

const UNITS = new Set(["answer", "citation", "question"]);

const keyOf = (e: Pick<RubricJson, "rubric" | "fingerprint" | "servedModel">) => `${e.rubric} (fingerprint ${e.fingerprint.slice(0, 12)}${e.servedModel ? `, served model ${e.servedModel}` : ""})`;

const verdictList = (vs: RubricJson["verdicts"]) => vs.map((v) => `${v.variant}\u0000${v.question}\u0000${v.verdict}`).sort().join("\n");

/** The first difference between report.json's rubric entries and those built from the judgments, or null. */
function entryDifference(report: ReportJson, judgments: readonly Judgment[], requireCitations: boolean): string | null {
  const variants = report.variants.map((v) => v.name);
  const { groups } = groupJudgments(judgments);
  const served = servedKeys(judgments.filter((j) => j.judge !== "rule"));
  const names = [...new Set([...report.rubrics.map((r) => r.rubric), ...judgments.map((j) => j.rubric)])].sort();
  for (const name of names) {
    const mine = report.rubrics.filter((r) => r.rubric === name);
    const unit = mine[0]?.unit === "claim" ? "answer" : mine[0]?.unit ?? "answer";
    if (!UNITS.has(unit)) return `report.json gives ${name} the unit ${JSON.stringify(unit)}, which no rubric has`;
    const built = entryVerdicts(judgments, { name, unit: unit as "answer" }, variants, requireCitations, groups, served);
    for (const b of built) {
      const entry = mine.find((r) => r.fingerprint === b.fingerprint && r.servedModel === b.servedModel);
      const key = keyOf({ rubric: name, fingerprint: b.fingerprint, servedModel: b.servedModel });
      if (!entry) return `judgments.jsonl holds verdicts of ${key} that report.json has no entry for`;
      if (entry.judge !== b.judge) return `report.json says ${key} was decided by ${entry.judge}, judgments.jsonl by ${b.judge}`;
      if (verdictList(entry.verdicts) !== verdictList(b.verdicts)) return `report.json's verdicts of ${key} are not those of judgments.jsonl`;
    }
    const extra = mine.find((r) => !built.some((b) => b.fingerprint === r.fingerprint && b.servedModel === r.servedModel));
    if (extra) return `report.json has an entry for ${keyOf(extra)} with no verdict of it in judgments.jsonl`;
  }
  return null;
}

/** The first answer outcome of report.json that the judgments do not give, or null. */
function answerDifference(report: ReportJson, judgments: readonly Judgment[], questions: readonly GoldenQuestion[]): string | null {
  const judged = new Set([...report.inputs.rubrics.map((r) => r.name), ...judgments.map((j) => j.rubric)]);
  const answerRubrics: string[] = ANSWER_RUBRICS.filter((r) => judged.has(r));
  const verdicts = answerVerdicts(judgments);
  for (const v of report.variants) {
    const soa = v.searchOrAnswer;
    if (soa.answerRubrics.join(",") !== answerRubrics.join(",")) {
      return `report.json says ${v.name}'s answers rest on ${soa.answerRubrics.join(", ") || "no rubric"}; the judged rubrics give ${answerRubrics.join(", ") || "none"}`;
    }
    const stated = new Map(soa.questions.map((q) => [q.id, answerScore(q.outcome)]));
    for (const q of questions) {
      // whether a relevant chunk reached the context changes which right or wrong outcome, never whether it is right
      const o = classify({ question: q, relevantInContext: false, verdicts: verdicts.get(`${v.name}\u0000${q.id}`) ?? new Map() }, answerRubrics.length ? answerRubrics : ["correctness"]);
      if ((stated.get(q.id) ?? null) !== answerScore(o.outcome)) return `report.json's answer outcome of ${v.name} on ${q.id} is not what judgments.jsonl's verdicts give`;
    }
  }
  return null;
}

/**
 * Where report.json's verdicts or answer outcomes are not what
 * judgments.jsonl gives (the first difference, in words), or null when they
 * agree. `questions` are the project's golden questions, `requireCitations`
 * the report's setting.
 *
 * @example
 * reportDifference(ev.report, judgments, golden.questions) // "report.json's verdicts of correctness (fingerprint 35a78e74a5a2) are not those of judgments.jsonl"
 */
export function reportDifference(report: ReportJson, judgments: readonly Judgment[], questions: readonly GoldenQuestion[]): string | null {
  return entryDifference(report, judgments, report.config.requireCitations) ?? answerDifference(report, judgments, questions);
}
