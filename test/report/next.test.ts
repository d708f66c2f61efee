import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { calibrateHint, defaultAnnotator, nextCommands, shellArg, suggestedAnnotator } from "../../src/report/next.js";
import { ItemRecord } from "../../src/report/items/schema.js";
import { ROOT } from "../helpers/paths.js";
import type { ReportJson } from "../../src/report/schema.js";
import { runCliCaptured } from "../helpers/cli.js";
import { exampleCopy } from "./helpers.js";

describe("after a run: its judgments where sample, review and calibrate look, and the next commands", () => {
  it("writes <cacheDir>/judgments.jsonl; sample reads it, or an evaluation folder's with --evaluation; review without a queue names the command that makes one", async () => {
    const copy = exampleCopy();
    const run = await runCliCaptured(["run", "--config", copy.config, "--quiet"]);
    expect(run.code, run.err).toBe(0);
    const folder = run.out.trim();
    const cached = join(copy.dir, ".ragjudge", "judgments.jsonl");
    expect(readFileSync(cached, "utf8")).toBe(readFileSync(join(folder, "judgments.jsonl"), "utf8"));

    const review = await runCliCaptured(["review", "--annotator", "asha", "--config", copy.config]);
    expect(review.code).toBe(2);
    expect(review.err).toBe(`ragjudge: error: ${join(copy.dir, ".ragjudge", "review-queue.jsonl")}: no review queue: make one with \`ragjudge sample --random 20 --split heldout --annotator asha --config ${copy.config}\` (after \`ragjudge run\`), then run this again\n`);
    // with a queue path of its own, the printed command makes that very queue, and review then opens it
    const custom = join(copy.dir, "my queue.jsonl");
    const reviewCustom = await runCliCaptured(["review", custom, "--annotator", "asha", "--config", copy.config, "--tty"]);
    expect(reviewCustom.code).toBe(2);
    const printed = /make one with `ragjudge (.*?)` \(after/.exec(reviewCustom.err)![1]!;
    expect(printed).toBe(`sample --random 20 --split heldout --annotator asha --config ${copy.config} --out '${custom}'`);
    const made = await runCliCaptured(["sample", "--random", "20", "--split", "heldout", "--annotator", "asha", "--config", copy.config, "--out", custom]);
    expect(made.code, made.err).toBe(0);
    expect(existsSync(custom)).toBe(true);
    rmSync(custom);

    const sample = await runCliCaptured(["sample", "--random", "3", "--annotator", "asha", "--config", copy.config]);
    expect(sample.code, sample.err).toBe(0);
    rmSync(cached);
    const missing = await runCliCaptured(["sample", "--random", "3", "--annotator", "asha", "--config", copy.config]);
    expect(missing.err).toContain(`judgments file not found: run \`ragjudge run --config ${copy.config}\` (or \`ragjudge judge --config ${copy.config}\`) first, or pass --evaluation DIR or --judgments FILE`);
    const fromFolder = await runCliCaptured(["sample", "--random", "3", "--annotator", "asha", "--config", copy.config, "--evaluation", folder, "--out", join(copy.dir, "q.jsonl")]);
    expect(fromFolder.code, fromFolder.err).toBe(0);
    expect(fromFolder.out).toContain(`--judgments ${join(folder, "judgments.jsonl")}`);
    expect(existsSync(join(copy.dir, "q.jsonl"))).toBe(true);
    const notOne = await runCliCaptured(["sample", "--random", "3", "--annotator", "asha", "--config", copy.config, "--evaluation", copy.dir]);
    expect(notOne.err).toMatch(/not an evaluation folder \(no report\.json/);
  });

  it("after run --cache-dir, the printed commands read that run's judgments; its floors, folder and name come back in every printed run", async () => {
    const copy = exampleCopy((c) => {
      c.trust = { minLabels: 5, minPerClass: 1 };
    });
    const cache = join(copy.dir, "other-cache");
    const evaluations = join(copy.dir, "ev2");
    const run = await runCliCaptured(["run", "--config", copy.config, "--cache-dir", cache, "--fail-under", "R@10=0.99", "--evaluations-dir", evaluations, "--name", "n2"]);
    expect(run.code, run.err).toBe(1); // the floor
    const printed = run.out.split("\n").filter((l) => l.startsWith("  ragjudge "));
    const reads = printed.filter((l) => / ragjudge (sample|review|calibrate|plan) /.test(l));
    const runs = printed.filter((l) => l.startsWith("  ragjudge run "));
    expect(reads.length).toBeGreaterThanOrEqual(3);
    expect(runs.length).toBeGreaterThanOrEqual(1);
    for (const l of reads) expect(l).toContain(` --judgments ${join(cache, "judgments.jsonl")}`);
    for (const l of runs) expect(l).toContain(` --cache-dir ${cache} --fail-under R@10=0.99 --evaluations-dir ${evaluations} --name n2`);
    // pasted, sample reads this run's verdicts (the config's cache folder has none: without --judgments it fails)
    expect(existsSync(join(copy.dir, ".ragjudge", "judgments.jsonl"))).toBe(false);
    const words = reads.find((l) => l.includes(" sample "))!.trim().split(" ").slice(1);
    const sample = await runCliCaptured([...words, "--out", join(copy.dir, "q.jsonl")]);
    expect(sample.code, sample.err).toBe(0);
    expect(sample.out).toMatch(/Wrote \d+ entries/);
    // a run under --require-trusted (and --allow-errors) gets them back in every printed run, each once
    const gated = await runCliCaptured(["run", "--config", copy.config, "--cache-dir", cache, "--require-trusted", "--allow-errors", "--evaluations-dir", evaluations]);
    expect(gated.code, gated.err).toBe(1);
    const again = gated.out.split("\n").filter((l) => l.startsWith("  ragjudge run "));
    expect(again.length).toBeGreaterThanOrEqual(1);
    for (const l of again) expect(l.match(/--require-trusted/g)).toHaveLength(1);
    for (const l of again) expect(l).toContain(" --allow-errors");
  });

  it("names the commands with the run's config and judge flags, quoted for a shell, and the sample size the gate still needs", () => {
    const rubric = (name: string, n: number, trusted = false) => ({ rubric: name, judge: "llm", trust: { trusted, n, thresholds: { minLabels: 50, minPerClass: 10, kappaLower: 0.6 }, heldout: "heldout" } });
    const report = {
      config: { shippedExample: false },
      judgeTotals: { errors: 0 },
      rubrics: [rubric("faithfulness", 20), rubric("correctness", 35)],
      questions: [{ split: "heldout" }],
    } as unknown as ReportJson;
    expect(nextCommands(report, { config: ["--config", "my dir/c.json"], judge: ["--judge", "openai"], annotator: "asha" })).toEqual([
      "Next: 2 rubrics are untrusted (faithfulness, correctness). Label a random sample of the heldout split, measure the judge against it, and gate on it (as asha, who has labelled here before: put your own name if you are someone else):",
      "  ragjudge sample --random 50 --split heldout --annotator asha --config 'my dir/c.json'",
      "  ragjudge review --annotator asha --config 'my dir/c.json'",
      "  ragjudge calibrate --config 'my dir/c.json'",
      "  ragjudge run --config 'my dir/c.json' --judge openai --require-trusted",
    ]);
    // run --labels: every command that reads or writes labels, and the run again, take the same folder
    expect(nextCommands(report, { config: [], judge: [], labels: ["--labels", "our labels"], annotator: "asha" }).slice(1)).toEqual([
      "  ragjudge sample --random 50 --split heldout --annotator asha --labels 'our labels'",
      "  ragjudge review --annotator asha --labels 'our labels'",
      "  ragjudge calibrate --labels 'our labels'",
      "  ragjudge run --labels 'our labels' --require-trusted",
    ]);
    expect(nextCommands({ ...report, judgeTotals: { errors: 3 } } as ReportJson, { config: [], judge: [] })[1]).toBe("  ragjudge run");
    expect(nextCommands({ ...report, rubrics: [rubric("faithfulness", 60, true)] } as ReportJson, { config: [], judge: [] })).toEqual(["Next: every rubric is trusted; gate CI on it:", "  ragjudge run --require-trusted"]);
    expect(shellArg("it's")).toBe(`'it'\\''s'`);
    // the gate's advice to calibrate names the --labels folder, with how the config was given
    const msg = "untrusted: stale: run ragjudge calibrate (the labels changed)";
    expect(calibrateHint({ isShippedExample: true, file: "/pkg/ragjudge.config.json" }, "example labels", msg)).toBe("untrusted: stale: run ragjudge calibrate --example --labels 'example labels' (the labels changed)");
    expect(calibrateHint({ isShippedExample: false, file: join(process.cwd(), "ragjudge.config.json") }, "mine", msg)).toBe("untrusted: stale: run ragjudge calibrate --config ragjudge.config.json --labels mine (the labels changed)");
    // without --labels: still the project (a bare `ragjudge calibrate` finds only a config where it is typed) and the verdicts;
    // the shipped example's labels folder is the package's, never written: --no-write, which calibrate accepts there
    expect(calibrateHint({ isShippedExample: false, file: "/x/ragjudge.config.json" }, undefined, msg)).toBe("untrusted: stale: run ragjudge calibrate --config /x/ragjudge.config.json (the labels changed)");
    expect(calibrateHint({ isShippedExample: false, file: "/x/ragjudge.config.json" }, undefined, msg, "c2/judgments.jsonl")).toBe("untrusted: stale: run ragjudge calibrate --config /x/ragjudge.config.json --judgments c2/judgments.jsonl (the labels changed)");
    expect(calibrateHint({ isShippedExample: true, file: "/pkg/ragjudge.config.json" }, undefined, msg)).toBe("untrusted: stale: run ragjudge calibrate --example --no-write (the labels changed)");
    expect(calibrateHint({ isShippedExample: false, file: "/x/ragjudge.config.json" }, undefined, "trusted: kappa 0.9")).toBe("trusted: kappa 0.9");
    // where the verdicts are, when calibrate would not look there; and a folder's name is text, never a replacement pattern
    expect(calibrateHint({ isShippedExample: true, file: "/pkg/ragjudge.config.json" }, "mine", msg, "c2/judgments.jsonl")).toBe("untrusted: stale: run ragjudge calibrate --example --labels mine --judgments c2/judgments.jsonl (the labels changed)");
    expect(calibrateHint({ isShippedExample: true, file: "/pkg/ragjudge.config.json" }, "a$&b", msg)).toBe("untrusted: stale: run ragjudge calibrate --example --labels 'a$&b' (the labels changed)");
    // the shipped example gated on labels of one's own (--labels): the commands that label that folder, then init
    const shipped = { ...report, config: { ...report.config, shippedExample: true } } as ReportJson;
    const init = ["Next: this was the shipped example. To evaluate your own data, start a project in a folder of its own:", "  ragjudge init my-eval"];
    expect(nextCommands(shipped, { config: ["--example"], judge: [] })).toEqual(init);
    const own = nextCommands(shipped, { config: ["--example"], judge: [], labels: ["--labels", "own"], annotator: "asha" });
    expect(own.slice(1, -2)).toEqual([
      "  ragjudge sample --random 50 --split heldout --annotator asha --example --labels own",
      "  ragjudge review --annotator asha --example --labels own",
      "  ragjudge calibrate --example --labels own",
      "  ragjudge run --example --labels own --require-trusted",
    ]);
    expect(own.slice(-2)).toEqual(init);
  });

  it("asks for a draw large enough for minPerClass labels of the rarer answer: of the judge's verdicts before any label, of the labels after", () => {
    const thresholds = { minLabels: 50, minPerClass: 10, kappaLower: 0.6 };
    const variant = (pass: number, fail: number, rule = 0) => ({ pass, fail, rulePass: rule, ruleFail: 0, pairs: null });
    const rubric = (over: Record<string, unknown>) => ({ rubric: "faithfulness", judge: "llm", trust: { trusted: false, n: 0, thresholds, heldout: "heldout", heldoutItems: 500, draws: [] }, calibration: null, variants: [variant(190, 10)], ...over });
    const report = (r: unknown) => ({ config: { shippedExample: false }, judgeTotals: { errors: 0 }, rubrics: [r], questions: [{ split: "heldout" }] }) as unknown as ReportJson;
    const sample = (r: unknown) => nextCommands(report(r), { config: [], judge: [], annotator: "asha" }).find((l) => l.includes("sample --random"));
    // 5% of the verdicts are no: 10 noes are expected in 200 labels, not in the 50 of minLabels
    expect(sample(rubric({}))).toBe("  ragjudge sample --random 200 --split heldout --annotator asha");
    // verdicts decided by rule are not the judge's (with them: 10 of 200, so 200); two variants add up: 10 of 150
    expect(sample(rubric({ variants: [variant(140, 10, 50), variant(50, 0)] }))).toBe("  ragjudge sample --random 150 --split heldout --annotator asha");
    // balanced verdicts: minLabels
    expect(sample(rubric({ variants: [variant(100, 100)] }))).toBe("  ragjudge sample --random 50 --split heldout --annotator asha");
    // labels say how many of the rarer answer are in hand: 60 labels, 3 no: 7 more at 5%, 140 more
    const labelled = (n: number, labelYes: number, labelNo: number, heldoutItems = 500) => rubric({ trust: { trusted: false, n, thresholds, heldout: "heldout", heldoutItems, draws: [] }, calibration: { labelYes, labelNo } });
    expect(sample(labelled(60, 57, 3))).toBe("  ragjudge sample --random 200 --split heldout --annotator asha");
    // a few labels all yes are no reason to draw everything (it asked for all 5,000): 3 + 200
    expect(sample(labelled(3, 3, 0, 5000))).toBe("  ragjudge sample --random 203 --split heldout --annotator asha");
    expect(sample(labelled(50, 49, 1, 5000))).toBe("  ragjudge sample --random 230 --split heldout --annotator asha");
    // the answer the judge gives more often can be the one missing among the labels: 40 labels all no, 60% yes: 40 + 42
    const common = rubric({ variants: [variant(600, 400)], trust: { trusted: false, n: 40, thresholds: { ...thresholds, minPerClass: 25 }, heldout: "heldout", heldoutItems: 500, draws: [] }, calibration: { labelYes: 0, labelNo: 40 } });
    expect(sample(common)).toBe("  ragjudge sample --random 82 --split heldout --annotator asha");
    // enough of each in hand: the gate's own rule (20 more)
    expect(sample(labelled(60, 48, 12))).toBe("  ragjudge sample --random 80 --split heldout --annotator asha");
    // never an answer seen: every held-out item
    expect(sample(rubric({ variants: [variant(200, 0)] }))).toBe("  ragjudge sample --random 500 --split heldout --annotator asha");
    expect(sample(rubric({ variants: [variant(200, 0)], trust: { trusted: false, n: 0, thresholds, heldout: "heldout", heldoutItems: 120, draws: [] } }))).toBe("  ragjudge sample --random 120 --split heldout --annotator asha");
  });

  it("says when labelling cannot reach the gate (fewer held-out items than minLabels) and points to plan, not to sample again", () => {
    const rubric = (name: string, heldoutItems: number | undefined) => ({ rubric: name, judge: "llm", trust: { trusted: false, n: 0, thresholds: { minLabels: 50, minPerClass: 10, kappaLower: 0.6 }, heldout: "heldout", ...(heldoutItems === undefined ? {} : { heldoutItems }) } });
    const report = (rubrics: unknown[]) => ({ config: { shippedExample: false }, judgeTotals: { errors: 0 }, rubrics, questions: [{ split: "heldout" }] }) as unknown as ReportJson;
    const inv = { config: ["--config", "c.json"], judge: [], annotator: "asha" };
    expect(nextCommands(report([rubric("faithfulness", 12), rubric("correctness", 16)]), inv)).toEqual([
      `Next: labelling cannot make faithfulness, correctness trusted: the gate needs 50 random labels of each in the held-out split "heldout", which holds only 12 judged items of faithfulness, 16 judged items of correctness. Put more questions in that split (\`"split": "heldout"\` in the golden set) and run again; this says what each rubric needs:`,
      "  ragjudge plan --config c.json",
    ]);
    // one rubric short, one reachable: the sample hint names the reachable one only
    const mixed = nextCommands(report([rubric("faithfulness", 12), rubric("correctness", 80)]), inv);
    expect(mixed[1]).toBe("  ragjudge plan --config c.json");
    expect(mixed[2]).toBe("Next: 1 rubric is untrusted (correctness). Label a random sample of the heldout split, measure the judge against it, and gate on it (as asha, who has labelled here before: put your own name if you are someone else):");
    // exactly minLabels held-out items can be enough; an unknown count never blocks the hint
    expect(nextCommands(report([rubric("faithfulness", 50)]), inv)[1]).toMatch(/^ {2}ragjudge sample --random 50 /);
    expect(nextCommands(report([rubric("faithfulness", undefined)]), inv)[1]).toMatch(/^ {2}ragjudge sample --random 50 /);
  });

  it("end to end: a project whose held-out split is too small is told so, and the printed plan command runs as printed", async () => {
    const copy = exampleCopy();
    const run = await runCliCaptured(["run", "--config", copy.config]);
    expect(run.code, run.err).toBe(0);
    const lines = run.out.split("\n");
    const at = lines.findIndex((l) => l.startsWith("Next: labelling cannot make"));
    expect(at, run.out).toBeGreaterThan(-1);
    // the shipped example's held-out split: 23 questions x 2 variants, fewer judged items per rubric than the gate's 50
    expect(lines[at]).toMatch(/which holds only \d+ judged items of citation-accuracy, \d+ judged items of correctness/);
    expect(lines.slice(at).join("\n")).not.toMatch(/ragjudge sample --random/);
    const printed = lines[at + 1]!.trim().split(" ");
    expect(printed.slice(0, 2)).toEqual(["ragjudge", "plan"]);
    const plan = await runCliCaptured(printed.slice(1));
    expect(plan.code, plan.err).toBe(0);
    expect(plan.out).toMatch(/cannot: the gate needs 50 labels \(minLabels\) but only \d+ held-out items exist: put more questions in the held-out split/);
    const report = JSON.parse(readFileSync(join(run.out.match(/evaluation folder: (\S+)\//)![1]!.startsWith("/") ? "" : copy.dir, run.out.match(/evaluation folder: (\S+)\//)![1]!, "report.json"), "utf8")) as ReportJson;
    for (const r of report.rubrics.filter((x) => x.judge !== "rule")) expect(r.trust.heldoutItems).toBeLessThan(50);
  });

  it("names the one annotator whose human labels the folder holds; with none or several, the login name", () => {
    const l = (annotator: string, provenance = "human", adjudication?: boolean) => ({ value: { annotator, provenance, ...(adjudication === undefined ? {} : { adjudication }) } });
    const login = defaultAnnotator();
    expect(suggestedAnnotator([])).toBe(login);
    expect(suggestedAnnotator([l("asha"), l("asha")])).toBe("asha");
    expect(suggestedAnnotator([l("asha"), l("vendor", "import"), l("ravi", "author"), l("lead", "human", true)])).toBe("asha");
    expect(suggestedAnnotator([l("asha"), l("bob")])).toBe(login);
    // the login name when that person has labelled here too
    expect(suggestedAnnotator([l(login)])).toBe(login);
  });

  it("when labelling can no longer help (every held-out item labelled, or plan's cannot at kappa), points at the judge, not at sample again", () => {
    const thresholds = { minLabels: 5, minPerClass: 1, kappaLower: 0.1 };
    const confusion = (tp: number, fn: number, fp: number, tn: number) => ({ n: tp + fn + fp + tn, confusion: { tp, fn, fp, tn } });
    const rubric = (name: string, n: number, heldoutItems: number, kappa: number | null, calibration: unknown) => ({ rubric: name, judge: "baseline", trust: { trusted: false, n, kappa, thresholds, heldout: "heldout", heldoutItems }, calibration });
    const report = (rubrics: unknown[]) => ({ config: { shippedExample: false }, judgeTotals: { errors: 0 }, rubrics, questions: [{ split: "heldout" }] }) as unknown as ReportJson;
    const inv = { config: ["--config", "ci.config.json"], judge: [], annotator: "asha" };
    // the walkthrough's correctness: all 9 held-out items labelled, kappa 0.40 (the judge said no on two items labelled yes)
    const all = nextCommands(report([rubric("correctness", 9, 9, 0.4, confusion(6, 2, 0, 1))]), inv);
    expect(all).toEqual([
      "Next: more labels cannot make correctness trusted at this kappa (correctness: cannot at kappa 0.40: it needs 67 labels but only 9 held-out items exist (needs >= 0.84 with all of them labelled)). Improve the judge instead: the rubric's prompt, or the judge's model; then run again (`ragjudge plan --config ci.config.json` says what each rubric needs):",
      "  ragjudge run --config ci.config.json",
    ]);
    // kappa at or below the threshold: plan's words, even with items still unlabelled
    expect(nextCommands(report([rubric("faithfulness", 20, 40, 0.05, confusion(10, 5, 4, 1))]), inv)[0]).toMatch(/^Next: more labels cannot make faithfulness trusted at this kappa \(faithfulness: cannot at kappa -?0\.\d\d: more labels narrow the interval/);
    // every item labelled but no kappa to plan from (all one answer): said as such
    expect(nextCommands(report([rubric("not-found", 13, 13, null, null)]), inv)[0]).toContain("(not-found: every one of its 13 held-out judged items is labelled already)");
    // one stuck, one that labelling can still help: the sample block names the second only
    const mixed = nextCommands(report([rubric("correctness", 9, 9, 0.4, confusion(6, 2, 0, 1)), rubric("faithfulness", 2, 40, null, null)]), inv);
    expect(mixed[2]).toBe("Next: 1 rubric is untrusted (faithfulness). Label a random sample of the heldout split, measure the judge against it, and gate on it (as asha, who has labelled here before: put your own name if you are someone else):");
    expect(mixed.filter((x) => x.includes("sample --random"))).toHaveLength(1);
    // ... and draws for it alone: a draw for correctness would queue labels that cannot help
    expect(mixed.find((x) => x.includes("sample --random"))).toMatch(/ --rubrics faithfulness --annotator asha /);
    expect(nextCommands(report([rubric("faithfulness", 2, 40, null, null)]), inv).find((x) => x.includes("sample --random"))).not.toMatch(/--rubrics/);
    // one rubric untrusted under two fingerprints beside a trusted one: still names it alone (entries are not names)
    const trusted = { ...rubric("correctness", 60, 60, 0.9, null), trust: { trusted: true, n: 60, kappa: 0.9, thresholds, heldout: "heldout", heldoutItems: 60 } };
    const twice = nextCommands(report([rubric("faithfulness", 2, 40, null, null), rubric("faithfulness", 3, 40, null, null), trusted]), inv);
    expect(twice.find((x) => x.includes("sample --random"))).toMatch(/ --rubrics faithfulness --annotator asha /);
  });

  it("sends a rubric whose every held-out item is labelled but short of an answer to more questions; finishes a part-labelled draw with its own seed; never asks for more items than exist", () => {
    const thresholds = { minLabels: 15, minPerClass: 4, kappaLower: 0.4 };
    const report = (rubrics: unknown[]) => ({ config: { shippedExample: false }, judgeTotals: { errors: 0 }, rubrics, questions: [{ split: "heldout" }] }) as unknown as ReportJson;
    const inv = { config: ["--config", "c.json"], judge: [], annotator: "root" };
    // 24 held-out items, all labelled, 22 yes / 2 no: no sample can add a "no" label.
    const full = nextCommands(report([{ rubric: "not-found", judge: "baseline", trust: { trusted: false, reason: "too-few-labels", n: 24, kappa: 1, thresholds, heldout: "heldout", heldoutItems: 24, draws: [] }, calibration: { labelYes: 22, labelNo: 2, confusion: { tp: 22, fn: 0, fp: 0, tn: 2 } } }]), inv);
    expect(full).toEqual([
      'Next: labelling cannot make not-found trusted (not-found: all 24 held-out judged items are labelled (22 yes / 2 no), and the gate needs 15 with 4 of each answer). Put more questions in the held-out split (`"split": "heldout"` in the golden set) and run again; this says what each rubric needs:',
      "  ragjudge plan --config c.json",
    ]);
    // No label counts yet, and the draw is part-labelled: the draw's own rest is queued, not a new draw.
    const draw = { id: "0123456789abcdef", annotator: "root", covers: true, why: null, drawn: 15, labelled: 10, coverage: 10 / 15, counts: false, skipP: null, skipsLean: false };
    const part = nextCommands(report([{ rubric: "correctness", judge: "baseline", trust: { trusted: false, reason: "labels-not-random", n: 0, kappa: null, thresholds, heldout: "heldout", heldoutItems: 30, draws: [draw] }, calibration: null }]), inv);
    expect(part[0]).toBe("Next: a draw is not finished (correctness: draw 0123456789abcdef for root, 10 of 15 labelled); a draw below the share that must be labelled blocks trust, and a drawn item left unlabelled counts as a disagreement. Queue the unlabelled items again and label them:");
    expect(part[1]).toBe("  ragjudge sample --draw 0123456789abcdef --annotator root --config c.json");
    expect(part.filter((x) => x.includes("sample --random"))).toHaveLength(0);
    // A counting draw with skipped items: the same, without the blocking clause; an empty draw says none is labelled.
    const skipped = nextCommands(report([{ rubric: "correctness", judge: "baseline", trust: { trusted: false, reason: "kappa-too-low", n: 14, kappa: 0.5, thresholds, heldout: "heldout", heldoutItems: 30, draws: [{ ...draw, labelled: 14, coverage: 14 / 15, counts: true }, { ...draw, id: "fedcba9876543210", labelled: 0, coverage: 0, counts: false }] }, calibration: null }]), inv);
    expect(skipped[0]).toBe("Next: 2 draws are not finished (correctness: draw 0123456789abcdef for root, 14 of 15 labelled; correctness: draw fedcba9876543210 for root, none of 15 labelled yet); a draw below the share that must be labelled blocks trust, and a drawn item left unlabelled counts as a disagreement. Queue the unlabelled items again and label them:");
    expect(skipped.some((x) => x.startsWith("Items skipped in review"))).toBe(false);
    // Only counting draws with items left: their rest may be skipped on purpose, and plan (then plan --budget) draws more.
    const counting = nextCommands(report([{ rubric: "correctness", judge: "baseline", trust: { trusted: false, reason: "kappa-too-low", n: 14, kappa: 0.5, thresholds, heldout: "heldout", heldoutItems: 30, draws: [{ ...draw, labelled: 14, coverage: 14 / 15, counts: true }] }, calibration: null }]), inv);
    expect(counting.slice(-2)).toEqual(["Items skipped in review on purpose can stay skipped (they count as disagreements until labelled): once its annotator has skipped every unlabelled item of a draw, plan says how many more labels the gate needs and prints the command that draws them:", "  ragjudge plan --config c.json"]);
    // 19 held-out items, 17 labels: 37 would draw the same 19 under a new draw id; ask for 19.
    const capped = nextCommands(report([{ rubric: "faithfulness", judge: "baseline", trust: { trusted: false, reason: "kappa-too-low", n: 17, kappa: 0.7, thresholds, heldout: "heldout", heldoutItems: 19, draws: [] }, calibration: null }]), inv);
    expect(capped.find((x) => x.includes("sample --random"))).toBe("  ragjudge sample --random 19 --split heldout --annotator root --config c.json");
  });

  it("end to end: once one person has labelled, the next run's commands and the items' review commands name that person", async () => {
    const copy = exampleCopy((c) => (c.trust = { minLabels: 5, minPerClass: 1, kappaLower: 0.1 }));
    const first = await runCliCaptured(["run", "--config", copy.config]);
    expect(first.code, first.err).toBe(0);
    const sample = await runCliCaptured(["sample", "--random", "5", "--split", "heldout", "--annotator", "asha", "--config", copy.config]);
    expect(sample.code, sample.err).toBe(0);
    const review = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "review", "--tty", "--annotator", "asha", "--config", copy.config], { cwd: ROOT, input: "y\ny\nn\ny\ny\n", encoding: "utf8" });
    expect(review.status, review.stderr).toBe(0);
    const again = await runCliCaptured(["run", "--config", copy.config]);
    expect(again.code, again.err).toBe(0);
    const next = again.out.slice(again.out.indexOf("\nNext:"));
    expect(next).toMatch(/ragjudge (sample|review) .*--annotator asha /);
    expect(next).not.toContain(`--annotator ${defaultAnnotator()} `);
    const folder = again.out.match(/evaluation folder: (\S+)\//)![1]!;
    const items = readFileSync(join(folder.startsWith("/") ? "" : process.cwd(), folder, "items.jsonl"), "utf8").trim().split("\n").map((x) => ItemRecord.parse(JSON.parse(x)));
    const commands = items.flatMap((i) => (i.review === null ? [] : [i.review]));
    expect(commands.length).toBeGreaterThan(0);
    for (const c of commands) expect(c).toContain(" --annotator asha ");
  }, 60_000);
});
