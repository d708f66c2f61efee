import { contextOf, relevantSets, type GoldenSet, type VariantData } from "../golden/dataset.js";
import type { Judgment, Verdict } from "../golden/schema/items.js";
import type { SearchOrAnswerJson } from "./schema.js";
import { ANSWER_RUBRICS, classify, crossTab, diagnosis, type CrossTab } from "./search-or-answer.js";

/**
 * The answer-level verdict of every (variant, question, rubric) at repeat 0,
 * rule verdicts included (a missing answer fails correctness by rule: that
 * is a verdict, not a gap). Only the `answer` unit is read: citation pairs
 * and anchor-ambiguity questions are not answer verdicts.
 *
 * @example
 * answerVerdicts(judgments).get("bm25\u0000q07")?.get("correctness") // "no"
 */
export function answerVerdicts(judgments: readonly Judgment[]): Map<string, Map<string, Verdict>> {
  const out = new Map<string, Map<string, Verdict>>();
  for (const j of judgments) {
    if (j.unit !== "answer" || j.repeat !== 0) continue;
    const key = `${j.variant}\u0000${j.question}`;
    let m = out.get(key);
    if (!m) out.set(key, (m = new Map()));
    m.set(j.rubric, j.verdict);
  }
  return out;
}

const tabJson = (t: CrossTab) => ({ n: t.n, counts: { ...t.counts } });

/**
 * Joins one variant's retrieval with its answer verdicts (the question
 * ragjudge exists for): for each answerable question, whether a relevant
 * chunk reached the context given to the generator (`contextOf`, relevance
 * from `relevantSets`), and whether correctness and faithfulness (those of
 * them judged in this run) both said yes; unanswerable questions by their
 * not-found verdict. Returns the per-question outcomes in golden-set order,
 * the cross-tab overall, by kind and by tag, and the one-line diagnosis.
 *
 * @example
 * // the shipped example's bm25-small, judged by the offline baseline
 * const soa = searchOrAnswer(golden, variant, judgments, ["correctness", "faithfulness", "not-found"]);
 * soa.overall.counts["retrieval-failure"] // 18
 */
export function searchOrAnswer(
  golden: Pick<GoldenSet, "questions">,
  variant: Pick<VariantData, "name" | "chunks" | "outputs" | "contextK">,
  judgments: readonly Judgment[],
  judgedRubrics: readonly string[],
): SearchOrAnswerJson {
  const relevant = relevantSets(golden, variant.chunks);
  const verdicts = answerVerdicts(judgments);
  const answerRubrics = ANSWER_RUBRICS.filter((r) => judgedRubrics.includes(r));
  const outcomes = golden.questions.map((question) => {
    const out = variant.outputs.get(question.id);
    const rel = relevant.get(question.id);
    const relevantInContext = !!out && !!rel && contextOf(out, variant.contextK).some((id) => rel.has(id));
    const v = verdicts.get(`${variant.name}\u0000${question.id}`) ?? new Map<string, Verdict>();
    return classify({ question, relevantInContext, verdicts: v }, answerRubrics.length ? answerRubrics : ["correctness"]);
  });
  const tab = crossTab(outcomes);
  let diag = diagnosis(tab.overall);
  if (answerRubrics.length === 0) diag = "No answer rubric (correctness, faithfulness) was judged: answerable questions are unjudged.";
  return {
    answerRubrics,
    overall: tabJson(tab.overall),
    byKind: [...tab.byKind].map(([key, t]) => ({ key, tab: tabJson(t) })),
    byTag: [...tab.byTag].map(([key, t]) => ({ key, tab: tabJson(t) })),
    diagnosis: diag,
    questions: outcomes.map((o) => ({ ...o, tags: [...o.tags] })),
  };
}
