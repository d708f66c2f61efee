/**
 * Temporary folders and files for tests: each test file gets fresh folders
 * under the OS temp dir (never the repository), removed after its tests.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { fixturePath } from "./paths.js";

const made: string[] = [];
// Test files are isolated, so this registers once per test file that imports the helpers,
// and runs after all of that file's tests (and their own afterAll hooks) are done.
afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * A fresh, empty temporary folder, removed after the test file's tests. The
 * prefix only makes a leftover folder recognisable.
 *
 * @example
 * const dir = tempDir("ragjudge-calibrate-");
 */
export function tempDir(prefix = "ragjudge-test-"): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

/**
 * A fresh temporary copy of test/fixtures/<name>, so a test may edit, add and
 * delete files without touching the fixture or another test's copy.
 *
 * @example
 * const dir = copyFixture("calibration", "ragjudge-labels-cmd-");
 * runCliCaptured(["calibrate", "--config", join(dir, "ragjudge.config.json")]);
 */
export function copyFixture(name: string, prefix = `ragjudge-${name}-`): string {
  const dir = tempDir(prefix);
  cpSync(fixturePath(name), dir, { recursive: true });
  return dir;
}

/**
 * A writer of throw-away input files: each call writes `content` to a new
 * file `f<n><suffix>` in `dir` and returns its path, so every case of a
 * parser test gets its own file (and its own name in error messages).
 *
 * @example
 * const file = numberedFiles(tempDir(), ".csv");
 * readLabelsCsv(file("variant,question\n"), flags);
 */
export function numberedFiles(dir: string, suffix: string): (content: string | Uint8Array) => string {
  let n = 0;
  return (content) => {
    const f = join(dir, `f${n++}${suffix}`);
    writeFileSync(f, content);
    return f;
  };
}
