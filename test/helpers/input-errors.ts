/**
 * Reading what a bad-input error says, for tests of parsers and loaders that
 * must throw InputError/InputErrors (src/golden/errors.ts) rather than return.
 */
import { InputError, InputErrors } from "../../src/golden/errors.js";

/**
 * The messages of the InputError or InputErrors that `fn` throws, one per
 * problem. Fails the test when `fn` returns, and rethrows any other error
 * (a crash is not a bad-input report).
 *
 * @example
 * expect(inputErrorMessages(() => readQrels(file))).toEqual([`${file}:2: relevance: expected an integer`]);
 */
export function inputErrorMessages(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof InputErrors) return e.problems.map((p) => p.message);
    if (e instanceof InputError) return [e.message];
    throw e;
  }
  throw new Error("expected an input error");
}

/**
 * The message of the single InputError `fn` throws. Stricter than
 * inputErrorMessages: an InputErrors (or any other error) is rethrown.
 *
 * @example
 * expect(inputErrorMessage(() => readText(dir))).toBe(`${dir}: is a folder, where a file is needed`);
 */
export function inputErrorMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof InputError) return e.message;
    throw e;
  }
  throw new Error("expected an InputError");
}
