/**
 * Where the tests find the repository and their fixtures, computed once so no
 * test file climbs `..` segments of its own (which break when a file moves).
 */
import { resolve } from "node:path";

/** The repository root: the shipped example, rubrics and `src/cli/main.ts` live there. */
export const ROOT = resolve(import.meta.dirname, "../..");

/** test/fixtures/ (a user's clone has no ../shared, so every fixture lives here). */
export const FIXTURES = resolve(ROOT, "test", "fixtures");

/**
 * The absolute path of a fixture file or folder.
 *
 * @example
 * fixturePath("retrieval", "golden.jsonl") // <repo>/test/fixtures/retrieval/golden.jsonl
 */
export function fixturePath(...parts: string[]): string {
  return resolve(FIXTURES, ...parts);
}
