import { existsSync, readdirSync } from "node:fs";
import type { ResolvedConfig } from "../golden/config.js";

/**
 * Rubric names that exist: the `*.yaml`/`*.yml` file names of the config's
 * rubrics folder (without loading them, so a rubric being edited does not
 * stop calibration). Undefined when the folder does not exist.
 */
export function knownRubricNames(resolved: ResolvedConfig): Set<string> | undefined {
  const dir = resolved.path(resolved.config.rubricsDir);
  if (!existsSync(dir)) return undefined;
  return new Set(readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).map((f) => f.replace(/\.ya?ml$/, "")));
}
