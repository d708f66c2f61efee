import { hashJson, sha256 } from "../../golden/hash.js";
import type { Evidence } from "../../golden/schema/items.js";
import type { Rubric } from "../rubric/rubric.js";
import type { Usage } from "../transport/completion.js";
import type { Judge, JudgeOutcome } from "./judge.js";

/**
 * Combined judges as judge records (see judges/judge.ts): majority,
 * unanimous-yes and a cascade over named member records. Each is a
 * {@link Judge} like any other, so the scheduler runs it without knowing it
 * is one, and calibration treats it like any judge. Its fingerprint is
 * derived from its rule, its parameters and its members' fingerprints, so a
 * change to any member's prompt or model gives it a new one. It is not
 * cached itself (its members are, and a panel run hands it their verdicts),
 * and it records which members each verdict used, so a cascade's cost
 * counts the stronger judge only where it escalated.
 */

/** A member of a combined judge: its panel name and its record. */
export interface Member {
  name: string;
  judge: Judge;
}

/** The rule and parameters of a combined judge. */
export type CombineRule =
  | { kind: "majority" }
  | { kind: "unanimous" }
  | { kind: "cascade"; confidence: number; sample: number };

/** A combined judge's record, with what each verdict used. */
export interface CombinedJudge extends Judge {
  readonly rule: CombineRule;
  readonly members: readonly Member[];
  /** The member names the verdict for (rubric, input hash) used in this run (a cascade: `first`, and `then` when it escalated). */
  usedMembers(rubric: string, inputHash: string): readonly string[] | undefined;
  /** Why a cascade escalated the item, when it did ("uncertain", "error", "sample"). */
  escalation(rubric: string, inputHash: string): "uncertain" | "error" | "sample" | undefined;
}

/** What a combined judge's fingerprint covers. */
export const COMBINED_COVERS: readonly string[] = [
  "the combining rule (majority, unanimous, cascade) and its parameters (a cascade's confidence and sample share)",
  "every member's fingerprint for the rubric, in order (so any member's change gives a new one)",
];

function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a) return b;
  if (!b) return a;
  return { prompt: a.prompt + b.prompt, completion: a.completion + b.completion };
}

/**
 * Whether the item falls in a cascade's sample: a deterministic share of
 * items (by rubric and input hash), the same in every run, so the measured
 * disagreement does not move between reruns.
 */
export function inCascadeSample(rubric: string, inputHash: string, share: number): boolean {
  if (share <= 0) return false;
  if (share >= 1) return true;
  return parseInt(sha256(`cascade-sample\0${rubric}\0${inputHash}`).slice(0, 8), 16) / 0x1_0000_0000 < share;
}

/**
 * Why a cascade escalates the first judge's outcome, or undefined: its
 * error; its confidence max(pYes, 1 - pYes) below `confidence` (only where
 * it gives a pYes); or the item in the sample.
 *
 * @example
 * cascadeEscalation({ verdict: "yes", pYes: 0.6 }, { confidence: 0.8, sample: 0 }, "faithfulness", hash) // "uncertain"
 */
export function cascadeEscalation(first: Pick<JudgeOutcome, "verdict" | "pYes">, rule: { confidence: number; sample: number }, rubric: string, inputHash: string): "uncertain" | "error" | "sample" | undefined {
  if (first.verdict === "error") return "error";
  if (first.pYes !== undefined && Math.max(first.pYes, 1 - first.pYes) < rule.confidence) return "uncertain";
  if (inCascadeSample(rubric, inputHash, rule.sample)) return "sample";
  return undefined;
}

function vote(rule: "majority" | "unanimous", outcomes: readonly { name: string; o: JudgeOutcome }[]): { verdict: "yes" | "no" | "error"; reason: string; error?: string } {
  const yes = outcomes.filter((x) => x.o.verdict === "yes").length;
  const no = outcomes.filter((x) => x.o.verdict === "no").length;
  const errors = outcomes.length - yes - no;
  const tally = `${yes} yes, ${no} no${errors ? `, ${errors} error` : ""} (${outcomes.map((x) => `${x.name}: ${x.o.verdict}`).join(", ")})`;
  if (rule === "majority") {
    if (2 * yes > outcomes.length) return { verdict: "yes", reason: `majority yes: ${tally}` };
    if (2 * no > outcomes.length) return { verdict: "no", reason: `majority no: ${tally}` };
    return { verdict: "error", reason: "", error: `no-majority: ${tally}` };
  }
  if (no > 0) return { verdict: "no", reason: `not unanimous: ${tally}` };
  if (errors > 0) return { verdict: "error", reason: "", error: `member-error: ${tally}` };
  return { verdict: "yes", reason: `unanimous yes: ${tally}` };
}

