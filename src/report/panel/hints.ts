import type { PanelRubric } from "../../calibration/panel.js";
import { displayPath } from "../../golden/errors.js";
import { calibrateHint } from "../next.js";

/**
 * A panel's trust lines and recommendations with their advice to `run
 * ragjudge calibrate` made a command that works as printed: the project's
 * flags, `--labels` when the labels were read from there, and `--judgments`
 * naming the panel's verdicts (a bare `calibrate` reads the main judge's
 * judgments.jsonl and never records the other judges of the panel).
 *
 * @example
 * withPanelHints(figures, resolved, undefined, ".ragjudge/panel-judgments.jsonl")[0].recommendation
 * // "no judge is trusted; closest: lexical (...: run ragjudge calibrate --config ragjudge.config.json --judgments .ragjudge/panel-judgments.jsonl)"
 */
export function withPanelHints(figures: readonly PanelRubric[], cfg: { isShippedExample: boolean; file: string }, labels: string | undefined, panelJudgments: string): PanelRubric[] {
  const hint = (message: string) => calibrateHint(cfg, labels, message, displayPath(panelJudgments));
  return figures.map((f) => ({ ...f, recommendation: hint(f.recommendation), rows: f.rows.map((r) => ({ ...r, trust: hint(r.trust) })) }));
}
