import { InputError } from "../../golden/errors.js";
import { judgeFirst } from "../../golden/project-args.js";
import type { RubricRunNotes } from "../../review/candidates.js";
import type { RubricSample } from "../../review/sample.js";

/**
 * Why `ragjudge sample` queued nothing, in words, instead of an empty queue
 * file and "Nothing to review" with no cause. Two cases differ in kind:
 * nothing judged to draw from (the input names no item the judge judged:
 * exit 2, as a missing judgments file is) and a frame that is done (every
 * item labelled, no disagreement: exit 0, nothing to do).
 */

/** What the sample looked at, for the messages. */
export interface SampleScope {
  judgmentsFile: string;
  splits?: readonly string[];
  cfg: { isShippedExample: boolean; file: string };
}

/**
 * The refusal when no rubric has a judged item in the frame: what the
 * judgments held instead (rule verdicts, stale or missing ones) and what
 * gives the sample something to draw. Undefined when some item was judged.
 */
export function nothingJudged(notes: readonly RubricRunNotes[], rubrics: readonly RubricSample[], scope: SampleScope): InputError | undefined {
  if (rubrics.some((r) => r.population > 0)) return undefined;
  const sum = (k: "rules" | "stale" | "unjudged") => notes.reduce((n, x) => n + x[k], 0);
  const left = [
    sum("rules") ? `${sum("rules")} decided by rule, which is never sampled` : "",
    sum("stale") ? `${sum("stale")} judged on data that has changed since` : "",
    sum("unjudged") ? `${sum("unjudged")} not judged` : "",
  ].filter(Boolean);
  const judgedElsewhere = notes.some((n) => n.judged > 0);
  const where = scope.splits && judgedElsewhere ? ` in split ${scope.splits.join(", ")}` : "";
  const names = [...new Set([...notes.map((n) => n.rubric), ...rubrics.map((r) => r.rubric)])].sort().join(", ");
  const fix = sum("stale") || sum("unjudged") ? `: ${judgeFirst(scope.cfg)}` : where ? ": leave out --split, or name another" : "";
  return new InputError(scope.judgmentsFile, undefined, undefined, `nothing to draw: no item of ${names || "the rubrics asked"}${where} has a verdict of the judge here${left.length && !where ? ` (${left.join("; ")})` : ""}${fix}`);
}

/** Why frames over judged items queued nothing: each frame asked, and what it found. */
export function whyNothingQueued(rubrics: readonly RubricSample[]): string {
  const why = new Set<string>();
  for (const r of rubrics) {
    const allLabelled = r.eligible === 0 ? "every judged item is already labelled by you" : undefined;
    if (r.random) why.add(allLabelled ?? "the items of the random draw are labelled by you already (they count for it)");
    if (r.balanced) why.add(allLabelled ?? "no unlabelled item has a yes or no verdict for a balanced draw");
    if (r.disagreements) why.add(r.disagreements.found === 0 ? "no label disagrees with the judge" : "the labels that disagree with the judge are your own: someone else should look");
  }
  return [...why].join("; ") || "the frames asked hold no unlabelled item";
}
