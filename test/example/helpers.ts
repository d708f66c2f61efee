import { resolve } from "node:path";
import { loadCorpus, type Doc } from "../../scripts/example/corpus.js";
import { normalise } from "../../src/golden/normalise.js";
import { ROOT } from "../helpers/paths.js";

/** The repository root (the shipped example lives there). */
export { ROOT };
export const GOLDEN = resolve(ROOT, "golden");

let docs: Doc[] | undefined;
/** The shipped corpus, loaded once per test file. */
export function corpus(): Doc[] {
  return (docs ??= loadCorpus(resolve(GOLDEN, "corpus")));
}

/**
 * The blank-line separated block (paragraph, list or code block) of `doc`
 * that contains the anchor, compared after normalise(); undefined when the
 * anchor crosses a block boundary or is absent.
 */
export function paragraphOf(doc: Doc, anchor: string): string | undefined {
  const needle = normalise(anchor);
  return doc.text.split(/\n\s*\n/).find((block) => normalise(block).includes(needle));
}
