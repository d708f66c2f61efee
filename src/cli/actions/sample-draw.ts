import { wordingsOf } from "../../calibration/context.js";
import { loadDraws, drawsDir } from "../../calibration/draws.js";
import { designRefusal } from "../../calibration/plan/stratified-draw.js";
import { loadLabels } from "../../calibration/labels.js";
import { currentWording } from "../../calibration/wording.js";
import { loadConfig } from "../../golden/config.js";
import { InputError } from "../../golden/errors.js";
import { loadJsonl } from "../../golden/jsonl.js";
import { Judgment } from "../../golden/schema/items.js";
import { planQueue } from "../../review/plan-queue.js";
import { queueReads } from "../../review/queue.js";
import { outputTarget } from "../../golden/paths.js";
import { DEFAULT_QUEUE } from "../commands/review.js";
import { UsageError } from "../errors.js";
import { reviewNext, sampleInputs, shortPath, type SampleFlags } from "./sample.js";
import { refuseLookalikeAnnotator } from "./annotator.js";
import { nothingToReview, writeQueue } from "./queue-out.js";

/**
 * `ragjudge sample --draw ID`: the review queue of a recorded draw's drawn
 * items that are still unlabelled, whatever its design (a uniform draw of
 * `sample --random`, a stratified one of `plan --budget`). The gate refuses
 * trust while a draw that covers the judged items is part-labelled, and
 * drawing again would record another draw to finish; this queues the same
 * draw's rest, with its id, inclusion probabilities and strata, so each
 * label counts for it.
 */
export function sampleDrawAction(flags: SampleFlags): void {
  if (flags.random !== undefined || flags.balanced !== undefined || flags.disagreements) throw new UsageError("--draw queues a recorded draw again: it does not combine with --random, --balanced or --disagreements");
  const cfg = loadConfig(flags.config);
  const cacheFile = (name: string) => cfg.outPath(`${cfg.config.cacheDir}/${name}`);
  const { seed, judgmentsFile } = sampleInputs(flags, cacheFile);
  const labelsDir = flags.labels ?? cfg.path(cfg.config.labels);
  // read once: the names checked are those of the labels and draws queued from
  const book = loadLabels(labelsDir);
  const draws = loadDraws(labelsDir);
  refuseLookalikeAnnotator(flags.annotator, book, draws);
  const out = outputTarget(flags.out ?? cacheFile(DEFAULT_QUEUE), queueReads(cfg, judgmentsFile, labelsDir));
  const found = draws.draws.find((d) => d.draw.id === flags.draw);
  if (!found) {
    const known = draws.draws.map((d) => d.draw.id);
    throw new InputError(drawsDir(labelsDir), undefined, undefined, `no draw ${flags.draw} is recorded here (${known.length ? `draws: ${known.slice(0, 8).join(", ")}${known.length > 8 ? ", ..." : ""}` : "no draws yet: ragjudge sample --random N records one"})`);
  }
  // Labels of a draw the gate refuses whatever they say would be spent for nothing.
  const refused = designRefusal(found.draw);
  if (refused) throw new InputError(found.file, undefined, undefined, `the trust gate does not count draw ${found.draw.id}: ${refused}`);
  const judgments = loadJsonl(judgmentsFile, Judgment).map((r) => r.value);
  // An item labelled only under an earlier wording of its rubric's question is unlabelled for the gate: queued again.
  const entries = planQueue(cfg, judgments, currentWording(book, wordingsOf(cfg)).book, [found.draw], seed);
  writeQueue(out, entries);
  const d = found.draw;
  const lines = [`Draw ${d.id} (${d.rubric}, ${d.design}, drawn for ${d.annotator}): ${d.drawn.length} drawn items, ${entries.length} of them still unlabelled → ${entries.length} queued for ${flags.annotator}`];
  if (entries.length === 0) lines.push(nothingToReview(out, "every drawn item that is judged today is labelled"));
  else lines.push(`Wrote ${entries.length} entries to ${shortPath(out)}. Next: ${reviewNext(flags, out, flags.judgments, cfg)}`);
  process.stdout.write(lines.join("\n") + "\n");
}
