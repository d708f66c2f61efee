/**
 * `--labels DIR` on the commands that only read labels (`run`, `judge`,
 * `compare`): the trust gate reads that folder instead of the config's, a
 * folder named by hand that is missing is bad input before any work, and the
 * advice to calibrate names the same folder, so it works as printed.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { NO_KEY, runCliIn } from "../../helpers/cli.js";
import { ROOT } from "../../helpers/paths.js";
import { tempDir } from "../../helpers/temp.js";

let cwd: string;

beforeAll(() => {
  cwd = tempDir("ragjudge-labels-flag-");
  mkdirSync(join(cwd, "empty"));
});

/** Each rubric's trust message in an evaluation's report.json. */
function trustMessages(folder: string): string[] {
  const report = JSON.parse(readFileSync(join(folder, "report.json"), "utf8")) as { rubrics: { rubric: string; trust: { message: string } }[] };
  return report.rubrics.map((r) => `${r.rubric}: ${r.trust.message}`);
}

describe("--labels on run, judge and compare", () => {
  it("refuses a labels folder that is not there, exit 2, one line, before anything is written", async () => {
    for (const args of [["run", "--example", "--quiet"], ["judge", "--example"], ["judge", "--example", "--dry-run"]]) {
      const r = await runCliIn(cwd, [...args, "--labels", "nowhere"], NO_KEY);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toBe("ragjudge: error: nowhere: labels folder not found\n");
      expect(existsSync(join(cwd, "evaluations")), args.join(" ")).toBe(false);
      expect(existsSync(join(cwd, ".ragjudge")), args.join(" ")).toBe(false);
    }
  }, 60_000);

  it("judge decides trust on the folder given, and its advice to calibrate, run as printed, calibrates that folder", async () => {
    const shipped = await runCliIn(cwd, ["judge", "--example"], NO_KEY);
    expect(shipped.code).toBe(0);
    expect(shipped.out).toContain("author labels are not evidence");
    // the example's labels copied into a folder of one's own, without the example's calibration records
    cpSync(join(ROOT, "labels"), join(cwd, "mine"), { recursive: true, filter: (f) => !f.includes("calibration") });
    const own = await runCliIn(cwd, ["judge", "--example", "--labels", "mine"], NO_KEY);
    expect(own.code).toBe(0);
    expect(own.out).not.toContain("author labels are not evidence");
    const advice = /run (ragjudge calibrate [^\n)]*)/.exec(own.out)?.[1];
    expect(advice).toBe("ragjudge calibrate --example --labels mine");
    const calibrated = await runCliIn(cwd, advice!.split(" ").slice(1), NO_KEY);
    expect(calibrated.code, calibrated.err).toBe(0);
    expect(readdirSync(join(cwd, "mine", "calibration")).length).toBeGreaterThan(0);
    const again = await runCliIn(cwd, ["judge", "--example", "--labels", "mine"], NO_KEY);
    expect(again.out).not.toContain("no calibration record for this judge");
    expect(again.out).toContain("author labels are not evidence"); // the copied author labels now decide, as in the package's folder
  }, 120_000);

  it("run gates on the folder given, and compare re-checks against it (or refuses it without a project)", async () => {
    const base = join(cwd, "evaluations");
    expect((await runCliIn(cwd, ["run", "--example", "--quiet", "--name", "shipped"], NO_KEY)).code).toBe(0);
    expect((await runCliIn(cwd, ["run", "--example", "--quiet", "--name", "own", "--labels", "other-empty"], NO_KEY)).code).toBe(2); // missing: refused
    mkdirSync(join(cwd, "other-empty"));
    expect((await runCliIn(cwd, ["run", "--example", "--quiet", "--name", "own", "--labels", "other-empty"], NO_KEY)).code).toBe(0);
    const folder = (name: string) => join(base, readdirSync(base).find((f) => f.endsWith(`-${name}`))!);
    const shipped = trustMessages(folder("shipped"));
    const own = trustMessages(folder("own"));
    expect(shipped.every((m) => m.includes("author labels are not evidence")), shipped.join("\n")).toBe(true);
    expect(own.some((m) => m.includes("author labels")), own.join("\n")).toBe(false);
    // report.json says which folder the trust rests on
    const labelsOf = (f: string) => (JSON.parse(readFileSync(join(f, "report.json"), "utf8")) as { inputs: { labels: { dir: string } } }).inputs.labels.dir;
    expect(labelsOf(folder("own"))).toMatch(/(^|\/)other-empty$/);
    expect(labelsOf(folder("shipped"))).toMatch(/(^|\/)labels$/);

    const compare = (extra: string[]) => runCliIn(cwd, ["compare", "--variants", "bm25-small,hybrid-rerank", folder("own"), "--format", "json", ...extra], NO_KEY);
    const rechecked = await compare(["--example", "--labels", "other-empty"]);
    expect(rechecked.code, rechecked.err).toBe(0);
    const side = (JSON.parse(rechecked.out) as { comparisons: { a: { trust: { rechecked: boolean; records?: string } } }[] }).comparisons[0]!.a.trust;
    expect(side).toEqual({ rechecked: true, records: join("other-empty", "calibration") });
    expect(rechecked.out).toContain("ragjudge calibrate --example --labels other-empty");
    const missing = await compare(["--example", "--labels", "nowhere"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toBe("ragjudge: error: nowhere: labels folder not found\n");
    const noProject = await compare(["--labels", "other-empty"]);
    expect(noProject.code).toBe(2);
    expect(noProject.err).toMatch(/^ragjudge: error: --labels re-checks trust within a project, .*: add --config with the project's config\n$/);
  }, 180_000);
});
