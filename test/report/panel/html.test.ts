/**
 * The judge panel's section of report.html in headless Chromium: the table
 * per rubric, the agreement lines and the recommendation render, the table
 * of contents links to it, and nothing is requested but the page.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runEvaluation, type EvaluationResult } from "../../../src/report/evaluation.js";
import { CHROMIUM_LAUNCH, describeInChromium } from "../../helpers/chromium.js";
import { ROOT } from "../../helpers/paths.js";
import { tempDir } from "../../helpers/temp.js";

interface El {
  textContent: string | null;
  getBoundingClientRect(): { width: number; height: number };
  querySelectorAll(s: string): ArrayLike<El>;
  getAttribute(n: string): string | null;
}
interface Doc {
  querySelector(s: string): El | null;
  querySelectorAll(s: string): ArrayLike<El>;
}

describeInChromium("the judge panel section", () => {
  let browser: Browser;
  let result: EvaluationResult;
  beforeAll(async () => {
    const dir = tempDir();
    [browser, result] = await Promise.all([
      chromium.launch(CHROMIUM_LAUNCH),
      runEvaluation({ config: join(ROOT, "ragjudge.panel.config.json"), evaluationsDir: join(dir, "evals"), cacheDir: join(dir, "cache") }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows every rubric's judges side by side with the recommendation", async () => {
    const file = join(result.folder, "report.html");
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    const requests: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(file).href);
    const seen = await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: Doc }).document;
      const section = doc.querySelector("section#panel")!;
      const r = section.getBoundingClientRect();
      const tables = Array.from(section.querySelectorAll("table")).map((t) => Array.from(t.querySelectorAll("tbody tr")).map((tr) => tr.querySelectorAll("td")[0]!.textContent));
      return {
        width: r.width, height: r.height, tables,
        heads: Array.from(section.querySelectorAll("h3")).map((h) => h.textContent),
        recs: Array.from(section.querySelectorAll(".panel-recommendation")).map((p) => p.textContent),
        toc: Array.from(doc.querySelectorAll("nav.toc a")).map((a) => a.getAttribute("href")),
      };
    });
    expect(seen.width).toBeGreaterThan(300);
    expect(seen.height).toBeGreaterThan(200);
    expect(seen.heads.sort()).toEqual(["citation-accuracy", "correctness", "faithfulness", "not-found"]);
    for (const t of seen.tables) expect(t).toEqual(["lexical", "always-yes", "lexical-cascade"]);
    expect(seen.recs).toHaveLength(4);
    for (const r of seen.recs) expect(r).toMatch(/^(cheapest trusted judge|no judge is trusted; closest): /);
    expect(seen.toc).toContain("#panel");
    expect(problems).toEqual([]);
    expect(requests).toEqual([pathToFileURL(file).href]);
    await page.close();
  });
});
