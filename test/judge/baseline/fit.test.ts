/**
 * Fitting the support model (scripts/attribution/logistic.ts, crossval.ts,
 * fit.ts) on invented rows; and, when the third-party data is beside the
 * checkout, that the fitting script reproduces the shipped weights byte for
 * byte.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assignFolds } from "../../../scripts/attribution/crossval.js";
import { DEFAULT_DATA_FILE } from "../../../scripts/attribution/data.js";
import { fitLogistic, predictLogistic, round } from "../../../scripts/attribution/logistic.js";
import { ROOT } from "../../helpers/paths.js";
import { tempDir } from "../../helpers/temp.js";
import { richRows } from "./rows.js";

describe("fitLogistic", () => {
  // One binary feature: the maximum-likelihood fit is intercept = logit(1/4), weight = logit(3/4) - logit(1/4).
  const x = [[0], [0], [0], [0], [1], [1], [1], [1]];
  const y = [1, 0, 0, 0, 1, 1, 1, 0];

  it("finds the maximum-likelihood weights when the penalty is negligible", () => {
    const m = fitLogistic(x, y, 1e-9);
    expect(m.intercept).toBeCloseTo(Math.log(1 / 3), 5);
    expect(m.weights[0]).toBeCloseTo(2 * Math.log(3), 5);
    expect(predictLogistic(m, [1])).toBeCloseTo(0.75, 5);
  });

  it("the penalty shrinks the weight towards zero", () => {
    expect(Math.abs(fitLogistic(x, y, 10).weights[0]!)).toBeLessThan(Math.abs(fitLogistic(x, y, 0.1).weights[0]!));
  });

  it("is deterministic, rounded to 6 significant digits, and unchanged by a constant feature", () => {
    const a = fitLogistic(x.map((r) => [...r, 5]), y, 1);
    expect(fitLogistic(x.map((r) => [...r, 5]), y, 1)).toEqual(a);
    for (const w of [...a.weights, a.intercept]) expect(round(w)).toBe(w);
    expect(a.weights[1]).toBe(0);
    expect(round(1.23456789)).toBe(1.23457);
    expect(Object.is(round(-0), 0)).toBe(true);
  });

  it("refuses data with one label only or no rows", () => {
    expect(() => fitLogistic([[0], [1]], [1, 1], 1)).toThrow(/needs both labels/);
    expect(() => fitLogistic([], [], 1)).toThrow(RangeError);
  });
});

describe("assignFolds", () => {
  const groups = Array.from({ length: 60 }, (_, i) => `q${Math.floor(i / 3)}`);

  it("keeps every group in one fold, uses every fold, and is seeded", () => {
    const f = assignFolds(groups, 10, 7);
    for (let i = 0; i < groups.length; i++) expect(f[i]).toBe(f[i - (i % 3)]);
    expect(new Set(f).size).toBe(10);
    expect(assignFolds(groups, 10, 7)).toEqual(f);
    expect(assignFolds(groups, 10, 8)).not.toEqual(f);
  });
});

describe("npm run attribution:fit", () => {
  const dir = tempDir("ragjudge-fit-test-");
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ["--import", "tsx", "scripts/attribution/fit.ts", ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, ...env } });

  it("skips with one line when the data is absent", () => {
    const r = run([], { RAGJUDGE_ATTRIBUTION_DATA: join(dir, "absent.jsonl") });
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
    expect(r.stdout).toMatch(/attribution:fit: skipped: /);
  });

  it("writes only parameters with their provenance, reproduces them byte for byte, and names the first differing line", () => {
    const data = join(dir, "rich.jsonl");
    writeFileSync(data, richRows(40).map((x) => JSON.stringify(x)).join("\n") + "\n");
    const out = join(dir, "model.ts");
    const w = run(["--data", data, "--out", out]);
    expect(w.stderr).toBe("");
    expect(w.status).toBe(0);
    const text = readFileSync(out, "utf8");
    expect(text).toMatch(/export const SUPPORT_MODEL: SupportModel = \{/);
    expect(text).toMatch(/split: "development split, all rows \(20 supported, 20 not\)/);
    expect(text).toMatch(/sha256: "[0-9a-f]{64}"/);
    expect(text).not.toContain("contractors"); // no row of the data, only numbers
    expect(run(["--data", data, "--out", out, "--check"]).status).toBe(0);
    writeFileSync(out, text.replace(/intercept: [^,]+,/, "intercept: 0,"));
    const c = run(["--data", data, "--out", out, "--check"]);
    expect(c.status).toBe(1);
    expect(c.stderr).toMatch(/differs from the fit of .* at line \d+:\n {2}shipped: {3}intercept: 0,\n {2}fitted: {4}intercept: /);
  });

  it.skipIf(!existsSync(DEFAULT_DATA_FILE))("reproduces the shipped support model from the development data byte for byte", () => {
    const r = run(["--check"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/is reproduced byte for byte/);
    expect(r.status).toBe(0);
  }, 120_000);
});
