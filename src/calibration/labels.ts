import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { InputError, InputErrors, zodProblems } from "../golden/errors.js";
import { appendLineDurable, readTextHashed } from "../golden/files.js";
import { hashJson } from "../golden/hash.js";
import { parseJsonl } from "../golden/jsonl.js";
import { confinedPath } from "../golden/paths.js";
import { Label, type Frame, type ItemKey } from "../golden/schema/items.js";
import { evidenceKey, keyOf } from "./keys.js";
import { labelHistoryProblems } from "./label-checks.js";

/**
 * Labels: the append-only JSONL files in `labels/` (one per annotator, plus
 * imports), their full history, and what counts from them. A later label by
 * the same annotator on the same judged evidence supersedes the earlier one;
 * the history stays in the file and in {@link LabelBook.history}.
 */

/** One label as read, with where it came from (for messages and provenance). */
export interface LocatedLabel {
  value: Label;
  file: string;
  line: number;
}

/** A labels file read, with its content hash (recorded in calibration records). */
export interface LabelFile {
  /** File name inside the labels folder. */
  name: string;
  path: string;
  sha256: string;
  labels: number;
}

/** How an item's reference label was decided. */
export type Resolution = "single" | "unanimous" | "majority" | "adjudication" | "tie";

/**
 * Everything known about one judged piece of evidence (item key + input
 * hash): each annotator's effective label, any explicit adjudication, and the
 * label that counts.
 */
export interface LabelledItem {
  key: ItemKey;
  inputHash: string;
  /** The effective (latest) label of each annotator, sorted by annotator; adjudication labels excluded. */
  byAnnotator: LocatedLabel[];
  /** The latest explicit adjudication label, if any. */
  adjudication?: LocatedLabel;
  /** The label that counts: the adjudication, else the majority; null on an unresolved tie. */
  label: "yes" | "no" | null;
  resolution: Resolution;
  /** Frames that put this item in front of a labeller (any of its counted labels). */
  frames: Frame[];
  /** The latest label from a `random` frame, whose inclusion probability and split the gate uses. */
  random?: LocatedLabel;
  /**
   * Every label that may decide the item for the trust gate once a draw drew it ({@link gateLabels}): each
   * annotator's labels on this evidence, superseded ones too, in reading order; no adjudication and no label of
   * a second-opinion frame ({@link SECOND_OPINION_FRAMES}).
   */
  answers: LocatedLabel[];
}

/**
 * Frames that put an item in front of a second labeller because someone
 * disagreed: `disagreement` (a label against the judge's verdict),
 * `panel-split` (the panel's judges against each other). Their labels go
 * only where a first answer and a judge parted, so letting them decide an
 * item could only move the gate toward the judge: they never do, even as
 * the first label of an item.
 */
export const SECOND_OPINION_FRAMES: ReadonlySet<string> = new Set(["disagreement", "panel-split"]);

/**
 * The label that decides a drawn item for the trust gate, as an item of its
 * own (undefined: none may): of its {@link LabelledItem.answers}, one
 * against the judge's `verdict` when anyone gave one, else the latest.
 * Labels added after the first are the ones an adversary could aim: someone
 * answering, through the draw's queue, only the items where its annotator
 * parted from the judge, then someone else, or an adjudication of the ties
 * that makes; an answer changed once the review page showed the verdict.
 * The gate cannot tell those from a second annotator's honest view or a
 * correction, so none of them can raise kappa: the judge has to agree with
 * everyone who answered a drawn item, and, like a skipped item, another
 * answer can lower kappa, never raise it. (A majority, and adjudications,
 * decide items for the error analysis and the exports, not here.) Among
 * equal answers an `author` label wins: a label imported again as human
 * keeps what it was.
 *
 * @example
 * gateLabels(book.items.get(evidenceKey(key, hash))!, "yes")?.label // "no" once anyone said no
 */
