import type { RagjudgeConfig } from "../../golden/schema/config.js";
import type { Judgment } from "../../golden/schema/items.js";
import { panelEntries } from "../../judge/judges/panel.js";
import type { Item } from "../../judge/items/items.js";
import type { Rubric } from "../../judge/rubric/rubric.js";
import { JudgeCache } from "../../judge/schedule/cache.js";
import { PanelMemo, runPanel, type PanelJudgeRun } from "../../judge/schedule/panel.js";
import type { PanelRubric } from "../../calibration/panel.js";
import { withDerivedVerdicts } from "../../judge/items/derive-claims.js";
import type { PanelJson } from "./schema.js";

/** The panel's verdicts file in the evaluation folder and the cache folder (where `sample --panel-splits` reads it). */
export const PANEL_JUDGMENTS = "panel-judgments.jsonl";

/** Options of {@link judgePanel}. */
export interface PanelStepOptions {
  config: RagjudgeConfig;
  items: readonly Item[];
  rubrics: readonly Rubric[];
  cacheDir: string;
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** The config file as the user names it: a panel judge's hints name its entry there. */
  configFile?: string;
}

/**
 * Judges every item with every judge of the config's `judges`, sharing the
 * verdict cache of `ragjudge judge` (one lease for the whole panel).
 *
 * @example
 * const runs = await judgePanel({ config, items, rubrics, cacheDir, log });
 */
export async function judgePanel(o: PanelStepOptions): Promise<PanelJudgeRun[]> {
  const judges = o.config.judges ?? [];
  const cache = judges.some((j) => j.kind === "openai") ? JudgeCache.open(o.cacheDir) : undefined;
  try {
    const lease = cache?.acquireLease("ragjudge run (judge panel)");
    try {
      const memo = new PanelMemo();
      const entries = panelEntries(judges, o.config, o.rubrics, { wrap: memo.wrap, ...(cache ? { memory: cache } : {}), ...(o.env ? { env: o.env } : {}), ...(o.configFile ? { configFile: o.configFile } : {}) });
      for (const e of entries) o.log(`judge panel: ${e.name}: ${e.judge.label}\n`);
      const runs = await runPanel({
        entries, memo, items: o.items, rubrics: o.rubrics, ...(cache ? { cache } : {}),
        onJudgeDone: (d) => o.log(d.stopped
          ? `judge panel: ${d.name} stopped: ${d.stopped}; its items without a committed verdict are error verdicts\n`
          : `judge panel: ${d.name}: ${d.verdicts} verdicts (${d.cached} from the cache), ${d.errors} errors, ${d.seconds.toFixed(1)} s\n`),
      });
      // Claim-level faithfulness: each judge's answer verdicts derived from its claim verdicts.
      return runs.map((r) => ({ ...r, judgments: withDerivedVerdicts(o.items, r.judgments) }));
    } finally {
      lease?.release();
    }
  } finally {
    cache?.close();
  }
}

/** The panel's verdicts as JSONL (every line with `judgeName`). */
export function panelJudgmentsText(runs: readonly PanelJudgeRun[]): string {
  const lines = runs.flatMap((r) => r.judgments.map((j: Judgment) => JSON.stringify(j)));
  return lines.join("\n") + (lines.length ? "\n" : "");
}

/** Error verdicts of the panel's model and baseline judges: items a judge left unfinished (a combined judge's "no majority" is its answer, not unfinished). */
export function panelErrors(runs: readonly PanelJudgeRun[]): number {
  return runs.filter((r) => !r.members).reduce((n, r) => n + r.judgments.filter((j) => j.verdict === "error" && !j.derived).length, 0);
}

/** report.json's `panel`. */
export function panelJson(runs: readonly PanelJudgeRun[], figures: readonly PanelRubric[]): PanelJson {
  return {
    judges: runs.map((r) => ({ name: r.name, kind: r.kind, label: r.label, model: r.model ?? null, members: r.members ? [...r.members] : [], stopped: r.stopped ?? null })),
    rubrics: figures.map((f) => ({ ...f, splits: f.splits.length })),
    judgments: PANEL_JUDGMENTS,
  };
}
