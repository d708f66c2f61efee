/**
 * End-to-end tests of the review page in headless Chromium (Debian's
 * `chromium` through playwright-core). Where /usr/bin/chromium is missing they
 * skip with a one-line reason, unless CI is set: then they fail (the launch
 * and skip-or-fail rules are shared in test/helpers/chromium.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Label } from "../../src/golden/schema/items.js";
import { CHROMIUM_LAUNCH, describeInChromium } from "../helpers/chromium.js";
import { ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";
import { entry, judgmentOf, workspace } from "./helpers.js";

describeInChromium("review page", browserTests);

interface Served {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts `ragjudge review` as a real child process and waits for its URL. */
function serve(w: ReturnType<typeof workspace>, annotator = "asha"): Promise<Served> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "review", w.queue, "--annotator", annotator, "--rubrics-dir", w.rubrics, "--labels", w.labels, "--judgments", w.judgments], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  return new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL from ragjudge review within 20 s:\n${out}`)), 20_000);
    const onData = (c: Buffer) => {
      out += c.toString("utf8");
      const m = /Open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl({ child, url: m[1]!, output: () => out });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`ragjudge review exited ${code}:\n${out}`));
    });
  });
}

function killHard(s: Served): Promise<void> {
  return new Promise((done) => {
    s.child.removeAllListeners("exit");
    s.child.once("exit", () => done());
    s.child.kill("SIGKILL");
  });
}

/** The little of the DOM the tests read (the project's TypeScript has no DOM types). */
interface PageDocument {
  getElementById(id: string): { textContent: string | null; disabled?: boolean } | null;
  querySelectorAll(selector: string): { length: number };
}

/** Waits until the page shows item `n` (1-based) of `total`. */
async function atItem(page: Page, n: number, total: number): Promise<void> {
  // Runs in the page. (A string expression would be refused: the page's CSP forbids eval.)
  await page.waitForFunction(
    ([n, total]) => {
      const doc = (globalThis as unknown as { document: PageDocument }).document;
      return doc.getElementById("where")?.textContent === `item ${n} of ${total}` && !doc.getElementById("yes")?.disabled;
    },
    [n, total] as const,
  );
}

function browserTests(): void {
  let ctx: BrowserContext;
  const consoleMessages: string[] = [];
  const pageErrors: string[] = [];
  const children: Served[] = [];

  beforeAll(async () => {
    const userDataDir = tempDir("ragjudge-chromium-");
    ctx = await chromium.launchPersistentContext(userDataDir, { ...CHROMIUM_LAUNCH, viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    for (const c of children) if (c.child.exitCode === null) c.child.kill("SIGKILL");
    await ctx?.close();
  });

  async function newPage(): Promise<Page> {
    const page = await ctx.newPage();
    page.on("console", (m) => consoleMessages.push(m.text()));
    page.on("pageerror", (e) => pageErrors.push(e.message));
    return page;
  }

  it("labels three items by keyboard, survives kill -9 and resumes at the first open item", async () => {
    const es = [entry("q1", "One [2]."), entry("q2", "Two."), entry("q3", "Three."), entry("q4", "Four."), entry("q5", "Five.")];
    const w = workspace(es, [judgmentOf(es[0]!, "no", "REASON-ONE: claim not in the context")]);
    const first = await serve(w);
    children.push(first);
    const page = await newPage();
    await page.goto(first.url);
    await atItem(page, 1, 5);
    // No anchoring: the judge's reason is nowhere on the page before answering.
    expect(await page.textContent("body")).not.toContain("REASON-ONE");
    expect(await page.isVisible("#reveal-box")).toBe(false);

    await page.keyboard.press("y");
    await atItem(page, 2, 5);
    await page.fill("#note", "figure is wrong");
    await page.keyboard.press("Escape");
    await page.keyboard.press("n");
    await atItem(page, 3, 5);
    await page.keyboard.press("s");
    await atItem(page, 4, 5);
    await page.keyboard.press("y");
    await atItem(page, 5, 5);
    expect(await page.textContent("#progress-text")).toBe("3 labelled, 1 skipped, 1 to go (of 5)");

    // Back to item 1 with the arrow keys: the label shows, and the judge can now be revealed.
    for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowLeft");
    await atItem(page, 1, 5);
    expect(await page.textContent("#your-label")).toContain("Your label: yes");
    await page.keyboard.press("v");
    await page.waitForSelector("#judge .verdict");
    expect(await page.textContent("#judge")).toContain("REASON-ONE");
    await page.keyboard.press("ArrowRight");
    await atItem(page, 2, 5);
    expect(await page.inputValue("#note")).toBe("figure is wrong");

    const file = join(w.labels, "asha.jsonl");
    const lines = readFileSync(file, "utf8").trim().split("\n").map((l) => Label.parse(JSON.parse(l)));
    expect(lines.map((l) => [l.question, l.label, l.note])).toEqual([["q1", "yes", undefined], ["q2", "no", "figure is wrong"], ["q4", "yes", undefined]]);
    expect(lines.every((l) => l.annotator === "asha" && l.provenance === "human" && l.frame === "random" && l.inclusionProbability === 0.25)).toBe(true);

    // Kill the server hard. An answer now is refused on the page, and nothing is lost or half-written.
    await killHard(first);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("y");
    await page.waitForSelector("#status .error");
    expect(await page.textContent("#status")).toContain("NOT saved");
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(3);
    expect(readFileSync(file, "utf8").endsWith("\n")).toBe(true);

    const second = await serve(w);
    children.push(second);
    await page.goto(second.url);
    await atItem(page, 5, 5);
    expect(await page.textContent("#progress-text")).toBe("3 labelled, 1 skipped, 1 to go (of 5)");
    await page.keyboard.press("n");
    await page.waitForSelector("#done:not([hidden])");
    expect(await page.textContent("#done-text")).toContain("4 of 5 items labelled, 1 skipped");
    // the page names the next command, as the terminal does when the server stops
    const next = `ragjudge calibrate --labels ${w.labels} --judgments ${w.judgments}`;
    expect(await page.textContent("#done .next code")).toBe(next);
    await page.click("#first-skipped");
    await atItem(page, 3, 5);
    await page.keyboard.press("y");
    await page.waitForSelector("#done:not([hidden])");
    await page.click("#finish");
    await page.waitForSelector("#finished:not([hidden])");
    await new Promise<void>((r) => (second.child.exitCode !== null ? r() : second.child.once("exit", () => r())));
    expect(second.child.exitCode).toBe(0);
    expect(second.output()).toContain("Stopped: 5 of 5 labelled, 0 skipped, 0 to go.");
    expect(await page.textContent("#finished .next code")).toBe(next);
    expect(second.output()).toContain(`Next: measure the judge against these labels:\n  ${next}\n`);
    await page.close();
  });

  it("shows HTML and script in item text as text; nothing runs", async () => {
    const payload = (tag: string) =>
      `<script>window.__pwned="${tag}";console.log("PWNED-${tag}")</script><img src=x onerror="window.__pwned='${tag}-img';console.log('PWNED-${tag}-img')"><b onmouseover="console.log('PWNED')">bold</b>`;
    const e = entry("x1", `Answer ${payload("answer")} [1].`, {
      question: `Question ${payload("question")}?`,
      reference: `Reference ${payload("reference")}`,
      chunks: [
        { id: "x-doc#0", text: `Chunk ${payload("chunk")} unused casual leave cannot be carried forward`, heading: `Heading ${payload("heading")}` },
        { id: `x-doc#1<img src=x onerror=console.log('PWNED-id')>`, text: "plain" },
      ],
    });
    const w = workspace([e], [judgmentOf(e, "yes", `Reason ${payload("reason")}`)]);
    const s = await serve(w);
    children.push(s);
    const page = await newPage();
    consoleMessages.length = 0;
    pageErrors.length = 0;
    const response = await page.goto(s.url);
    expect(response!.headers()["content-security-policy"]).toContain("script-src 'self'");
    await atItem(page, 1, 1);
    await page.hover("#answer");
    // Answer, then reveal the judge (whose reason also carries the payload).
    await page.keyboard.press("y");
    await page.waitForSelector("#done:not([hidden])");
    await page.keyboard.press("ArrowLeft");
    await atItem(page, 1, 1);
    await page.keyboard.press("v");
    await page.waitForSelector("#judge .verdict");
    await page.waitForTimeout(300);

    expect(await page.evaluate(() => typeof (globalThis as unknown as { __pwned?: unknown }).__pwned)).toBe("undefined");
    expect(consoleMessages.filter((m) => m.includes("PWNED"))).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(await page.evaluate(() => (globalThis as unknown as { document: PageDocument }).document.querySelectorAll("img, script:not([src]), [onerror], [onmouseover]").length)).toBe(0);
    // The markup is there as visible text.
    expect(await page.textContent("#answer")).toContain('<script>window.__pwned="answer"');
    expect(await page.textContent("#question")).toContain("<img src=x onerror=");
    expect(await page.textContent("#reference")).toContain("<script>");
    expect(await page.textContent("#context")).toContain("Heading <script>");
    expect(await page.textContent("#context")).toContain("x-doc#1<img src=x onerror=console.log('PWNED-id')>");
    expect(await page.textContent("#judge")).toContain("Reason <script>");
    await killHard(s);
    await page.close();
  });

  it("labels the claims of an answer one by one (units c1, c2), script payloads in claim text staying text", async () => {
    const payload = `<script>window.__pwned="claim"</script><img src=x onerror="window.__pwned='claim-img';console.log('PWNED-claim')">`;
    const claims = [`Casual leave lapses ${payload}.`, "You get 40 days a year."];
    const es = claims.map((c, i) => entry("cl", c, { over: { unit: `c${i + 1}` } }));
    const w = workspace(es, [judgmentOf(es[0]!, "yes", "stated"), judgmentOf(es[1]!, "no", "the sources say 12")]);
    const s = await serve(w);
    children.push(s);
    const page = await newPage();
    consoleMessages.length = 0;
    pageErrors.length = 0;
    await page.goto(s.url);
    await atItem(page, 1, 2);
    expect(await page.textContent("#answer-title")).toBe("Claim c1 of the answer: label this claim alone");
    expect(await page.textContent("#rubric-name")).toContain("unit c1");
    expect(await page.textContent("#answer")).toContain("<script>window.__pwned");
    await page.keyboard.press("y");
    await atItem(page, 2, 2);
    expect(await page.textContent("#answer-title")).toBe("Claim c2 of the answer: label this claim alone");
    expect(await page.textContent("#answer")).toBe("You get 40 days a year.");
    await page.keyboard.press("n");
    await page.waitForSelector("#done:not([hidden])");
    expect(await page.evaluate(() => typeof (globalThis as unknown as { __pwned?: unknown }).__pwned)).toBe("undefined");
    expect(consoleMessages.filter((m) => m.includes("PWNED"))).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(await page.evaluate(() => (globalThis as unknown as { document: PageDocument }).document.querySelectorAll("img, script:not([src]), [onerror]").length)).toBe(0);
    const labels = readFileSync(join(w.labels, "asha.jsonl"), "utf8").trim().split("\n").map((l) => Label.parse(JSON.parse(l)));
    expect(labels.map((l) => [l.unit, l.label, l.inputHash])).toEqual([["c1", "yes", es[0]!.inputHash], ["c2", "no", es[1]!.inputHash]]);
    await killHard(s);
    await page.close();
  });

  it("finished early, says how many items are still to go and the command that resumes, not the calibrate command; the terminal says the same", async () => {
    const es = [entry("e1", "One."), entry("e2", "Two."), entry("e3", "Three.")];
    const w = workspace(es);
    const s = await serve(w);
    children.push(s);
    const page = await newPage();
    await page.goto(s.url);
    await atItem(page, 1, 3);
    await page.keyboard.press("y");
    await atItem(page, 2, 3);
    await page.keyboard.press("ArrowRight");
    await atItem(page, 3, 3);
    await page.keyboard.press("ArrowRight");
    await page.waitForSelector("#done:not([hidden])");
    const resume = `ragjudge review ${w.queue} --annotator asha --labels ${w.labels} --judgments ${w.judgments} --rubrics-dir ${w.rubrics}`;
    expect(await page.textContent("#done-title")).toBe("End of the queue");
    expect(await page.textContent("#done-text")).toContain("1 of 3 items labelled, 0 skipped, 2 still to go.");
    expect(await page.isVisible("#done .next")).toBe(false);
    expect(await page.textContent("#done .resume")).toBe(`2 items are still to go. To resume, run this in a terminal:${resume}`);
    await page.click("#finish");
    await page.waitForSelector("#finished:not([hidden])");
    expect(await page.isVisible("#finished .next")).toBe(false);
    expect(await page.textContent("#finished .resume code")).toBe(resume);
    await new Promise<void>((r) => (s.child.exitCode !== null ? r() : s.child.once("exit", () => r())));
    expect(s.child.exitCode).toBe(0);
    expect(s.output()).toContain(`Stopped: 1 of 3 labelled, 0 skipped, 2 to go.\nTo resume, run:\n  ${resume}\n`);
    expect(s.output()).not.toContain("ragjudge calibrate");
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("two tabs label one item yes and no: the second sees the conflict and chooses; both labels stay in the history", async () => {
    const es = [entry("t1", "One."), entry("t2", "Two.")];
    const w = workspace(es);
    const s = await serve(w);
    children.push(s);
    const a = await newPage();
    const b = await newPage();
    await a.goto(s.url);
    await b.goto(s.url);
    await atItem(a, 1, 2);
    await atItem(b, 1, 2);
    await a.keyboard.press("y");
    await atItem(a, 2, 2);
    // Tab B still shows item 1 unlabelled and answers no: nothing is saved, it is told and asked.
    await b.keyboard.press("n");
    await b.waitForSelector("#conflict:not([hidden])");
    expect(await b.textContent("#conflict-text")).toMatch(/^Not saved: while this page showed item 1, it was labelled “yes” at \S+ in another tab or window\.$/);
    expect(await b.textContent("#conflict-keep")).toBe("Keep “yes”");
    expect(await b.textContent("#conflict-mine")).toBe("Save my “no” instead");
    const file = join(w.labels, "asha.jsonl");
    const labels = () => readFileSync(file, "utf8").trim().split("\n").map((l) => Label.parse(JSON.parse(l)).label);
    expect(labels()).toEqual(["yes"]);
    // B chooses its own answer knowingly: saved after A's, which stays in the history.
    await b.click("#conflict-mine");
    await atItem(b, 2, 2);
    expect(labels()).toEqual(["yes", "no"]);
    expect(await b.textContent("#progress-text")).toBe("1 labelled, 0 skipped, 1 to go (of 2)");
    // A answers item 1 again from what it last saw ("yes"): a conflict too; keeping shows B's label.
    await a.keyboard.press("ArrowLeft");
    await atItem(a, 1, 2);
    expect(await a.textContent("#your-label")).toContain("Your label: no");
    await b.keyboard.press("ArrowLeft");
    await atItem(b, 1, 2);
    await b.keyboard.press("y");
    await atItem(b, 2, 2);
    await a.keyboard.press("n");
    await a.waitForSelector("#conflict:not([hidden])");
    await a.click("#conflict-keep");
    await a.waitForFunction(() => (globalThis as unknown as { document: PageDocument }).document.getElementById("status")?.textContent === "Kept the other label.");
    expect(await a.textContent("#your-label")).toContain("Your label: yes");
    expect(await a.isVisible("#conflict")).toBe(false);
    expect(labels()).toEqual(["yes", "no", "yes"]);
    expect(pageErrors).toEqual([]);
    await a.close();
    await b.close();
  });

  it("saves a screenshot of the page (docs/review-screenshot.png with RAGJUDGE_SCREENSHOT=1)", async () => {
    const chunks = [
      { id: "hr-leave#0", heading: "Annual leave", text: "Employees earn 1.5 days of annual leave per month of service. Annual leave may be carried forward up to a maximum of 10 days." },
      { id: "hr-leave#1", heading: "Casual leave", text: "Casual leave is granted for short personal needs, up to 8 days a year. Unused casual leave cannot be carried forward to the next year and lapses on 31 December." },
      { id: "hr-holidays#2", heading: "Restricted holidays", text: "Two restricted holidays may be chosen from the published list each year." },
    ];
    const e = entry("hr-07", "No. Unused casual leave lapses at the end of the year [2]. You can, however, carry forward up to 10 days of annual leave [1].", {
      question: "Can I carry forward unused casual leave?",
      reference: "No. Unused casual leave cannot be carried to the next year.",
      chunks,
      over: { citedIds: ["hr-leave#1", "hr-leave#0"], anchor: { doc: "hr-leave", text: "Unused casual leave cannot be carried forward to the next year" }, kind: "factual", tags: ["policy", "english"] },
    });
    const w = workspace([entry("hr-01", "Yes [1]."), e, entry("hr-09", "Twelve days [1].")]);
    const s = await serve(w);
    children.push(s);
    const page = await newPage();
    await page.setViewportSize({ width: 1280, height: 820 });
    await page.goto(s.url);
    await atItem(page, 1, 3);
    await page.keyboard.press("y");
    await atItem(page, 2, 3);
    expect(await page.textContent("#status")).toBe("Saved \u201cyes\u201d for item 1.");
    const target = process.env.RAGJUDGE_SCREENSHOT ? join(ROOT, "docs", "review-screenshot.png") : join(tempDir("ragjudge-shot-"), "review.png");
    mkdirSync(resolve(target, ".."), { recursive: true });
    await page.screenshot({ path: target });
    expect(readFileSync(target).subarray(1, 4).toString()).toBe("PNG");
    await killHard(s);
    await page.close();
  });
}
