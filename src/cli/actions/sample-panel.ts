import { join } from "node:path";
import { loadConfig } from "../../golden/config.js";
import { loadDraws } from "../../calibration/draws.js";
import { loadLabels } from "../../calibration/labels.js";
import { REPORT_FILE } from "../../report/folder.js";
import { shellArg } from "../../report/next.js";
import { PANEL_JUDGMENTS } from "../../report/panel/run.js";
import { panelSplitQueue } from "../../review/panel-splits.js";
import { queueReads } from "../../review/queue.js";
import { outputTarget } from "../../golden/paths.js";
import { DEFAULT_QUEUE } from "../commands/review.js";
import { displayPath, InputError } from "../../golden/errors.js";
import { existsSync } from "node:fs";
import { UsageError } from "../errors.js";
import { nameList } from "./lists.js";
import type { SampleFlags } from "./sample.js";
import { refuseLookalikeAnnotator } from "./annotator.js";
import { nothingToReview, writeQueue } from "./queue-out.js";
import { labelsArgs } from "./example-labels.js";

/** `ragjudge sample --panel-splits`: the items a judge panel split on, as a review frame of its own (never counted by the trust gate). */
export function samplePanelSplitsAction(flags: SampleFlags): void {
  if (flags.random !== undefined || flags.balanced !== undefined || flags.disagreements) {
    throw new UsageError("--panel-splits is a frame of its own: it does not combine with --random, --balanced or --disagreements");
  }
  if (flags.split !== undefined) throw new UsageError("--panel-splits takes every split item (its labels never count for the gate): leave out --split");
  if (flags.evaluation !== undefined && flags.judgments !== undefined) throw new UsageError("--evaluation and --judgments do not combine: an evaluation folder has its own panel-judgments.jsonl");
  const cfg = loadConfig(flags.config);
  const cacheFile = (name: string) => cfg.outPath(`${cfg.config.cacheDir}/${name}`);
  if (flags.evaluation !== undefined && !existsSync(join(flags.evaluation, REPORT_FILE))) throw new InputError(flags.evaluation, undefined, undefined, `not an evaluation folder (no ${REPORT_FILE}; ragjudge run writes them under evaluations/)`);
  const file = flags.evaluation !== undefined ? join(flags.evaluation, PANEL_JUDGMENTS) : flags.judgments ?? cacheFile(PANEL_JUDGMENTS);
  const rubrics = flags.rubrics === undefined ? undefined : nameList("--rubrics", flags.rubrics, "rubric");
  const variants = flags.variant === undefined ? undefined : nameList("--variant", flags.variant, "variant");
  const labelsDir = flags.labels ?? cfg.path(cfg.config.labels);
  // read once: the names checked are those of the labels the queue leaves out
  const book = loadLabels(labelsDir);
  refuseLookalikeAnnotator(flags.annotator, book, loadDraws(labelsDir));
  const out = outputTarget(flags.out ?? cacheFile(DEFAULT_QUEUE), queueReads(cfg, file, labelsDir));
  const r = panelSplitQueue(cfg, {
    annotator: flags.annotator, panelJudgmentsFile: file, labelsDir, book,
    ...(rubrics ? { rubrics } : {}), ...(variants ? { variants } : {}),
  });
  writeQueue(out, r.entries);
  const lines = [`Review queue for ${flags.annotator}: items where the judges ${r.judges.join(", ")} split (frame panel-split; its labels never count for the trust gate):`];
  for (const n of r.rubrics) lines.push(`  ${n.rubric}: ${n.splits} of ${n.judged} judged items split${n.labelledByAnnotator ? `; ${n.labelledByAnnotator} already labelled by you` : ""} → ${n.queued} queued`);
  const cfgOpt = [...(flags.config ? ["--config", flags.config] : []), ...labelsArgs(cfg, flags.labels)].map((a) => ` ${shellArg(a)}`).join("");
  const shown = displayPath(out);
  lines.push(r.entries.length ? `Wrote ${r.entries.length} entries to ${shown}. Next: ragjudge review ${flags.out ? shellArg(shown) + " " : ""}--annotator ${shellArg(flags.annotator)}${cfgOpt}` : nothingToReview(out, r.rubrics.some((n) => n.splits > 0) ? "every item the judges split on is labelled by you already" : "the judges split on no item"));
  process.stdout.write(lines.join("\n") + "\n");
}
