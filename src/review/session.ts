import { existsSync } from "node:fs";
import { loadJsonl, type Located } from "../golden/jsonl.js";
import { Judgment, type Label, type QueueEntry } from "../golden/schema/items.js";
import { loadRubrics } from "../judge/rubric/rubric.js";
import { questionShown, wordingHash } from "../judge/rubric/wording.js";
import { evidenceKey, keyOf } from "../calibration/keys.js";
import { meanPYes, uncertainOrder, type ReviewOrder } from "./order.js";
import { loadQueue } from "./queue.js";
import { InputError, InputErrors } from "../golden/errors.js";
import { annotatorLabels, appendLabelDurable, appendSkipDurable, checkAnnotator, labelsSignature, readReviewLabels, readSkips, type ReviewLabels } from "./store.js";
import { loadLabels, type LabelBook } from "../calibration/labels.js";
import { currentWording } from "../calibration/wording.js";
import { buildItemView, type ItemView } from "./view.js";

/** A request the session refuses; `status` is the HTTP status the server answers with. */
export class ReviewRequestError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = "ReviewRequestError";
  }
}

/** What a label that changed under a page was changed to (a 409 carries it, so the page can offer the choice). */
export interface ConflictView {
  label: "yes" | "no";
  note?: string;
  time: string;
}

/**
 * A label refused because the item's label changed since the page showed it
 * (another tab, or another process appending to the labels file): the page
 * shows `conflict` and lets the person keep it or answer again knowingly.
 */
export class ReviewConflictError extends ReviewRequestError {
  constructor(message: string, readonly conflict: ConflictView | null) {
    super(409, message);
    this.name = "ReviewConflictError";
  }
}

/** Where a review reads from and writes to. */
export interface ReviewOptions {
  queueFile: string;
  rubricsDir: string;
  /** Judgments JSONL; when missing, the judge's verdicts just cannot be revealed. */
  judgmentsFile?: string;
  labelsDir: string;
  annotator: string;
  /** The labels folder as the caller read it with `readReviewLabels` (to check the annotator's name); default: read here. */
  labels?: ReviewLabels;
  /** `human` (default) or `author` for the project's own example labels. */
  provenance?: "human" | "author";
  /** The order items are served in (review/order.ts); default `queue`. */
  order?: ReviewOrder;
  now?: () => Date;
}

/** The judge's verdict on an item, revealed only after the person answered. */
export interface JudgeView {
  /** How the judge reads to a reviewer ("model", "offline baseline", "rule"), beside the file format's `judge` kind. */
  judgeWords: string;
  verdict: "yes" | "no" | "error";
  reason: string;
  judge: string;
  model?: string;
  repeat: number;
  fingerprint: string;
  error?: string;
  rule?: string;
  /** The judge's P(yes) of this verdict, when it has one. */
  pYes?: number;
}

/** What is revealed after answering: the judge's verdicts and how the item was sampled. */
/** How each judge kind reads to a reviewer (the page and the terminal show these words). */
const JUDGE_WORDS: Record<Judgment["judge"], string> = { llm: "model", baseline: "offline baseline", rule: "rule" };

export interface RevealView {
  judgments: JudgeView[];
  frame: string;
  stratum?: string;
  inclusionProbability?: number;
}

/** Where an item stands for this person: a skip is a queue state, never a label. */
export type ItemState = "labelled" | "skipped" | "open";

/**
 * One person's pass over a review queue: the queue, what they already
 * labelled or skipped (read back from the labels folder, so a restart
 * resumes where they stopped), and the two writes (label, skip), each durable
 * before it returns. Shared by the web page's server and the terminal flow.
 */
export class ReviewSession {
  readonly entries: Located<QueueEntry>[];
  /** Each entry's {@link evidenceKey}, by queue index: labels, skips and verdicts are looked up by it. */
  private readonly ids: string[];
  readonly annotator: string;
  private readonly questions: { question: string; guidance?: string }[];
  /**
   * The wording hash of each rubric of the queue as this session shows it (judge/rubric/wording.ts): written on
   * every label; a label of this person that recorded another wording answered another question, so its item is open.
   */
  private readonly wordings: Map<string, string>;
  private readonly judgments = new Map<string, Judgment[]>();
  private labels: Map<string, Label>;
  private skips: Set<string>;
  /** What the labels folder looked like when last read (see {@link refresh}). */
  private seenOnDisk: string;
  /** The provenance every label of this session is saved with: `human`, or `author` (never shown as human). */
  readonly provenance: "human" | "author";
  private readonly now: () => Date;

