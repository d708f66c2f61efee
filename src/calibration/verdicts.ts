import { hashJson } from "../golden/hash.js";
import type { ItemKey, Judgment, Verdict } from "../golden/schema/items.js";
import { servedKeys } from "../judge/summary/served.js";
import { evidenceKey, keyOf } from "./keys.js";

/**
 * One judged piece of evidence under one judge (fingerprint): the final
 * verdict over its repeats.
 */
export interface JudgedItem {
  key: ItemKey;
  inputHash: string;
  fingerprint: string;
  judge: "llm" | "baseline";
  /**
   * Majority of the yes/no verdicts over repeats; a tie takes the verdict of
   * the lowest repeat that has one; `error` only when every repeat failed.
   */
  verdict: Verdict;
  /** Error causes of the failed repeats (all of them when `verdict` is `error`). */
  errors: string[];
  repeats: number;
  /** The judge's reason of the repeat whose verdict was taken (or of the first). */
  reason: string;
  /** The judge's P(yes): the mean over the repeats that have one (absent when none has). */
  pYes?: number;
}

/**
 * The judged items of one rubric under one fingerprint and one served model:
 * what one calibration measures (verdicts of two served models are never
 * pooled; see src/judge/summary/served.ts).
 */
export interface JudgeGroup {
  rubric: string;
  fingerprint: string;
  judge: "llm" | "baseline";
  /** Requested model names seen in the group. */
  models: string[];
  /** The model the endpoint reported serving, or null (the baseline, or a server that names none). */
  servedModel: string | null;
  /** `[servedModel]`, or `[]` when there is none (the form calibration records store). */
  servedModels: string[];
  items: JudgedItem[];
}

/** What grouping left out, for reporting. */
export interface GroupingCounts {
  /** `judge: "rule"` verdicts: reported apart, never calibrated. */
  ruleVerdicts: number;
  /** Lines that repeated an earlier (evidence, fingerprint, repeat): the later line was kept. */
  duplicates: number;
}

/**
 * Groups judgments by (rubric, fingerprint, served model), leaving rule
 * verdicts out, and reduces each item's repeats to one verdict. Verdicts of
 * different fingerprints or served models never mix. When a judgments file holds the same (evidence,
 * fingerprint, repeat) twice, the later line wins (files are appended).
 *
 * @example
 * const { groups } = groupJudgments(judgments);
 * groups[0].items[0].verdict // "yes"
 */
export function groupJudgments(judgments: readonly Judgment[]): { groups: JudgeGroup[]; counts: GroupingCounts } {
  const counts: GroupingCounts = { ruleVerdicts: 0, duplicates: 0 };
  // Repeats of one item as a list (most items have one): no Map per item.
  const groups = new Map<string, { group: JudgeGroup; byEvidence: Map<string, Judgment[]> }>();
  const served = servedKeys(judgments.filter((j) => j.judge !== "rule"));
  for (const j of judgments) {
    if (j.judge === "rule") {
      counts.ruleVerdicts++;
      continue;
    }
    // An answer verdict derived from its claims is not a judged one: its claims are calibrated instead.
    if (j.derived) continue;
    const model = served(j);
    const gk = JSON.stringify([j.rubric, j.fingerprint, model]);
    let g = groups.get(gk);
    if (!g) {
      g = { group: { rubric: j.rubric, fingerprint: j.fingerprint, judge: j.judge, models: [], servedModel: model || null, servedModels: model ? [model] : [], items: [] }, byEvidence: new Map() };
      groups.set(gk, g);
    }
    if (j.model && !g.group.models.includes(j.model)) g.group.models.push(j.model);
    const ek = evidenceKey(j, j.inputHash);
    const reps = g.byEvidence.get(ek);
    if (!reps) {
      g.byEvidence.set(ek, [j]);
      continue;
    }
    const at = reps.findIndex((r) => r.repeat === j.repeat);
    if (at === -1) reps.push(j);
    else {
      counts.duplicates++;
      reps[at] = j;
    }
  }
  const out: JudgeGroup[] = [];
  for (const { group, byEvidence } of groups.values()) {
    for (const reps of byEvidence.values()) group.items.push(finalVerdict(reps.sort((a, b) => a.repeat - b.repeat)));
    group.models.sort();
    out.push(group);
  }
  out.sort((a, b) => groupOrder(a) < groupOrder(b) ? -1 : 1);
  return { groups: out, counts };
}

function groupOrder(g: Pick<JudgeGroup, "rubric" | "fingerprint" | "servedModel">): string {
  return [g.rubric, g.fingerprint, g.servedModel ?? ""].join("\u0000");
}

