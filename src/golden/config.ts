import { existsSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { InputError } from "./errors.js";
import { loadJson } from "./jsonl.js";
import { MAX_DOCUMENT_BYTES } from "./limits.js";
import { RagjudgeConfig, type VariantConfig } from "./schema/config.js";

/** The config file name looked up in the working directory. */
export const CONFIG_FILE = "ragjudge.config.json";

/** A loaded config with every path made absolute, and where it came from. */
export interface ResolvedConfig {
  config: RagjudgeConfig;
  /** The config file read, or the shipped example's when none was found. */
  file: string;
  /** Folder that relative paths in the config are resolved against. */
  root: string;
  /** True when no config was given or found and the shipped example runs. */
  isShippedExample: boolean;
  /** Resolves a path written in the config. */
  path(p: string): string;
}

/** The package's own folder (two levels above `src/golden` or `dist/golden`). */
export function packageRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
}

/**
 * Finds and loads the config: `--config FILE` when given; else
 * `./ragjudge.config.json`; else the shipped example's config, so that
 * `npx ragjudge run` on a fresh clone runs the example with no key.
 */
export function loadConfig(explicit?: string, cwd = process.cwd()): ResolvedConfig {
  let file: string;
  let isShippedExample = false;
  if (explicit) file = resolve(cwd, explicit);
  else if (existsSync(resolve(cwd, CONFIG_FILE))) file = resolve(cwd, CONFIG_FILE);
  else {
    file = resolve(packageRoot(), CONFIG_FILE);
    isShippedExample = true;
  }
  const config = loadJson(file, RagjudgeConfig, MAX_DOCUMENT_BYTES);
  const root = dirname(file);
  return {
    config,
    file,
    root,
    isShippedExample: isShippedExample || file === resolve(packageRoot(), CONFIG_FILE),
    path: (p: string) => (isAbsolute(p) ? p : resolve(root, p)),
  };
}

/**
 * The config's variants, or only the one named by `--variant`; an unknown
 * name is an {@link InputError} naming the config and the variants it has.
 *
 * @example
 * chooseVariants(loadConfig(), "bm25").map((v) => v.name) // ["bm25"]
 */
export function chooseVariants(cfg: Pick<ResolvedConfig, "config" | "file">, name: string | undefined): VariantConfig[] {
  const all = cfg.config.variants;
  if (name === undefined) return all;
  const chosen = all.filter((v) => v.name === name);
  if (chosen.length === 0) throw new InputError(cfg.file, undefined, "variants", `no variant ${JSON.stringify(name)} (it has ${all.map((v) => v.name).join(", ")})`);
  return chosen;
}
