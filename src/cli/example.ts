import type { Command } from "commander";
import { UsageError } from "./errors.js";

/**
 * Gives every command that reads a config an `--example` flag: the shipped
 * example's config, named explicitly. Without a config ragjudge stops and
 * says so (it never runs the example unasked), so this is the one way to
 * reach the example from a folder of one's own. Added here, once, rather
 * than in each command: any command with `--config` gets it. The config
 * module (its parser and schemas) loads only when --example is given, so
 * start-up stays light.
 */
export function addExampleOption(program: Command): void {
  for (const cmd of program.commands) {
    if (cmd.options.some((o) => o.long === "--config")) {
      cmd.option("--example", "use the shipped example's config (offline baseline judge, no key) instead of ./ragjudge.config.json");
      cmd.hook("preAction", async (_self, action) => {
        const opts = action.opts<{ example?: boolean; config?: string }>();
        if (!opts.example) return;
        if (opts.config !== undefined) throw new UsageError("--example and --config do not combine: --example is the shipped example's config");
        const { exampleConfigPath } = await import("../golden/config.js");
        action.setOptionValue("config", exampleConfigPath());
      });
    }
    addExampleOption(cmd);
  }
}
