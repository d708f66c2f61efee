import { existsSync, readdirSync } from "node:fs";
import { resolveRubrics, type ResolvedConfig } from "../golden/config.js";
import { rubricWordings } from "../judge/rubric/wording.js";

/**
 * Rubric names that exist: the `*.yaml`/`*.yml` file names of the config's
 * rubrics folder (or the packaged defaults; see resolveRubrics) (without loading them, so a rubric being edited does not
 * stop calibration). Undefined when the folder does not exist.
 */
export function knownRubricNames(resolved: ResolvedConfig): Set<string> | undefined {
  const { dir } = resolveRubrics(resolved);
  if (!existsSync(dir)) return undefined;
  return new Set(readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).map((f) => f.replace(/\.ya?ml$/, "")));
}

/**
 * Today's wording hash of every rubric of the config's rubrics folder (or the
 * packaged defaults), by name: labels that answered an earlier wording of a
 * rubric's question do not count for it (calibration/wording.ts).
 */
export function wordingsOf(resolved: ResolvedConfig): Map<string, string | null> {
  return rubricWordings(resolveRubrics(resolved).dir);
}
