import { hashJson } from "../../golden/hash.js";
import type { Evidence, Judgment } from "../../golden/schema/items.js";
import { RULE_FINGERPRINT, type Item } from "../items/items.js";
import { FatalJudgeError, type Judge, type JudgeOutcome } from "../judges/judge.js";
import type { PanelEntry } from "../judges/panel.js";
import type { Rubric } from "../rubric/rubric.js";
import { cacheKey, type JudgeCache } from "./cache.js";
import { costUsd } from "./cost.js";
import { runJudge } from "./run.js";

/**
 * Runs a judge panel: every leaf judge (a model, the baseline) at once, each
 * through the ordinary scheduler with its own endpoint's concurrency and the
 * shared cache (keyed by each judge's fingerprint, as for one judge); then
 * the combined judges, whose members answer from what the leaves already
 * judged ({@link PanelMemo}), so no item is paid for twice. A leaf whose
 * endpoint goes down ends in error verdicts for that judge only (its
 * committed verdicts still come from the cache); the others finish.
 */

/** One judge's figures for one rubric in a panel run. */
export interface PanelRubricUse {
  /** Verdicts (rule verdicts left out). */
  verdicts: number;
  errors: number;
  /** USD of the tokens behind every verdict (cached ones included: what judging all of them costs); null when a model has no price. */
  usd: number | null;
  /** Milliseconds of each call made in this run (cached verdicts have none); a combined judge's are its members' (summed for a cascade, the slowest for a vote). */
  latenciesMs: number[];
  /** A cascade: how many verdicts escalated, by cause, and on its sample how often the two judges disagreed. */
  escalated?: { uncertain: number; error: number; sample: number; total: number };
  sampled?: { items: number; disagreeing: number };
}

/** One judge of a panel after the run. */
export interface PanelJudgeRun {
  name: string;
  kind: PanelEntry["kind"];
  label: string;
  model?: string;
  /** Every verdict, each with `judgeName`, in item order. */
  judgments: Judgment[];
  byRubric: Map<string, PanelRubricUse>;
  /** Why the judge stopped before finishing (an endpoint outage), when it did. */
  stopped?: string;
  /** Member names of a combined judge. */
  members?: string[];
  fingerprints: { rubric: string; fingerprint: string; template: unknown }[];
}

const itemKey = (rubric: string, inputHash: string) => `${rubric}\0${inputHash}`;

/**
 * What the panel's judges have answered, per judge: a combined judge asking
 * a member gets the member's verdict from here (judged this run, or read
 * from the cache), never a second call; a member that stopped answers with
 * an error verdict. Also times each call that reaches a model.
 */
export class PanelMemo {
  private readonly answers = new Map<string, Map<string, Promise<JudgeOutcome>>>();
  readonly latency = new Map<string, Map<string, number>>();
  readonly stopped = new Map<string, string>();

  private of<T>(m: Map<string, Map<string, T>>, name: string): Map<string, T> {
    let x = m.get(name);
    if (!x) m.set(name, (x = new Map()));
    return x;
  }

  /** A record that answers through the memo (pass as `wrap` to panelEntries). */
  wrap = (name: string, judge: Judge): Judge => {
    const w = Object.create(judge) as Judge & { judge: Judge["judge"] };
    w.judge = (rubric: Rubric, evidence: Evidence) => this.answer(name, judge, rubric, evidence);
    return w;
  };

  private answer(name: string, judge: Judge, rubric: Rubric, evidence: Evidence): Promise<JudgeOutcome> {
    const key = itemKey(rubric.name, hashJson(evidence));
    const known = this.of(this.answers, name).get(key);
    if (known) return known;
    const stopped = this.stopped.get(name);
    if (stopped !== undefined) return Promise.resolve({ verdict: "error", reason: "", error: `judge-stopped: ${stopped}`, fingerprint: judge.fingerprint(rubric) });
    const started = performance.now();
    const p = judge.judge(rubric, evidence).then((o) => {
      if (!("members" in judge)) this.of(this.latency, name).set(key, performance.now() - started);
      return o;
    });
    // The member's own run sees a stopping failure (so it stops); a combined judge asking later gets an error verdict.
    this.of(this.answers, name).set(key, p.catch((e: unknown) => {
      if (!(e instanceof FatalJudgeError)) throw e;
      return { verdict: "error" as const, reason: "", error: `judge-stopped: ${e.message}`, fingerprint: judge.fingerprint(rubric) };
    }));
    return p;
  }

