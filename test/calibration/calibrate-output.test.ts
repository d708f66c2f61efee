import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { drawIdOf, drawText } from "../../src/calibration/draws.js";
import type { Draw } from "../../src/golden/schema/draw.js";
import { runCliCaptured } from "../helpers/cli.js";
import { roleQuestion } from "../helpers/fixture-roles.js";
import { copyFixture } from "../helpers/temp.js";

let dir: string;
beforeEach(() => {
  dir = copyFixture("calibration", "ragjudge-calibrate-out-");
});

const run = (...args: string[]) => runCliCaptured(["calibrate", "--config", join(dir, "ragjudge.config.json"), "--judgments", join(dir, "judgments.jsonl"), "--reps", "500", ...args]);
const recordFile = (name: string) => join(dir, "labels", "calibration", name);

/**
 * The fixture's 12 correctness labels rewritten as the example's
 * citation-accuracy looks: every label "yes", the first 8 in the heldout
 * split and the other 4 random labels in the dev split (in the golden set,
 * whose split is the one the gate reads, on the labels, and in the draws,
 * as if they had been drawn on these splits: a draw made on other splits does
 * not count).
 */
function correctnessAllYesWithSplits(): void {
  const dev = [9, 10, 11, 12].map((role) => roleQuestion(dir, role)); // correctness roles 9..12 (make-fixtures.ts)
  const golden = join(dir, "golden.jsonl");
  writeFileSync(golden, readFileSync(golden, "utf8").trim().split("\n").map((l) => {
    const q = JSON.parse(l) as { id: string; split?: string };
    if (dev.includes(q.id)) q.split = "dev";
    return JSON.stringify(q);
  }).join("\n") + "\n");
  const draws = join(dir, "labels", "draws");
  for (const name of readdirSync(draws)) {
    const d = JSON.parse(readFileSync(join(draws, name), "utf8")) as Draw;
    for (const it of d.population.items) if (dev.includes(it.question)) it.split = "dev";
    d.id = drawIdOf(d);
    rmSync(join(draws, name));
    writeFileSync(join(draws, `${d.id}.json`), drawText(d));
  }
  const file = join(dir, "labels", "asha.jsonl");
  let i = 0;
  const lines = readFileSync(file, "utf8").trim().split("\n").map((l) => {
    const o = JSON.parse(l) as Record<string, unknown>;
    if (o.rubric !== "correctness") return l;
    o.label = "yes";
    o.split = i++ < 8 ? "heldout" : "dev";
    return JSON.stringify(o);
  });
  writeFileSync(file, lines.join("\n") + "\n");
}

/** The lines of one rubric's section of the table output. */
const section = (text: string, rubric: string) => text.split(/\n(?=\S)/).find((s) => s.startsWith(`${rubric} ·`))!;