export function gateLabels(item: LabelledItem, verdict: "yes" | "no" | "error"): LabelledItem | undefined {
  const rank = (l: LocatedLabel) => (verdict !== "error" && l.value.label !== verdict ? 2 : 0) + (l.value.provenance === "author" ? 1 : 0);
  // answers are in reading order: of two at one time, the one further on is the later
  let pick: LocatedLabel | undefined;
  let random: LocatedLabel | undefined;
  for (const l of item.answers) {
    if (!pick || rank(l) > rank(pick) || (rank(l) === rank(pick) && Date.parse(l.value.time) >= Date.parse(pick.value.time))) pick = l;
    if (l.value.frame === "random" && (!random || Date.parse(l.value.time) >= Date.parse(random.value.time))) random = l;
  }
  if (!pick) return undefined;
  if (pick.value.frame === "random") random = pick;
  return {
    key: item.key, inputHash: item.inputHash, byAnnotator: [pick], label: pick.value.label, resolution: "single",
    frames: [pick.value.frame], answers: item.answers, ...(random ? { random } : {}),
  };
}

/** The labels folder, read and resolved. */
export interface LabelBook {
  dir: string;
  files: LabelFile[];
  /** SHA-256 over every file's name and hash: changes whenever any label changes. */
  hash: string;
  /** Every label in reading order (files by name, then line). */
  history: LocatedLabel[];
  /** One label per (item, input hash, annotator): the latest non-adjudication label. */
  effective: LocatedLabel[];
  /** Resolved items, keyed by {@link evidenceKey}. */
  items: Map<string, LabelledItem>;
}

/**
 * The labels that decide an item: each annotator's effective label, then
 * the adjudication label when there is one.
 */
export function countedLabels(item: LabelledItem): LocatedLabel[] {
  return item.adjudication ? [...item.byAnnotator, item.adjudication] : item.byAnnotator;
}

/** One label of an item, for pointing at its file and line in a message: the first annotator's, else the adjudication. */
export function firstLabel(item: LabelledItem): LocatedLabel {
  return (item.byAnnotator[0] ?? item.adjudication)!;
}

/** The labels in force: every effective label, then every adjudication label (what an export without `--history` holds). */
export function currentLabels(book: LabelBook): LocatedLabel[] {
  const out = [...book.effective];
  for (const item of book.items.values()) if (item.adjudication) out.push(item.adjudication);
  return out;
}

/** Later-wins order: by `time`, then by reading order. */
function isLater(a: LocatedLabel, b: LocatedLabel, order: Map<LocatedLabel, number>): boolean {
  const ta = Date.parse(a.value.time);
  const tb = Date.parse(b.value.time);
  if (ta !== tb) return ta > tb;
  return order.get(a)! > order.get(b)!;
}

/** Lists the `*.jsonl` files of a labels folder (not recursive), sorted by name. */
export function labelFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  if (!statSync(dir).isDirectory()) throw new InputError(dir, undefined, undefined, "is a file, not a folder: the labels folder (the config's \"labels\", or --labels) must be a folder");
  return readdirSync(dir).filter((f) => f.endsWith(".jsonl") && !f.startsWith(".")).sort();
}

/**
 * Reads every `*.jsonl` in the labels folder (a missing folder means no
 * labels yet), validates each line against the `Label` schema, and resolves:
 *
 * - the effective label per (item, input hash, annotator): the latest by
 *   `time`, ties broken by reading order. Keying on the input hash keeps a
 *   label made on one answer text from superseding, or being superseded by,
 *   a label on a different text of the same item;
 * - the label that counts per item: an explicit `adjudication: true` label
 *   when there is one, else the annotators' majority; a tie with no
 *   adjudication leaves the item unresolved (`label: null`, `resolution: "tie"`).
 *
 * Every bad line in every file is reported at once (InputErrors naming file,
 * line and field). Empty files are fine.
 *
 * @example
 * const book = loadLabels("labels");
 * for (const item of book.items.values()) console.log(item.key.question, item.label, item.resolution);
 */
