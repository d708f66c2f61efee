/**
 * The trust gate against labels added after the random ones: second
 * opinions sent only where someone disagreed with the judge, adjudications
 * that overrule an annotator, a labeller who answers again once the judge's
 * verdict is shown, more people answering only those items through the
 * draw's own queue, and example labels imported again as human. Each of
 * these made a rubric trusted on the code before labels.ts `gateLabels`
 * (an adversarial review found them); each test fails there.
 *
 * The honest start: asha labels a recorded draw of every held-out
 * correctness item through the review session, against the judge on every
 * fourth, so kappa is too low. Every attack must leave the gate's figures
 * as they were (or lower), never trusted.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Judgment, Label } from "../../src/golden/schema/items.js";
import { ReviewSession } from "../../src/review/session.js";
import { calibration, judged, splitOf, verdictsOf, type Project } from "../helpers/gate-project.js";
import { labelRandomDraw } from "../helpers/labelling.js";

const RUBRIC = "correctness";

/** asha's draw of every held-out item, against the judge on every fourth; returns the items she disagreed on. */
async function honestStart(provenance: "human" | "author" = "human", against = (i: number) => i % 4 === 0): Promise<{ p: Project; disagreed: Judgment[] }> {
  const p = await judged();
  const key = (x: { variant: string; question: string; unit: string }) => `${x.variant}/${x.question}/${x.unit}`;
  const disagreedKeys = new Set<string>();
  await labelRandomDraw({
    config: p.config, dir: p.dir, judgments: p.judgments, labels: p.labels, rubrics: RUBRIC, split: "heldout", annotator: "asha", provenance,
    answer: (e, verdict, i) => {
      const agree = verdict === "no" ? "no" : "yes";
      if (!against(i)) return agree;
      disagreedKeys.add(key(e));
      return agree === "yes" ? "no" : "yes";
    },
  });
  return { p, disagreed: verdictsOf(p).filter((j) => j.rubric === RUBRIC && disagreedKeys.has(key(j))) };
}

/** Labels written into `<annotator>.jsonl` as the judge decided each item, an hour after the honest ones. */
function agreeingLabels(p: Project, annotator: string, rows: readonly Judgment[], over: Partial<Label>): void {
  const split = splitOf(p);
  const lines = rows.map((j) => JSON.stringify({
    variant: j.variant, question: j.question, rubric: j.rubric, unit: j.unit, inputHash: j.inputHash, label: j.verdict, annotator, provenance: "human",
    frame: "disagreement", ...(split.get(j.question) ? { split: split.get(j.question) } : {}), time: new Date(Date.now() + 3_600_000).toISOString(), ...over,
  }));
  appendFileSync(join(p.labels, `${annotator}.jsonl`), lines.join("\n") + "\n");
}

/** The gate's figures that an attack must not move. */
const figures = (c: Awaited<ReturnType<typeof calibration>>) => ({ n: c.gate.n, trusted: c.trust.trusted, reason: c.trust.reason, ci: c.trust.ci });

