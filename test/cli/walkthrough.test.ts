import { spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";
import { startOpenAIServer, type TestServer } from "../server/openai-server.js";

/**
 * The README's "Your own data" walkthrough, run as a user runs it: every
 * command of its block, in order, as written, in an empty folder, with
 * `ragjudge` on the PATH. The only liberties: the endpoint of `export
 * OPENAI_BASE_URL` is the local test server's; after `init` a script writes
 * the questions and the pipeline's output (the README's step 2); and a
 * script answers `review --tty`, reading which item each prompt shows.
 * The trust thresholds are the defaults (50 held-out labels per rubric).
 */

/** The four default rubrics, by the question their prompt asks the judge ("Question to decide: ..."). */
const RUBRICS: Record<string, string> = {
  faithfulness: "Is every claim in the answer supported by the numbered sources?",
  correctness: "Does the answer state the facts of the reference answer without contradicting it?",
  "citation-accuracy": "Does the cited source support the part of the sentence that cites it?",
  "not-found": "Did the answer handle correctly whether the documents hold the answer?",
};
const RUBRIC_NAMES = Object.keys(RUBRICS);
const HELDOUT = 50;

/** Held-out question i has a flaw for one rubric in four of every five (10 of 50 each); h05 is one a person reads differently. */
const flawOf = (i: number): string | undefined => (i % 5 < 4 ? RUBRIC_NAMES[i % 5] : undefined);
const CONTESTED = "h05";

/** The script's questions and pipeline output: 50 held-out answerable, 10 dev answerable, 5 dev unanswerable. */
function fillIn(dir: string): void {
  const golden: unknown[] = [];
  const output: unknown[] = [];
  for (let i = 0; i < HELDOUT + 10; i++) {
    const id = i < HELDOUT ? `h${String(i + 1).padStart(2, "0")}` : `d${String(i - HELDOUT + 1).padStart(2, "0")}`;
    const fact = `Policy ${id} allows ${i + 3} days of leave for case ${id}.`;
    const flaw = i < HELDOUT ? flawOf(i) : undefined;
    golden.push({ id, question: `How many days does policy ${id} allow?`, reference: `${i + 3} days.`, relevantText: [fact], kind: i % 2 ? "factual" : "lexical", split: i < HELDOUT ? "heldout" : "dev" });
    const retrieved = i % 7 === 3 ? [{ text: `An unrelated note ${id}.` }, { text: fact, doc: "policies" }] : [{ text: fact, doc: "policies" }, { text: `An unrelated note ${id}.` }];
    const cite = i % 7 === 3 ? 2 : 1;
    output.push({ id, retrieved, answer: `Policy ${id} allows ${i + 3} days${flaw ? ` (flaw-${flaw})` : ""} [${cite}].` });
  }
  for (let i = 0; i < 5; i++) {
    golden.push({ id: `u${i + 1}`, question: `What is secret number ${i + 1}?`, answerable: false, split: "dev" });
    output.push({ id: `u${i + 1}`, retrieved: [{ text: `Nothing about secret ${i + 1}.` }], answer: "I could not find this in the documents." });
  }
  const lines = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
  writeFileSync(join(dir, "golden", "questions.jsonl"), lines(golden));
  writeFileSync(join(dir, "outputs", "my-rag.output.jsonl"), lines(output));
}

/** What the person says about an item: the truth planted in the data, except on the contested question. */
function personSays(question: string, rubric: string): "y" | "n" {
  if (question === CONTESTED) return "n";
  const i = question.startsWith("h") ? Number(question.slice(1)) - 1 : -1;
  return i >= 0 && flawOf(i) === rubric ? "n" : "y";
}

/** The walkthrough's commands, from the README's "Your own data" section. */
function readmeCommands(): { line: string; exit: number }[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.split(/^## Your own data$/m)[1]!.split(/^## /m)[0]!;
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return block.split("\n").filter((l) => l.trim() !== "").map((l) => {
    const [command, comment = ""] = l.split(/\s+#\s+/);
    const exit = /^exit (\d)/.exec(comment);
    return { line: command!.trim(), exit: exit ? Number(exit[1]) : 0 };
  });
}

/** A `ragjudge` on the PATH that runs this checkout's source. */
function installShim(dir: string): string {
  const bin = join(dir, "bin");
  mkdirSync(bin);
  const loader = pathToFileURL(join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href;
  writeFileSync(join(bin, "ragjudge"), `#!/bin/sh\nexec "${process.execPath}" --import ${loader} "${join(ROOT, "src", "cli", "main.ts")}" "$@"\n`);
  chmodSync(join(bin, "ragjudge"), 0o755);
  return bin;
}

/** Runs a command line in a shell, asynchronously (the test server answers in this process, so nothing may block it). */
function sh(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn("sh", ["-c", command], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString("utf8")));
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString("utf8")));
    child.on("error", fail);
    child.on("close", (status) => done({ status, stdout, stderr }));
  });
}