export function loadLabels(dir: string): LabelBook {
  const names = labelFiles(dir);
  const problems: InputError[] = [];
  const history: LocatedLabel[] = [];
  const files: LabelFile[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const { text, sha256 } = readTextHashed(path);
    files.push({ name, path, sha256, labels: 0 });
    if (text.trim() === "") continue;
    const { rows, problems: p } = parseJsonl(text, path, Label);
    problems.push(...p);
    files[files.length - 1]!.labels = rows.length;
    for (const r of rows) history.push({ value: r.value, file: path, line: r.line });
  }
  if (!problems.length) problems.push(...labelHistoryProblems(history));
  if (problems.length) throw new InputErrors(problems);
  return resolveLabels(dir, files, history);
}

/** Resolves a label history into effective labels and per-item reference labels (see {@link loadLabels}). */
export function resolveLabels(dir: string, files: LabelFile[], history: LocatedLabel[]): LabelBook {
  const order = new Map<LocatedLabel, number>(history.map((l, i) => [l, i]));
  const latest = new Map<string, LocatedLabel>();
  const adjudications = new Map<string, LocatedLabel>();
  const answers = new Map<string, LocatedLabel[]>();
  for (const l of history) {
    const ek = evidenceKey(l.value, l.value.inputHash);
    if (!l.value.adjudication && !SECOND_OPINION_FRAMES.has(l.value.frame)) (answers.get(ek) ?? answers.set(ek, []).get(ek)!).push(l);
    if (l.value.adjudication) {
      const prev = adjudications.get(ek);
      if (!prev || isLater(l, prev, order)) adjudications.set(ek, l);
      continue;
    }
    const k = JSON.stringify([ek, l.value.annotator]);
    const prev = latest.get(k);
    if (!prev || isLater(l, prev, order)) latest.set(k, l);
  }
  const effective = [...latest.values()].sort((a, b) => order.get(a)! - order.get(b)!);
  const grouped = new Map<string, LocatedLabel[]>();
  for (const l of effective) {
    const ek = evidenceKey(l.value, l.value.inputHash);
    let g = grouped.get(ek);
    if (!g) grouped.set(ek, (g = []));
    g.push(l);
  }
  for (const ek of adjudications.keys()) if (!grouped.has(ek)) grouped.set(ek, []);

  const items = new Map<string, LabelledItem>();
  for (const [ek, labels] of grouped) {
    labels.sort((a, b) => (a.value.annotator < b.value.annotator ? -1 : a.value.annotator > b.value.annotator ? 1 : 0));
    const adjudication = adjudications.get(ek);
    const first = (labels[0] ?? adjudication)!.value;
    const yes = labels.filter((l) => l.value.label === "yes").length;
    const no = labels.length - yes;
    let label: "yes" | "no" | null;
    let resolution: Resolution;
    if (adjudication) {
      label = adjudication.value.label;
      resolution = "adjudication";
    } else if (labels.length === 1) {
      label = labels[0]!.value.label;
      resolution = "single";
    } else if (yes === no) {
      label = null;
      resolution = "tie";
    } else {
      label = yes > no ? "yes" : "no";
      resolution = yes === 0 || no === 0 ? "unanimous" : "majority";
    }
    const item: LabelledItem = { key: keyOf(first), inputHash: first.inputHash, byAnnotator: labels, label, resolution, frames: [], answers: answers.get(ek) ?? [] };
    if (adjudication) item.adjudication = adjudication;
    const counted = countedLabels(item);
    item.frames = [...new Set(counted.map((l) => l.value.frame))].sort();
    let random: LocatedLabel | undefined;
    for (const l of counted) if (l.value.frame === "random" && (!random || isLater(l, random, order))) random = l;
    if (random) item.random = random;
    items.set(ek, item);
  }
  const hash = hashJson(files.map((f) => [f.name, f.sha256]));
  return { dir, files, hash, history, effective, items };
}

/** File names must stay inside the labels folder and be portable. */
const SAFE_ANNOTATOR = /^[A-Za-z0-9][A-Za-z0-9._@+-]*$/;

