import type { DrawBook } from "../../calibration/draws.js";
import { lookalikeOf, lookalikeWords, namesInUse } from "../../calibration/label-checks.js";
import type { LabelBook } from "../../calibration/labels.js";
import { shellArg } from "../../report/next.js";
import { UsageError } from "../errors.js";

/**
 * Refuses `--annotator NAME` when NAME reads like an annotator the labels
 * folder already has (a label's in `book`, or a draw's in `draws`) without
 * being it: `Asha` typed once beside weeks of `asha`. Called by every
 * command that writes labels, queues or draws under the name, before it
 * writes anything: written, the second name would stop every command that
 * reads the folder until someone edits the labels by hand. The caller reads
 * the folder and passes on what it read, so the labels checked are the ones
 * it samples or reviews against (a file changed between two reads could
 * otherwise pass the check and be used unchecked).
 *
 * @example
 * refuseLookalikeAnnotator("Asha", loadLabels("labels"), loadDraws("labels")) // throws: '--annotator: "Asha" reads like "asha", an annotator already in labels/asha.jsonl:1, ...'
 */
export function refuseLookalikeAnnotator(name: string, book: LabelBook, draws: DrawBook): void {
  const clash = lookalikeOf(name, namesInUse(book.history, draws.draws));
  if (clash) throw new UsageError(`--annotator: ${lookalikeWords(name, clash, `use --annotator ${shellArg(clash.name)}`)}`);
}