  /** The folder the labels are written to (named when a review ends, so a `--labels` folder is not mistaken for the config's). */
  get labelsDir(): string {
    return this.opts.labelsDir;
  }

  constructor(private readonly opts: ReviewOptions) {
    this.annotator = checkAnnotator(opts.annotator);
    this.provenance = opts.provenance ?? "human";
    this.now = opts.now ?? (() => new Date());
    this.entries = loadQueue(opts.queueFile);
    const names = [...new Set(this.entries.map((e) => e.value.rubric))].sort();
    const rubrics = new Map(loadRubrics(opts.rubricsDir, names).map((r) => [r.name, r]));
    this.questions = this.entries.map((e) => questionShown(rubrics.get(e.value.rubric)!, e.value.evidence.answerable));
    this.wordings = new Map([...rubrics].map(([name, r]) => [name, wordingHash(r)]));
    this.ids = this.entries.map((e) => evidenceKey(e.value, e.value.inputHash));
    const wanted = new Set(this.ids);
    if (opts.judgmentsFile && existsSync(opts.judgmentsFile)) {
      for (const { value: j } of loadJsonl(opts.judgmentsFile, Judgment)) {
        const id = evidenceKey(j, j.inputHash);
        if (!wanted.has(id)) continue;
        const list = this.judgments.get(id) ?? [];
        list.push(j);
        this.judgments.set(id, list);
      }
    }
    if (opts.order === "uncertain") {
      // Served order only: the same entries, the queue file untouched.
      const perm = uncertainOrder(this.entries.map((e) => e.value), (i) => meanPYes(this.judgments.get(this.ids[i]!)));
      const [entries, ids, questions] = [this.entries, this.ids, this.questions];
      this.entries = perm.map((i) => entries[i]!);
      this.ids = perm.map((i) => ids[i]!);
      this.questions = perm.map((i) => questions[i]!);
    }
    const read = opts.labels ?? readReviewLabels(opts.labelsDir, this.annotator);
    this.seenOnDisk = read.seen;
    this.labels = this.ownLabels(read.book);
    this.skips = readSkips(opts.labelsDir, this.annotator);
  }

  /**
   * Reads the labels and skips again when any labels file changed on disk
   * since they were last read (another process appended labels, `labels
   * import` ran, a second review of this annotator is open): one listing and
   * a stat per file when nothing changed. Files that no longer read are a
   * 409 naming the first problem; the labels in memory stay as they were.
   */
  refresh(): void {
    const now = labelsSignature(this.opts.labelsDir, this.annotator);
    if (now === this.seenOnDisk) return;
    try {
      this.labels = this.ownLabels(loadLabels(this.opts.labelsDir));
      this.skips = readSkips(this.opts.labelsDir, this.annotator);
    } catch (e) {
      if (!(e instanceof InputErrors || e instanceof InputError)) throw e;
      const first = e instanceof InputErrors ? e.problems[0]!.message : e.message;
      throw new ReviewRequestError(409, `the labels folder changed on disk and no longer reads: ${first}${e instanceof InputErrors && e.problems.length > 1 ? ` (and ${e.problems.length - 1} more problems)` : ""}; fix the file, then reload the page`);
    }
    this.seenOnDisk = now;
  }

  /** This person's labels that answered the question as this session asks it (see {@link wordings}). */
  private ownLabels(book: LabelBook): Map<string, Label> {
    return annotatorLabels(currentWording(book, this.wordings).book, this.annotator);
  }

  get total(): number {
    return this.entries.length;
  }

  /** True when a judgments file was found (some verdict may still be missing for an item). */
  get hasJudgments(): boolean {
    return this.judgments.size > 0;
  }

  private entry(index: number): QueueEntry {
    const e = Number.isInteger(index) ? this.entries[index] : undefined;
    if (!e) throw new ReviewRequestError(404, `no item ${index} (the queue has ${this.total})`);
    return e.value;
  }

