/**
 * Headlines tell the truth (issue 12). A judge that says yes to everything,
 * calibrated on 9 agreeing labels of one recorded draw: every report opens
 * with the search-or-answering verdict, and no untrusted rubric's figure is
 * a headline (a card, large type, a point beyond the kappa threshold line);
 * the gate badge says what it checked and is not green; PPI from 9 labels is
 * flagged not informative. The HTML is checked in real Chromium.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runEvaluation, type EvaluationResult } from "../../src/report/evaluation.js";
import { CHROMIUM_LAUNCH, describeInChromium } from "../helpers/chromium.js";
import { labelRandomDraw } from "../helpers/labelling.js";
import { startOpenAIServer, type TestServer } from "../server/openai-server.js";
import { exampleCopy } from "./helpers.js";

let server: TestServer;
let result: EvaluationResult;

beforeAll(async () => {
  server = await startOpenAIServer({ script: () => ({ verdict: "yes", reason: "looks right to me" }) });
  const copy = exampleCopy((c) => (c.judge = { kind: "openai", model: "yes-judge", baseUrl: server.baseURL, concurrency: 8 }));
  const first = await runEvaluation({ config: copy.config, cacheDir: join(copy.dir, "cache") });
  await labelRandomDraw({ config: copy.config, dir: copy.dir, judgments: join(first.folder, "judgments.jsonl"), labels: copy.labels, rubrics: "correctness", split: "heldout", random: 9 });
  result = await runEvaluation({ config: copy.config, cacheDir: join(copy.dir, "cache"), evaluationsDir: join(copy.dir, "second") });
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe("the reports of a yes-to-everything judge", () => {
  it("keep every rubric untrusted and flag PPI from 9 labels as not informative", () => {
    expect(result.report.gate.untrusted).toEqual(["citation-accuracy", "correctness", "faithfulness", "not-found"]);
    const correctness = result.report.rubrics.find((r) => r.rubric === "correctness")!;
    expect(correctness.calibration!.n).toBe(9);
    expect(correctness.trust.draws).toEqual([expect.objectContaining({ drawn: 9, labelled: 9, counts: true })]);
    const ppis = correctness.variants.map((v) => v.ppi);
    expect(ppis.every((p) => p.estimate === 1 && p.uninformative !== null)).toBe(true);
    expect(ppis[0]!.uninformative).toMatch(/^only \d labelled items? \(PPI needs 30\), and its interval has zero width/);
    expect(result.summary).toMatch(/100\.0% \(interval not informative\)/);
    expect(result.summary).toMatch(/PPI interval not informative: only \d labelled item/);
  });

  it("open with the search-or-answering verdict, undecided, and show no untrusted figure in the Markdown headline", () => {
    const md = readFileSync(join(result.folder, "report.md"), "utf8");
    const head = md.slice(0, md.indexOf("## Search or answering"));
    expect(head).toMatch(/\*\*Verdict:\*\*\n\n- \*\*untrusted\*\* bm25-small: not decided: the answer verdicts rest on untrusted rubrics \(correctness, faithfulness, not-found\); retrieval alone: a relevant chunk reached the context for \d+ of 48 answerable questions/);
    expect(head).not.toMatch(/answers ok|%|generation failures/);
    expect(head).toContain("Gate: PASS (floors only; trust not required; 4 rubrics untrusted).");
    // a PR comment names where the rubrics came from, not a path on the machine that ran it
    expect(md).toContain("- rubrics: citation-accuracy, correctness, faithfulness, not-found from rubrics/ (beside the config)\n");
    const verdict = result.summary.indexOf("verdict: (untrusted) bm25-small: not decided");
    expect(verdict).toBeGreaterThan(0);
    expect(verdict).toBeLessThan(result.summary.indexOf("Search or answering"));
    expect(result.summary).toContain("checked: floors only; trust not required");
    expect(result.report.gate).toMatchObject({ badge: "partial", checked: "floors only; trust not required" });
  });
});

describeInChromium("The HTML headline of a yes-to-everything judge", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch(CHROMIUM_LAUNCH);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows the verdict first and no untrusted figure as a headline: no card, no large type, no point beyond the threshold line", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(pathToFileURL(join(result.folder, "report.html")).href);
    const seen = await page.evaluate(() => {
      type El = { textContent: string | null; className: string; id: string; getAttribute(n: string): string | null; querySelectorAll(s: string): ArrayLike<El> };
      const doc = (globalThis as unknown as { document: { querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El> } }).document;
      const text = (s: string) => Array.from(doc.querySelectorAll(s)).map((e) => (e.textContent ?? "").replace(/\s+/g, " ").trim());
      const styleOf = (e: El) => (globalThis as unknown as { getComputedStyle(e: El): { backgroundColor: string; fontSize: string } }).getComputedStyle(e);
      const main = doc.querySelector("main")!;
      const badge = doc.querySelector(".card h3 .badge")!;
      const kappa = doc.querySelector('svg[data-chart="kappa"]')!;
      return {
        first: Array.from(main.querySelectorAll(":scope > *"))[0]!.id,
        verdict: text("#verdict li"),
        cards: text(".card"),
        big: text(".big"),
        largeFonts: Array.from(doc.querySelectorAll("main *")).filter((e) => Number.parseFloat(styleOf(e).fontSize) >= 20).map((e) => (e.textContent ?? "").trim()),
        badge: { text: badge.textContent, cls: badge.className, bg: styleOf(badge).backgroundColor },
        kappaMarks: kappa.querySelectorAll("circle, line.interval").length,
        kappaText: Array.from(kappa.querySelectorAll("text")).map((t) => t.textContent),
      };
    });
    expect(seen.first).toBe("verdict");
    expect(seen.verdict).toHaveLength(2);
    for (const v of seen.verdict) expect(v).toMatch(/^untrusted (bm25-small|hybrid-rerank): not decided: the answer verdicts rest on untrusted rubrics/);
    // Every rubric is untrusted, and every one of its rates is 100.0%: none may appear in a card or in large type.
    for (const c of seen.cards) {
      expect(c).not.toMatch(/\d%|answers ok|correct “not found”|generation failures/);
    }
    for (const b of [...seen.big, ...seen.largeFonts]) expect(b).not.toMatch(/%|answers|100\.0/);
    expect(seen.big.some((b) => /^0 of 4 rubrics trusted$/.test(b))).toBe(true);
    // The badge says what it checked, and is amber, not green.
    expect(seen.badge.text).toBe("PASS: floors only; trust not required");
    expect(seen.badge.cls).toBe("badge partial");
    expect(seen.badge.bg).not.toBe("rgb(220, 252, 231)"); // --ok-bg
    // The kappa chart draws no untrusted rubric: no point, no interval; each row says why.
    expect(seen.kappaMarks).toBe(0);
    expect(seen.kappaText.filter((t) => t?.startsWith("untrusted: "))).toHaveLength(4);
    expect(problems).toEqual([]);
    await page.close();
  });
});
