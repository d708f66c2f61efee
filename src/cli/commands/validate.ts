import type { Command } from "commander";
import { Option } from "commander";
import { chooseVariants, loadConfig, missingInputs, resolveRubrics } from "../../golden/config.js";
import { variantNameFromFile } from "../../golden/dataset.js";
import { validateInputs, type ValidateInputs } from "../../golden/validate.js";
import { EXIT, UsageError } from "../errors.js";
import { displayPath, InputErrors } from "../../golden/errors.js";
import { loadRubrics } from "../../judge/rubric/rubric.js";

interface ValidateFlags {
  config?: string;
  golden?: string;
  chunks?: string;
  output?: string;
  variant?: string;
  contextK?: string;
  citations: "error" | "warn";
}

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

function inputsFrom(flags: ValidateFlags): ValidateInputs {
  const files = explicitFiles(flags);
  if (files) {
    let contextK = 5;
    if (flags.contextK !== undefined) {
      if (!/^[1-9]\d*$/.test(flags.contextK)) throw new UsageError(`--context-k: expected a positive whole number, got ${JSON.stringify(flags.contextK)}`);
      contextK = Number(flags.contextK);
    }
    return { golden: files.golden, variants: [{ name: flags.variant ?? variantNameFromFile(files.output), chunks: files.chunks, output: files.output, contextK }], citations: flags.citations };
  }
  const cfg = loadConfig(flags.config);
  const missing = missingInputs(cfg);
  if (missing.length) throw new InputErrors(missing);
  // Rubric names are identities too: two files of one name, or a name listed twice, are bad input here already.
  loadRubrics(resolveRubrics(cfg).dir, cfg.config.rubrics);
  const variants = chooseVariants(cfg, flags.variant);
  return {
    golden: cfg.path(cfg.config.golden),
    variants: variants.map((v) => ({ name: v.name, chunks: v.chunks === undefined ? undefined : cfg.path(v.chunks), output: cfg.path(v.output), contextK: v.contextK, stages: v.stages })),
    citations: flags.citations,
  };
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
    .action(async (flags: ValidateFlags) => {
      const inputs = inputsFrom(flags);
      const report = validateInputs(inputs);
      for (const w of report.warnings) process.stderr.write(`warning: ${w.message}\n`);
      if (report.problems.length) {
        for (const p of report.problems) process.stderr.write(`${p.message}\n`);
        process.stderr.write(`ragjudge: validate: ${report.problems.length} problem${report.problems.length === 1 ? "" : "s"} found\n`);
        process.exitCode = EXIT.badInput;
        return;
      }
      const lines = [
        `ok: ${displayPath(inputs.golden)}: ${report.questions} questions (${report.answerable} answerable, ${report.unanswerable} unanswerable)`,
        ...report.variants.map((v) => `ok: variant ${v.name}: ${v.chunks} chunks${v.passages ? ` (${v.passages} given as text)` : ""}, ${v.outputs} output lines`),
        ...report.notes.map((n) => `note: ${n}`),
        ...(report.warnings.length ? [`note: ${report.warnings.length} warning${report.warnings.length === 1 ? "" : "s"} (on stderr)`] : []),
      ];
      process.stdout.write(`${lines.join("\n")}\n`);
    });
}
