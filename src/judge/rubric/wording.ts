import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { InputError, InputErrors } from "../../golden/errors.js";
import { hashJson } from "../../golden/hash.js";
import { loadRubric, type Rubric } from "./rubric.js";

/**
 * A rubric's wording: what a person labelling one of its items is asked. The
 * review page and `review --tty` show the rubric's `question` and, for a
 * rubric with `cases`, the case text chosen by whether the question is
 * answerable ({@link questionShown}); nothing else of the file reaches them
 * (not the description, the version, the templates or a comment). A label
 * records the hash of this wording (`wordingHash`, golden/schema/items.ts),
 * so a label that answered one question never counts for another.
 */

/**
 * The rubric's yes/no question for one item, and the case guidance the judge
 * also gets (`cases.answerable` / `cases.unanswerable`, chosen by whether the
 * golden set says the documents hold an answer), so the person labels the
 * same narrow question the judge decided. A `{{case}}` inside the question
 * itself is replaced the same way.
 */
export function questionShown(rubric: Pick<Rubric, "question" | "cases">, answerable: boolean | undefined): { question: string; guidance?: string } {
  if (!rubric.cases || answerable === undefined) return { question: rubric.question };
  const guidance = (answerable ? rubric.cases.answerable : rubric.cases.unanswerable).trim();
  if (rubric.question.includes("{{case}}")) return { question: rubric.question.replaceAll("{{case}}", guidance) };
  return { question: rubric.question, guidance };
}

/**
 * White space a page shows as space: `\s` without U+FEFF (zero width, shown as
 * nothing: "now\u{FEFF}here" reads "nowhere", not "now here") and U+1680 (the
 * Ogham space mark, shown as a stroke).
 */
const SPACE = /[\t\n\v\f\r \u00a0\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

/**
 * Words as read: the same words wrapped onto other lines, or indented otherwise, are the same wording, and so are
 * the same letters composed otherwise (NFC: "é" as one code point or as "e" and an accent, as editors save it);
 * compatibility look-alikes (NFKC: "x²" and "x2") stay apart.
 */
const words = (text: string) => text.normalize("NFC").replace(SPACE, " ").replace(/^ | $/g, "");

/**
 * SHA-256 of a rubric's wording: its question and both case texts (every
 * text {@link questionShown} can show), white space runs read as one space.
 * A comment, the order of the keys, the description or the templates leave
 * it as it is; a word of the question or of a case changes it.
 *
 * @example
 * wordingHash(loadRubric("rubrics/correctness.yaml")) // "9c1e…" (64 hex digits)
 */
export function wordingHash(rubric: Pick<Rubric, "question" | "cases">): string {
  return hashJson({
    question: words(rubric.question),
    ...(rubric.cases ? { cases: { answerable: words(rubric.cases.answerable), unanswerable: words(rubric.cases.unanswerable) } } : {}),
  });
}

/**
 * The wording hash of every rubric file of a folder, by rubric name (the
 * file's name); `null` for a file that does not read as a rubric (being
 * edited): its wording is unknown, so no label that records one counts for
 * it until it reads again; `null` too for a name two files give (`x.yaml`
 * and `x.yml`), which the judge and the review page refuse. Empty when the
 * folder does not exist.
 */
export function rubricWordings(dir: string): Map<string, string | null> {
  const out = new Map<string, string | null>();
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir).filter((n) => /\.ya?ml$/.test(n)).sort()) {
    const name = f.replace(/\.ya?ml$/, "");
    if (out.has(name)) {
      out.set(name, null);
      continue;
    }
    try {
      out.set(name, wordingHash(loadRubric(join(dir, f))));
    } catch (e) {
      if (!(e instanceof InputError || e instanceof InputErrors)) throw e;
      out.set(name, null);
    }
  }
  return out;
}