  /** Records the verdicts a judge's run gave (cache hits included), for the combined judges that use it. */
  remember(name: string, judgments: readonly Judgment[]): void {
    const answers = this.of(this.answers, name);
    for (const j of judgments) {
      if (j.judge === "rule" || j.repeat !== 0) continue;
      const key = itemKey(j.rubric, j.inputHash);
      if (answers.has(key)) continue;
      answers.set(key, Promise.resolve({ verdict: j.verdict, reason: j.reason, fingerprint: j.fingerprint, ...(j.pYes === undefined ? {} : { pYes: j.pYes }), ...(j.error ? { error: j.error } : {}), ...(j.usage ? { usage: j.usage } : {}) }));
    }
  }
}

/** Options of {@link runPanel}. */
export interface PanelRunOptions {
  entries: readonly PanelEntry[];
  memo: PanelMemo;
  items: readonly Item[];
  /** The verdict cache (required when any judge calls a model). */
  cache?: JudgeCache;
  rubrics: readonly Rubric[];
  /** Told as each judge finishes (for a status line: a panel of slow judges runs a while). */
  onJudgeDone?: (done: { name: string; verdicts: number; cached: number; errors: number; seconds: number; stopped?: string }) => void;
}

/** Verdicts for a judge that stopped: from the cache where committed, else an error verdict; rule items as rules. */
function afterStop(entry: PanelEntry, items: readonly Item[], cache: JudgeCache | undefined, why: string): Judgment[] {
  const time = new Date().toISOString();
  return items.map((item): Judgment => {
    if (item.rule) return { ...item.key, inputHash: item.inputHash, fingerprint: RULE_FINGERPRINT, judge: "rule", repeat: 0, verdict: item.rule.verdict, reason: item.rule.reason, rule: item.rule.rule, cached: false, time };
    const fp = entry.judge.fingerprint(item.rubric);
    const hit = entry.judge.cached ? cache?.getDone(cacheKey(fp, item.inputHash, 0)) : undefined;
    if (hit) return { ...item.key, inputHash: item.inputHash, fingerprint: fp, judge: hit.judge, model: hit.model, servedModel: hit.servedModel, repeat: 0, verdict: hit.verdict, reason: hit.reason, error: hit.error, usage: hit.usage, cached: true, time: hit.time };
    return { ...item.key, inputHash: item.inputHash, fingerprint: fp, judge: entry.judge.kind, model: entry.judge.model, repeat: 0, verdict: "error", reason: "", error: `judge-stopped: ${why}`, cached: false, time };
  });
}

async function runOne(entry: PanelEntry, o: PanelRunOptions): Promise<{ judgments: Judgment[]; stopped?: string }> {
  const started = performance.now();
  const r = await runStopping(entry, o);
  if (o.onJudgeDone) {
    const model = r.judgments.filter((j) => j.judge !== "rule");
    o.onJudgeDone({ name: entry.name, verdicts: model.length, cached: model.filter((j) => j.cached).length, errors: model.filter((j) => j.verdict === "error").length, seconds: (performance.now() - started) / 1000, ...(r.stopped ? { stopped: r.stopped } : {}) });
  }
  return r;
}

async function runStopping(entry: PanelEntry, o: PanelRunOptions): Promise<{ judgments: Judgment[]; stopped?: string }> {
  try {
    const r = await runJudge({ items: o.items, backend: entry.judge, cache: o.cache, repeats: 1, concurrency: entry.concurrency, lease: false });
    return { judgments: r.judgments };
  } catch (e) {
    if (!(e instanceof FatalJudgeError) || e.kind !== "endpoint") throw e;
    o.memo.stopped.set(entry.name, e.message);
    return { judgments: afterStop(entry, o.items, o.cache, e.message), stopped: e.message };
  }
}

