import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { loadConfig, parseConfigText } from "../../golden/config.js";
import { appendVariant } from "../../golden/config-edit.js";
import { loadGolden } from "../../golden/dataset.js";
import { displayPath, InputError, InputErrors } from "../../golden/errors.js";
import { readText, writeFileAtomic } from "../../golden/files.js";
import { fieldLabel } from "../../golden/import/fields.js";
import { matchToGolden } from "../../golden/import/match.js";
import { shellArg } from "../../golden/project-args.js";
import { UsageError } from "../errors.js";
import { convertFile, variantOf, type ImportFlags } from "./import.js";

/** Flags that shape a golden set: `--into` keeps the project's, so they would do nothing there. */
const GOLDEN_FLAGS: [keyof ImportFlags, string][] = [
  ["split", "--split"], ["emptyReferenceUnanswerable", "--empty-reference-unanswerable"], ["unanswerableCol", "--unanswerable-col"],
  ["referenceCol", "--reference-col"], ["referenceContextsCol", "--reference-contexts-col"], ["splitCol", "--split-col"], ["kindCol", "--kind-col"],
];

/**
 * `ragjudge import FORMAT FILE --into CONFIG`: a second (third, ...) variant
 * for a project that has its golden set, so two pipelines' answers to the
 * same questions can be run and compared. Only the file's pipeline side is
 * read (question, contexts, answer), each row paired with a question of the
 * project's golden set (golden/import/match.ts); its answers go to
 * `outputs/<variant>.output.jsonl` beside the config and the variant into the
 * config's `variants`, comments kept. A name the config has, an output file
 * there already, or a row that answers no question of the golden set is
 * refused before anything is written (exit 2).
 */
export function importInto(format: string, file: string, flags: ImportFlags & { into: string }): void {
  const stray = GOLDEN_FLAGS.filter(([k]) => flags[k] !== undefined).map(([, f]) => f);
  if (stray.length) throw new UsageError(`${stray.join(", ")}: --into keeps the project's golden set, so these golden-set flags do nothing there; leave them out`);
  const cfg = loadConfig(flags.into);
  if (cfg.isShippedExample) throw new UsageError("--into names the shipped example, whose files are the package's: import --out DIR makes a project of your own");
  const variant = variantOf(file, flags);
  const names = cfg.config.variants.map((v) => v.name);
  const same = names.find((n) => n.toLowerCase() === variant.toLowerCase());
  if (same !== undefined) {
    throw new InputError(cfg.file, cfg.lineOf(["variants", names.indexOf(same)]), "variants", `a variant named ${JSON.stringify(same)} is there already (variants: ${names.join(", ")}): give this one another name with --variant NAME`);
  }
  const output = join(cfg.root, "outputs", `${variant}.output.jsonl`);
  if (existsSync(output)) throw new InputError(output, undefined, undefined, "exists: import never overwrites; choose another --variant, or move it away");
  const golden = loadGolden(cfg.path(cfg.config.golden));

  const converted = convertFile(format, file, flags, true);
  const matched = matchToGolden(converted, golden, file);
  if (matched.problems.length) throw new InputErrors(matched.problems);
  // the config's own text, edited where the list ends: its comments and layout stay as the user wrote them
  const rel = relative(cfg.root, output).split("\\").join("/");
  const text = readText(cfg.file);
  const edited = appendVariant(text, { name: variant, output: rel });
  parseConfigText(edited, cfg.file); // the edit keeps the config valid, or nothing is written
  writeFileAtomic(output, matched.outputs.map((o) => JSON.stringify(o)).join("\n") + "\n");
  writeFileAtomic(cfg.file, edited);

  const unanswered = golden.questions.length - matched.outputs.length;
  const mapped = Object.entries(converted.mapping).map(([f, c]) => `${fieldLabel(f)} <- ${c}`).join(", ");
  const config = shellArg(displayPath(cfg.file));
  process.stdout.write([
    `import: ${displayPath(file)}: ${matched.outputs.length} answer${matched.outputs.length === 1 ? "" : "s"} to questions of ${displayPath(golden.file)}, paired by ${converted.mapping.id !== undefined ? "id" : "question text"}; columns ${mapped}`,
    `  wrote ${displayPath(output)} (variant ${variant}, passages as text) and added variant ${variant} to ${displayPath(cfg.file)}`,
    ...(unanswered ? [`  note: ${unanswered} question${unanswered === 1 ? " of the golden set has" : "s of the golden set have"} no answer in this file (validate names ${unanswered === 1 ? "it" : "them"})`] : []),
    "Next:",
    `  ragjudge validate --config ${config}`,
    `  ragjudge run --config ${config}`,
    `  ragjudge compare --variants ${shellArg(`${names[0]},${variant}`)} --config ${config}`,
  ].join("\n") + "\n");
}
