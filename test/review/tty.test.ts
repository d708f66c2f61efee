import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { displayPath } from "../../src/golden/errors.js";
import { ReviewSession } from "../../src/review/session.js";
import { runTtyReview, safeTerminalText } from "../../src/review/tty.js";
import { ROOT } from "../helpers/paths.js";
import { entry, judgmentOf, workspace } from "./helpers.js";

async function run(w: ReturnType<typeof workspace>, input: string): Promise<string> {
  const session = new ReviewSession({ queueFile: w.queue, rubricsDir: w.rubrics, judgmentsFile: w.judgments, labelsDir: w.labels, annotator: "asha" });
  const output = new PassThrough();
  let text = "";
  output.on("data", (c: Buffer) => (text += c.toString("utf8")));
  await runTtyReview(session, { input: Readable.from([input]), output, color: false });
  return text;
}

const labels = (w: ReturnType<typeof workspace>) =>
  readFileSync(join(w.labels, "asha.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { question: string; label: string; note?: string });

describe("terminal review", () => {
  const es = [
    entry("q1", "Leave lapses [2].\u001b]0;owned\u0007", { reference: "No." }),
    entry("q2", "B."),
    entry("q3", "C."),
    entry("q4", "D."),
  ];

  it("labels from typed lines, notes included, and resumes at the first open item", async () => {
    const w = workspace(es, [judgmentOf(es[0]!, "no", "the judge's reason")]);
    const out = await run(w, "v\ny\nn wrong figure\ns\n");
    expect(out).toContain("RUBRIC: Is every claim of the answer supported by the context?");
    expect(out).toContain("answer the item first");
    expect(out).not.toContain("the judge's reason");
    expect(out).toMatch(/\[2\] q1-doc#1 · Casual leave \*cited\* \*anchor\*/);
    expect(out).toContain("»Unused casual leave cannot be carried forward«");
    expect(labels(w)).toEqual([
      expect.objectContaining({ question: "q1", label: "yes" }),
      expect.objectContaining({ question: "q2", label: "no", note: "wrong figure" }),
    ]);
    const again = await run(w, "q\n");
    expect(again).toContain("item 4 of 4");
    expect(again).toContain("2 of 4 labelled, 1 skipped, 1 to go");
  });

  it("starts at the first skipped item when only skipped ones are left, so a queue drawn again for them reaches them", async () => {
    const w = workspace(es, []);
    const first = await run(w, "y\ns\ny\ns\n");
    expect(first).toContain("Queue done: 2 of 4 labelled, 2 skipped");
    expect(first).toContain("Skipped items stay unlabelled: run the same command again to start at the first of them (or type g N to go to item N).");
    // The same command again opens item 2 (the first skipped), and answering it walks on to the next skipped one.
    const again = await run(w, "n\ny\n");
    expect(again).toMatch(/item 2 of 4/);
    expect(again).toContain("Queue done: 4 of 4 labelled, 0 skipped");
    expect(labels(w).map((l) => [l.question, l.label])).toEqual([["q1", "yes"], ["q3", "yes"], ["q2", "no"], ["q4", "yes"]]);
  });

  it("says, when an answer on a drawn item is changed to the judge's verdict, that the gate still counts the earlier one; nothing otherwise", async () => {
    const drawn = [entry("q1", "A.", { over: { draw: "0123456789abcdef" } }), entry("q2", "B.", { over: { draw: "0123456789abcdef" } }), entry("q3", "C.")];
    const w = workspace(drawn, [judgmentOf(drawn[0]!, "yes", "r1"), judgmentOf(drawn[1]!, "yes", "r2"), judgmentOf(drawn[2]!, "yes", "r3")]);
    // q1: no, then yes (the judge's verdict): the note; q2: yes, then no (against the judge): none; q3 (not drawn): no, then yes: none
    const out = await run(w, "n\ny\nn\ng 1\ny\ng 2\nn\ng 3\ny\nq\n");
    const notes = out.split("\n").filter((l) => l.startsWith("Note: "));
    expect(notes).toEqual(['Note: for the trust gate your earlier "no" on this drawn item still counts: an answer changed to the judge\'s verdict once it could be seen cannot raise agreement (README: what decides a drawn item for the gate); the label everywhere else is "yes".']);
    expect(labels(w).map((l) => [l.question, l.label])).toEqual([["q1", "no"], ["q2", "yes"], ["q3", "no"], ["q1", "yes"], ["q2", "no"], ["q3", "yes"]]);
  });

  it("never prints control characters from item text", async () => {
    const w = workspace(es);
    const out = await run(w, "q\n");
    expect(out).not.toContain("\u001b");
    expect(out).toContain("<U+001B>]0;owned<U+0007>");
    expect(safeTerminalText("a\u202eb\tc\nd")).toBe("a<U+202E>b\tc\nd");
  });

  it("reveals the judge after going back to a labelled item; unknown commands print help", async () => {
    const w = workspace(es, [judgmentOf(es[0]!, "no", "the judge's reason")]);
    const out = await run(w, "y\nb\nv\nmaybe\nq\n");
    expect(out).toContain('You labelled this "yes"');
    expect(out).toContain("Judge (model test-model): no — the judge's reason");
    expect(out).toContain('Not a command: "maybe"');
    expect(labels(w)).toHaveLength(1);
  });

  it("v right after an answer reveals the item just answered, never the next one, which stays hidden", async () => {
    const w = workspace(es, [judgmentOf(es[0]!, "no", "judge on q1"), judgmentOf(es[1]!, "yes", "judge on q2"), judgmentOf(es[3]!, "no", "judge on q4")]);
    const out = await run(w, "y\nv\n\nv\nn\nv\nq\n");
    expect(out).toContain(`Saved "yes" for item 1; type v next to see the judge's verdict on it.`);
    expect(out).toContain("Judge on item 1, the one you just answered (q1 / faithfulness / answer):");
    expect(out.match(/judge on q1/g)).toHaveLength(2); // v again (after a blank line) repeats it
    expect(out).toContain("Judge on item 2, the one you just answered (q2 / faithfulness / answer):");
    expect(out).toContain("judge on q2");
    expect(out).not.toContain("answer the item first");
    expect(labels(w).map((l) => l.label)).toEqual(["yes", "no"]);
  });

  it("moving or skipping ends 'just answered': v on an unanswered item is still refused", async () => {
    const w = workspace(es, [judgmentOf(es[0]!, "no", "judge on q1"), judgmentOf(es[1]!, "yes", "judge on q2"), judgmentOf(es[2]!, "yes", "judge on q3")]);
    const out = await run(w, "y\nf\nv\nb\nb\nf\nv\ng 3\ns\nv\nq\n");
    // f moved to item 3 (open): refused. b, b, f lands on item 2 (open): refused. After a skip: refused.
    expect(out.match(/answer the item first/g)).toHaveLength(3);
    expect(out).not.toContain("judge on q2");
    expect(out).not.toContain("judge on q3");
    expect(out).not.toContain("judge on q1");
  });

  it("v after answering the last open item reveals it at the end of the queue", async () => {
    const w = workspace(es.slice(0, 1), [judgmentOf(es[0]!, "no", "judge on q1")]);
    const out = await run(w, "n\nv\nq\n");
    expect(out).toContain("Queue done: 1 of 1 labelled");
    expect(out).toContain("Judge on item 1, the one you just answered");
    expect(out).toContain("Judge (model test-model): no — judge on q1");
  });

  it("accepts the words yes and no in any case, with a note after them, so piped answers stay on their items", async () => {
    const w = workspace(es);
    const out = await run(w, "yes\nNO wrong figure\nY fine\nnope\nNo\n");
    expect(out).not.toContain('Not a command: "yes"');
    expect(out).toContain('Not a command: "nope"');
    expect(labels(w).map((l) => [l.question, l.label, l.note])).toEqual([
      ["q1", "yes", undefined],
      ["q2", "no", "wrong figure"],
      ["q3", "yes", "fine"],
      ["q4", "no", undefined],
    ]);
    // every item answered: the queue is done, not something to resume
    expect(out).toContain(`Queue done: 4 of 4 labelled, 0 skipped. Labels are in ${displayPath(w.labels)}.`);
    expect(out).not.toContain("run the same command to resume");
  });

  it("g N goes to item N and says so when there is no item N, instead of jumping elsewhere", async () => {
    const w = workspace(es);
    const out = await run(w, "g 3\ny\ng 0\ng 99\ng 1\ny\nq\n");
    expect(out).toContain("No item 0: the queue's items are 1 to 4.");
    expect(out).toContain("No item 99: the queue's items are 1 to 4.");
    expect(out).not.toContain("Queue done");
    expect(labels(w).map((l) => l.question)).toEqual(["q3", "q1"]);
  });

  it("runs as `ragjudge review --tty` reading stdin", () => {
    const w = workspace(es);
    const r = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "review", w.queue, "--tty", "--annotator", "asha", "--rubrics-dir", w.rubrics, "--labels", w.labels, "--judgments", w.judgments], { cwd: ROOT, input: "y\ny\n", encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Reviewing 4 items as asha");
    expect(labels(w).map((l) => l.question)).toEqual(["q1", "q2"]);
    expect(r.stdout).toContain("(provenance human)");
    // quit with items to go: how many, and the command as typed to resume; calibrating is not the next step yet
    expect(r.stdout).toContain(`2 of 4 labelled, 0 skipped, 2 to go. Labels are in ${w.labels}; to resume, run:\n  ragjudge review ${w.queue} --annotator asha --tty --labels ${w.labels} --judgments ${w.judgments} --rubrics-dir ${w.rubrics}\n`);
    expect(r.stdout).not.toContain("ragjudge calibrate");
    // the queue done: the next step, with the files this review used, so it measures these labels
    const done = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "review", w.queue, "--tty", "--annotator", "asha", "--rubrics-dir", w.rubrics, "--labels", w.labels, "--judgments", w.judgments], { cwd: ROOT, input: "y\ny\n", encoding: "utf8" });
    expect(done.status).toBe(0);
    expect(done.stdout).not.toContain("to resume");
    expect(done.stdout).toContain(`Next: measure the judge against these labels:\n  ragjudge calibrate --labels ${w.labels} --judgments ${w.judgments}\n`);
    const a = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "review", w.queue, "--tty", "--annotator", "author1", "--provenance", "author", "--rubrics-dir", w.rubrics, "--labels", w.labels], { cwd: ROOT, input: "q\n", encoding: "utf8" });
    expect(a.status).toBe(0);
    expect(a.stdout).toContain("(provenance author: the project's own labels, not human evidence)");
  });
});

describe("terminal review and sampling manifests", () => {
  it("writes each label with the draw its queue entry came from, so the gate can check it was drawn", async () => {
    const drawn = [entry("q1", "A.", { over: { draw: "0123456789abcdef" } }), entry("q2", "B.", { over: { frame: "manual", inclusionProbability: 1 } })];
    const w = workspace(drawn, []);
    await run(w, "y\nn\n");
    const written = readFileSync(join(w.labels, "asha.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { question: string; draw?: string; frame: string });
    expect(written.map((l) => [l.question, l.frame, l.draw])).toEqual([["q1", "random", "0123456789abcdef"], ["q2", "manual", undefined]]);
  });
});
