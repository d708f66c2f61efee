import { appendFileSync, existsSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { CalibrationRecord } from "../../src/calibration/record.js";
import { runCliCaptured } from "../helpers/cli.js";
import { roleQuestion } from "../helpers/fixture-roles.js";
import { copyFixture, tempDir } from "../helpers/temp.js";

let dir: string;
beforeEach(() => {
  dir = copyFixture("calibration", "ragjudge-calibrate-");
});

const run = (...args: string[]) => runCliCaptured(["calibrate", "--config", join(dir, "ragjudge.config.json"), "--judgments", join(dir, "judgments.jsonl"), "--reps", "500", ...args]);
/** The record of faithfulness under F1 as served by m1-2026-01 (the served model's hash names it). */
const FAITH = "faithfulness.f1f1f1f1f1f1.2d1ca6ac.json";
const record = (name: string) => CalibrationRecord.parse(JSON.parse(readFileSync(join(dir, "labels", "calibration", name), "utf8")));

describe("ragjudge calibrate", () => {
  it("reports each rubric and fingerprint with the gate's state and writes one record per labelled judge", async () => {
    const { code, out } = await run();
    expect(code).toBe(0);
    expect(out).toMatch(/faithfulness · llm m1 served as m1-2026-01 · fingerprint f1f1f1f1f1f1/);
    expect(out).toMatch(/UNTRUSTED kappa too low \(0\.68, 95% CI \[0\.47, 0\.85\]; lower bound must be >= 0\.60, n = 70 human labels\)/);
    expect(out).toMatch(/UNTRUSTED too few labels \(12 human labels, random and in the held-out split "heldout" \(no split counts as dev\): 8 yes \/ 4 no; need 50 with 10 of each\)/);
    expect(out).toMatch(/UNTRUSTED no calibration record for this judge: no label pairs with its verdicts yet/);
    expect(readdirSync(join(dir, "labels", "calibration")).sort()).toEqual(["correctness.56778204a02d.json", "faithfulness.f1f1f1f1f1f1.2d1ca6ac.json"]);
    const r = record("faithfulness.f1f1f1f1f1f1.2d1ca6ac.json");
    // Gate table [[35, 6], [5, 24]] (two judge errors counted as disagreements; on the two items asha and ben
    // split, ben's answer against the judge): kappa = 1620/2390.
    expect(r.figures.confusion).toEqual({ tp: 35, fp: 6, fn: 5, tn: 24 });
    expect(r.figures).toMatchObject({ n: 70, labelYes: 40, labelNo: 30, judgeErrors: 2, weighted: false });
    expect(r.figures.kappa).toBeCloseTo(1620 / 2390, 14);
    expect(r.figures.agreement).toBeCloseTo(59 / 70, 14);
    expect(r.figures.tpr).toBeCloseTo(35 / 40, 14);
    expect(r.figures.tnr).toBeCloseTo(24 / 30, 14);
    expect(r.figures.pabak).toBeCloseTo(2 * 59 / 70 - 1, 14);
    expect(r.excluded).toEqual({ nonRandom: 10, notDrawn: 0, drawNotCovering: 0, drawIncomplete: 0, notHeldout: 0, ties: 0 });
    expect(r.schema).toBe("ragjudge.calibration/2");
    expect(r.draws?.ids).toHaveLength(1);
    expect(r.gate).toMatchObject({ trusted: false, reason: "kappa-too-low" });
    expect(r.servedModels).toEqual(["m1-2026-01"]);
    expect(r.labels.files.map((f) => f.name)).toEqual(["asha.jsonl", "ben.jsonl", "lead.jsonl"]);
    expect(r.basis).toEqual({ human: 70, author: 0, import: 0, mixed: 0, sources: [] });
  });

  it("shortens a long judge's reason in the disagreements table with a visible cut, on one line", async () => {
    const file = join(dir, "judgments.jsonl");
    const q = roleQuestion(dir, 37); // judge yes, label no (make-fixtures.ts)
    writeFileSync(file, readFileSync(file, "utf8").replace(`"reason":"verdict yes for ${q}"`, '"reason":"the answer says forty-five days\\nbut the context gives thirty for casual leave and forty-five for earned leave"'));
    const { code, out } = await run("--no-write");
    expect(code).toBe(0);
    const row = out.split("\n").find((l) => l.includes(`bm25/${q}/answer`))!;
    expect(row).toMatch(/yes\s+no\s+the answer says forty-five days but the context gives thirty for…$/);
  });

  it("never calls author labels human: tables, trust line and record say what the calibration rests on", async () => {
    for (const f of readdirSync(join(dir, "labels")).filter((n) => n.endsWith(".jsonl"))) {
      const file = join(dir, "labels", f);
      writeFileSync(file, readFileSync(file, "utf8").replaceAll('"provenance":"human"', '"provenance":"author"'));
    }
    const { code, out } = await run();
    expect(code).toBe(0);
    expect(out).not.toMatch(/human-human|human labels|agreement with people|people's/);
    expect(out).toMatch(/agreement with author labels \(the project's own labels, not human evidence\)/);
    expect(out).toMatch(/UNTRUSTED author labels are not evidence \(n = 70 author labels \(the project's own labels, not human evidence\); author labels are example labels, the project's own, and say nothing about a judge: move them out of the labels folder \(\S*labels\/asha\.jsonl, \S*labels\/ben\.jsonl, \S*labels\/lead\.jsonl\) and have people label those items, as ragjudge review does\)/);
    expect(out).toMatch(/agreement among annotators \(author labels/);
    const r = record("faithfulness.f1f1f1f1f1f1.2d1ca6ac.json");
    expect(r.basis).toEqual({ human: 0, author: 70, import: 0, mixed: 0, sources: [] });
    expect(r.gate.message).not.toMatch(/human labels/);
  });

  it("reports human-human agreement, the error-analysis table, stale and unknown labels, and rule verdicts left out", async () => {
    const { code, out } = await run();
    expect(code).toBe(0);
    expect(out).toMatch(/asha, ben overlap on 20 item\(s\)/);
    expect(out).toMatch(/frame disagreement\s+10\s+0\.40/);
    expect(out).toMatch(/3 rule verdict\(s\) left out/);
    expect(out).toMatch(/1 stale label\(s\)/);
    expect(out).toContain(`asha.jsonl:81: hybrid/${roleQuestion(dir, 1)}/faithfulness/answer: stale`);
    expect(out).toMatch(/1 label\(s\) for items the judgments do not cover/);
    expect(out).not.toMatch(/NaN/);
  });

  it("is reproducible: the same seed gives the same figures", async () => {
    const a = JSON.parse((await run("--format", "json", "--no-write")).out);
    const b = JSON.parse((await run("--format", "json", "--no-write")).out);
    expect(b.rubrics[1].gate).toEqual(a.rubrics[1].gate);
    expect(b.rubrics[1].passRates).toEqual(a.rubrics[1].passRates);
  });

  it("prints JSON with every figure and the unpaired labels, and --no-write writes nothing", async () => {
    const { code, out } = await run("--format", "json", "--no-write");
    expect(code).toBe(0);
    const j = JSON.parse(out);
    expect(j.rubrics.map((r: { group: { rubric: string; fingerprint: string } }) => `${r.group.rubric}/${r.group.fingerprint.slice(0, 4)}`)).toEqual(["correctness/base", "faithfulness/f1f1", "faithfulness/f3f3"]);
    const f = j.rubrics[1];
    expect(f.gate.kappa.kappa).toBeCloseTo(1620 / 2390, 14);
    expect(f.gate.bootstrap.ci.lo).toBeLessThan(f.gate.kappa.kappa);
    expect(f.annotatorAgreement.cohen.kappa).toBeGreaterThan(0.5);
    expect(f.breakdowns.find((b: { value: string }) => b.value === "policy").figures.kappa.reasons.kappa).toMatch(/undefined/);
    expect(f.passRates.raw.value).toBeCloseTo(45 / 78, 14);
    expect(j.unpaired.stale).toHaveLength(1);
    expect(j.unpaired.unknownItem[0]).toMatchObject({ variant: "dense", question: "q01" });
    expect(existsSync(join(dir, "labels", "calibration"))).toBe(false);
  });

  it("prints Markdown tables", async () => {
    const { code, out } = await run("--format", "md", "--no-write");
    expect(code).toBe(0);
    expect(out).toMatch(/^# Calibration/);
    expect(out).toMatch(/\| judge yes \| 35 \| 6 \|/);
  });

  it("applies per-rubric thresholds from the config and --require-trusted fails CI while any rubric is untrusted", async () => {
    const cfg = JSON.parse(readFileSync(join(dir, "ragjudge.config.json"), "utf8"));
    cfg.trust = { perRubric: { faithfulness: { kappaLower: 0.45 } } };
    writeFileSync(join(dir, "ragjudge.config.json"), JSON.stringify(cfg));
    const { code, out, err } = await run("--require-trusted");
    expect(code).toBe(1);
    expect(out).toMatch(/TRUSTED kappa 0\.68, 95% CI \[0\.47, 0\.85\], n = 70/);
    // why the step failed, on stderr as run says it: the rubrics still untrusted (faithfulness under F1 is trusted now)
    expect(err).toBe("ragjudge: untrusted rubrics under --require-trusted: correctness (fingerprint baseline-lex), faithfulness (fingerprint f3f3f3f3f3f3)\n");
    expect(record("faithfulness.f1f1f1f1f1f1.2d1ca6ac.json").thresholds.kappaLower).toBe(0.45);
  });

  it("--strict turns stale and unjudged labels into errors, naming file and line, and writes nothing", async () => {
    const { code, err } = await run("--strict");
    expect(code).toBe(2);
    expect(err).toMatch(/asha\.jsonl:81: inputHash: stale label/);
    expect(err).toMatch(/asha\.jsonl:82: question: label for an item no judgment covers/);
    expect(existsSync(join(dir, "labels", "calibration"))).toBe(false);
  });

  it("a stale label whose item was labelled again on its current evidence is history: not listed as stale, not an error under --strict", async () => {
    const labels = join(dir, "labels", "asha.jsonl");
    const old = JSON.parse(readFileSync(labels, "utf8").split("\n")[80]!);
    const judged = readFileSync(join(dir, "judgments.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l))
      .find((x) => x.variant === old.variant && x.question === old.question && x.rubric === old.rubric && x.unit === old.unit);
    appendFileSync(labels, JSON.stringify({ ...old, inputHash: judged.inputHash, frame: "manual", attestation: undefined, time: "2026-11-30T11:00:00.000Z" }) + "\n");
    const { out } = await run("--no-write");
    expect(out).not.toMatch(/stale label/);
    expect(out).not.toMatch(/asha\.jsonl:81: .*: stale/);
    expect(out).toMatch(/1 label\(s\) on earlier evidence of items labelled again since: kept as history, not paired/);
    const strict = await run("--strict");
    expect(strict.code).toBe(2);
    expect(strict.err).not.toMatch(/asha\.jsonl:81/);
    expect(strict.err).toMatch(/asha\.jsonl:82: question: label for an item no judgment covers/);
    expect(JSON.parse((await run("--format", "json", "--no-write")).out).unpaired).toMatchObject({ stale: [], relabelled: [{ question: old.question, line: 81 }] });
  });

  it("lists the first five stale labels and says how many more there are", async () => {
    const labels = join(dir, "labels", "asha.jsonl");
    const old = JSON.parse(readFileSync(labels, "utf8").split("\n")[80]!);
    for (let role = 13; role <= 18; role++) {
      appendFileSync(labels, JSON.stringify({ ...old, variant: "bm25", rubric: "correctness", question: roleQuestion(dir, role), inputHash: "ab".repeat(32) }) + "\n");
    }
    const { out } = await run("--no-write");
    expect(out).toMatch(/7 stale label\(s\)/);
    expect(out.match(/: stale \(evidence changed since labelling\)/g)).toHaveLength(5);
    expect(out).toContain("... and 2 more stale labels (--format json lists them all)");
  });

  it("refuses to run over a record renamed to another fingerprint, in one line", async () => {
    expect((await run()).code).toBe(0);
    const cal = join(dir, "labels", "calibration");
    renameSync(join(cal, FAITH), join(cal, "faithfulness.f3f3f3f3f3f3.2d1ca6ac.json"));
    const { code, err } = await run();
    expect(code).toBe(2);
    expect(err.trim().split("\n")).toHaveLength(1);
    expect(err).toMatch(/faithfulness\.f3f3f3f3f3f3\.2d1ca6ac\.json: fingerprint: record is for rubric "faithfulness" and fingerprint f1f1f1f1f1f1…, served model "m1-2026-01", so its file must be named faithfulness\.f1f1f1f1f1f1\.2d1ca6ac\.json/);
  });

  it("rejects a label for an unknown rubric with file, line and field", async () => {
    const line = readFileSync(join(dir, "labels", "asha.jsonl"), "utf8").split("\n")[0]!;
    appendFileSync(join(dir, "labels", "asha.jsonl"), line.replace('"rubric":"faithfulness"', '"rubric":"faithfulnes"') + "\n");
    const { code, err } = await run();
    expect(code).toBe(2);
    expect(err).toBe(`ragjudge: error: ${join(dir, "labels", "asha.jsonl")}:95: rubric: unknown rubric "faithfulnes" (known: citation, correctness, faithfulness): there is no faithfulnes.yaml in ${join(dir, "rubrics")} (a rubric whose file was removed is no longer judged): put the file back, or correct or move the label\n`);
    expect(existsSync(join(dir, "labels", "calibration"))).toBe(false);
  });

  it("with the packaged rubrics, a label for an unknown rubric is told to be corrected, never to put a file into the installed package", async () => {
    rmSync(join(dir, "rubrics"), { recursive: true });
    const config = join(dir, "ragjudge.config.json");
    writeFileSync(config, readFileSync(config, "utf8").replace(/^\s*"rubricsDir": "rubrics",\n/m, ""));
    const line = readFileSync(join(dir, "labels", "asha.jsonl"), "utf8").split("\n")[0]!;
    appendFileSync(join(dir, "labels", "asha.jsonl"), line.replace('"rubric":"faithfulness"', '"rubric":"faithfulnes"') + "\n");
    const { code, err } = await run();
    expect(code).toBe(2);
    expect(err).toMatch(/asha\.jsonl:95: rubric: unknown rubric "faithfulnes" \(known: [^)]*\): the project uses the packaged rubrics, which have no faithfulnes: correct or move the label \(ragjudge init --rubrics copies the rubrics out for editing\)\n$/);
    expect(err).not.toContain("put the file back");
  });

  it("rejects a label other than yes/no in one line", async () => {
    const line = readFileSync(join(dir, "labels", "ben.jsonl"), "utf8").split("\n")[0]!;
    appendFileSync(join(dir, "labels", "ben.jsonl"), line.replace(/"label":"(yes|no)"/, '"label":"maybe"') + "\n");
    const { code, err } = await run();
    expect(code).toBe(2);
    expect(err.trim().split("\n")).toHaveLength(1);
    expect(err).toMatch(/ben\.jsonl:21: label: expected one of "yes", "no", got string "maybe"/);
  });

  it("says so when the judgments file is missing, and validates its options", async () => {
    const missing = await runCliCaptured(["calibrate", "--config", join(dir, "ragjudge.config.json")]);
    expect(missing.code).toBe(2);
    const config = join(dir, "ragjudge.config.json");
    expect(missing.err).toContain(`.ragjudge/judgments.jsonl: judgments file not found: run \`ragjudge run --config ${config}\` (or \`ragjudge judge --config ${config}\`) first, or pass --judgments FILE`);
    const reps = await run("--reps", "ten");
    expect(reps.code).toBe(2);
    expect(reps.err).toMatch(/--reps: expected a whole number from 100 to 100,000/);
  });

  it("refuses labels/calibration that is a symbolic link to a folder outside, exit 2, writing no record anywhere", async () => {
    const outside = tempDir("ragjudge-outside-");
    symlinkSync(outside, join(dir, "labels", "calibration"));
    const { code, err, out } = await run();
    expect(code).toBe(2);
    expect(err).toMatch(/^ragjudge: error: .*labels: refusing to write "calibration\/[a-z-]+\.[0-9a-f]{12}\.json": its folder links outside the labels folder\n$/);
    expect(out).toBe("");
    expect(readdirSync(outside)).toEqual([]);
  });
});
