import { UsageError } from "../errors.js";

/**
 * The names of a comma-separated list flag (`--rubrics faithfulness,
 * correctness`), white space around each trimmed. A list that names nothing
 * (`--rubrics ,`, or `--rubrics "$RUBRICS"` with the variable set to a
 * space) is refused: read as "no list given" it meant every rubric or
 * variant, and `judge --rubrics ,` judged nothing, exited 0 and emptied the
 * judgments file. The same refusal as `--fail-under ,` and `-m ,`.
 *
 * @example
 * nameList("--rubrics", "faithfulness, correctness", "rubric") // ["faithfulness", "correctness"]
 * nameList("--rubrics", ",", "rubric") // throws: --rubrics "," names no rubric: ...
 */
export function nameList(flag: string, text: string, what: string): string[] {
  const names = text.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (names.length === 0) throw new UsageError(`${flag} ${JSON.stringify(text)} names no ${what}: give one or more, comma separated, or leave ${flag} out for the default`);
  return names;
}

/**
 * Refuses `none` inside a `--by` list with groupings (`--by none,kind`):
 * `judge` and `retrieval` take `none` (overall only) alone (each returns early for a lone `none` first).
 *
 * @example
 * refuseNoneInList(["none", "kind"], "none,kind") // throws: --by: "none" (overall only) stands alone, ...
 */
export function refuseNoneInList(parts: readonly string[], text: string): void {
  if (parts.includes("none")) throw new UsageError(`--by: "none" (overall only) stands alone, not in a list with groupings (got ${JSON.stringify(text)}): give --by none, or the groupings without it`);
}
