import { InputError } from "../errors.js";
import { normalise } from "../normalise.js";
import type { GoldenSet } from "../dataset.js";
import type { Converted } from "./convert.js";

/**
 * Pairs the rows of another variant's file with the questions of a golden
 * set that exists (`import --into`): by the id column when the file has one,
 * else by the question's text (white space and case aside), since the ids
 * `q1`, `q2`, ... given by row order would pair row n with whatever question
 * n the first file had. Every row that pairs with no question, or with one
 * another row took, or whose text matches several, is a problem at its line.
 *
 * @example
 * matchToGolden(converted, golden).outputs[0].id // the golden set's id of the question on the file's first row
 */
export function matchToGolden(c: Pick<Converted, "golden" | "outputs" | "lines" | "mapping">, golden: GoldenSet, file: string): { outputs: Record<string, unknown>[]; problems: InputError[] } {
  const byText = new Map<string, string[]>();
  for (const q of golden.questions) {
    const k = normalise(q.question);
    byText.set(k, [...(byText.get(k) ?? []), q.id]);
  }
  const shown = `the golden set ${golden.file}`;
  const problems: InputError[] = [];
  const outputs: Record<string, unknown>[] = [];
  const taken = new Map<string, number>();
  c.outputs.forEach((o, i) => {
    const line = c.lines[i]!;
    const problem = (column: string | undefined, message: string) => problems.push(new InputError(file, line, column, message));
    const question = String(c.golden[i]!.question);
    let id: string;
    if (c.mapping.id !== undefined) {
      id = String(o.id);
      if (!golden.byId.has(id)) {
        problem(c.mapping.id, `no question ${JSON.stringify(id)} in ${shown}: a variant answers the project's questions`);
        return;
      }
    } else {
      const ids = byText.get(normalise(question)) ?? [];
      if (ids.length !== 1) {
        problem(c.mapping.question, ids.length === 0
          ? `no question of ${shown} reads ${JSON.stringify(question.slice(0, 80))}: a variant answers the project's questions (or name an id column with --id-col)`
          : `matches the text of questions ${ids.join(", ")} of ${shown}: name an id column with --id-col to tell them apart`);
        return;
      }
      id = ids[0]!;
    }
    const first = taken.get(id);
    if (first !== undefined) {
      problem(c.mapping.id ?? c.mapping.question, `answers question ${JSON.stringify(id)} again (first on line ${first})`);
      return;
    }
    taken.set(id, line);
    outputs.push({ ...o, id });
  });
  return { outputs, problems };
}
