import { existsSync } from "node:fs";
import { evidenceKey } from "../calibration/keys.js";
import { loadLabels, type LabelBook } from "../calibration/labels.js";
import type { ResolvedConfig } from "../golden/config.js";
import { InputError } from "../golden/errors.js";
import { loadJsonl } from "../golden/jsonl.js";
import { Judgment, type QueueEntry } from "../golden/schema/items.js";
import { loadJudgeInputs } from "../judge/items/inputs.js";
import { candidatesFromRun } from "./candidates.js";
import { toEntry } from "./sample.js";
import { checkAnnotator } from "./store.js";
import { projectArgs, shellArg } from "../golden/project-args.js";

/**
 * The `panel-split` review frame (`ragjudge sample --panel-splits`): every
 * item of today's data where the judges of a panel gave both yes and no,
 * read from the panel's verdicts (panel-judgments.jsonl, each line with its
 * `judgeName`). People settle what the judges could not; their labels feed
 * error analysis and never the trust gate (calibration/pairing.ts refuses
 * the frame whatever draw drew the item), since the frame chooses exactly
 * the hard items.
 */

/** What the frame found for one rubric. */
export interface PanelSplitCount {
  rubric: string;
  /** Items the panel judged on today's evidence. */
  judged: number;
  splits: number;
  /** Split items the annotator already labelled (not queued again). */
  labelledByAnnotator: number;
  queued: number;
}

/** Options of {@link panelSplitQueue}. */
export interface PanelSplitOptions {
  annotator: string;
  panelJudgmentsFile: string;
  labelsDir: string;
  /** The labels folder as the caller already read it (for its annotator check); default: read here. */
  book?: LabelBook;
  rubrics?: string[];
  variants?: string[];
}

/**
 * The queue of split items, in item order.
 *
 * @example
 * panelSplitQueue(loadConfig(), { annotator: "asha", panelJudgmentsFile: ".ragjudge/panel-judgments.jsonl", labelsDir: "labels" })
 */
export function panelSplitQueue(cfg: ResolvedConfig, o: PanelSplitOptions): { entries: QueueEntry[]; rubrics: PanelSplitCount[]; judges: string[] } {
  checkAnnotator(o.annotator);
  if (!existsSync(o.panelJudgmentsFile)) {
    throw new InputError(o.panelJudgmentsFile, undefined, undefined, `panel judgments not found: run \`ragjudge run ${projectArgs(cfg).map(shellArg).join(" ")}\` with a judge panel (config "judges") first, or pass --evaluation DIR or --judgments FILE`);
  }
  const { golden, variants, itemSet } = loadJudgeInputs(cfg, { rubrics: o.rubrics, variants: o.variants });
  const all = loadJsonl(o.panelJudgmentsFile, Judgment).map((r) => r.value);
  const judges = [...new Set(all.map((j) => j.judgeName).filter((n): n is string => n !== undefined))];
  if (judges.length === 0) throw new InputError(o.panelJudgmentsFile, undefined, "judgeName", "no verdict names its panel judge: this is not a panel's judgments file (ragjudge run writes panel-judgments.jsonl)");
  // Each judge's verdicts on today's items, as the sampler reads one judge's.
  const byJudge = judges.map((name) => {
    const { candidates } = candidatesFromRun(itemSet.items, all.filter((j) => j.judgeName === name), golden, variants);
    return new Map(candidates.map((c) => [evidenceKey(c.key, c.inputHash), c]));
  });
  const book = o.book ?? loadLabels(o.labelsDir);
  const own = new Set(book.history.filter((l) => l.value.annotator === o.annotator).map((l) => evidenceKey(l.value, l.value.inputHash)));
  const counts = new Map<string, PanelSplitCount>();
  const entries: QueueEntry[] = [];
  for (const item of itemSet.items) {
    if (item.rule) continue;
    const id = evidenceKey(item.key, item.inputHash);
    const cs = byJudge.map((m) => m.get(id)).filter((c) => c !== undefined);
    if (!cs.length) continue;
    const n = counts.get(item.key.rubric) ?? { rubric: item.key.rubric, judged: 0, splits: 0, labelledByAnnotator: 0, queued: 0 };
    counts.set(item.key.rubric, n);
    n.judged++;
    const verdicts = new Set(cs.map((c) => c.verdict));
    if (!(verdicts.has("yes") && verdicts.has("no"))) continue;
    n.splits++;
    if (own.has(id)) {
      n.labelledByAnnotator++;
      continue;
    }
    n.queued++;
    entries.push(toEntry(cs[0]!, "panel-split"));
  }
  return { entries, rubrics: [...counts.values()].sort((a, b) => (a.rubric < b.rubric ? -1 : 1)), judges };
}