/** Runs `review --tty` in `cwd`, answering each item as the person would, then quits. */
function reviewByScript(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; answered: number }> {
  return new Promise((done, fail) => {
    const child = spawn("sh", ["-c", command], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let seen = 0;
    let answered = 0;
    child.stdout.on("data", (b: Buffer) => {
      out += b.toString("utf8");
      if (!out.endsWith("? help > ")) return;
      const prompt = out.slice(seen);
      seen = out.length;
      if (/Queue done:/.test(prompt)) return void child.stdin.write("q\n");
      const item = /^my-rag \/ (\S+) \/ (\S+) \/ \S+$/m.exec(prompt);
      if (!item) return void child.stdin.write("q\n");
      answered++;
      child.stdin.write(`${personSays(item[1]!, item[2]!)}\n`);
    });
    child.on("error", fail);
    child.on("close", (code) => done({ code, out, answered }));
  });
}

describe("README: Your own data, from an empty folder to trusted rubrics", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startOpenAIServer({
      script: (q) => {
        const rubric = RUBRIC_NAMES.find((r) => q.user.includes(RUBRICS[r]!));
        return { verdict: rubric && q.user.includes(`flaw-${rubric}`) ? "no" : "yes", reason: "scripted" };
      },
    });
  });
  afterAll(async () => server?.close());

  it("runs every command of the block as written, and the gate fails before enough held-out labels and passes after", async () => {
    const root = tempDir("ragjudge-walkthrough-");
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${installShim(root)}:${process.env.PATH}`, OPENAI_API_KEY: "", NO_COLOR: "1" };
    delete env.OPENAI_BASE_URL;
    const work = join(root, "work");
    mkdirSync(work);
    let cwd = work;
    const commands = readmeCommands();
    expect(commands.map((c) => c.line.split(" ").slice(0, 2).join(" "))).toEqual([
      "ragjudge init", "ragjudge validate", "ragjudge run", "export OPENAI_BASE_URL=http://localhost:8000/v1", "ragjudge run",
      "ragjudge sample", "ragjudge review", "ragjudge calibrate", "ragjudge run", "ragjudge sample", "ragjudge review", "ragjudge calibrate", "ragjudge run",
    ]);
    const log: string[] = [];
    let hints: string[] = [];
    for (const { line, exit } of commands) {
      const exported = /^export (\w+)=(\S+)$/.exec(line);
      if (exported) {
        env[exported[1]!] = server.baseURL; // the one liberty: the local test server, not localhost:8000
        continue;
      }
      for (const part of line.split(" && ")) {
        const cd = /^cd (\S+)$/.exec(part);
        if (cd) {
          cwd = resolve(cwd, cd[1]!);
          continue;
        }
        if (/ --tty\b/.test(part)) {
          const r = await reviewByScript(part, cwd, env);
          log.push(`${part}: ${r.answered} answered`);
          expect(r.code, r.out.slice(-2000)).toBe(0);
          expect(r.answered).toBeGreaterThan(0);
          continue;
        }
        const r = await sh(part, cwd, env);
        log.push(`${part}: exit ${r.status}`);
        expect(r.status, `${part}\n${r.stderr}\n${r.stdout.slice(-3000)}`).toBe(exit);
        if (part.startsWith("ragjudge init")) fillIn(resolve(cwd, part.split(" ")[2]!));
        if (part === "ragjudge run --judge openai --model judge-model") hints = r.stdout.trimEnd().split("\n").filter((l) => l.startsWith("  ragjudge "));
        if (part.includes("--require-trusted") && exit === 1) expect(r.stderr).toMatch(/untrusted rubrics under --require-trusted: citation-accuracy, correctness, faithfulness, not-found/);
      }
    }
    // 200 labels: 50 per rubric, all held out, all from random frames.
    const labels = readFileSync(join(cwd, "labels", "asha.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { split?: string; frame: string });
    expect(labels).toHaveLength(4 * HELDOUT);
    expect(new Set(labels.map((l) => `${l.frame}/${l.split}`))).toEqual(new Set(["random/heldout"]));
    const latest = spawnSync("sh", ["-c", "ls -d evaluations/*/ | tail -1"], { cwd, encoding: "utf8" }).stdout.trim();
    const report = JSON.parse(readFileSync(join(cwd, latest, "report.json"), "utf8")) as { rubrics: { rubric: string; trust: { trusted: boolean; n: number } }[]; gate: { failures: string[] } };
    for (const r of report.rubrics) expect(r.trust, r.rubric).toMatchObject({ trusted: true, n: HELDOUT });
    expect(report.gate.failures).toEqual([]);

    // The LLM run's summary ended with the next commands; each works as printed (in a copy of the project as it was then).
    expect(hints.map((h) => h.split(" ").slice(0, 4).join(" "))).toEqual(["  ragjudge sample", "  ragjudge review", "  ragjudge calibrate", "  ragjudge run"]);
    const copy = join(root, "hints");
    cpSync(cwd, copy, { recursive: true });
    spawnSync("sh", ["-c", "rm -rf labels"], { cwd: copy });
    for (const hint of hints.map((h) => h.trim())) {
      if (hint.startsWith("ragjudge review")) {
        // the web page: it starts, names its address, and stops cleanly on SIGTERM
        const child = spawn("sh", ["-c", `exec ${hint}`], { cwd: copy, env, stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        await new Promise<void>((ok) => child.stdout.on("data", (b: Buffer) => {
          out += b.toString("utf8");
          if (/Open http:\/\/127\.0\.0\.1:\d+\//.test(out)) ok();
        }));
        child.kill("SIGTERM");
        expect(await new Promise((ok) => child.on("close", ok))).toBe(0);
        continue;
      }
      const r = await sh(hint, copy, env);
      // the gate is still closed: no labels in the copy
      expect(r.status, `${hint}\n${r.stderr}`).toBe(hint.includes("--require-trusted") ? 1 : 0);
    }
    expect(existsSync(join(copy, ".ragjudge", "review-queue.jsonl"))).toBe(true);
  }, 300_000);
});
