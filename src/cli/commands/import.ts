import { InvalidArgumentError, type Command } from "commander";
import { fieldLabel, IMPORT_FIELDS } from "../../golden/import/fields.js";
import type { ImportFlags } from "../actions/import.js";

function variantName(v: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(v)) throw new InvalidArgumentError("letters, digits, . _ - (no spaces)");
  return v;
}

/**
 * `ragjudge import ragas|csv FILE --out DIR`: a Ragas-style JSONL or a CSV
 * (passages as text) converted into a golden set, a pipeline output and a
 * commented config; `--into CONFIG` adds another variant to that project. Every row it cannot convert is reported as
 * `file:line: column: message` and nothing is written (exit 2).
 */
export function registerImport(program: Command): void {
  const cmd = program
    .command("import")
    .description("Convert a Ragas-style JSONL or a CSV with retrieved passages as text into a golden set, a pipeline output and a config in --out DIR, or into another variant of a project (--into CONFIG). Columns have the Ragas names by default (question/user_input, contexts/retrieved_contexts, answer/response, ground_truth/reference, reference_contexts); map others with the --*-col flags. Unanswerable questions only from --unanswerable-col or --empty-reference-unanswerable, never guessed.")
    .argument("<format>", "ragas (JSONL, one object per line) or csv (a header row; list cells as JSON or Python lists)")
    .argument("<file>", "the dataset file")
    .option("--out <dir>", "the folder to write (ragjudge.config.json, golden/questions.jsonl, outputs/<variant>.output.jsonl); existing files are never overwritten")
    .option("--into <config>", "instead of --out: add the file's answers as another variant of the project this config describes (outputs/<variant>.output.jsonl beside it, and an entry in its variants), matched to its golden set by the id column, else by question text")
    .option("--variant <name>", "the pipeline variant's name (default: the file's name)", variantName);
  for (const [field, spec] of Object.entries(IMPORT_FIELDS)) {
    const what = field === "unanswerable" ? "a column marking questions the documents cannot answer (true/false, yes/no, 1/0)" : `the ${fieldLabel(field)} column (default: ${spec.defaults.join(" or ")})`;
    cmd.option(`${spec.flag} <name>`, what);
  }
  cmd
    .option("--empty-reference-unanswerable", "a row with an empty reference is a question the documents cannot answer")
    .option("--split <name>", "the split of rows without a split column, e.g. heldout (the split the trust gate counts)")
    .option("--list-sep <sep>", "CSV: split list cells on this separator instead of reading a JSON or Python list")
    .action(async (format: string, file: string, flags: ImportFlags) => (await import("../actions/import.js")).importAction(format, file, flags));
}
