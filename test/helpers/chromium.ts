/**
 * How the browser suites find and launch headless Chromium (Debian's
 * `chromium` through playwright-core), and what they do without it: skip with
 * a one-line reason on a developer's machine, fail when CI is set, so a CI
 * machine without a browser can never pass by skipping.
 */
import { existsSync } from "node:fs";
import type { LaunchOptions } from "playwright-core";
import { describe, it } from "vitest";

/** Debian's Chromium; RAGJUDGE_CHROMIUM overrides it (and lets the skip and fail paths be checked). */
export const CHROMIUM = process.env.RAGJUDGE_CHROMIUM ?? "/usr/bin/chromium";

/** Flags for a quiet, sandbox-free headless run that makes no network calls of its own. */
export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-quic", "--disable-sync"];

/**
 * Options for `chromium.launch` and `chromium.launchPersistentContext`.
 *
 * @example
 * const browser = await chromium.launch(CHROMIUM_LAUNCH);
 * const ctx = await chromium.launchPersistentContext(dir, { ...CHROMIUM_LAUNCH, viewport: { width: 1280, height: 900 } });
 */
export const CHROMIUM_LAUNCH: LaunchOptions = { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS };

/** True when the CI variable is set to anything but "", "false" or "0". */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.CI) && env.CI !== "false" && env.CI !== "0";
}

/**
 * Time for one browser test: a real browser (and, for the review page, a real
 * child process) on a loaded machine (CI runs the whole suite in parallel on
 * two cores). The steps themselves wait on conditions, not on time.
 */
export const BROWSER_TIMEOUT_MS = 120_000;

/**
 * Declares the suite `<subject> in Chromium` running `tests` with
 * BROWSER_TIMEOUT_MS per test. Where CHROMIUM does not exist it warns in one
 * line and declares a skipped suite naming the reason, or, when CI is set,
 * a suite whose one test fails saying how to install the browser.
 *
 * @example
 * describeInChromium("HTML report", () => {
 *   beforeAll(async () => { browser = await chromium.launch(CHROMIUM_LAUNCH); });
 *   it("renders", async () => { ... });
 * });
 */
export function describeInChromium(subject: string, tests: () => void): void {
  const title = `${subject} in Chromium`;
  if (existsSync(CHROMIUM)) {
    describe(title, { timeout: BROWSER_TIMEOUT_MS }, tests);
  } else if (isCi()) {
    describe(title, () => {
      it("needs Chromium", () => {
        throw new Error(`${CHROMIUM} not found and CI is set: install it (apt-get install -y chromium)`);
      });
    });
  } else {
    console.warn(`${subject} browser tests skipped: ${CHROMIUM} not found (apt-get install -y chromium; with CI set they fail instead)`);
    describe.skip(`${title} (skipped: ${CHROMIUM} not found; apt-get install -y chromium)`, () => {
      it("needs Chromium", () => {});
    });
  }
}