/**
 * A combined judge over member records.
 *
 * @example
 * const m = combinedJudge({ kind: "majority" }, [{ name: "a", judge: a }, { name: "b", judge: b }, { name: "c", judge: c }]);
 * await m.judge(rubric, evidence) // yes when two of three say yes
 */
export function combinedJudge(rule: CombineRule, members: readonly Member[]): CombinedJudge {
  if (rule.kind === "cascade" && members.length !== 2) throw new RangeError("a cascade has exactly two members: first, then");
  const used = new Map<string, readonly string[]>();
  const escalated = new Map<string, "uncertain" | "error" | "sample">();
  const fps = new Map<string, string>();
  const template = (rubric: Rubric) => ({ combined: rule.kind, ...rule, members: members.map((m) => ({ judge: m.judge.name, fingerprint: m.judge.fingerprint(rubric) })) });
  const fingerprint = (rubric: Rubric) => {
    const t = template(rubric);
    const k = hashJson(t);
    let fp = fps.get(k);
    if (fp === undefined) fps.set(k, (fp = hashJson({ judge: `ragjudge-${rule.kind}`, version: 1, ...t })));
    return fp;
  };
  const names = members.map((m) => m.name).join(", ");
  const label = rule.kind === "cascade"
    ? `cascade: ${members[0]!.name}, escalating to ${members[1]!.name} below confidence ${rule.confidence}${rule.sample ? ` and on a ${Math.round(rule.sample * 100)}% sample` : ""}`
    : `${rule.kind === "majority" ? "majority" : "unanimous yes"} of ${names}`;
  return {
    name: `ragjudge-${rule.kind}`,
    kind: members.some((m) => m.judge.kind === "llm") ? "llm" : "baseline",
    label,
    covers: COMBINED_COVERS,
    cached: false,
    repeatable: false,
    maxConcurrency: Number.POSITIVE_INFINITY,
    rule,
    members,
    fingerprint,
    template,
    usedMembers: (rubric, inputHash) => used.get(`${rubric}\0${inputHash}`),
    escalation: (rubric, inputHash) => escalated.get(`${rubric}\0${inputHash}`),
    async judge(rubric: Rubric, evidence: Evidence): Promise<JudgeOutcome> {
      const fp = fingerprint(rubric);
      const inputHash = hashJson(evidence);
      const key = `${rubric.name}\0${inputHash}`;
      if (rule.kind !== "cascade") {
        const outcomes = await Promise.all(members.map(async (m) => ({ name: m.name, o: await m.judge.judge(rubric, evidence) })));
        used.set(key, members.map((m) => m.name));
        const v = vote(rule.kind, outcomes);
        const usage = outcomes.reduce<Usage | undefined>((u, x) => addUsage(u, x.o.usage), undefined);
        return { ...v, fingerprint: fp, ...(usage ? { usage } : {}) };
      }
      const [first, then] = members as [Member, Member];
      const a = await first.judge.judge(rubric, evidence);
      const why = cascadeEscalation(a, rule, rubric.name, inputHash);
      if (why === undefined) {
        used.set(key, [first.name]);
        return { verdict: a.verdict, reason: `${first.name}: ${a.reason}`, ...(a.pYes === undefined ? {} : { pYes: a.pYes }), ...(a.error ? { error: a.error } : {}), fingerprint: fp, ...(a.usage ? { usage: a.usage } : {}) };
      }
      escalated.set(key, why);
      used.set(key, [first.name, then.name]);
      const b = await then.judge.judge(rubric, evidence);
      const usage = addUsage(a.usage, b.usage);
      const because = why === "uncertain" ? `${first.name} uncertain (pYes ${a.pYes!.toFixed(2)})` : why === "error" ? `${first.name} failed (${a.error ?? "error"})` : `sampled (${first.name}: ${a.verdict})`;
      return { verdict: b.verdict, reason: `escalated to ${then.name}, ${because}: ${b.reason}`, ...(b.pYes === undefined ? {} : { pYes: b.pYes }), ...(b.error ? { error: b.error } : {}), fingerprint: fp, ...(usage ? { usage } : {}) };
    },
  };
}
