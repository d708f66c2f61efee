import { InputError } from "./errors.js";
import { rankedLists, type GoldenSet, type VariantData } from "./dataset.js";
import { PASSAGE_ID_PREFIX } from "./passages.js";

const q = JSON.stringify;

/** Unknown ids reported one by one; the rest are counted in one more line. */
const MAX_LISTED = 50;

/**
 * The chunk ids a variant's inputs name that its chunks do not hold: a
 * golden `relevant` id, or an id in an output line's `retrieved`, `stages` or
 * `context`. Worded as `ragjudge validate` words them. For commands that
 * score without validating first (`ragjudge retrieval`): a misspelt id or
 * the wrong chunks file would otherwise score as a miss and exit 0.
 *
 * Fast on the common case: a load on a worker thread checks its ids while
 * the worker parses (`v.idsKnown`, load-parallel.ts), and the lines are
 * walked here only when it did not or found one unknown, to say where (at
 * 50,000 questions x 100 retrieved the walk would cost about 0.4 s).
 * A variant with no chunks file gets one problem per file instead, worded
 * for where the user names one (`chunksFrom`).
 *
 * @example
 * const problems = unknownChunkIds(golden, variant);
 * if (problems.length) throw new InputErrors(problems);
 */
export function unknownChunkIds(golden: GoldenSet, v: VariantData, chunksFrom: ChunksFrom = "config"): InputError[] {
  const known = v.chunks.byId;
  const found: InputError[] = [];
  let more = 0;
  const add = (e: () => InputError) => {
    if (found.length < MAX_LISTED) found.push(e());
    else more++;
  };
  // With no chunks file every output id given by id (not as text) is unknown for the same reason: one problem
  // per file says so, and one for the golden set's relevant ids that no passage given as text can have.
  const unfiled = v.chunksFile === undefined ? new UnfiledIds() : undefined;
  const goldenOnce = unfiled && unfiledRelevant(golden.questions.map((gq) => ({ line: golden.lineOf.get(gq.id), question: gq }))).problem(golden.file, chunksFrom, chunksFrom === "config" ? v.name : undefined);
  if (!unfiled) {
    for (const gq of golden.questions) {
      if (!gq.answerable) continue;
      (gq.relevant ?? []).forEach((id, i) => {
        if (!known.has(id)) add(() => new InputError(golden.file, golden.lineOf.get(gq.id), `relevant[${i}]`, unknownRelevantMessage(id, v.chunksFile!)));
      });
    }
  }
  const done = () => {
    const once = unfiled?.problem(v.outputFile, chunksFrom);
    return [...(goldenOnce ? [goldenOnce] : []), ...(once ? [once] : []), ...finish(found, more, v.outputFile)];
  };
  if (v.idsKnown) return done();
  const lines = [...v.outputs].map(([id, out]) => ({ line: v.lineOf.get(id) ?? 0, out })).sort((a, b) => a.line - b.line);
  for (const { line, out } of lines) {
    for (const [field, list] of rankedLists(out)) {
      list.forEach((id, i) => {
        if (known.has(id)) return;
        if (unfiled) unfiled.add(id, line);
        else add(() => new InputError(v.outputFile, line, `${field}[${i}]`, unknownIdMessage(id, v.chunksFile!)));
      });
    }
    (out.context ?? []).forEach((id, i) => {
      if (known.has(id)) return;
      if (unfiled) unfiled.add(id, line);
      else add(() => new InputError(v.outputFile, line, `context[${i}]`, unknownIdMessage(id, v.chunksFile!)));
    });
  }
  return done();
}

/**
 * Where the user names a chunks file: `--chunks FILE` (explicit inputs:
 * `--golden`, `--output`) or the config's variant `chunks`. A hint must name
 * the way open in the mode the user is in.
 */
export type ChunksFrom = "flag" | "config";