  private id(index: number): string {
    this.entry(index);
    return this.ids[index]!;
  }

  /** Refuses a write aimed at an item whose evidence is not the one shown. */
  private check(index: number, inputHash: string): QueueEntry {
    const e = this.entry(index);
    if (e.inputHash !== inputHash) throw new ReviewRequestError(409, `item ${index} has input hash ${e.inputHash.slice(0, 12)}…, not ${inputHash.slice(0, 12)}… (reload the page)`);
    return e;
  }

  /** Whether this person labelled, skipped or has yet to answer item `index`. */
  state(index: number): ItemState {
    const id = this.id(index);
    return this.labels.has(id) ? "labelled" : this.skips.has(id) ? "skipped" : "open";
  }

  /** Where a (re)started review begins: the first item neither labelled nor skipped; `total` when none is left. */
  resumeIndex(): number {
    for (let i = 0; i < this.total; i++) if (this.state(i) === "open") return i;
    return this.total;
  }

  /**
   * Where `review --tty` starts: the first open item, else the first skipped
   * one (a queue drawn again to label the items skipped before holds only
   * those: starting at "queue done" would leave them out of reach), else
   * `total`. Moving on ({@link nextAfter}) walks forward through the
   * skipped items, so skipping the last one ends the queue.
   */
  startIndex(): number {
    const open = this.resumeIndex();
    if (open < this.total) return open;
    for (let i = 0; i < this.total; i++) if (this.state(i) === "skipped") return i;
    return this.total;
  }

  /**
   * After answering or skipping item `i`: the next open item (after it, else
   * from the start), else the next skipped item after it, else `total`. So a
   * queue whose open items are done walks on through the skipped ones once,
   * forward, and ends after the last.
   */
  nextAfter(i: number): number {
    const open = this.nextOpenAfter(i);
    if (open < this.total) return open;
    for (let k = i + 1; k < this.total; k++) if (this.state(k) === "skipped") return k;
    return this.total;
  }

  /** After answering item `i`: the next open item after it, else the first open one, else `total` (the end). */
  private nextOpenAfter(i: number): number {
    for (let k = i + 1; k < this.total; k++) if (this.state(k) === "open") return k;
    return this.resumeIndex();
  }

  /** How many items are labelled, skipped and still open. */
  counts(): { total: number; labelled: number; skipped: number; open: number } {
    const c = { total: this.total, labelled: 0, skipped: 0, open: 0 };
    for (let i = 0; i < this.total; i++) c[this.state(i)]++;
    return c;
  }

  /** The item as shown before answering (no judge verdict, no frame). */
  view(index: number): ItemView {
    const e = this.entry(index);
    const id = this.ids[index]!;
    const l = this.labels.get(id);
    return {
      ...buildItemView(e, index, this.total, this.questions[index]!.question, this.questions[index]!.guidance),
      ...(l ? { label: { label: l.label, ...(l.note !== undefined ? { note: l.note } : {}), time: l.time } } : {}),
      skipped: !l && this.skips.has(id),
    };
  }

  /**
   * Appends the person's label, flushed to disk, and only then records it
   * in memory. Answering an item again appends a new line that supersedes
   * the old one (the history stays in the file). With `seen` (the time of
   * the label the page showed, or null for none), a label that changed
   * since then is refused with a {@link ReviewConflictError} instead of
   * silently replaced: two tabs never overwrite each other unknowingly.
   */
  answer(index: number, inputHash: string, label: "yes" | "no", note?: string, seen?: string | null): Label {
    const e = this.check(index, inputHash);
    this.refresh();
    if (seen !== undefined) this.checkUnchanged(index, seen);
    const trimmed = note?.trim();
    const written = appendLabelDurable(this.opts.labelsDir, {
      ...keyOf(e),
      inputHash: e.inputHash,
      label,
      annotator: this.annotator,
      provenance: this.provenance,
      frame: e.frame,
      ...(e.inclusionProbability !== undefined ? { inclusionProbability: e.inclusionProbability } : {}),
      ...(e.stratum !== undefined ? { stratum: e.stratum } : {}),
      ...(e.split ? { split: e.split } : {}),
      ...(e.draw !== undefined ? { draw: e.draw } : {}),
      wordingHash: this.wordings.get(e.rubric),
      ...(trimmed ? { note: trimmed } : {}),
      time: this.now().toISOString(),
    });
    this.labels.set(this.ids[index]!, written);
    return written;
  }

