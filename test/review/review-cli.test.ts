import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../helpers/cli.js";
import { ROOT } from "../helpers/paths.js";
import { entry, workspace } from "./helpers.js";

describe("ragjudge review: bad input", () => {
  const w = workspace([entry("q1", "A.")]);
  const base = ["review", w.queue, "--rubrics-dir", w.rubrics, "--labels", w.labels, "--judgments", w.judgments];

  it("exits 2 with one line for a bad annotator, a missing queue, a bad port or provenance", async () => {
    const cases: [string[], RegExp][] = [
      [[...base, "--annotator", "../x"], /cannot name a labels file/],
      [["review", join(w.dir, "missing.jsonl"), "--rubrics-dir", w.rubrics, "--labels", w.labels, "--annotator", "asha"], /missing\.jsonl: no review queue: make one with `ragjudge sample --random 20 (--split heldout )?--annotator asha --labels \S*labels --out \S*missing\.jsonl`/],
      [[...base, "--annotator", "asha", "--port", "http"], /--port: expected a whole number from 0 to 65,535, got "http"/],
      [[...base, "--annotator", "asha", "--provenance", "import"], /--provenance/],
      // a mistyped --judgments went on with no verdicts, and printed `calibrate --judgments <typo>`, which failed
      [["review", w.queue, "--rubrics-dir", w.rubrics, "--labels", w.labels, "--judgments", join(w.dir, "judgmnts.jsonl"), "--annotator", "asha", "--tty"], /judgmnts\.jsonl: judgments file not found: name the judgments\.jsonl that `ragjudge run` wrote/],
    ];
    for (const [args, re] of cases) {
      const r = await runCliCaptured(args);
      expect(r.code, args.join(" ")).toBe(2);
      // One line (commander adds its usual "(run with --help for usage)" hint to its own errors).
      expect(r.err.trim().split("\n").filter((l) => !l.startsWith("(run with --help")), r.err).toHaveLength(1);
      expect(r.err).toMatch(re);
    }
    const r = await runCliCaptured(["review", w.queue, "--rubrics-dir", w.rubrics, "--labels", w.labels]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--annotator/);
  });

  it("exits 2 when the requested port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await runCliCaptured([...base, "--annotator", "asha", "--port", String(port)]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(new RegExp(`--port ${port}: cannot listen on 127\\.0\\.0\\.1 \\(already in use\\)`));
    } finally {
      blocker.close();
    }
  });
});

describe("ragjudge review --tty: the labels folder", () => {
  it("a start that only reads (quit at once) leaves no labels/.review/ folder", () => {
    const w = workspace([entry("q1", "A.")]);
    mkdirSync(w.labels);
    const r = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "review", w.queue, "--tty", "--annotator", "asha", "--rubrics-dir", w.rubrics, "--labels", w.labels, "--judgments", w.judgments], { cwd: ROOT, input: "q\n", encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Reviewing 1 items as asha");
    expect(readdirSync(w.labels)).toEqual([]);
  });
});

describe("ragjudge review: provenance follows the annotator's earlier labels", () => {
  const tty = (w: ReturnType<typeof workspace>, extra: string[], input: string) =>
    spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "review", w.queue, "--tty", "--annotator", "asha", "--rubrics-dir", w.rubrics, "--labels", w.labels, "--judgments", w.judgments, ...extra], { cwd: ROOT, input, encoding: "utf8" });
  const provenances = (w: ReturnType<typeof workspace>) =>
    readFileSync(join(w.labels, "asha.jsonl"), "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { provenance: string }).provenance);

  it("an annotator whose labels are all author labels goes on as author without the flag (as the printed next commands omit it); --provenance human says otherwise", () => {
    const w = workspace([entry("q1", "A."), entry("q2", "B."), entry("q3", "C.")]);
    expect(tty(w, ["--provenance", "author"], "y\nq\n").status).toBe(0);
    const again = tty(w, [], "y\nq\n");
    expect(again.status).toBe(0);
    expect(again.stdout).toContain("(provenance author, as every earlier label of asha: pass --provenance human if a person labels now;");
    expect(provenances(w)).toEqual(["author", "author"]);
    expect(tty(w, ["--provenance", "human"], "y\nq\n").status).toBe(0);
    expect(provenances(w)).toEqual(["author", "author", "human"]);
  });
});