/** How to name a chunks file, in the words of the mode the user is in. */
function nameChunksFile(from: ChunksFrom): string {
  return from === "flag" ? "pass --chunks FILE (or name one in the config)" : 'name one in the config (the variant\'s "chunks")';
}

/**
 * The chunk ids of a pipeline output given by id (not as passage text) when
 * the variant has no chunks file: counted, so the file gets one problem
 * rather than one per id.
 */
export class UnfiledIds {
  private ids = new Set<string>();
  private first: { id: string; line: number | undefined } | undefined;

  /**
   * @param what what the ids are, in the singular ("chunk id", "relevant chunk id").
   * @param otherwise the other way out than a chunks file.
   */
  constructor(
    private readonly what = "chunk id",
    private readonly otherwise = 'give each passage as {"text": ...}',
  ) {}

  add(id: string, line: number | undefined): void {
    this.ids.add(id);
    this.first ??= { id, line };
  }

  /**
   * The file's one problem, at the line of its first such id; undefined when
   * it has none. `variant` names the variant for a file several share (the
   * golden set), where one variant's chunks file may hold the ids.
   */
  problem(file: string, from: ChunksFrom, variant?: string): InputError | undefined {
    if (!this.first) return undefined;
    const lacks = variant === undefined ? "no chunks file" : `variant ${variant} has no chunks file`;
    const n = this.ids.size;
    const ids = n === 1 ? `${this.what} ${q(this.first.id)}` : `${n} ${this.what}s (the first: ${q(this.first.id)})`;
    return new InputError(file, this.first.line, undefined, `${ids} and ${lacks} to look ${n === 1 ? "it" : "them"} up in: ${nameChunksFile(from)}, or ${this.otherwise}`);
  }
}

/**
 * Whether `id` can name a passage given as text: derived ids are `p-` and 12
 * hex digits ({@link passageId}). Without a chunks file no other id can ever
 * be relevant, so such a golden id is a misnamed chunk or a missing chunks
 * file; a derived id no answer retrieved is a miss, not a typo.
 */
export function mayBePassageId(id: string): boolean {
  return id.length === PASSAGE_ID_PREFIX.length + 12 && id.startsWith(PASSAGE_ID_PREFIX) && /^[0-9a-f]{12}$/.test(id.slice(PASSAGE_ID_PREFIX.length));
}

/**
 * The golden `relevant` ids of answerable questions that cannot name a
 * passage given as text ({@link mayBePassageId}), for a variant with no
 * chunks file: counted, so the golden set gets one problem naming the first.
 * Without this a misspelt id, or a chunks file left out of the config,
 * scored every such question as a miss and exited 0.
 */
export function unfiledRelevant(questions: Iterable<{ line: number | undefined; question: { answerable?: boolean | undefined; relevant?: readonly string[] | undefined } }>): UnfiledIds {
  const ids = new UnfiledIds("relevant chunk id", "mark the relevant passages with an anchor or relevantText");
  for (const { line, question } of questions) {
    if (question.answerable === false) continue;
    for (const id of question.relevant ?? []) if (!mayBePassageId(id)) ids.add(id, line);
  }
  return ids;
}

/** How `validate` and `retrieval` word a golden `relevant` id that the chunks file lacks. */
export function unknownRelevantMessage(id: string, chunksFile: string): string {
  return `chunk id ${q(id)} is not in the chunks file ${chunksFile}`;
}

/** How `validate` and `retrieval` word an id that a variant's chunks file lacks (with no chunks file: {@link UnfiledIds}). */
export function unknownIdMessage(id: string, chunksFile: string): string {
  return `unknown chunk id ${q(id)} (not in ${chunksFile})`;
}

function finish(found: InputError[], more: number, file: string): InputError[] {
  if (more) found.push(new InputError(file, undefined, undefined, `${more} more unknown chunk id${more === 1 ? "" : "s"} (ragjudge validate lists every one)`));
  return found;
}
