import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isCi } from "../helpers/chromium.js";
import { ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

/**
 * The README's first command runs the compiled binary (`npx ragjudge run`,
 * built by `npm ci` through the `prepare` script), not the sources the other
 * tests import. On CI (a clean clone after `npm ci`) this checks that binary
 * end to end; elsewhere dist/ may be stale or absent, so it is skipped.
 */
const BIN = join(ROOT, "dist", "cli", "main.js");
const CI = isCi();

describe.runIf(CI)("the built ragjudge binary (CI only: dist/ is built by npm ci)", () => {
  it("exists after npm ci", () => {
    expect(existsSync(BIN), `${BIN} missing: npm ci should have built it through the prepare script`).toBe(true);
  });

  it("runs as the README's quick start types it (npx ragjudge, which needs the file to be executable)", () => {
    const r = spawnSync("npx", ["--no-install", "ragjudge", "--version"], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  }, 120_000);

  it("in a folder without a config, says so in one line naming ragjudge init and --example, exits 2, writes nothing", () => {
    const cwd = tempDir("ragjudge-dist-empty-");
    const r = spawnSync(process.execPath, [BIN, "run"], { cwd, encoding: "utf8", env: { ...process.env, OPENAI_API_KEY: "" }, timeout: 120_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`ragjudge: error: no ragjudge.config.json in ${cwd} and no --config: run \`ragjudge init\` to start one here, or add --example to run the shipped example\n`);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("runs the shipped example end to end from an unrelated folder with --example, with no key and no network", () => {
    const cwd = tempDir("ragjudge-dist-");
    const r = spawnSync(process.execPath, [BIN, "run", "--example", "--quiet"], { cwd, encoding: "utf8", env: { ...process.env, OPENAI_API_KEY: "" }, timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const evaluations = join(cwd, "evaluations");
    const [folder] = readdirSync(evaluations);
    expect(folder).toMatch(/^\d{8}T\d{6}Z-example$/);
    for (const f of ["report.html", "report.md", "report.json", "junit.xml", "summary.txt", "judgments.jsonl"]) {
      expect(existsSync(join(evaluations, folder!, f)), f).toBe(true);
    }
  }, 120_000);
});
