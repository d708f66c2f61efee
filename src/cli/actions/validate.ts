import { chooseVariants, loadConfigOr, missingInputs, resolveRubrics } from "../../golden/config.js";
import { variantNameFromFile } from "../../golden/dataset.js";
import { displayPath, InputErrors, isStoppedNote, type InputError } from "../../golden/errors.js";
import { validateInputs, type ValidateInputs } from "../../golden/validate.js";
import { loadRubrics } from "../../judge/rubric/rubric.js";
import { checkConfigFloors } from "../../retrieval/floors.js";
import { explicitFiles } from "../commands/validate.js";
import { parseNumber } from "../commands/numbers.js";
import { EXIT, problemLines } from "../errors.js";

export interface ValidateFlags {
  config?: string;
  golden?: string;
  chunks?: string;
  output?: string;
  variant?: string;
  contextK?: string;
  citations: "error" | "warn";
}

/** What validate checks: the input files, and problems of the config itself found on the way (its floors). */
function inputsFrom(flags: ValidateFlags): { inputs: ValidateInputs; configProblems: InputError[] } {
  const files = explicitFiles(flags);
  if (files) {
    const contextK = flags.contextK === undefined ? 5 : parseNumber("--context-k", flags.contextK, "contextK");
    return { inputs: { golden: files.golden, variants: [{ name: flags.variant ?? variantNameFromFile(files.output), chunks: files.chunks, output: files.output, contextK }], citations: flags.citations, chunksFrom: "flag" }, configProblems: [] };
  }
  const cfg = loadConfigOr(flags.config, "name the files: --golden FILE --output FILE (and --chunks FILE)");
  const missing = missingInputs(cfg);
  if (missing.length) throw new InputErrors(missing);
  // Rubric names are identities too: two files of one name, or a name listed twice, are bad input here already.
  loadRubrics(resolveRubrics(cfg).dir, cfg.config.rubrics);
  const variants = chooseVariants(cfg, flags.variant);
  return {
    inputs: {
      golden: cfg.path(cfg.config.golden),
      variants: variants.map((v) => ({ name: v.name, chunks: v.chunks === undefined ? undefined : cfg.path(v.chunks), output: cfg.path(v.output), contextK: v.contextK, stages: v.stages })),
      citations: flags.citations,
      heldout: cfg.config.trust.heldout,
    },
    // The floors as run reads them: a floor run would refuse fails here, at its line.
    configProblems: checkConfigFloors(cfg.config.floors, cfg).problems,
  };
}

/** `ragjudge validate`'s action (see commands/validate.ts). */
export function validateAction(flags: ValidateFlags): void {
  const { inputs, configProblems } = inputsFrom(flags);
  const report = validateInputs(inputs);
  for (const w of report.warnings) process.stderr.write(`warning: ${w.message}\n`);
  const problems = [...configProblems, ...report.problems];
  if (problems.length) {
    for (const line of problemLines(problems)) process.stderr.write(`${line}\n`);
    const found = problems.filter((p) => !isStoppedNote(p)).length;
    process.stderr.write(`ragjudge: validate: ${found} problem${found === 1 ? "" : "s"} found${found < problems.length ? " (and the files it stopped reading)" : ""}\n`);
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
}
