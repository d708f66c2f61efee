import { existsSync } from "node:fs";
import { countedLabels, loadLabels, type LabelBook } from "../calibration/labels.js";
import type { DrawBody } from "../calibration/draws.js";
import type { ResolvedConfig } from "../golden/config.js";
import { InputError } from "../golden/errors.js";
import { loadJsonl } from "../golden/jsonl.js";
import { Judgment, type QueueEntry } from "../golden/schema/items.js";
import { loadJudgeInputs } from "../judge/items/inputs.js";
import { cachedClaimsFrom } from "../judge/claims/prepare.js";
import { wordingHash } from "../judge/rubric/wording.js";
import { currentWording } from "../calibration/wording.js";
import { candidatesFromRun, type RubricRunNotes } from "./candidates.js";
import { requireSampleNumbers, sampleQueue, type ExistingLabels, type RubricSample, type SampleOptions } from "./sample.js";
import { checkAnnotator } from "./store.js";
import { judgeFirst } from "../golden/project-args.js";

/** Inputs of one `ragjudge sample` run beyond the config. */
export interface SampleRunOptions extends SampleOptions {
  judgmentsFile: string;
  labelsDir: string;
  /** The labels folder as the caller already read it (for its annotator check); default: read here. */
  book?: LabelBook;
  /** Rubric names; default: the config's `rubrics`, else every non-optional rubric. */
  rubrics?: string[];
  /** Variant names; default: every variant of the config. */
  variants?: string[];
  /** Golden-set splits to sample from (e.g. `heldout`, the split the trust gate counts); default: all. */
  splits?: string[];
  /**
   * The served model whose verdicts to sample when a rubric's current
   * fingerprint was served by several (an alias that moved during the run);
   * default: the one of the most recent verdict. The trust gate calibrates
   * each served model apart, so a frame pools never one.
   */
  servedModel?: string;
}

/**
 * Loads the data, the run's judgments and the labels folder, and samples a
 * review queue (see {@link sampleQueue}). The items and their evidence come
 * from the same builder the judge uses, so each entry's input hash is the
 * one its verdict and its label join on. Its numbers are checked first
 * (a RangeError, before any file is read: {@link requireSampleNumbers}).
 */
export function sampleFromRun(
  cfg: ResolvedConfig,
  opts: SampleRunOptions,
): { entries: QueueEntry[]; rubrics: RubricSample[]; notes: RubricRunNotes[]; draws: DrawBody[] } {
  requireSampleNumbers(opts);
  checkAnnotator(opts.annotator);
  if (!existsSync(opts.judgmentsFile)) {
    throw new InputError(opts.judgmentsFile, undefined, undefined, `judgments file not found: ${judgeFirst(cfg)}, or pass --evaluation DIR or --judgments FILE`);
  }
  // The same items `ragjudge judge` built, so every queue entry's evidence hashes to its verdict's input hash.
  const { golden, variants, rubrics, itemSet } = loadJudgeInputs(cfg, { rubrics: opts.rubrics, variants: opts.variants, claimsFrom: cachedClaimsFrom(cfg.outPath(cfg.config.cacheDir)) });
  const items = itemSet.items;
  const rubricNames = new Set(rubrics.map((r) => r.name));
  const variantNames = new Set(variants.map((v) => v.name));
  const judgments = loadJsonl(opts.judgmentsFile, Judgment)
    .map((r) => r.value)
    .filter((j) => rubricNames.has(j.rubric) && variantNames.has(j.variant));
  const { candidates: all, notes } = candidatesFromRun(items, judgments, golden, variants, { servedModel: opts.servedModel ?? "latest" });
  if (opts.servedModel !== undefined) {
    for (const n of notes) {
      if (n.judged > 0 || !n.otherServedModels?.length) continue;
      const had = n.otherServedModels.slice().sort((a, b) => (a.model < b.model ? -1 : 1)).map((o) => (o.model ? JSON.stringify(o.model) : "a server that named no model")).join(", ");
      throw new InputError(opts.judgmentsFile, undefined, "servedModel", `no verdict of rubric ${n.rubric} was served by ${JSON.stringify(opts.servedModel)}; its verdicts were served by ${had} (sample --served-model takes one of those; --rubrics limits the rubrics sampled)`);
    }
  }
  if (opts.splits) {
    const known = new Set(golden.questions.map((q) => q.split).filter((x) => x !== undefined));
    for (const sp of opts.splits) {
      if (!known.has(sp)) throw new InputError(golden.file, undefined, "split", `no question has split ${JSON.stringify(sp)} (have: ${[...known].sort().join(", ") || "none"})`);
    }
  }
  const candidates = opts.splits ? all.filter((c) => c.split !== undefined && opts.splits!.includes(c.split)) : all;

  // A label that answered an earlier wording of its rubric's question labels nothing today: its item is drawn and queued again.
  const book = currentWording(opts.book ?? loadLabels(opts.labelsDir), new Map(rubrics.map((r) => [r.name, wordingHash(r)]))).book;
  const existing: ExistingLabels[] = [...book.items.values()].map((i) => ({
    key: i.key,
    inputHash: i.inputHash,
    labels: countedLabels(i).map((l) => ({ annotator: l.value.annotator, label: l.value.label })),
  }));
  // A superseded label of this annotator still means "already labelled": use the whole history.
  const own = book.history.filter((l) => l.value.annotator === opts.annotator);
  const earlier = own.map((l) => ({ key: l.value, inputHash: l.value.inputHash }));
  // Each draw's manifest names the judge whose verdicts it read and what the frame was limited to.
  const judges = new Map<string, { fingerprint: string; servedModels: string[] }>();
  for (const n of notes) if (n.fingerprint) judges.set(n.rubric, { fingerprint: n.fingerprint, servedModels: n.servedModel ? [n.servedModel] : [] });
  const scope = { variants: variants.map((v) => v.name).sort(), splits: opts.splits ? [...opts.splits].sort() : null };
  const inScope = new Set(candidates);
  const outOfScope = opts.splits ? all.filter((c) => !inScope.has(c)) : [];
  const { entries, rubrics: sampled, draws } = sampleQueue(candidates, existing, { ...opts, judges, scope, outOfScope }, earlier);
  return { entries, rubrics: sampled, notes, draws };
}
