import { InputError, InputErrors } from "../golden/errors.js";
import { hashJson } from "../golden/hash.js";
import { readText } from "../golden/files.js";
import { parseJsonl, type Located } from "../golden/jsonl.js";
import type { ReadPath } from "../golden/paths.js";
import { QueueEntry } from "../golden/schema/items.js";
import { evidenceKey } from "../calibration/keys.js";
import { configInputs, type ResolvedConfig } from "../golden/config.js";

/**
 * Reads a review queue (JSONL of QueueEntry, as `ragjudge sample` writes it).
 * Besides the schema, two checks protect the labels made from it:
 * - each entry's `inputHash` must be the hash of the `evidence` it carries,
 *   so the person labels exactly what the hash stands for (an edited queue
 *   would otherwise pair a label with evidence nobody saw);
 * - an item (key and input hash) appears once.
 *
 * An empty file is an empty queue (`ragjudge sample` found nothing to review).
 */
export function loadQueue(file: string): Located<QueueEntry>[] {
  const text = readText(file);
  if (text.trim() === "") return [];
  const { rows, problems } = parseJsonl(text, file, QueueEntry);
  const seen = new Map<string, number>();
  for (const { line, value } of rows) {
    if (hashJson(value.evidence) !== value.inputHash) {
      problems.push(new InputError(file, line, "inputHash", "does not match the hash of this entry's evidence (was the queue edited? re-run `ragjudge sample`)"));
    }
    const id = evidenceKey(value, value.inputHash);
    const first = seen.get(id);
    if (first !== undefined) problems.push(new InputError(file, line, "(record)", `the same item and input hash is already queued on line ${first}`));
    else seen.set(id, line);
  }
  if (problems.length) throw new InputErrors(problems);
  return rows;
}

/**
 * What a command that writes a review queue reads, which the queue may not
 * replace (checked by `outputTarget`, golden/paths.ts): the config's inputs
 * (the judge cache too), the judgments file, the labels folder.
 */
export function queueReads(cfg: Pick<ResolvedConfig, "config" | "file" | "path" | "outPath">, judgmentsFile: string, labelsDir: string): ReadPath[] {
  return [...configInputs(cfg), { path: judgmentsFile, what: "the judgments file" }, { path: labelsDir, what: "the labels folder", folder: true }];
}