/** The file an annotator's labels are appended to: `<dir>/<annotator>.jsonl`. */
export function labelFileFor(dir: string, annotator: string): string {
  if (!SAFE_ANNOTATOR.test(annotator) || annotator.length > 100) {
    throw new InputError(join(dir, "<annotator>.jsonl"), undefined, "annotator",
      `${JSON.stringify(annotator)} cannot name a labels file: use letters, digits and . _ @ + - (starting with a letter or digit)`);
  }
  return join(dir, `${annotator}.jsonl`);
}

/**
 * The labels file of an annotator, checked to resolve inside the labels
 * folder and not to be a symbolic link planted there (which would make an
 * append write outside), before anything is written.
 */
function confinedLabelFile(dir: string, annotator: string): string {
  const file = labelFileFor(dir, annotator);
  confinedPath(dir, basename(file), { create: false });
  return file;
}

/** Validates a label, throwing InputErrors that name the target file and the field. */
export function validateLabel(input: unknown, file: string, line?: number): Label {
  const parsed = Label.safeParse(input);
  if (!parsed.success) throw new InputErrors(zodProblems(parsed.error, input, file, line, Label));
  return parsed.data;
}

/** True when a non-empty file does not end in a newline (a hand edit); appending must start a new line. */
function needsLeadingNewline(file: string): boolean {
  if (!existsSync(file)) return false;
  const size = statSync(file).size;
  if (size === 0) return false;
  const fd = openSync(file, "r");
  try {
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, size - 1);
    return b[0] !== 0x0a;
  } finally {
    closeSync(fd);
  }
}

/**
 * Validates one label and appends it durably (flushed to disk before
 * returning) to `<dir>/<annotator>.jsonl`. Nothing is written when it is
 * invalid. Returns the stored label (with schema defaults) and its file.
 * This is how the review page and `labels import` write labels.
 *
 * @example
 * appendLabel("labels", { variant: "bm25", question: "q07", rubric: "faithfulness", unit: "answer",
 *   inputHash, label: "no", annotator: "asha", provenance: "human", frame: "random",
 *   inclusionProbability: 0.1, time: new Date().toISOString() });
 */
export function appendLabel(dir: string, input: unknown): { label: Label; file: string } {
  const annotator = (input as { annotator?: unknown } | null)?.annotator;
  const file = typeof annotator === "string" && SAFE_ANNOTATOR.test(annotator) ? join(dir, `${annotator}.jsonl`) : join(dir, "<annotator>.jsonl");
  const label = validateLabel(input, file);
  const target = confinedLabelFile(dir, label.annotator);
  appendLinesDurable(target, [JSON.stringify(label)]);
  return { label, file: target };
}

/**
 * Validates every label first, then appends them grouped by annotator, one
 * durable write per file: a bad label means nothing is written.
 */
export function appendLabels(dir: string, inputs: readonly unknown[]): { labels: Label[]; files: string[] } {
  const problems: InputError[] = [];
  const labels: Label[] = [];
  inputs.forEach((input, i) => {
    const parsed = Label.safeParse(input);
    if (!parsed.success) problems.push(...zodProblems(parsed.error, input, join(dir, "(new labels)"), i + 1));
    else labels.push(parsed.data);
  });
  const byFile = new Map<string, string[]>();
  for (const l of labels) {
    try {
      const f = confinedLabelFile(dir, l.annotator);
      let lines = byFile.get(f);
      if (!lines) byFile.set(f, (lines = []));
      lines.push(JSON.stringify(l));
    } catch (e) {
      problems.push(e as InputError);
    }
  }
  if (problems.length) throw new InputErrors(problems);
  for (const [f, lines] of byFile) appendLinesDurable(f, lines);
  return { labels, files: [...byFile.keys()] };
}

function appendLinesDurable(file: string, lines: string[]): void {
  const text = (needsLeadingNewline(file) ? "\n" : "") + lines.join("\n");
  appendLineDurable(file, text);
}