describe("labels added after the random ones never raise the gate", () => {
  it("second opinions sent only to the disagreements (two more annotators siding with the judge) leave the gate as it was", async () => {
    const { p, disagreed } = await honestStart();
    expect(disagreed.length).toBe(9);
    const before = figures(await calibration(p, RUBRIC));
    expect(before).toMatchObject({ trusted: false, reason: "kappa-too-low" });
    // the old gate took the majority of asha, bob and carol: 2 to 1 for the judge on every disagreement
    agreeingLabels(p, "bob", disagreed, { frame: "disagreement" });
    agreeingLabels(p, "carol", disagreed, { frame: "disagreement" });
    expect(figures(await calibration(p, RUBRIC))).toEqual(before);
  });

  it("two more people answering, through the draw's own queue, only the items where the first parted from the judge leave the gate as it was", async () => {
    const { p, disagreed } = await honestStart();
    const before = figures(await calibration(p, RUBRIC));
    // the old gate took the 2-to-1 majority for the judge; a random frame and the draw's id do not make them count
    const queue = join(p.dir, `queue-${RUBRIC}-1.jsonl`);
    const aimed = new Set(disagreed.map((j) => `${j.variant}/${j.question}/${j.unit}`));
    for (const annotator of ["bob", "carol"]) {
      const session = new ReviewSession({ queueFile: queue, rubricsDir: join(p.dir, "rubrics"), judgmentsFile: p.judgments, labelsDir: p.labels, annotator, provenance: "human" });
      session.entries.forEach((e, i) => {
        const j = disagreed.find((d) => d.question === e.value.question && d.variant === e.value.variant && d.unit === e.value.unit);
        if (j && aimed.has(`${j.variant}/${j.question}/${j.unit}`) && (j.verdict === "yes" || j.verdict === "no")) session.answer(i, e.value.inputHash, j.verdict);
        else session.skip(i, e.value.inputHash);
      });
    }
    expect(figures(await calibration(p, RUBRIC))).toEqual(before);
  });

  it("an adjudication never decides a drawn item: one that overrules its annotator is not counted", async () => {
    const { p, disagreed } = await honestStart();
    const before = figures(await calibration(p, RUBRIC));
    agreeingLabels(p, "lead", disagreed, { frame: "manual", adjudication: true });
    expect(figures(await calibration(p, RUBRIC))).toEqual(before);
  });

  it("answering again once the verdict is shown (the review page replaces the label) cannot move an item toward the judge; moving away from it counts", async () => {
    const { p, disagreed } = await honestStart();
    const before = await calibration(p, RUBRIC);
    const queue = join(p.dir, `queue-${RUBRIC}-1.jsonl`);
    const session = new ReviewSession({ queueFile: queue, rubricsDir: join(p.dir, "rubrics"), judgmentsFile: p.judgments, labelsDir: p.labels, annotator: "asha", provenance: "human" });
    const verdict = new Map(disagreed.map((j) => [`${j.variant}/${j.question}/${j.unit}`, j.verdict]));
    let changed = 0;
    session.entries.forEach((e, i) => {
      const k = `${e.value.variant}/${e.value.question}/${e.value.unit}`;
      session.reveal(i); // the judge's verdict, shown after the first answer
      const v = verdict.get(k);
      if (v === "yes" || v === "no") {
        session.answer(i, e.value.inputHash, v);
        changed++;
      }
    });
    expect(changed).toBe(disagreed.length);
    // the latest label of each disagreement now agrees with the judge; the gate keeps the answer against it
    const latest = await calibration(p, RUBRIC);
    expect(figures(latest)).toEqual(figures(before));
    // an answer changed away from the judge does count (the gate cannot tell it from a correction, and it lowers kappa)
    let flipped = 0;
    session.entries.forEach((e, i) => {
      if (flipped === 3 || verdict.has(`${e.value.variant}/${e.value.question}/${e.value.unit}`)) return;
      const label = session.view(i).label!.label;
      session.answer(i, e.value.inputHash, label === "yes" ? "no" : "yes");
      flipped++;
    });
    const lowered = await calibration(p, RUBRIC);
    expect(lowered.gate.n).toBe(before.gate.n);
    expect(lowered.trust.ci!.hi).toBeLessThan(before.trust.ci!.hi);
  });

  it("example labels imported again as human by the same annotator stay example labels", async () => {
    // the project's own labels, every one agreeing with the judge: kappa 1.00, refused as author labels
    const { p } = await honestStart("author", () => false);
    const before = await calibration(p, RUBRIC);
    expect(before.trust).toMatchObject({ trusted: false, reason: "author-labels" });
    // the same labels again, now saying human (what labels export + import --provenance human does), an hour later
    const file = join(p.labels, "asha.jsonl");
    const later = new Date(Date.now() + 3_600_000).toISOString();
    appendFileSync(file, readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.stringify({ ...(JSON.parse(l) as Label), provenance: "human", time: later })).join("\n") + "\n");
    const after = await calibration(p, RUBRIC);
    expect(after.trust).toMatchObject({ trusted: false, reason: "author-labels" });
    expect(after.trust.message).toMatch(/author labels are not evidence/);
  });
});
