import type { Label } from "../golden/schema/items.js";
import { evidenceKey } from "./keys.js";
import { resolveLabels, type LabelBook, type LocatedLabel } from "./labels.js";
import { labelRule } from "./trust-rules.js";

/**
 * Labels and the wording of the question they answered. A label records the
 * hash of its rubric's wording as the review page showed it (`wordingHash`,
 * judge/rubric/wording.ts); a rubric whose question was edited since asks
 * something else, so those labels say nothing about a judge asked the new
 * question and never count for it. A label without a wording hash (written
 * before ragjudge recorded it, or by hand) counts as answering today's.
 */

/**
 * Today's wording hash of each rubric, by name (judge/rubric/wording.ts
 * `rubricWordings`); `null` for a rubric file that does not read, whose
 * wording is unknown. A rubric missing here is not checked.
 */
export type Wordings = ReadonlyMap<string, string | null>;

/** Whether a label counts for today's wording of its rubric: it records none, or the one its rubric has now. */
export function answersWording(label: Pick<Label, "rubric" | "wordingHash">, wordings: Wordings): boolean {
  if (label.wordingHash === undefined || !wordings.has(label.rubric)) return true;
  return wordings.get(label.rubric) === label.wordingHash;
}

/** A labels folder as read for today's wordings: the labels that count, and those that answered another wording. */
export interface WordingView {
  book: LabelBook;
  /** Labels (the whole history) whose rubric's wording changed since they were made. */
  earlier: LocatedLabel[];
}

const views = new WeakMap<LabelBook, Map<string, WordingView>>();

/**
 * The book with the labels of another wording of their rubric left out,
 * resolved again (so an annotator's earlier answer, made under today's
 * wording, is their label again), and the labels left out. The book itself
 * when none is: its hashes and files are the folder's either way.
 *
 * @example
 * currentWording(loadLabels("labels"), rubricWordings("rubrics")).earlier.length // labels that answered an earlier question
 */
export function currentWording(book: LabelBook, wordings: Wordings): WordingView {
  const key = JSON.stringify([...wordings].sort());
  let m = views.get(book);
  if (!m) views.set(book, (m = new Map()));
  let view = m.get(key);
  if (!view) {
    const earlier = book.history.filter((l) => !answersWording(l.value, wordings));
    view = earlier.length ? { book: resolveLabels(book.dir, book.files, book.history.filter((l) => answersWording(l.value, wordings))), earlier } : { book, earlier };
    m.set(key, view);
  }
  return view;
}

/**
 * The judged items (by evidence key) labelled only under an earlier wording:
 * a label on them recorded another wording of their rubric, and no label
 * that counts is left. What to label again.
 */
export function labelledEarlier(view: WordingView, judged: Iterable<string>): number {
  const earlier = new Set(view.earlier.map((l) => evidenceKey(l.value, l.value.inputHash)));
  let n = 0;
  for (const ek of judged) if (earlier.has(ek) && !view.book.items.has(ek)) n++;
  return n;
}

/**
 * What the reports say of a rubric's items labelled under an earlier wording.
 *
 * @example
 * earlierWordingNote("correctness", 12, false)
 * // "12 labelled items of correctness answered an earlier wording of its question; their labels do not count (label them again: ragjudge sample draws them again, ragjudge review asks today's question)"
 */
export function earlierWordingNote(rubric: string, items: number, unreadable: boolean): string {
  const what = `${items} labelled item${items === 1 ? "" : "s"} of ${rubric}`;
  if (unreadable) return `${what} answered a wording of its question that cannot be checked: its rubric file does not read, or two files (.yaml and .yml) give its name; their labels do not count until one file reads`;
  return `${what} ${labelRule("wording").says}; their labels do not count (label ${items === 1 ? "it" : "them"} again: ragjudge sample draws ${items === 1 ? "it" : "them"} again, ragjudge review asks today's question)`;
}
