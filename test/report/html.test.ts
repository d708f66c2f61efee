/**
 * The self-contained HTML report in headless Chromium (Debian's `chromium`
 * through playwright-core, as the review page's tests launch it). Where
 * /usr/bin/chromium is missing they skip with a one-line reason, unless CI is
 * set: then they fail (test/helpers/chromium.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Judgment } from "../../src/golden/schema/items.js";
import { runEvaluation, type EvaluationResult } from "../../src/report/evaluation.js";
import { CHROMIUM_LAUNCH, describeInChromium } from "../helpers/chromium.js";
import { tempDir } from "../helpers/temp.js";
import { exampleCopy, ROOT } from "./helpers.js";

describeInChromium("HTML report", browserTests);

/** The little of the DOM the tests read (the project's TypeScript has no DOM types). */
interface Doc {
  querySelectorAll(s: string): ArrayLike<{ getBoundingClientRect(): { width: number; height: number }; getAttribute(n: string): string | null }>;
  body: { textContent: string | null };
}

const HOSTILE_TAG = `<img src=x onerror="document.title='owned'">`;

/** An evaluation of the example with labels for two rubrics (so confusion matrices and kappa show) and hostile text in the golden set. */
async function labelledEvaluation(): Promise<EvaluationResult> {
  const copy = exampleCopy((c) => (c.name = "example-<script>alert(1)</script>"));
  const golden = join(copy.dir, "golden", "questions.jsonl");
  const lines = readFileSync(golden, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { tags: string[] });
  lines[0]!.tags.push(HOSTILE_TAG);
  writeFileSync(golden, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const first = await runEvaluation({ config: copy.config, evaluationsDir: join(copy.dir, "first") });
  const judgments = readFileSync(join(first.folder, "judgments.jsonl"), "utf8").trim().split("\n").map((l) => Judgment.parse(JSON.parse(l)));
  const labels = judgments
    .filter((j) => (j.rubric === "faithfulness" || j.rubric === "correctness") && j.judge !== "rule")
    .map((j, i) => ({ variant: j.variant, question: j.question, rubric: j.rubric, unit: j.unit, inputHash: j.inputHash, label: i % 9 === 4 ? (j.verdict === "yes" ? "no" : "yes") : j.verdict, annotator: "test-author", provenance: "author", frame: "random", time: "2026-11-30T10:00:00Z" }));
  writeFileSync(join(copy.labels, "test-author.jsonl"), labels.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return runEvaluation({ config: copy.config });
}

function browserTests(): void {
  let browser: Browser;
  let result: EvaluationResult;

  beforeAll(async () => {
    [browser, result] = await Promise.all([
      chromium.launch(CHROMIUM_LAUNCH),
      labelledEvaluation(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(file: string): Promise<{ page: Page; problems: string[]; requests: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    const requests: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(file).href);
    return { page, problems, requests };
  }

  it("renders every chart with a size, with no console error and no request but the page itself", async () => {
    const file = join(result.folder, "report.html");
    const { page, problems, requests } = await open(file);
    const charts = await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: Doc }).document;
      return Array.from(doc.querySelectorAll("svg[data-chart]")).map((e) => {
        const r = e.getBoundingClientRect();
        return { id: e.getAttribute("data-chart"), width: r.width, height: r.height };
      });
    });
    const ids = charts.map((c) => c.id);
    // 2 cross-tabs, 4 retrieval measures, 2 failure-kind charts, kappa, 2 confusion matrices, 4 pass-rate charts
    expect(charts.length).toBeGreaterThanOrEqual(15);
    for (const id of ["search-or-answer-bm25-small", "search-or-answer-hybrid-rerank", "retrieval-r-10", "retrieval-rr", "failure-kinds-bm25-small", "kappa"]) expect(ids).toContain(id);
    expect(ids.filter((id) => id!.startsWith("confusion-"))).toHaveLength(2);
    expect(ids.filter((id) => id!.startsWith("pass-rates-"))).toHaveLength(4);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of charts) {
      expect(c.width, c.id!).toBeGreaterThan(50);
      expect(c.height, c.id!).toBeGreaterThan(20);
    }
    expect(problems).toEqual([]);
    expect(requests).toEqual([pathToFileURL(file).href]);
    expect(await page.title()).toContain("example-<script>alert(1)</script>");
    await page.close();
  });

  it("escapes user text: a tag holding HTML shows as text, never as an element", async () => {
    const html = readFileSync(join(result.folder, "report.html"), "utf8");
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toContain("<img");
    // The only scripts: the explorer's JSON data blocks and its one inline script.
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts.filter((a) => a !== "").every((a) => /^ type="application\/(json|gzip)" id="rj-[a-z0-9-]+"$/.test(a!))).toBe(true);
    expect(scripts.filter((a) => a === "")).toHaveLength(1);
    const { page, problems } = await open(join(result.folder, "report.html"));
    const found = await page.evaluate((tag) => {
      const doc = (globalThis as unknown as { document: Doc }).document;
      return { imgs: doc.querySelectorAll("img").length, code: doc.querySelectorAll("script:not([type])").length, text: (doc.body.textContent ?? "").includes(tag) };
    }, HOSTILE_TAG);
    expect(found).toEqual({ imgs: 0, code: 1, text: true });
    expect(await page.title()).not.toBe("owned");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("writes junit.xml that a strict XML parser accepts, with the suites CI dashboards read", async () => {
    const xml = readFileSync(join(result.folder, "junit.xml"), "utf8");
    const { page } = await open(join(result.folder, "report.html"));
    const parsed = await page.evaluate((text) => {
      const g = globalThis as unknown as { DOMParser: new () => { parseFromString(t: string, m: string): { getElementsByTagName(n: string): ArrayLike<{ getAttribute(n: string): string | null }> } } };
      const doc = new g.DOMParser().parseFromString(text, "application/xml");
      const suites = Array.from(doc.getElementsByTagName("testsuite")).map((s) => [s.getAttribute("name"), s.getAttribute("tests"), s.getAttribute("failures"), s.getAttribute("skipped")]);
      return { errors: doc.getElementsByTagName("parsererror").length, suites, cases: doc.getElementsByTagName("testcase").length };
    }, xml);
    expect(parsed.errors).toBe(0);
    expect(parsed.suites).toEqual([
      ["retrieval floors", "4", "0", "0"],
      ["trust gate", "4", "0", String(result.report.rubrics.filter((r) => !r.trust.trusted).length)],
      ["search or answering", "2", "0", "0"],
    ]);
    expect(parsed.cases).toBe(10);
    await page.close();
  });

  it("saves a screenshot of the example's report (docs/report-screenshot.png with RAGJUDGE_SCREENSHOT=1)", async () => {
    // The shipped example as it is, with the repository's own labels.
    const evaluations = tempDir("ragjudge-shot-");
    const shipped = await runEvaluation({ config: join(ROOT, "ragjudge.config.json"), evaluationsDir: evaluations });
    const { page, problems } = await open(join(shipped.folder, "report.html"));
    await page.setViewportSize({ width: 1280, height: 1100 });
    const target = process.env.RAGJUDGE_SCREENSHOT ? join(ROOT, "docs", "report-screenshot.png") : join(evaluations, "report.png");
    mkdirSync(resolve(target, ".."), { recursive: true });
    await page.screenshot({ path: target });
    expect(readFileSync(target).subarray(1, 4).toString()).toBe("PNG");
    expect(problems).toEqual([]);
    await page.close();
  });
}
