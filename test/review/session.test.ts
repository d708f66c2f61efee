import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError, InputErrors } from "../../src/golden/errors.js";
import { Label } from "../../src/golden/schema/items.js";
import { ReviewRequestError, ReviewSession } from "../../src/review/session.js";
import { checkAnnotator, confinedPath } from "../../src/review/store.js";
import { tempDir } from "../helpers/temp.js";
import { entry, judgmentOf, workspace } from "./helpers.js";

function labelsOf(file: string): Label[] {
  return readFileSync(file, "utf8").trim().split("\n").map((l) => Label.parse(JSON.parse(l)));
}

function open(w: ReturnType<typeof workspace>, annotator = "asha", provenance?: "human" | "author") {
  return new ReviewSession({ queueFile: w.queue, rubricsDir: w.rubrics, judgmentsFile: w.judgments, labelsDir: w.labels, annotator, ...(provenance ? { provenance } : {}) });
}

describe("ReviewSession", () => {
  const es = [entry("q1", "A [2]."), entry("q2", "B."), entry("q3", "C."), entry("q4", "D.")];

  it("writes a complete label copied from the queue entry, then resumes after restart", () => {
    const w = workspace(es);
    const s = open(w);
    expect(s.resumeIndex()).toBe(0);
    const l = s.answer(0, es[0]!.inputHash, "no", "  unsupported claim  ");
    expect(l).toMatchObject({ variant: "bm25", question: "q1", rubric: "faithfulness", unit: "answer", inputHash: es[0]!.inputHash, label: "no", annotator: "asha", provenance: "human", frame: "random", inclusionProbability: 0.25, split: "dev", note: "unsupported claim" });
    s.skip(1, es[1]!.inputHash);
    s.answer(2, es[2]!.inputHash, "yes");
    expect(s.counts()).toEqual({ total: 4, labelled: 2, skipped: 1, open: 1 });

    const again = open(w);
    expect(again.resumeIndex()).toBe(3);
    expect(again.state(1)).toBe("skipped");
    expect(again.view(0).label).toMatchObject({ label: "no", note: "unsupported claim" });
    expect(labelsOf(join(w.labels, "asha.jsonl"))).toHaveLength(2);
    expect(readFileSync(join(w.labels, ".review", "asha.skips.jsonl"), "utf8").trim().split("\n")).toHaveLength(1);
  });

  it("answering again supersedes (history kept); labelling a skipped item makes it labelled", () => {
    const w = workspace(es);
    const s = open(w);
    s.skip(0, es[0]!.inputHash);
    s.answer(0, es[0]!.inputHash, "yes");
    s.answer(0, es[0]!.inputHash, "no");
    expect(s.state(0)).toBe("labelled");
    expect(open(w).view(0).label?.label).toBe("no");
    expect(labelsOf(join(w.labels, "asha.jsonl")).map((l) => l.label)).toEqual(["yes", "no"]);
  });

  it("keeps annotators apart and records author provenance when asked", () => {
    const w = workspace(es);
    open(w, "asha").answer(0, es[0]!.inputHash, "yes");
    const b = open(w, "ravi", "author");
    expect(b.resumeIndex()).toBe(0);
    expect(b.answer(0, es[0]!.inputHash, "no").provenance).toBe("author");
  });

  it("refuses a write for evidence other than the one queued (409) and an unknown index (404)", () => {
    const s = open(workspace(es));
    expect(() => s.answer(0, es[1]!.inputHash, "yes")).toThrow(ReviewRequestError);
    try {
      s.answer(0, es[1]!.inputHash, "yes");
    } catch (e) {
      expect((e as ReviewRequestError).status).toBe(409);
    }
    try {
      s.view(99);
    } catch (e) {
      expect((e as ReviewRequestError).status).toBe(404);
    }
  });

  it("reveals the judge's verdict only after the person answered, and only for the same input hash", () => {
    const stale = { ...judgmentOf(es[0]!, "yes", "other text"), inputHash: "0".repeat(64) };
    const w = workspace(es, [judgmentOf(es[0]!, "no", "claim 2 unsupported"), stale, judgmentOf(es[0]!, "no", "again", { repeat: 1 })]);
    const s = open(w);
    expect(() => s.reveal(0)).toThrow(/answer the item first/);
    const view = JSON.stringify(s.view(0));
    expect(view).not.toContain("claim 2 unsupported");
    expect(view).not.toContain("random");
    s.answer(0, es[0]!.inputHash, "yes");
    const r = s.reveal(0);
    expect(r.judgments.map((j) => [j.verdict, j.reason, j.repeat])).toEqual([["no", "claim 2 unsupported", 0], ["no", "again", 1]]);
    expect(r).toMatchObject({ frame: "random", inclusionProbability: 0.25 });
  });

  it("shows the not-found rubric's case guidance chosen by answerability", () => {
    const ev = { question: "Is there a pet policy?", answer: "Not found.", answerable: false };
    const e = entry("q9", "", { evidence: ev, over: { rubric: "not-found" } });
    const v = open(workspace([e])).view(0);
    expect(v.rubricQuestion).toMatch(/handle correctly/);
    expect(v.rubricGuidance).toMatch(/not available/);
  });

  it("shows a citation item's sentence and cited chunk without claiming where it sat in the context", () => {
    const ev = { question: "Q?", sentence: "Leave lapses.", cited: { id: "hr#1", text: "Unused casual leave cannot be carried forward." } };
    const e = entry("q8", "", { evidence: ev, over: { rubric: "citation-accuracy", unit: "s1:hr#1", citedIds: [] } });
    const v = open(workspace([e])).view(0);
    expect(v.sentence).toEqual([{ text: "Leave lapses." }]);
    expect(v.cited).toMatchObject({ id: "hr#1", cited: true, hasAnchor: true });
    expect(v.cited!.position).toBeUndefined();
    expect(v.context).toBeUndefined();
  });

  it("rejects a tampered queue, a duplicate entry and an unknown rubric with file and line", () => {
    const tampered = { ...es[0]!, evidence: { ...es[0]!.evidence, answer: "changed" } };
    const w = workspace([es[0]!, tampered as typeof es[0], es[1]!]);
    writeFileSync(w.queue, [JSON.stringify(es[0]), JSON.stringify(tampered), JSON.stringify(es[0])].join("\n"));
    try {
      open(w);
      expect.unreachable();
    } catch (e) {
      const msgs = (e as InputErrors).problems.map((p) => p.message);
      expect(msgs.some((m) => /queue\.jsonl:2: inputHash: does not match the hash of this entry's evidence/.test(m))).toBe(true);
      expect(msgs.some((m) => /queue\.jsonl:3: \(record\): the same item and input hash is already queued on line 1/.test(m))).toBe(true);
    }
    const w2 = workspace([entry("q1", "x", { over: { rubric: "nope" } })]);
    expect(() => open(w2)).toThrow(/no rubric named "nope"/);
  });

  it("treats an empty queue file as an empty queue", () => {
    const w = workspace(es);
    writeFileSync(w.queue, "\n");
    const s = open(w);
    expect(s.total).toBe(0);
    expect(s.resumeIndex()).toBe(0);
  });
});

describe("path confinement", () => {
  it("refuses annotator names that are not plain file names", () => {
    for (const bad of ["../evil", "a/b", ".hidden", "", " asha", "a\\b"]) expect(() => checkAnnotator(bad), bad).toThrow(InputError);
    expect(checkAnnotator("asha.k-2")).toBe("asha.k-2");
    const w = workspace([entry("q1", "x")]);
    expect(() => open(w, "../../etc/x")).toThrow(InputError);
  });

  it("refuses paths outside the labels folder and writes through planted links", () => {
    const root = tempDir("ragjudge-confine-");
    const labels = join(root, "labels");
    expect(confinedPath(labels, "asha.jsonl")).toBe(join(labels, "asha.jsonl"));
    expect(() => confinedPath(labels, "../asha.jsonl")).toThrow(/outside the labels folder/);
    expect(() => confinedPath(labels, "/etc/passwd")).toThrow(/outside the labels folder/);
    symlinkSync(join(root, "elsewhere.jsonl"), join(labels, "ravi.jsonl"));
    expect(() => confinedPath(labels, "ravi.jsonl")).toThrow(/symbolic link/);
    mkdirSync(join(root, "outside"));
    symlinkSync(join(root, "outside"), join(labels, ".review"));
    expect(() => confinedPath(labels, ".review/asha.skips.jsonl")).toThrow(/links outside/);
  });

  it("starting or resuming a review creates no folder; only a skip creates labels/.review/", () => {
    const w = workspace([entry("q1", "x"), entry("q2", "y")]);
    const s = open(w);
    expect(existsSync(w.labels)).toBe(false); // no labels folder yet, and none made by reading
    s.answer(0, s.view(0).inputHash, "yes");
    const again = open(w);
    expect(again.resumeIndex()).toBe(1);
    expect(existsSync(join(w.labels, ".review"))).toBe(false);
    again.skip(1, again.view(1).inputHash);
    expect(readdirSync(join(w.labels, ".review"))).toEqual(["asha.skips.jsonl"]);
    expect(open(w).state(1)).toBe("skipped");
  });

  it("reading without create makes nothing, but still refuses a .review linked outside", () => {
    const root = tempDir("ragjudge-confine-");
    const labels = join(root, "labels");
    expect(confinedPath(labels, ".review/asha.skips.jsonl", { create: false })).toBe(join(labels, ".review", "asha.skips.jsonl"));
    expect(existsSync(labels)).toBe(false);
    expect(() => confinedPath(labels, "../x.jsonl", { create: false })).toThrow(/outside the labels folder/);
    mkdirSync(labels);
    expect(confinedPath(labels, ".review/asha.skips.jsonl", { create: false })).toBe(join(realpathSync(labels), ".review", "asha.skips.jsonl"));
    expect(existsSync(join(labels, ".review"))).toBe(false);
    mkdirSync(join(root, "outside"));
    symlinkSync(join(root, "outside"), join(labels, ".review"));
    expect(() => confinedPath(labels, ".review/asha.skips.jsonl", { create: false })).toThrow(/links outside/);
  });

  it("a review session will not append through a link planted at the labels file", () => {
    const w = workspace([entry("q1", "x")]);
    mkdirSync(w.labels, { recursive: true });
    const target = join(w.dir, "stolen.jsonl");
    writeFileSync(target, "");
    symlinkSync(target, join(w.labels, "asha.jsonl"));
    // loadLabels reads through the link (an empty file); the write is refused.
    const s = open(w);
    expect(() => s.answer(0, s.view(0).inputHash, "yes")).toThrow(/symbolic link/);
    expect(readFileSync(target, "utf8")).toBe("");
  });
});
