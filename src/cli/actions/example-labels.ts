import { givenLabelsFolder } from "../../calibration/labels-folder.js";
import { inPackage, isPackageLabels, type ResolvedConfig } from "../../golden/config.js";
import { displayPath } from "../../golden/errors.js";
import { UsageError } from "../errors.js";

/**
 * The shipped example's labels folder is part of the installed package,
 * which ragjudge never writes: a command that would write labels, draws or
 * calibration records there (its config by `--example` or by path, and no
 * `--labels`; or `--labels` naming that folder by any path) is refused,
 * exit 2, with a hint that works as printed. Only from the package's own
 * folder (this repository, where the example's authors keep its labels) is
 * it the project's own folder to write.
 */

/** The folder the hints name for labels of one's own beside the example: made by the commands that write labels when missing. */
export const EXAMPLE_LABELS = "example-labels";

/**
 * True when `labels` is unset and the config's labels folder is the installed
 * example's, seen from outside the package: the shipped config, or any config
 * whose labels folder is the package's own once links are followed (the
 * example's config named through a symlink to the package, say).
 */
function shippedLabels(cfg: Pick<ResolvedConfig, "isShippedExample" | "path" | "config">, labels: string | undefined): boolean {
  if (labels !== undefined) return false;
  return (cfg.isShippedExample && !inPackage()) || isPackageLabels(cfg.path(cfg.config.labels));
}

/**
 * The labels folder a command writes into: `--labels`, else the config's;
 * the installed example's is refused with `hint`, the flag that makes the
 * command work (say, `add --labels example-labels ...`).
 *
 * @example
 * const labelsDir = labelsToWrite(cfg, flags.labels, `add --labels ${EXAMPLE_LABELS} to keep your labels in a folder of your own`);
 */
export function labelsToWrite(cfg: Pick<ResolvedConfig, "isShippedExample" | "path" | "config">, labels: string | undefined, hint: string): string {
  if (labels !== undefined) return givenLabelsToWrite(labels, hint);
  const dir = cfg.path(cfg.config.labels);
  if (shippedLabels(cfg, labels)) throw refusal(dir, hint);
  return dir;
}

const refusal = (dir: string, hint: string) => new UsageError(`the shipped example's labels folder (${displayPath(dir)}) belongs to the installed ragjudge package, which is never written: ${hint}`);

/**
 * `--labels DIR` of a command that writes into it, as given: refused (exit
 * 2, with `hint`) when it is the installed package's labels folder by
 * whatever path (its own, a symlink to it, `..`): see {@link isPackageLabels}.
 *
 * @example
 * const labelsDir = flags.labels !== undefined ? givenLabelsToWrite(flags.labels, hint) : labelsToWrite(config(), undefined, hint);
 */
export function givenLabelsToWrite(labels: string, hint: string): string {
  if (isPackageLabels(labels)) throw refusal(labels, hint);
  return labels;
}

/**
 * The `--labels` a printed command needs to write labels as this one reads
 * them: the one given; for the installed example's folder, which is never
 * written, {@link EXAMPLE_LABELS}; else none (the config's).
 */
export function labelsArgs(cfg: Pick<ResolvedConfig, "isShippedExample" | "path" | "config">, labels: string | undefined): string[] {
  if (labels !== undefined) return ["--labels", labels];
  return shippedLabels(cfg, labels) ? ["--labels", EXAMPLE_LABELS] : [];
}

/**
 * The labels folder a command only reads (`judge`, `compare`): `--labels`,
 * else the config's. A folder named by hand that is not there, a file, a
 * folder that cannot be read, or the installed package's own labels folder
 * is bad input, exit 2, before any work ({@link givenLabelsFolder}).
 *
 * @example
 * const labelsDir = labelsToRead(resolved, flags.labels);
 */
export function labelsToRead(cfg: Pick<ResolvedConfig, "path" | "config">, labels: string | undefined): string {
  if (labels === undefined) return cfg.path(cfg.config.labels);
  return givenLabelsFolder(labels);
}

/** {@link calibrateHint}: kept beside the next commands (report/next.ts), which `run` prints too. */
export { calibrateHint } from "../../report/next.js";
