/**
 * The HTML report's item explorer under claim-level faithfulness, in
 * headless Chromium: an item's detail lists its claims with their verdicts
 * and reasons, the unsupported one named, and a script payload in a claim
 * stays text.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runEvaluation, type EvaluationResult } from "../../src/report/evaluation.js";
import { CHROMIUM_LAUNCH, describeInChromium } from "../helpers/chromium.js";
import { ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

describeInChromium("HTML report's claims", claimTests);

const XSS = `<img src=x onerror="document.title='owned'"><script>document.title='owned'</script>`;

function claimTests(): void {
  let browser: Browser;
  let run: EvaluationResult;
  beforeAll(async () => {
    const dir = tempDir("ragjudge-claims-html-");
    const w = (name: string, rows: unknown[]) => writeFileSync(join(dir, name), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    w("golden.jsonl", [{ id: "q1", question: "Can I carry casual leave forward?", relevant: ["hr#0"] }]);
    w("chunks.jsonl", [{ id: "hr#0", doc: "hr", heading: "Casual leave", text: "Unused casual leave lapses on 31 December. Employees get 12 days of casual leave per year." }]);
    w("output.jsonl", [{ id: "q1", retrieved: ["hr#0"], answer: `Unused casual leave lapses on 31 December [1]. Employees get 12 days of casual leave per year [1]. The canteen serves free dinner ${XSS} on Fridays.` }]);
    const config = join(dir, "ragjudge.config.json");
    writeFileSync(config, JSON.stringify({ name: "claims-html", golden: "golden.jsonl", variants: [{ name: "v", output: "output.jsonl", chunks: "chunks.jsonl" }], rubricsDir: join(ROOT, "rubrics"), rubrics: ["faithfulness"], labels: "labels", judge: { kind: "baseline" }, faithfulnessUnit: "claim" }));
    [browser, run] = await Promise.all([chromium.launch(CHROMIUM_LAUNCH), runEvaluation({ config, cacheDir: join(dir, "cache") })]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("lists each claim of the opened item with its verdict, the unsupported one named, payloads inert", async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(pathToFileURL(join(run.folder, "report.html")).href);
    await page.locator("#rj-table button.qid", { hasText: "q1" }).click();
    const detail = page.locator("#rj-detail");
    await expect.poll(() => detail.textContent()).toContain("Claims (1 of 3 unsupported), each checked against the context below");
    const text = (await detail.textContent())!;
    expect(text).toContain("Unused casual leave lapses on 31 December.");
    expect(text).toContain(`The canteen serves free dinner ${XSS} on Fridays.`);
    expect(text).toContain("UNSUPPORTED");
    expect(text).toContain('unsupported: c3: "The canteen serves free dinner');
    expect(await page.title()).not.toBe("owned");
    expect(await page.locator("#rj-detail img").count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
}
