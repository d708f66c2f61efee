/**
 * `--labels DIR` on the commands that only read labels (`run`, `judge`,
 * `compare`): the trust gate reads that folder instead of the config's, a
 * folder named by hand that is missing is bad input before any work, and the
 * advice to calibrate names the same folder, so it works as printed.
 */
import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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

/** The commands that read --labels, each given `labels` in `dir`: refused, exit 2, with `err`, before anything is written. */
async function expectRefused(dir: string, labels: string, err: string, commands: string[][]): Promise<void> {
  for (const args of commands) {
    const r = await runCliIn(dir, [...args, "--labels", labels], NO_KEY);
    expect(r.code, args.join(" ")).toBe(2);
    expect(r.err, args.join(" ")).toBe(err);
    expect(existsSync(join(dir, "evaluations")), args.join(" ")).toBe(false);
    expect(existsSync(join(dir, ".ragjudge")), args.join(" ")).toBe(false);
  }
}
const READERS = [["run", "--example", "--quiet"], ["judge", "--example"], ["judge", "--example", "--dry-run"]];
const WITH_COMPARE = [...READERS, ["compare", "--example", "--variants", "bm25-small,hybrid-rerank"]];

describe("--labels on run, judge and compare", () => {
  it("refuses a labels folder that is not there, exit 2, one line, before anything is written", async () => {
    await expectRefused(cwd, "nowhere", "ragjudge: error: nowhere: labels folder not found\n", READERS);
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

/** SHA-256 of every file under the package's labels folder, by path: what "never written" is checked on. */
function packageLabelsState(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(p, createHash("sha256").update(readFileSync(p)).digest("hex"));
    }
  };
  walk(join(ROOT, "labels"));
  return out;
}

/** The first "run ragjudge calibrate ..." advice in a text, as argv (split on spaces: the tests' paths have none). */
function calibrateAdvice(text: string): string[] | undefined {
  const words = /run ragjudge (calibrate [^\n)]*)/.exec(text)?.[1]!.trim().split(" ");
  return words?.slice(0, words.findIndex((w) => w.startsWith("(")) >>> 0); // up to the words in brackets after it, if any
}

describe("--labels: bad folders, the installed package's folder, and advice that works as printed", () => {
  it("refuses a file given as the labels folder, exit 2, one line, before anything is written", async () => {
    const dir = tempDir("ragjudge-labels-file-");
    writeFileSync(join(dir, "labels.jsonl"), "");
    await expectRefused(dir, "labels.jsonl", "ragjudge: error: labels.jsonl: is a file, not a folder: --labels must be a labels folder\n", WITH_COMPARE);
  }, 60_000);

  it.skipIf(process.getuid?.() === 0)("refuses a labels folder it cannot read, exit 2, one line, before anything is written", async () => {
    const dir = tempDir("ragjudge-labels-locked-");
    mkdirSync(join(dir, "locked"));
    chmodSync(join(dir, "locked"), 0);
    try {
      await expectRefused(dir, "locked", "ragjudge: error: locked: permission denied\n", WITH_COMPARE);
    } finally {
      chmodSync(join(dir, "locked"), 0o755);
    }
  }, 60_000);

  it("refuses the installed package's labels folder by any path (its own, a symlink), and so never prints advice that would write it", async () => {
    const dir = tempDir("ragjudge-labels-package-");
    symlinkSync(join(ROOT, "labels"), join(dir, "pkg"));
    const before = packageLabelsState();
    for (const labels of [join(ROOT, "labels"), "pkg", "pkg/"]) {
      for (const args of [["run", "--example", "--quiet"], ["judge", "--example", "--variant", "bm25-small"], ["compare", "--example", "--variants", "bm25-small,hybrid-rerank"]]) {
        const r = await runCliIn(dir, [...args, "--labels", labels], NO_KEY);
        expect(r.code, `${args.join(" ")} --labels ${labels}`).toBe(2);
        expect(r.err.split("\n").length, r.err).toBe(2);
        expect(r.err).toContain("the installed ragjudge package's labels folder");
        expect(existsSync(join(dir, "evaluations"))).toBe(false);
        expect(existsSync(join(dir, ".ragjudge"))).toBe(false);
      }
    }
    // the commands that write labels refuse it too, by whatever path it is named
    expect((await runCliIn(dir, ["judge", "--example", "--variant", "bm25-small"], NO_KEY)).code).toBe(0);
    for (const args of [["calibrate", "--example"], ["sample", "--example", "--random", "5", "--annotator", "asha"], ["review", "--example", "--annotator", "asha", "--tty"]]) {
      for (const labels of ["pkg", join(ROOT, "labels")]) {
        const r = await runCliIn(dir, [...args, "--labels", labels], NO_KEY);
        expect(r.code, `${args.join(" ")} --labels ${labels}: ${r.err}`).toBe(2);
        expect(r.err).toContain("belongs to the installed ragjudge package, which is never written");
      }
    }
    expect(packageLabelsState()).toEqual(before);
  }, 120_000);

  it("run --example --labels DIR prints next commands that carry --example --labels DIR, and they work as printed", async () => {
    const dir = tempDir("ragjudge-labels-example-next-");
    mkdirSync(join(dir, "own"));
    const r = await runCliIn(dir, ["run", "--example", "--labels", "own"], NO_KEY);
    expect(r.code, r.err).toBe(0);
    const next = r.out.slice(r.out.indexOf("\nNext:"));
    const commands = next.split("\n").filter((l) => l.startsWith("  ragjudge ")).map((l) => l.trim().split(" ").slice(1));
    // the labels folder's own commands first (the gate read "own"), then the way to a project of one's own
    const labelling = commands.filter((c) => c[0] !== "init");
    expect(labelling.length, next).toBeGreaterThan(0);
    for (const c of labelling) expect(c, next).toEqual(expect.arrayContaining(["--example", "--labels", "own"]));
    for (const c of labelling.filter((c) => c[0] !== "review" && c[0] !== "run")) {
      const ran = await runCliIn(dir, c, NO_KEY);
      expect(ran.code, `${c.join(" ")}: ${ran.err}`).toBe(0);
    }
    expect(commands.at(-1)).toEqual(["init", "my-eval"]);
  }, 120_000);

  it("the advice to calibrate names where the verdicts are (judge --out, run --cache-dir, compare's evaluation), so it works as printed", async () => {
    const dir = tempDir("ragjudge-labels-judgments-");
    const fresh = () => {
      rmSync(join(dir, "mine"), { recursive: true, force: true });
      cpSync(join(ROOT, "labels"), join(dir, "mine"), { recursive: true, filter: (f) => !f.includes("calibration") });
    };
    fresh();
    const judged = await runCliIn(dir, ["judge", "--example", "--labels", "mine", "--out", "j.jsonl"], NO_KEY);
    expect(judged.code, judged.err).toBe(0);
    const judgeAdvice = calibrateAdvice(judged.out);
    expect(judgeAdvice).toEqual(["calibrate", "--example", "--labels", "mine", "--judgments", "j.jsonl"]);
    expect(existsSync(join(dir, ".ragjudge", "judgments.jsonl"))).toBe(false);
    const calibrated = await runCliIn(dir, judgeAdvice!, NO_KEY);
    expect(calibrated.code, calibrated.err).toBe(0);
    expect(readdirSync(join(dir, "mine", "calibration")).length).toBeGreaterThan(0);

    // run writes a trust line advising calibrate only when the labels pass and no record measures this judge:
    // a project of the example's data whose labels are people's (thresholds it can pass)
    const project = join(dir, "project");
    for (const f of ["golden", "rubrics"]) cpSync(join(ROOT, f), join(project, f), { recursive: true });
    const config = JSON.parse(readFileSync(join(ROOT, "ragjudge.config.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(project, "ragjudge.config.json"), JSON.stringify({ ...config, rubrics: ["not-found"], trust: { minLabels: 5, minPerClass: 1, kappaLower: 0, minCoverage: 0.5 } }));
    const people = () => {
      rmSync(join(project, "mine"), { recursive: true, force: true });
      cpSync(join(ROOT, "labels"), join(project, "mine"), { recursive: true, filter: (f) => !f.includes("calibration") });
      const file = join(project, "mine", "ragjudge-authors.jsonl");
      writeFileSync(file, readFileSync(file, "utf8").replaceAll('"provenance":"author"', '"provenance":"human"'));
    };
    people();
    const ran = await runCliIn(project, ["run", "--labels", "mine", "--cache-dir", "c2", "--name", "c2"], NO_KEY);
    expect(ran.code, ran.err).toBe(0);
    const runAdvice = calibrateAdvice(ran.out);
    expect(runAdvice).toEqual(["calibrate", "--config", "ragjudge.config.json", "--labels", "mine", "--judgments", join("c2", "judgments.jsonl")]);
    expect(existsSync(join(project, ".ragjudge", "judgments.jsonl"))).toBe(false);
    const recorded = await runCliIn(project, runAdvice!, NO_KEY);
    expect(recorded.code, recorded.err).toBe(0);
    const gated = await runCliIn(project, ["run", "--labels", "mine", "--cache-dir", "c2", "--require-trusted", "--quiet"], NO_KEY);
    expect(gated.code, gated.err).toBe(0);

    // compare re-checks the evaluation's own verdicts: its advice calibrates those, whatever the cache holds now
    people();
    const evaluation = join("evaluations", readdirSync(join(project, "evaluations")).find((f) => f.endsWith("-c2"))!);
    const compare = () => runCliIn(project, ["compare", "--labels", "mine", "--variants", "bm25-small,hybrid-rerank", evaluation, "--require-trusted"], NO_KEY);
    const compared = await compare();
    expect(compared.code, compared.err).toBe(1);
    const compareAdvice = calibrateAdvice(compared.out + compared.err);
    expect(compareAdvice).toEqual(["calibrate", "--config", "ragjudge.config.json", "--labels", "mine", "--judgments", join(evaluation, "judgments.jsonl")]);
    expect((await runCliIn(project, compareAdvice!, NO_KEY)).code).toBe(0);
    const again = await compare();
    expect(again.code, again.out).toBe(0);
    expect(again.out + again.err).not.toContain("run ragjudge calibrate");
  }, 240_000);

  it("without --labels, the advice to calibrate names the project and the verdicts, so it works as printed from another folder", async () => {
    const dir = tempDir("ragjudge-advice-elsewhere-");
    const project = join(dir, "project");
    for (const f of ["golden", "rubrics"]) cpSync(join(ROOT, f), join(project, f), { recursive: true });
    cpSync(join(ROOT, "labels"), join(project, "labels"), { recursive: true, filter: (f) => !f.includes("calibration") });
    const file = join(project, "labels", "ragjudge-authors.jsonl");
    writeFileSync(file, readFileSync(file, "utf8").replaceAll('"provenance":"author"', '"provenance":"human"'));
    const config = JSON.parse(readFileSync(join(ROOT, "ragjudge.config.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(project, "ragjudge.config.json"), JSON.stringify({ ...config, rubrics: ["not-found"], trust: { minLabels: 5, minPerClass: 1, kappaLower: 0, minCoverage: 0.5 } }));
    // typed in the project's parent: a bare `ragjudge calibrate` there finds no config
    expect((await runCliIn(dir, ["calibrate"], NO_KEY)).code).toBe(2);
    const judged = await runCliIn(dir, ["judge", "--config", join("project", "ragjudge.config.json"), "--out", "j.jsonl"], NO_KEY);
    expect(judged.code, judged.err).toBe(0);
    const advice = calibrateAdvice(judged.out);
    expect(advice).toEqual(["calibrate", "--config", join("project", "ragjudge.config.json"), "--judgments", "j.jsonl"]);
    const calibrated = await runCliIn(dir, advice!, NO_KEY);
    expect(calibrated.code, calibrated.err).toBe(0);
    expect(readdirSync(join(project, "labels", "calibration")).length).toBeGreaterThan(0);
    const again = await runCliIn(dir, ["judge", "--config", join("project", "ragjudge.config.json"), "--out", "j.jsonl"], NO_KEY);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/^\s*TRUSTED/m);
    expect(again.out).not.toContain("run ragjudge calibrate");
  }, 120_000);
});