function median(xs: readonly number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The median of a list (null when empty), as the panel reports latency. */
export { median as medianOf };

/**
 * Judges every item with every judge of the panel (leaves concurrently,
 * then combined judges, members first) and measures each judge: verdicts,
 * errors, cost of the tokens behind its verdicts, call latencies, and a
 * cascade's escalations. Holds no lease: the caller holds the cache's.
 *
 * @example
 * const memo = new PanelMemo();
 * const entries = panelEntries(config.judges!, config, rubrics, { wrap: memo.wrap, memory: cache });
 * const runs = await runPanel({ entries, memo, items, cache, rubrics });
 */
export async function runPanel(o: PanelRunOptions): Promise<PanelJudgeRun[]> {
  const leaves = o.entries.filter((e) => !e.combined);
  const results = new Map<string, { judgments: Judgment[]; stopped?: string }>();
  const settled = await Promise.allSettled(leaves.map(async (e) => {
    const r = await runOne(e, o);
    o.memo.remember(e.name, r.judgments);
    results.set(e.name, r);
  }));
  const failed = settled.find((s) => s.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
  // Combined judges after their members (entries' order may differ from the config's).
  const pending = o.entries.filter((e) => e.combined);
  while (pending.length) {
    const i = pending.findIndex((e) => e.combined!.members.every((m) => results.has(m.name)));
    const e = pending.splice(i < 0 ? 0 : i, 1)[0]!;
    const r = await runOne(e, o);
    o.memo.remember(e.name, r.judgments);
    results.set(e.name, r);
  }
  return measure(o, results);
}

function measure(o: PanelRunOptions, results: Map<string, { judgments: Judgment[]; stopped?: string }>): PanelJudgeRun[] {
  const itemCost = new Map<string, Map<string, number | null>>();
  const itemLatency = new Map<string, Map<string, number>>();
  const verdictOf = new Map<string, Map<string, Judgment>>();
  const runs = new Map<string, PanelJudgeRun>();
  // Members come first in entries' dependency order: walk leaves, then combined judges in the order they ran.
  const order = [...o.entries.filter((e) => !e.combined), ...o.entries.filter((e) => e.combined)];
  const done = new Set<string>();
  while (done.size < order.length) {
    const e = order.find((x) => !done.has(x.name) && (!x.combined || x.combined.members.every((m) => done.has(m.name))))!;
    done.add(e.name);
    const r = results.get(e.name)!;
    const judgments = r.judgments.map((j) => ({ ...j, judgeName: e.name }));
    const costs = new Map<string, number | null>();
    const lat = new Map<string, number>();
    const verdicts = new Map<string, Judgment>();
    const byRubric = new Map<string, PanelRubricUse>();
    for (const j of judgments) {
      if (j.judge === "rule") continue;
      const key = itemKey(j.rubric, j.inputHash);
      verdicts.set(key, j);
      const u = byRubric.get(j.rubric) ?? { verdicts: 0, errors: 0, usd: 0, latenciesMs: [] };
      byRubric.set(j.rubric, u);
      u.verdicts++;
      if (j.verdict === "error") u.errors++;
      let usd: number | null;
      let ms: number | undefined;
      if (e.combined) {
        const used = e.combined.usedMembers(j.rubric, j.inputHash) ?? e.combined.members.map((m) => m.name);
        usd = 0;
        for (const m of used) {
          const c = itemCost.get(m)?.get(key);
          if (c === null) usd = null;
          else if (c !== undefined && usd !== null) usd += c;
        }
        const ls = used.map((m) => itemLatency.get(m)?.get(key)).filter((x): x is number => x !== undefined);
        if (ls.length) ms = e.combined.rule.kind === "cascade" ? ls.reduce((a, b) => a + b, 0) : Math.max(...ls);
        if (e.combined.rule.kind === "cascade") {
          const why = e.combined.escalation(j.rubric, j.inputHash);
          u.escalated ??= { uncertain: 0, error: 0, sample: 0, total: 0 };
          if (why) {
            u.escalated[why]++;
            u.escalated.total++;
          }
          if (why === "sample") {
            const [first, then] = e.combined.members;
            const a = verdictOf.get(first!.name)?.get(key)?.verdict;
            const b = verdictOf.get(then!.name)?.get(key)?.verdict;
            u.sampled ??= { items: 0, disagreeing: 0 };
            u.sampled.items++;
            if (a && b && a !== "error" && b !== "error" && a !== b) u.sampled.disagreeing++;
          }
        }
      } else {
        usd = e.price ? (j.usage ? costUsd(j.usage.prompt, j.usage.completion, e.price) : 0) : j.usage ? null : 0;
        ms = o.memo.latency.get(e.name)?.get(key);
      }
      costs.set(key, usd);
      u.usd = u.usd === null || usd === null ? null : u.usd + usd;
      if (ms !== undefined) {
        lat.set(key, ms);
        u.latenciesMs.push(ms);
      }
    }
    itemCost.set(e.name, costs);
    itemLatency.set(e.name, lat);
    verdictOf.set(e.name, verdicts);
    runs.set(e.name, {
      name: e.name, kind: e.kind, label: e.judge.label, ...(e.judge.model ? { model: e.judge.model } : {}), judgments, byRubric,
      ...(r.stopped ? { stopped: r.stopped } : {}),
      ...(e.combined ? { members: e.combined.members.map((m) => m.name) } : {}),
      fingerprints: o.rubrics.map((rb) => ({ rubric: rb.name, fingerprint: e.judge.fingerprint(rb), template: e.judge.template(rb) })),
    });
  }
  return o.entries.map((e) => runs.get(e.name)!);
}
