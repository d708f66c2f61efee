import { existsSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadJson } from "./jsonl.js";
import { RagjudgeConfig } from "./schema/config.js";

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
  const config = loadJson(file, RagjudgeConfig);
  const root = dirname(file);
  return {
    config,
    file,
    root,
    isShippedExample: isShippedExample || file === resolve(packageRoot(), CONFIG_FILE),
    path: (p: string) => (isAbsolute(p) ? p : resolve(root, p)),
  };
}
