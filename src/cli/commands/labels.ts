import { Option, type Command } from "commander";
import type { Common } from "../actions/labels.js";
import { FRAMES_SHOWN, PROVENANCES_SHOWN } from "./help-values.js";

/** `ragjudge labels import|export`: move labels between the labels folder and spreadsheets. */
export function registerLabels(program: Command): void {
  const labels = program.command("labels").description("Import labels from CSV into the labels folder, or export them to CSV");

  labels
    .command("import <file>")
    .description("Append the labels of a CSV file to labels/<annotator>.jsonl (validated first: nothing is written if any row is bad); a row without a wordingHash is taken to answer its rubric's question as the rubric file words it now, unless it repeats a label already stored")
    .option("--annotator <name>", "annotator for rows without an annotator column")
    .addOption(new Option("--provenance <kind>", "provenance for rows without a provenance column").choices([...PROVENANCES_SHOWN]))
    .option("--source <name>", "where imported labels come from (required with --provenance import)")
    .addOption(new Option("--frame <frame>", "sampling frame that put the items in front of the labeller").choices([...FRAMES_SHOWN]))
    .option("--inclusion-probability <p>", "inclusion probability of the frame's sample, for rows without the column")
    .option("--split <name>", "split for rows without a split column (the gate counts the held-out split only, config trust.heldout, default heldout; no split is dev)")
    .option("--attest <text>", "for --frame random (or random rows) drawn outside ragjudge: who drew the sample and how; the labels then count as random where the config's trust.attested is true, and every report says \"declared random, not drawn by ragjudge\"")
    .option("--labels <dir>", "labels folder (default: the config's labels)")
    .option("--config <file>", "config file")
    .action(async (file: string, opts: Common & { annotator?: string; provenance?: string; source?: string; frame?: string; inclusionProbability?: string; split?: string; attest?: string }) => (await import("../actions/labels.js")).labelsImport(file, opts));

  labels
    .command("export")
    .description("Write the labels as CSV (each annotator's latest label per item, or the whole history)")
    .requiredOption("--out <file>", "CSV file to write")
    .option("--history", "every label ever written, not only the effective ones")
    .option("--labels <dir>", "labels folder (default: the config's labels)")
    .option("--config <file>", "config file")
    .action(async (opts: Common & { out: string; history?: boolean }) => (await import("../actions/labels.js")).labelsExport(opts));
}
