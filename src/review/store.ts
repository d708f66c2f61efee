import { existsSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { z } from "zod";
import { InputErrors } from "../golden/errors.js";
import { confinedPath as confinedIn } from "../golden/paths.js";
import { appendLineDurable, readText } from "../golden/files.js";
import { parseJsonl } from "../golden/jsonl.js";
import { ItemKey, type Label } from "../golden/schema/items.js";
import { appendLabel, labelFileFor, labelFiles, loadLabels, type LabelBook } from "../calibration/labels.js";
import { Sha256, Time } from "../golden/schema/common.js";
import { evidenceKey } from "../calibration/keys.js";

/**
 * Checks an annotator name for use as a file name (`labels/<annotator>.jsonl`)
 * with the same rule as the labels module, so the review and `labels import`
 * accept the same names; throws an InputError otherwise.
 */
export function checkAnnotator(name: string): string {
  labelFileFor("labels", name);
  return name;
}

/**
 * Resolves `name` inside the labels folder `dir` and refuses anything that
 * would land outside it (`..`, absolute paths, a symbolic link planted at
 * the target); see `confinedPath` in golden/paths.ts, which every writer
 * into the labels folder shares. The review server builds every path it
 * writes through this, so a request can never make it write outside.
 *
 * @example
 * confinedPath("labels", "asha.jsonl")   // "/abs/labels/asha.jsonl"
 * confinedPath("labels", "../x.jsonl")   // throws
 */
export function confinedPath(dir: string, name: string, options: { create?: boolean } = {}): string {
  return confinedIn(dir, name, { ...options, folder: "the labels folder" });
}

/**
 * The labels file of one annotator, `<labels dir>/<annotator>.jsonl`,
 * resolved and confined to the folder. `create: false` (to show where
 * labels will go) creates no folder.
 */
export function labelsFileOf(labelsDir: string, annotator: string, options: { create?: boolean } = {}): string {
  return confinedPath(labelsDir, basename(labelFileFor(labelsDir, annotator)), options);
}

/** Parses a JSONL log that may be missing or empty (not written yet). */
function loadLog<S extends z.ZodType>(file: string, schema: S): z.infer<S>[] {
  if (!existsSync(file)) return [];
  const text = readText(file);
  if (text.trim() === "") return [];
  const { rows, problems } = parseJsonl(text, file, schema);
  if (problems.length) throw new InputErrors(problems);
  return rows.map((r) => r.value);
}

/**
 * One annotator's current label per item and input hash, by {@link evidenceKey},
 * from the labels folder as the labels module reads it (every file,
 * validated): the latest by time, ties by reading order, adjudication labels
 * included (an item this person adjudicated counts as labelled by them).
 */
export function annotatorLabels(book: LabelBook, annotator: string): Map<string, Label> {
  const out = new Map<string, Label>();
  for (const { value } of book.history) {
    if (value.annotator !== annotator) continue;
    const id = evidenceKey(value, value.inputHash);
    const prev = out.get(id);
    if (!prev || Date.parse(value.time) >= Date.parse(prev.time)) out.set(id, value);
  }
  return out;
}

/**
 * Appends a label through the labels module (validated against the Label
 * schema, flushed to disk before returning), after checking that its file
 * resolves inside the labels folder and is not a planted symbolic link.
 */
export function appendLabelDurable(labelsDir: string, label: Label): Label {
  labelsFileOf(labelsDir, label.annotator);
  return appendLabel(labelsDir, label).label;
}

/**
 * A "skip" in the review queue: a queue state, not a label. Kept in
 * `<labels dir>/.review/<annotator>.skips.jsonl` so that a restarted review
 * resumes past skipped items; labelling a skipped item later overrides it.
 */
const SkipRecord = ItemKey.extend({ inputHash: Sha256, time: Time });
type SkipRecord = z.infer<typeof SkipRecord>;

/**
 * The review-progress file of one annotator (inside the labels folder).
 * Only a write creates `.review/` (`create`, the default); reading passes
 * `create: false`, so starting a review leaves no empty folder behind.
 */
function skipsFileOf(labelsDir: string, annotator: string, options: { create?: boolean } = {}): string {
  return confinedPath(labelsDir, join(".review", `${checkAnnotator(annotator)}.skips.jsonl`), options);
}

/**
 * What the labels folder holds, cheaply: each labels file's name, size and
 * modification time, and the annotator's skips file's. Changes whenever a
 * label or skip is appended, by this process or any other.
 */
export function labelsSignature(labelsDir: string, annotator: string): string {
  const files = labelFiles(labelsDir).map((n) => join(labelsDir, n));
  files.push(skipsFileOf(labelsDir, annotator, { create: false }));
  return files.map((f) => {
    const st = statSync(f, { throwIfNoEntry: false });
    return st ? `${f}\u0000${st.size}\u0000${st.mtimeMs}` : `${f}\u0000-`;
  }).join("\n");
}

/** The labels folder as a review reads it: what it held ({@link labelsSignature}), and its labels. */
export interface ReviewLabels {
  seen: string;
  book: LabelBook;
}

/**
 * Reads the labels folder for a review, its signature first: a label
 * appended between the two reads makes the session read again (the
 * signature no longer matches), never go unseen. `ragjudge review` reads it
 * once, checks the annotator's name against it and hands it to the session.
 *
 * @example
 * const labels = readReviewLabels("labels", "asha");
 * refuseLookalikeAnnotator("asha", labels.book, loadDraws("labels"));
 * new ReviewSession({ ..., labelsDir: "labels", annotator: "asha", labels });
 */
export function readReviewLabels(labelsDir: string, annotator: string): ReviewLabels {
  const seen = labelsSignature(labelsDir, annotator);
  return { seen, book: loadLabels(labelsDir) };
}

/** Item ids an annotator skipped (none when nothing was skipped yet; creates nothing). */
export function readSkips(labelsDir: string, annotator: string): Set<string> {
  return new Set(loadLog(skipsFileOf(labelsDir, annotator, { create: false }), SkipRecord).map((s) => evidenceKey(s, s.inputHash)));
}

/** Records a skip durably (flushed before returning). */
export function appendSkipDurable(labelsDir: string, annotator: string, skip: SkipRecord): void {
  appendLineDurable(skipsFileOf(labelsDir, annotator), JSON.stringify(SkipRecord.parse(skip)));
}
