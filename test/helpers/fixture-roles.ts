import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The question id the calibration fixture (test/fixtures/calibration) gives
 * role i: make-fixtures.ts writes role i's question as "Question i?" and
 * gives the roles to the questions its draws drew (a draw's seed is its
 * frame's), so a test names a role, never a fixed id.
 *
 * @example
 * roleQuestion(dir, 37) // "q41": judge yes, label no
 */
export function roleQuestion(dir: string, role: number): string {
  for (const line of readFileSync(join(dir, "golden.jsonl"), "utf8").trim().split("\n")) {
    const q = JSON.parse(line) as { id: string; question: string };
    if (q.question === `Question ${role}?`) return q.id;
  }
  throw new Error(`no role ${role} in ${dir}/golden.jsonl`);
}
