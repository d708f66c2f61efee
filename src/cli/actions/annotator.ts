import { loadDraws } from "../../calibration/draws.js";
import { lookalikeOf, lookalikeWords, namesInUse } from "../../calibration/label-checks.js";
import { loadLabels, type LabelBook } from "../../calibration/labels.js";
import { shellArg } from "../../report/next.js";
import { UsageError } from "../errors.js";

/**
 * Refuses `--annotator NAME` when NAME reads like an annotator the labels
 * folder already has (a label's, or a draw's) without being it: `Asha` typed
 * once beside weeks of `asha`. Called by every command that writes labels,
 * queues or draws under the name, before it writes anything: written, the
 * second name would stop every command that reads the folder until someone
 * edits the labels by hand.
 *
 * @example
 * refuseLookalikeAnnotator("Asha", "labels") // throws: '--annotator: "Asha" reads like "asha", an annotator already in labels/asha.jsonl:1, ...'
 */
export function refuseLookalikeAnnotator(name: string, labelsDir: string, book: LabelBook = loadLabels(labelsDir)): void {
  const clash = lookalikeOf(name, namesInUse(book.history, loadDraws(labelsDir).draws));
  if (clash) throw new UsageError(`--annotator: ${lookalikeWords(name, clash, `use --annotator ${shellArg(clash.name)}`)}`);
}
