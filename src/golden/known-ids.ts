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
 *
 * @example
 * const problems = unknownChunkIds(golden, variant);
 * if (problems.length) throw new InputErrors(problems);
 */
export function unknownChunkIds(golden: GoldenSet, v: VariantData): InputError[] {
  const known = v.chunks.byId;
  const found: InputError[] = [];
  let more = 0;
  const add = (e: () => InputError) => {
    if (found.length < MAX_LISTED) found.push(e());
    else more++;
  };
  if (v.chunksFile !== undefined) {
    for (const gq of golden.questions) {
      if (!gq.answerable) continue;
      (gq.relevant ?? []).forEach((id, i) => {
        if (!known.has(id)) add(() => new InputError(golden.file, golden.lineOf.get(gq.id), `relevant[${i}]`, unknownRelevantMessage(id, v.chunksFile!)));
      });
    }
  }
  if (v.idsKnown) return finish(found, more, v.outputFile);
  const lines = [...v.outputs].map(([id, out]) => ({ line: v.lineOf.get(id) ?? 0, out })).sort((a, b) => a.line - b.line);
  for (const { line, out } of lines) {
    for (const [field, list] of rankedLists(out)) {
      list.forEach((id, i) => {
        if (!known.has(id)) add(() => new InputError(v.outputFile, line, `${field}[${i}]`, unknownIdMessage(id, v.chunksFile)));
      });
    }
    (out.context ?? []).forEach((id, i) => {
      if (!known.has(id)) add(() => new InputError(v.outputFile, line, `context[${i}]`, unknownIdMessage(id, v.chunksFile)));
    });
  }
  return finish(found, more, v.outputFile);
}

/** How `validate` and `retrieval` word a golden `relevant` id that the chunks file lacks. */
export function unknownRelevantMessage(id: string, chunksFile: string): string {
  return `chunk id ${q(id)} is not in the chunks file ${chunksFile}`;
}

/** How `validate` and `retrieval` word an id that a variant's chunks lack. */
export function unknownIdMessage(id: string, chunksFile: string | undefined): string {
  return chunksFile === undefined
    ? `unknown chunk id ${q(id)} (the variant has no chunks file: give each passage as {"text": ...}, or name a chunks file in the config)`
    : `unknown chunk id ${q(id)} (not in ${chunksFile})`;
}

function finish(found: InputError[], more: number, file: string): InputError[] {
  if (more) found.push(new InputError(file, undefined, undefined, `${more} more unknown chunk id${more === 1 ? "" : "s"} (ragjudge validate lists every one)`));
  return found;
}
