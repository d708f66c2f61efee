import { InvalidArgumentError } from "commander";

/**
 * A commander parser for a whole-number option of at least `min`: one
 * definition for every command, so `run` and `judge` refuse the same values
 * in the same words. `name` opens the message when given (commander already
 * names the option in its own prefix).
 *
 * @example
 * program.option("--concurrency <n>", "calls in flight", wholeNumber(1, "--concurrency"))
 */
export function wholeNumber(min: number, name?: string): (v: string) => number {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name ? `${name} ` : ""}must be a whole number >= ${min}`);
    return n;
  };
}
