import { z } from "zod";
import { Id } from "./common.js";
import { OpenAIJudgeConfig } from "./judge-config.js";

/**
 * The judges of a panel (config `judges`): several judges side by side, each
 * named, calibrated against the same labels. The config's single `judge`
 * stays valid (a panel of one). Leaf judges call a model or run the offline
 * baseline; combined judges (majority, unanimous, cascade) compose leaves or
 * other combined judges by name, and get their own fingerprint derived from
 * their members' fingerprints and their rule.
 */

/** A model behind an OpenAI-compatible endpoint; each has its own client, concurrency and retries (limits per endpoint). */
export const PanelOpenAIJudge = OpenAIJudgeConfig.omit({ repeats: true }).extend({
  name: Id,
  /** USD per million tokens for this judge (else the config's `prices` for its model). */
  price: z.strictObject({ input: z.number().min(0), output: z.number().min(0) }).optional(),
});

/** The offline lexical baseline on a panel. */
export const PanelBaselineJudge = z.strictObject({ name: Id, kind: z.literal("baseline") });

/** The same verdict for every item: a panel's reference point (a judge saying yes to everything), usable offline. */
export const PanelConstantJudge = z.strictObject({ name: Id, kind: z.literal("constant"), verdict: z.enum(["yes", "no"]) });

/** Yes when more than half of the members say yes (a tie is an error verdict: no majority). */
export const PanelMajorityJudge = z.strictObject({ name: Id, kind: z.literal("majority"), members: z.array(Id).min(2) });

/** Yes only when every member says yes (a strict judge: any no is no). */
export const PanelUnanimousJudge = z.strictObject({ name: Id, kind: z.literal("unanimous"), members: z.array(Id).min(2) });

/**
 * The cheap judge `first`, escalating to `then` when `first` is uncertain:
 * its error, or its confidence max(pYes, 1 - pYes) below `confidence` where
 * it gives a pYes (log-probabilities, the baseline's learned model); and on a
 * deterministic `sample` share of items both judge, `then` deciding when they
 * disagree (so disagreement is measured even for a judge without a pYes).
 */
export const PanelCascadeJudge = z.strictObject({
  name: Id,
  kind: z.literal("cascade"),
  first: Id,
  then: Id,
  confidence: z.number().min(0.5).max(1).default(0.8),
  sample: z.number().min(0).max(1).default(0),
});

export const PanelJudgeConfig = z.discriminatedUnion("kind", [PanelOpenAIJudge, PanelBaselineJudge, PanelConstantJudge, PanelMajorityJudge, PanelUnanimousJudge, PanelCascadeJudge]);
export type PanelJudgeConfig = z.infer<typeof PanelJudgeConfig>;
export type PanelLeafConfig = z.infer<typeof PanelOpenAIJudge> | z.infer<typeof PanelBaselineJudge>;

/** The member names a judge of the panel composes (none for a leaf). */
export function membersOf(j: PanelJudgeConfig): string[] {
  if (j.kind === "majority" || j.kind === "unanimous") return j.members;
  if (j.kind === "cascade") return [j.first, j.then];
  return [];
}

/**
 * The panel's own checks, as issues at the offending field: names unique
 * (they are identities in every report), members naming judges of the
 * panel, no judge its own member, no cycle, and no member twice in one
 * combined judge.
 */
export function checkPanel(judges: readonly PanelJudgeConfig[], ctx: z.RefinementCtx, at: (string | number)[]): void {
  const index = new Map<string, number>();
  judges.forEach((j, i) => {
    const first = index.get(j.name);
    if (first === undefined) index.set(j.name, i);
    else ctx.addIssue({ code: "custom", path: [...at, i, "name"], message: `duplicate judge name ${JSON.stringify(j.name)} (also judges[${first}]): names are identities, so their results would merge` });
  });
  judges.forEach((j, i) => {
    const field = j.kind === "cascade" ? ["first", "then"] : ["members"];
    const ms = membersOf(j);
    ms.forEach((m, k) => {
      const path = j.kind === "cascade" ? [...at, i, field[k]!] : [...at, i, "members", k];
      if (m === j.name) ctx.addIssue({ code: "custom", path, message: `judge ${JSON.stringify(j.name)} cannot be its own member` });
      else if (!index.has(m)) ctx.addIssue({ code: "custom", path, message: `no judge named ${JSON.stringify(m)} in judges (known: ${[...index.keys()].join(", ")})` });
      else if (ms.indexOf(m) !== k) ctx.addIssue({ code: "custom", path, message: `member ${JSON.stringify(m)} named twice` });
    });
  });
  // A cycle (a combined judge reaching itself through members) could never be judged.
  const byName = new Map(judges.map((j) => [j.name, j]));
  const state = new Map<string, "open" | "done">();
  const visit = (name: string, trail: string[]): string[] | undefined => {
    if (state.get(name) === "done") return undefined;
    if (state.get(name) === "open") return [...trail, name];
    state.set(name, "open");
    for (const m of membersOf(byName.get(name) ?? ({ kind: "baseline", name } as PanelJudgeConfig))) {
      if (m === name || !byName.has(m)) continue;
      const cycle = visit(m, [...trail, name]);
      if (cycle) return cycle;
    }
    state.set(name, "done");
    return undefined;
  };
  for (const j of judges) {
    const cycle = visit(j.name, []);
    if (cycle) {
      ctx.addIssue({ code: "custom", path: [...at, index.get(cycle[0]!)!, "name"], message: `judges form a cycle: ${cycle.join(" → ")}` });
      return;
    }
  }
}