/**
 * The SHA-256 of the verdicts a group holds: each item, its input hash and
 * its verdict, in a fixed order. A calibration record stores it; the gate
 * calls the record stale when today's verdicts hash differently. Not the
 * judgments file's bytes, which carry the time of every judgment: re-judging
 * to the same verdicts must leave a committed record valid.
 */
export function verdictsHash(group: Pick<JudgeGroup, "items">): string {
  // each row's sort key joined once, not twice per comparison
  const rows = group.items.map((it) => {
    const row = [it.key.variant, it.key.question, it.key.rubric, it.key.unit, it.inputHash, it.verdict];
    return { row, key: row.join("\u0000") };
  });
  return hashJson(rows.sort((a, b) => (a.key < b.key ? -1 : 1)).map((r) => r.row));
}

/**
 * The verdict of one item over its repeats, the one rule calibration and
 * sampling share: the majority of the yes/no verdicts (a failed repeat is
 * not a vote), `tie` when yes and no are equally many, and `error` only when
 * every repeat failed.
 *
 * @example
 * majorityVerdict(["yes", "error", "yes", "no"]) // "yes"
 * majorityVerdict(["error", "error"])            // "error"
 */
export function majorityVerdict(verdicts: readonly Verdict[]): "yes" | "no" | "tie" | "error" {
  let yes = 0;
  let no = 0;
  for (const v of verdicts) {
    if (v === "yes") yes++;
    else if (v === "no") no++;
  }
  return yes > no ? "yes" : no > yes ? "no" : yes === 0 ? "error" : "tie";
}

function finalVerdict(reps: Judgment[]): JudgedItem {
  const first = reps[0]!;
  // one pass for the errors and the mean score, not a filtered list for each
  const errors: string[] = [];
  let sum = 0;
  let scored = 0;
  for (const r of reps) {
    if (r.verdict === "error") errors.push(r.error ?? "error");
    else if (r.pYes !== undefined) {
      sum += r.pYes;
      scored++;
    }
  }
  const majority = majorityVerdict(reps.map((r) => r.verdict));
  // A tie takes the verdict of the lowest repeat that has one.
  const verdict: Verdict = majority === "tie" ? reps.find((r) => r.verdict !== "error")!.verdict : majority;
  const chosen = reps.find((r) => r.verdict === verdict) ?? first;
  const item: JudgedItem = {
    key: keyOf(first), inputHash: first.inputHash, fingerprint: first.fingerprint, judge: first.judge as "llm" | "baseline",
    verdict, errors, repeats: reps.length, reason: chosen.reason,
  };
  return scored ? { pYes: sum / scored, ...item } : item;
}

/**
 * Each rubric's newest judge: the fingerprint of its most recent verdict
 * (neither decided by rule nor derived from claims: the verdicts the gate
 * groups; ties by fingerprint), and under it the served model (as
 * {@link groupJudgments} assigns them) of the most recent verdict whose
 * reply named one ("" when none did; ties: more verdicts, then by name).
 * The judge `sample --random` and `plan --budget` draw for: a draw frames
 * one judge's items, since the gate calibrates each apart.
 *
 * @example
 * newestJudges(judgments).get("faithfulness") // { fingerprint: "3f2a…", servedModel: "gpt-4o-mini-2024-07-18" }
 */
export function newestJudges(judgments: readonly Judgment[]): Map<string, { fingerprint: string; servedModel: string }> {
  const served = servedKeys(judgments.filter((j) => j.judge !== "rule"));
  const model = judgments.filter((j) => j.judge !== "rule" && !j.derived);
  const newest = new Map<string, { fp: string; t: number }>();
  for (const j of model) {
    const t = Date.parse(j.time);
    const cur = newest.get(j.rubric);
    if (!cur || t > cur.t || (t === cur.t && j.fingerprint < cur.fp)) newest.set(j.rubric, { fp: j.fingerprint, t });
  }
  const seen = new Map<string, Map<string, { t: number; n: number }>>();
  for (const j of model) {
    if (j.fingerprint !== newest.get(j.rubric)!.fp) continue;
    const byModel = seen.get(j.rubric) ?? seen.set(j.rubric, new Map()).get(j.rubric)!;
    const s = byModel.get(served(j)) ?? byModel.set(served(j), { t: -Infinity, n: 0 }).get(served(j))!;
    if (j.servedModel) s.t = Math.max(s.t, Date.parse(j.time));
    s.n++;
  }
  const pick = (rubric: string) => [...seen.get(rubric)!].sort((a, b) => b[1].t - a[1].t || b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1))[0]![0];
  return new Map([...newest].map(([rubric, { fp }]) => [rubric, { fingerprint: fp, servedModel: pick(rubric) }]));
}
