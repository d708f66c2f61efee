import { InputError } from "./errors.js";
import { rankedLists, type GoldenSet, type VariantData } from "./dataset.js";

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
  // per file says so. A golden id is checked only against a chunks file: without one, the known ids are the
  // passages some answer retrieved, and a relevant chunk nobody retrieved is a miss, not a typo.
  const unfiled = v.chunksFile === undefined ? new UnfiledIds() : undefined;
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
    return [...(once ? [once] : []), ...finish(found, more, v.outputFile)];
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

  add(id: string, line: number | undefined): void {
    this.ids.add(id);
    this.first ??= { id, line };
  }

  /** The file's one problem, at the line of its first such id; undefined when it has none. */
  problem(file: string, from: ChunksFrom): InputError | undefined {
    if (!this.first) return undefined;
    const n = this.ids.size;
    const ids = n === 1 ? `chunk id ${q(this.first.id)}` : `${n} chunk ids (the first: ${q(this.first.id)})`;
    return new InputError(file, this.first.line, undefined, `${ids} and no chunks file to look ${n === 1 ? "it" : "them"} up in: ${nameChunksFile(from)}, or give each passage as {"text": ...}`);
  }
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
