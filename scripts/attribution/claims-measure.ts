/**
 * The answer path and the claim path of faithfulness on a converted
 * attribution folder (convert.ts), judged by the offline baseline through
 * ragjudge's own item builder, scheduler and derivation, and measured against
 * the imported human labels joined on item key and input hash, as
 * `ragjudge calibrate` joins them.
 *
 * - answer path: `faithfulnessUnit: "answer"`, one item per claim row, the
 *   row's label on it;
 * - claim path: `faithfulnessUnit: "claim"`; each row's claims come from its
 *   output (the converter gives the claim as one explicit citation sentence,
 *   so each row is one claim, c1). Calibration at claim level: each row's
 *   label moves to its claim when the row has exactly one claim (then the
 *   person labelled exactly that claim); a row of several claims has no claim
 *   label. The derived answer verdicts are measured against the row labels too;
 * - splitter path: the claim path with the sentence splitter forced (the
 *   explicit sentences ignored), to show what splitting does to rows that
 *   are one claim to a person.
 */
import { loadConfig } from "../../src/golden/config.js";
import { loadJsonl } from "../../src/golden/jsonl.js";
import { Label, type Judgment } from "../../src/golden/schema/items.js";
import { splitClaims } from "../../src/judge/items/claims.js";
import { withDerivedVerdicts } from "../../src/judge/items/derive-claims.js";
import { loadJudgeInputs } from "../../src/judge/items/inputs.js";
import type { Item } from "../../src/judge/items/items.js";
import { baselineBackend } from "../../src/judge/judges/baseline.js";
import { runJudge } from "../../src/judge/schedule/run.js";
import { join } from "node:path";
import { ANNOTATOR } from "./convert.js";
import { type Agreement, agreement } from "./measure.js";

/** One path's pairs of (verdict, label), and which rows split into several claims. */
export interface PathFigures {
  answer: Agreement;
  /** Claim path only: claim verdicts against the labels moved to single claims. */
  claims?: Agreement;
  /** Claim path only: rows whose answer has more than one claim (no claim label). */
  multiClaim?: number;
  /** Verdict per labelled row (the answer verdict, derived on the claim paths), for verdict-by-verdict comparison. */
  verdicts: Map<string, "yes" | "no">;
}

export interface ClaimMeasurement {
  answerPath: PathFigures;
  claimPath: PathFigures;
  splitterPath: PathFigures;
  /** Rows whose answer verdict differs between the answer path and the claim path. */
  differing: number;
}

type Labels = Map<string, Label>;
const labelKey = (k: { variant: string; question: string; unit: string; inputHash: string }) => [k.variant, k.question, k.unit, k.inputHash].join("\u0000");

async function judge(items: readonly Item[]): Promise<Judgment[]> {
  const { judgments } = await runJudge({ items, backend: baselineBackend(), repeats: 1, concurrency: 1 });
  return withDerivedVerdicts(items, judgments);
}

/** Joins yes/no verdicts with labels on (variant, question, unit, input hash). */
function pairs(judgments: readonly Judgment[], labels: Labels, unit: (u: string) => boolean) {
  const out: { question: string; verdict: "yes" | "no"; label: "yes" | "no" }[] = [];
  for (const j of judgments) {
    if (j.rubric !== "faithfulness" || !unit(j.unit) || j.verdict === "error" || j.repeat !== 0) continue;
    const l = labels.get(labelKey(j));
    if (l) out.push({ question: j.question, verdict: j.verdict, label: l.label });
  }
  return out;
}

async function claimPath(items: readonly Item[], answerLabels: Labels, seed: number): Promise<PathFigures> {
  const judgments = await judge(items);
  // Claim-level labels: a row's label moves to its claim when the row is exactly one claim.
  const claimLabels: Labels = new Map();
  const byAnswer = new Map<string, Item[]>();
  for (const it of items) {
    if (!it.claim) continue;
    const k = labelKey({ ...it.key, unit: "answer", inputHash: it.claim.answerHash });
    byAnswer.set(k, [...(byAnswer.get(k) ?? []), it]);
  }
  let multiClaim = 0;
  for (const [k, l] of answerLabels) {
    const claims = byAnswer.get(k) ?? [];
    if (claims.length > 1) multiClaim++;
    if (claims.length === 1) claimLabels.set(labelKey({ ...claims[0]!.key, inputHash: claims[0]!.inputHash }), { ...l, unit: claims[0]!.key.unit, inputHash: claims[0]!.inputHash });
  }
  const derived = pairs(judgments.filter((j) => j.derived || j.judge === "rule"), answerLabels, (u) => u === "answer");
  const claims = pairs(judgments, claimLabels, (u) => /^c\d+$/.test(u));
  return { answer: agreement(derived, seed), claims: agreement(claims, seed), multiClaim, verdicts: new Map(derived.map((p) => [p.question, p.verdict])) };
}

/**
 * Measures the three paths on a converted folder (its `ragjudge.config.json`
 * and `labels/`), with the baseline judge.
 */
export async function measureClaims(dir: string, seed = 1): Promise<ClaimMeasurement> {
  const resolved = loadConfig(join(dir, "ragjudge.config.json"));
  const labels: Labels = new Map();
  for (const { value } of loadJsonl(join(dir, "labels", `${ANNOTATOR}.jsonl`), Label)) if (value.rubric === "faithfulness") labels.set(labelKey(value), value);

  const answerItems = loadJudgeInputs(resolved, { rubrics: ["faithfulness"] }).itemSet.items;
  const answerPairs = pairs(await judge(answerItems), labels, (u) => u === "answer");
  const answerPath: PathFigures = { answer: agreement(answerPairs, seed), verdicts: new Map(answerPairs.map((p) => [p.question, p.verdict])) };

  const claimConfig = { ...resolved, config: { ...resolved.config, faithfulnessUnit: "claim" as const } };
  const claimItems = loadJudgeInputs(claimConfig, { rubrics: ["faithfulness"] }).itemSet.items;
  const splitItems = loadJudgeInputs(claimConfig, { rubrics: ["faithfulness"], claimsOf: (it) => splitClaims(it.evidence.answer ?? "") }).itemSet.items;
  const claim = await claimPath(claimItems, labels, seed);
  const splitter = await claimPath(splitItems, labels, seed);
  let differing = 0;
  for (const [q, v] of answerPath.verdicts) if (claim.verdicts.get(q) !== v) differing++;
  return { answerPath, claimPath: claim, splitterPath: splitter, differing };
}
