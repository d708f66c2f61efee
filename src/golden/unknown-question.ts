import { displayPath } from "./errors.js";
import { closestName } from "./field-names.js";

/** Output lines whose question gets a "did you mean": a typo repeats, a wrong file would cost a search per line. */
const SUGGESTED = 5;

/**
 * Words the problem of an output line whose question the golden set lacks,
 * the same in `validate`, `retrieval` and `run`: the golden set as the user
 * wrote its path, and for the first few lines the golden id it most likely
 * meant (`lib-4` for `lib-04`). One per file read.
 *
 * @example
 * const unknown = new UnknownQuestions(() => golden.byId.keys(), golden.file);
 * unknown.message("lib-4") // 'question "lib-4" is not in the golden set golden.jsonl (did you mean "lib-04"?)'
 */
export class UnknownQuestions {
  private asked = 0;
  private ids: string[] | undefined;

  constructor(
    private readonly goldenIds: () => Iterable<string>,
    private readonly goldenFile: string,
  ) {}

  message(id: string): string {
    return `question ${this.notIn(id)}`;
  }

  /** The message without its leading "question", for a field already named so (a labels CSV's `question` column). */
  notIn(id: string): string {
    const near = this.asked++ < SUGGESTED ? closestName(id, (this.ids ??= [...this.goldenIds()])) : undefined;
    return `${JSON.stringify(id)} is not in the golden set ${displayPath(this.goldenFile)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ""}`;
  }
}
