import type { JUnitSuite } from "../junit.js";
import { panelRubricLines } from "./render.js";
import type { PanelJson } from "./schema.js";

/**
 * The `judge panel` JUnit suite: one informational case per rubric, named
 * by its recommendation line, with the agreement lines as its output. Always
 * passing: the trust gate, not the panel, decides whether a run fails.
 */
export function panelJunitSuite(panel: PanelJson): JUnitSuite {
  return {
    name: "judge panel",
    cases: panel.rubrics.map((p) => ({
      name: `${p.rubric}: ${p.recommendation}`,
      classname: `ragjudge.panel.${p.rubric}`,
      systemOut: [...p.rows.map((r) => `${r.judge}: ${r.trust}`), ...panelRubricLines(p).slice(0, -1)].join("\n"),
    })),
  };
}
