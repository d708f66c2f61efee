import { dirname, join } from "node:path";
import { wordingsOf } from "../../calibration/context.js";
import { loadDraws } from "../../calibration/draws.js";
import { loadLabels } from "../../calibration/labels.js";
import { loadRecords } from "../../calibration/record.js";
import { panelFigures } from "../../calibration/panel.js";
import { withPanelHints } from "../../report/panel/hints.js";
import type { ResolvedConfig } from "../../golden/config.js";
import { displayPath } from "../../golden/errors.js";
import { writeFileAtomic } from "../../golden/files.js";
import type { JudgeInputs } from "../../judge/items/inputs.js";
import { panelSection } from "../../report/panel/render.js";
import { judgePanel, PANEL_JUDGMENTS, panelErrors, panelJson, panelJudgmentsText } from "../../report/panel/run.js";

/**
 * `ragjudge judge` with a judge panel (config `judges`): after the main
 * judge, every judge of the panel judges the items; their verdicts go to
 * panel-judgments.jsonl beside the judgments file, and the side-by-side
 * section is printed as `run` prints it. Returns the error verdicts the
 * panel's model and baseline judges left (exit 4 unless allowed).
 */
export async function judgeWithPanel(resolved: ResolvedConfig, inputs: JudgeInputs, cacheDir: string, out: string, log: (s: string) => void, labels = resolved.path(resolved.config.labels), labelsFlag?: string): Promise<number> {
  const { config } = resolved;
  const runs = await judgePanel({ config, items: inputs.itemSet.items, rubrics: inputs.rubrics, cacheDir, log, configFile: displayPath(resolved.file) });
  const file = join(dirname(out), PANEL_JUDGMENTS);
  writeFileAtomic(file, panelJudgmentsText(runs));
  const figures = withPanelHints(panelFigures({ judges: runs, book: loadLabels(labels), draws: loadDraws(labels), records: loadRecords(labels), questions: inputs.golden.byId, trust: config.trust, wordings: wordingsOf(resolved) }), resolved, labelsFlag, file);
  process.stdout.write(`\n${panelSection(panelJson(runs, figures), "terminal", displayPath(resolved.file))}`);
  log(`judge: wrote the panel's ${runs.reduce((n, r) => n + r.judgments.length, 0)} judgments to ${file}\n`);
  return panelErrors(runs);
}