describe("ragjudge calibrate: a constant side, splits, negative zero", () => {
  it("says kappa's interval is not informative, and why, in the table and by-kind/by-tag rows, and the gate says so", async () => {
    correctnessAllYesWithSplits();
    const { code, out } = await run("--no-write");
    expect(code).toBe(0);
    const s = section(out, "correctness");
    expect(s).toMatch(/kappa {6}0\.00 {2}95% CI not informative, asymptotic and bootstrap alike: labellers gave only 'yes', so kappa is 0 by convention and its interval has zero width by formula \(not certainty\); no test/);
    expect(s).not.toMatch(/\[0\.00, 0\.00\]|z 0\.00|p 1\.000/);
    expect(s).toMatch(/kind factual\s+4\s+0\.75\s+0\.75\s+n\/a\s+0\.00, CI not informative \(labels all 'yes'\)/);
    expect(s).toMatch(/tag policy\s+8 .*0\.00, CI not informative \(labels all 'yes'\)/);
    expect(s).toMatch(/UNTRUSTED too few labels \(8 human labels, random and in the held-out split "heldout" \(no split counts as dev\): 8 yes \/ 0 no; need 50 with 10 of each; labellers gave only 'yes', so kappa's interval is not informative; not counted: 4 random labels outside the held-out split "heldout" \(labels with no split count as dev; prompts are tuned on dev\)\)/);
    expect(out).not.toMatch(/-0\.0/);
  });

  it("carries a machine-readable flag and reason in JSON (gate, breakdowns, record, trust) and says it in Markdown", async () => {
    correctnessAllYesWithSplits();
    const json = await run("--format", "json", "--no-write");
    expect(json.code).toBe(0);
    const c = JSON.parse(json.out).rubrics.find((r: { group: { rubric: string } }) => r.group.rubric === "correctness");
    const flag = { cause: "labels-constant", label: "yes", reason: "labellers gave only 'yes'" };
    expect(c.gate.kappaCiUninformative).toEqual(flag);
    expect(c.gate.kappa).toMatchObject({ kappa: 0, se: 0, se0: 0, z: null, p: null, constant: { rater1: null, rater2: 0 } });
    expect(c.breakdowns.every((b: { figures: { kappaCiUninformative: unknown } }) => b.figures.kappaCiUninformative !== null)).toBe(true);
    expect(c.record.figures.kappaCiUninformative).toEqual(flag);
    expect(c.trust.kappaCiUninformative).toEqual(flag);
    const faith = JSON.parse(json.out).rubrics.find((r: { group: { rubric: string; fingerprint: string } }) => r.group.fingerprint.startsWith("f1f1"));
    expect(faith.gate.kappaCiUninformative).toBeNull();
    expect(faith.record.figures).not.toHaveProperty("kappaCiUninformative");
    const md = await run("--format", "md", "--no-write");
    expect(md.code).toBe(0);
    expect(md.out).toMatch(/- kappa 0\.00 95% CI not informative, asymptotic and bootstrap alike: labellers gave only 'yes'/);
    expect(md.out).toMatch(/\| kind factual \| 4 \| 0\.75 \| 0\.75 \| n\/a \| 0\.00, CI not informative \(labels all 'yes'\) \|/);
  });

  it("names why each group of non-gate labels is out: the split for random dev labels, selection for other frames", async () => {
    correctnessAllYesWithSplits();
    const { code, out } = await run("--no-write");
    expect(code).toBe(0);
    const c = section(out, "correctness");
    expect(c).toMatch(/4 random labels in split dev are not in the gate: the gate uses the held-out split "heldout" only \(labels with no split are dev; prompts are tuned on dev\); see error analysis/);
    expect(c).toMatch(/error analysis: labels not in the gate \(see why; kappa only where selection does not distort it\)/);
    expect(c).toMatch(/split dev\s+4\s+0\.50\s+0\.00, CI not informative \(labels all 'yes'\)\s+0\s+2\s+the gate uses the held-out split "heldout" only/);
    expect(c).not.toMatch(/selection distorts/);
    const f = section(out, "faithfulness");
    expect(f).toMatch(/10 labels from frame disagreement are not in the gate: a non-random frame, whose selection distorts kappa, TPR\/TNR and the corrections/);
    expect(f).toMatch(/frame disagreement\s+10\s+0\.40\s+distorted\s+\d+\s+\d+\s+a non-random frame, whose selection distorts kappa/);
    expect(out).not.toMatch(/other labels/);
  });

  it("rewrites a record only when something but its time changed, and says 'unchanged'", async () => {
    const first = await run();
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/record written: .*faithfulness\.f1f1f1f1f1f1\.2d1ca6ac\.json/);
    const file = recordFile("faithfulness.f1f1f1f1f1f1.2d1ca6ac.json");
    const before = readFileSync(file, "utf8");
    const mtime = statSync(file).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    const second = await run();
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/record unchanged \(only its time would differ\): .*faithfulness\.f1f1f1f1f1f1\.2d1ca6ac\.json/);
    expect(second.out).not.toMatch(/record written/);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(statSync(file).mtimeMs).toBe(mtime);
    const json = await run("--format", "json");
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out).rubrics.map((r: { recordStatus: string | null }) => r.recordStatus)).toEqual(["unchanged", "unchanged", null]);
    // A new label changes the figures: rewritten, with a new time.
    const line = readFileSync(join(dir, "labels", "ben.jsonl"), "utf8").split("\n")[0]!;
    writeFileSync(join(dir, "labels", "ben.jsonl"), readFileSync(join(dir, "labels", "ben.jsonl"), "utf8") + line.replace(/"label":"(yes|no)"/, (_, v) => `"label":"${v === "yes" ? "no" : "yes"}"`).replace(/"time":"[^"]+"/, '"time":"2026-12-01T00:00:00.000Z"') + "\n");
    const third = await run();
    expect(third.code).toBe(0);
    expect(third.out).toMatch(/record written: .*faithfulness\.f1f1f1f1f1f1\.2d1ca6ac\.json/);
    // Every record names the hash of the whole labels folder, so the other record changes too.
    expect(third.out).toMatch(/record written: .*correctness\./);
    const after = JSON.parse(readFileSync(file, "utf8"));
    expect(after.time).not.toBe(JSON.parse(before).time);
    expect(after.labels.hash).not.toBe(JSON.parse(before).labels.hash);
    expect(readdirSync(join(dir, "labels", "calibration")).filter((n) => n.startsWith("."))).toEqual([]); // atomic: no temporary file left
  });

  it("rewrites a record whose file was edited by hand", async () => {
    expect((await run()).code).toBe(0);
    const file = recordFile("faithfulness.f1f1f1f1f1f1.2d1ca6ac.json");
    const good = readFileSync(file, "utf8");
    writeFileSync(file, JSON.stringify(JSON.parse(good)) + "\n"); // same content, another layout
    const { code, out } = await run();
    expect(code).toBe(0);
    expect(out).toMatch(/record written: .*faithfulness\.f1f1f1f1f1f1\.2d1ca6ac\.json/);
    expect(JSON.parse(readFileSync(file, "utf8")).time).not.toBe(JSON.parse(good).time);
  });
});
