import type { Command } from "commander";
import { BOUNDS, describeBounds, readDecimal, readWhole, withinBounds, type BoundName, type NumberBounds } from "../../golden/bounds.js";
import { UsageError } from "../errors.js";

/**
 * The one parser of every number flag: the text read by {@link readWhole}
 * (or {@link readDecimal}) and checked against its shared bounds
 * (golden/bounds.ts), the same the config's key has. A refusal is one line
 * naming the flag, the values allowed and why the largest is the largest
 * (a UsageError: exit 2 before anything is read or written).
 *
 * @example
 * parseNumber("--reps", "5x", "bootstrapReps") // throws: --reps: expected a whole number from 100 to 100,000, got "5x"
 * parseNumber("--concurrency", "5000", "concurrency") // throws: ... got "5000" (calls in flight at once; ...)
 */
export function parseNumber(flag: string, text: string, name: BoundName): number {
  const b: NumberBounds = BOUNDS[name];
  const n = b.integer ? readWhole(text) : readDecimal(text);
  if (n === undefined || !withinBounds(n, b)) {
    // the reason of the maximum only where it is the problem: a typo needs no lecture
    const over = n !== undefined && n > b.max ? ` (${b.why})` : "";
    throw new UsageError(`${flag}: expected ${describeBounds(b)}, got ${JSON.stringify(text)}${over}`);
  }
  return n;
}

/**
 * A commander parser of a number option within the bounds `name`
 * ({@link parseNumber}): one definition for every command, so `run` and
 * `judge` refuse the same values in the same words as the config does.
 *
 * @example
 * program.option("--concurrency <n>", "calls in flight", numberFlag("--concurrency", "concurrency"))
 */
export function numberFlag(flag: string, name: BoundName): (v: string) => number {
  return (v: string): number => parseNumber(flag, v, name);
}

/**
 * Refuses a value option given together with its `--no-` form (`--temperature
 * 1 --no-temperature`): commander lets the last one win without a word, so
 * the request would silently differ from what one of the two asked for.
 * Each name is the option's long name without dashes (`temperature`).
 */
export function refuseWithNegation(command: Command, names: readonly string[]): Command {
  for (const name of names) {
    const seen = new Set<string>();
    const note = (which: string) => () => {
      seen.add(which);
      if (seen.size === 2) throw new UsageError(`--${name} and --no-${name} contradict each other: give one`);
    };
    command.on(`option:${name}`, note(name));
    command.on(`option:no-${name}`, note(`no-${name}`));
  }
  return command;
}