  /** Refuses a write over a label the person has not seen (see {@link answer}). */
  private checkUnchanged(index: number, seen: string | null): void {
    const current = this.labels.get(this.ids[index]!);
    if ((current?.time ?? null) === seen) return;
    const shown = seen === null ? "unlabelled" : `labelled at ${seen}`;
    if (!current) throw new ReviewConflictError(`item ${index + 1} has no label any more, while this page showed it ${shown}: reload the page`, null);
    throw new ReviewConflictError(
      `item ${index + 1} was labelled ${JSON.stringify(current.label)} at ${current.time} while this page showed it ${shown} (another tab or process): keep that label, or answer again to replace it`,
      { label: current.label, ...(current.note !== undefined ? { note: current.note } : {}), time: current.time },
    );
  }

  /** Marks an item skipped (a queue state, not a label); durable before returning. A labelled item stays labelled. */
  skip(index: number, inputHash: string): void {
    const e = this.check(index, inputHash);
    this.refresh();
    const id = this.ids[index]!;
    if (this.skips.has(id)) return;
    appendSkipDurable(this.opts.labelsDir, this.annotator, { ...keyOf(e), inputHash: e.inputHash, time: this.now().toISOString() });
    this.skips.add(id);
  }

  /**
   * What to tell a person who just changed their answer on a drawn item to
   * the judge's verdict: for the trust gate the earlier answer, against the
   * judge, still counts (calibration/labels.ts gateLabels: the gate cannot
   * tell a correction from a change made once the verdict could be seen, so a
   * changed mind never raises agreement). Undefined when nothing is to be said.
   */
  gateNote(index: number, previous: "yes" | "no" | undefined, now: "yes" | "no"): string | undefined {
    if (previous === undefined || previous === now || this.entry(index).draw === undefined) return undefined;
    const verdicts = this.judgments.get(this.ids[index]!) ?? [];
    if (!verdicts.some((j) => j.verdict === now)) return undefined;
    return `for the trust gate your earlier "${previous}" on this drawn item still counts: an answer changed to the judge's verdict once it could be seen cannot raise agreement (README: what decides a drawn item for the gate); the label everywhere else is "${now}"`;
  }

  /** The judge's verdicts and the sampling frame, only once this person has labelled the item. */
  reveal(index: number): RevealView {
    if (this.state(index) !== "labelled") throw new ReviewRequestError(403, "answer the item first: the judge's verdict stays hidden until then");
    const e = this.entry(index);
    const judgments = (this.judgments.get(this.ids[index]!) ?? [])
      .slice()
      .sort((a, b) => a.fingerprint.localeCompare(b.fingerprint) || a.repeat - b.repeat)
      .map((j) => ({
        verdict: j.verdict,
        reason: j.reason,
        judge: j.judge,
        judgeWords: JUDGE_WORDS[j.judge],
        ...(j.model !== undefined ? { model: j.model } : {}),
        repeat: j.repeat,
        fingerprint: j.fingerprint.slice(0, 12),
        ...(j.error !== undefined ? { error: j.error } : {}),
        ...(j.rule !== undefined ? { rule: j.rule } : {}),
        ...(j.pYes !== undefined ? { pYes: j.pYes } : {}),
      }));
    return {
      judgments,
      frame: e.frame,
      ...(e.stratum !== undefined ? { stratum: e.stratum } : {}),
      ...(e.inclusionProbability !== undefined ? { inclusionProbability: e.inclusionProbability } : {}),
    };
  }
}

/**
 * How a session's labels are described to the person labelling: `author`
 * labels are the project's own example labels and are never called human.
 *
 * @example
 * provenanceNote("author") // "provenance author: the project's own labels, not human evidence"
 */
export function provenanceNote(provenance: "human" | "author"): string {
  return provenance === "author" ? "provenance author: the project's own labels, not human evidence" : "provenance human";
}
