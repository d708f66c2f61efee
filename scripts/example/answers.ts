import { existsSync } from "node:fs";
import { z } from "zod";
import { InputError, InputErrors } from "../../src/golden/errors.js";
import { loadJsonl } from "../../src/golden/jsonl.js";
import { Id } from "../../src/golden/schema/common.js";

/**
 * The failures planted in the example answers, so that the judge and the
 * labels can be checked against a known key.
 *
 * - `unsupported-claim`: a detail the context does not state;
 * - `wrong-citation`: the cited chunk does not support the sentence;
 * - `citation-outside-context`: `[7]` with five context chunks, or an id not in the context;
 * - `false-not-found`: "not found" although the context holds the answer;
 * - `invented-answer`: an answer to an unanswerable question;
 * - `retrieval-failure`: wrong or refused because the relevant chunk was not in the context;
 * - `generation-failure`: wrong although the relevant chunk was in the context;
 * - `uncited`: claims without any citation marker.
 */
export const FAILURES = [
  "unsupported-claim",
  "wrong-citation",
  "citation-outside-context",
  "false-not-found",
  "invented-answer",
  "retrieval-failure",
  "generation-failure",
  "uncited",
] as const;
export type Failure = (typeof FAILURES)[number];

/** One hand-written answer (one line of `golden/answers/<variant>.jsonl`). */
export const AnswerLine = z.strictObject({
  id: Id,
  /** The context the answer was written against; the build refuses it if retrieval now gives another. */
  context: z.array(Id),
  answer: z.string().min(1),
  /** Failures planted on purpose, each with why; empty for a good answer. */
  planted: z.array(z.strictObject({ failure: z.enum(FAILURES), why: z.string().min(1) })),
});
export type AnswerLine = z.infer<typeof AnswerLine>;

/**
 * Loads a variant's answers, or undefined when the file does not exist yet
 * (a new corpus is built once without answers, to see the contexts).
 * Checks one line per question and that each line's context is the context
 * retrieval gives now: an answer written for other chunks would be a lie.
 */
export function loadAnswers(
  file: string,
  contexts: ReadonlyMap<string, readonly string[]>,
): Map<string, AnswerLine> | undefined {
  if (!existsSync(file)) return undefined;
  const rows = loadJsonl(file, AnswerLine);
  const problems: InputError[] = [];
  const out = new Map<string, AnswerLine>();
  const seen = new Set<string>();
  for (const { line, value } of rows) {
    const first = seen.has(value.id);
    seen.add(value.id);
    const ctx = contexts.get(value.id);
    if (ctx === undefined) problems.push(new InputError(file, line, "id", `question ${JSON.stringify(value.id)} is not in the golden set`));
    else if (first) problems.push(new InputError(file, line, "id", `second answer for question ${JSON.stringify(value.id)}`));
    else if (ctx.join("\n") !== value.context.join("\n")) {
      problems.push(new InputError(file, line, "context", `written for context [${value.context.join(", ")}] but retrieval now gives [${ctx.join(", ")}]; rewrite the answer`));
    } else out.set(value.id, value);
  }
  for (const id of contexts.keys()) {
    if (!seen.has(id)) {
      problems.push(new InputError(file, undefined, undefined, `no answer for question ${JSON.stringify(id)}`));
    }
  }
  if (problems.length) throw new InputErrors(problems);
  return out;
}
