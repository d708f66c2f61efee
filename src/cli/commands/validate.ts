import type { Command } from "commander";
import { Option } from "commander";
import type { ValidateFlags } from "../actions/validate.js";
import { UsageError } from "../errors.js";

/** The files a command reads when given explicitly instead of through the config. */
export interface ExplicitFiles {
  golden: string;
  /** Optional when the output gives every passage as text. */
  chunks?: string;
  output: string;
}

/**
 * The explicit `--golden/--chunks/--output` files, or undefined when none is
 * given (the config is read then). Some but not all of them, or any with
 * `--config`, is a usage error. `validate` and `retrieval` share these rules.
 */
export function explicitFiles(flags: Partial<ExplicitFiles> & { config?: string }): ExplicitFiles | undefined {
  if (!flags.golden && !flags.chunks && !flags.output) return undefined;
  if (!flags.golden || !flags.output) throw new UsageError("explicit inputs need --golden and --output (and --chunks, unless the output gives every passage as text)");
  if (flags.config) throw new UsageError("use either --config or --golden/--chunks/--output, not both");
  return { golden: flags.golden, output: flags.output, ...(flags.chunks ? { chunks: flags.chunks } : {}) };
}

/**
 * `ragjudge validate`: checks the golden set, chunks and pipeline outputs
 * together and prints every problem at once, one `file:line: field: message`
 * line each (exit 2), or a short summary (exit 0).
 */
export function registerValidate(program: Command): void {
  program
    .command("validate")
    .description("Check the golden set, chunks files and pipeline outputs and report every problem at once (file:line: field: message), exit 2 when there is any: malformed lines, duplicate or unknown ids, anchors that break the anchor rule (6 to 20 words, exactly once in their document), unanswerable questions with relevance, and (as warnings) anchors a chunk boundary cuts and citations outside the context.")
    .option("--config <file>", "config file (default: ./ragjudge.config.json)")
    .option("--golden <file>", "golden set JSONL (explicit inputs; with --chunks and --output)")
    .option("--chunks <file>", "chunks JSONL (not needed when the output gives every passage as text)")
    .option("--output <file>", "pipeline output JSONL")
    .option("--variant <name>", "check one variant of the config (or name the explicit one)")
    .option("--context-k <n>", "explicit inputs: context size when an output line has no `context` (default 5)")
    .addOption(new Option("--citations <level>", "citation problems (a marker naming no chunk, a chunk outside the context): warnings by default, since they are answer failures the judge flags by rule; `error` makes them fail validation").choices(["error", "warn"]).default("warn"))
    // the action's code (schemas, readers) is loaded only when the command runs: start-up stays fast
    .action(async (flags: ValidateFlags) => (await import("../actions/validate.js")).validateAction(flags));
}
